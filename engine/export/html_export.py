"""A standalone HTML map of an itinerary: one file that works offline and never runs a place name.

folium builds the page skeleton (the map div and the ``L.map`` call); Leaflet, the Natural Earth
outlines of the trip's region (and a fixture city's GSHHG water; the city pack's own map is in the
document), the app's own map renderer (``resources/trip_map.js`` and
``trip_map.css``, the same that draws the app's map) and the page's list script are inlined, so
nothing is fetched. The trip reaches the page
only as JSON in ``<script type="application/json">`` blocks (``<``, ``>`` and ``&`` written as
``\\u003c`` etc., so no text can close the block); ``trip_map.js`` draws the map document and
``html_map.js`` adds the itinerary list, with DOM nodes and ``textContent``. No user text is
ever part of JS source, HTML markup or a Jinja template. As a second fence a Content-Security-
Policy allows only the page's own scripts (by hash), no inline handlers and no network.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from functools import lru_cache
from pathlib import Path

from engine.models import ItineraryV1

from ._bookings import masked_itinerary
from .html_document import map_document

_HERE = Path(__file__).resolve().parent
RESOURCES_DIR = _HERE.parents[1] / "resources"
BASEMAP_DIR = RESOURCES_DIR / "basemap"
REGION_MARGIN_DEG = 20.0  # around the trip; the reader cannot pan or zoom out beyond it
_SCRIPT_BLOCK = re.compile(r"<script>(.*?)</script>", re.S)
# JSON is valid JS and HTML-inert once these are escapes (ensure_ascii covers U+2028/U+2029).
_JSON_ESCAPES = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def itinerary_to_html(itin: ItineraryV1) -> str:
    from ._folium_skeleton import OfflineMap, RawText

    document = map_document(masked_itinerary(itin))  # a page to share: booking codes masked
    fmap = OfflineMap(location=_centre(document["focus"]), zoom_start=_zoom(document), tiles=None,
                      control_scale=True, zoom_snap=0.25)
    root = fmap.get_root()
    root.header.add_child(RawText(_head()), name="tw_head", index=0)
    root.html.add_child(RawText('<aside id="tw-itinerary"></aside>'), name="tw_itinerary", index=0)
    root.html.add_child(RawText(_json_block("tw-data", document)), name="tw_data")
    root.html.add_child(RawText(_json_block("tw-costs", cost_rows(itin))), name="tw_costs")
    basemap = _basemap_block(_region(document["focus"]), document["focus"])
    if basemap:
        root.html.add_child(RawText(basemap), name="tw_basemap")
    # One script block: the shared renderer, then the page's own part (it runs once parsed).
    root.script.add_child(RawText(_renderer("trip_map.js") + "\n" + _asset("html_map.js") + "\n"
                                  + _asset("html_costs.js")), name="tw_script")
    return _with_csp(root.render())


# The cost breakdown's parts, in the order and words of the PDF and the app's Costs tab.
COST_PARTS = (("flights", "Flights"), ("lodging", "Lodging"), ("attractions", "Attractions"), ("meals", "Meals"),
              ("transit", "Transit / fuel"), ("daily_spend", "Daily allowance"))


COSTS_CSS = """
.tw-costs { margin-top: 12px; }
.tw-costs h2 { font-size: 14px; margin: 0 0 4px; }
.tw-cost-table { border-collapse: collapse; width: 100%; }
.tw-cost-table td { padding: 1px 0; }
.tw-cost-amount { text-align: right; font-variant-numeric: tabular-nums; }
.tw-cost-total td { font-weight: bold; border-top: 1px solid #c9ced6; }
"""


def cost_rows(itin: ItineraryV1) -> dict:
    """The page's cost breakdown: each part that costs something ("est." when estimated), the total,
    the budget and what is left when the trip has one, and the currency note."""
    from engine.models import format_usd

    costs = itin.cost_breakdown
    estimated = set(costs.estimated_parts)
    rows = [{"kind": "part", "label": label + (" (est.)" if key in estimated else ""),
             "amount": format_usd(getattr(costs, f"{key}_usd_cents"))}
            for key, label in COST_PARTS if getattr(costs, f"{key}_usd_cents")]
    rows.append({"kind": "total", "label": "Total", "amount": format_usd(costs.total_usd_cents)})
    budget = getattr(itin.intent, "budget_usd_cents", None)
    if budget:
        rows.append({"kind": "budget", "label": "Budget", "amount": format_usd(budget)})
        rows.append({"kind": "left", "label": "Left", "amount": format_usd(budget - costs.total_usd_cents)})
    return {"rows": rows, "note": costs.currency_disclaimer or ""}


def _centre(bounds: list[list[float]] | None) -> tuple[float, float]:
    if bounds is None:
        return (20.0, 0.0)
    return ((bounds[0][0] + bounds[1][0]) / 2, (bounds[0][1] + bounds[1][1]) / 2)


def _zoom(document: dict) -> int:
    """Where the map starts before the page fits it to the trip (or stays, with nothing located)."""
    if document["focus"] is None:
        return 2
    return 5 if document["mode"] == "road_trip" else 12


def json_text(value: object) -> str:
    """JSON safe inside a ``<script>`` element: no ``<``, ``>``, ``&``, U+2028/U+2029 or non-ASCII."""
    return json.dumps(value, ensure_ascii=True, separators=(",", ":")).translate(_JSON_ESCAPES)


def _json_block(element_id: str, value: object) -> str:
    return f'<script type="application/json" id="{element_id}">{json_text(value)}</script>'


def _region(bounds: list[list[float]] | None) -> list[list[float]] | None:
    """The part of the world the page lets the reader see: the trip with a wide margin."""
    if bounds is None:
        return None
    (south, west), (north, east) = bounds
    lat_pad, lon_pad = max(REGION_MARGIN_DEG, north - south), max(REGION_MARGIN_DEG, east - west)
    return [[round(max(south - lat_pad, -85.0), 4), round(max(west - lon_pad, -180.0), 4)],
            [round(min(north + lat_pad, 85.0), 4), round(min(east + lon_pad, 180.0), 4)]]


def _basemap_block(region: list[list[float]] | None, focus: list[list[float]] | None = None) -> str:
    """The Natural Earth outlines that meet ``region`` and the city-zoom water (GSHHG, around the
    fixture cities) that meets the trip's own ``focus`` (whole features: nothing in it is cut), or
    "" when none do or the files are not installed. A Paris page carries Europe, not the world,
    and Paris's water, not Rome's."""
    import shapely

    layers = {}
    for name, (geometries, features) in _basemap_features().items():
        within = focus if name == "water" else region
        if within is None:
            kept = [] if name == "water" else features
        else:
            (south, west), (north, east) = within
            meets = shapely.intersects(geometries, shapely.box(west, south, east, north))
            kept = [feature for feature, keep in zip(features, meets) if keep]
        if kept:
            layers[name] = {"type": "FeatureCollection", "features": kept}
    return _json_block("tw-basemap", {"region": region, **layers}) if layers else ""


@lru_cache(maxsize=1)
def _basemap_features() -> dict[str, tuple[object, list[dict]]]:
    """Each basemap layer's shapely geometries (an array) and GeoJSON features, read once.

    Geometries, not bounding boxes: the United States' box spans every longitude (the Aleutians
    cross 180°), yet its land is nowhere near Paris.
    """
    import numpy as np
    from shapely.geometry import shape

    layers = {}
    for name in ("countries", "admin1", "water"):
        path = BASEMAP_DIR / f"{name}.geojson"
        if path.is_file():
            features = json.loads(path.read_text(encoding="utf-8"))["features"]
            layers[name] = (np.array([shape(f["geometry"]) for f in features]), features)
    return layers


@lru_cache(maxsize=1)
def _head() -> str:
    leaflet = _leaflet_dir()
    css = leaflet.joinpath("leaflet.css").read_text(encoding="utf-8")
    return (f"<title>Tripwright trip map</title>\n<style>{css}</style>\n"
            f"<style>{_renderer('trip_map.css')}</style>\n<style>{_asset('html_map.css')}{COSTS_CSS}</style>\n<script>{_script(leaflet / 'leaflet.js')}</script>\n")


def _leaflet_dir() -> Path:
    import xstatic.pkg.leaflet as leaflet
    return Path(leaflet.BASE_DIR)


def _script(path: Path) -> str:
    # The source-map comment would only make devtools fetch a file that is not there.
    text = path.read_text(encoding="utf-8")
    return re.sub(r"\n//# sourceMappingURL=\S+\s*$", "\n", text)


@lru_cache(maxsize=4)
def _asset(name: str) -> str:
    return (_HERE / name).read_text(encoding="utf-8")


@lru_cache(maxsize=4)
def _renderer(name: str) -> str:
    """The map renderer the app loads from ``resources/`` too."""
    return (RESOURCES_DIR / name).read_text(encoding="utf-8")


def _with_csp(page: str) -> str:
    """Allow exactly the page's own script blocks (by hash); no inline handlers, no network.

    Hashes are taken from the rendered page, after the HTML parser's one rewrite (CR LF → LF).
    """
    page = page.replace("\r\n", "\n").replace("\r", "\n")
    hashes = " ".join(f"'sha256-{_sha256(body)}'" for body in _SCRIPT_BLOCK.findall(page))
    policy = (f"default-src 'none'; script-src {hashes}; style-src 'unsafe-inline'; img-src data:; "
              "base-uri 'none'; form-action 'none'")
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
    return page.replace("<head>", "<head>\n" + meta, 1)


def _sha256(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
