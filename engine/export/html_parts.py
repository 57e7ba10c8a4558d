"""The parts the HTML map export and the phone page share: where the resources are, JSON that is
inert inside a page, the basemap of the trip's region, the vendored scripts and the page's
Content-Security-Policy.

JSON is written with ``<``, ``>`` and ``&`` as ``\\u003c`` etc. (``json_text``), so no text can close
its ``<script type="application/json">`` block; ``with_csp`` allows exactly the page's own script
blocks (by hash), no inline handlers and no network.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from functools import lru_cache
from pathlib import Path

_HERE = Path(__file__).resolve().parent
RESOURCES_DIR = _HERE.parents[1] / "resources"
BASEMAP_DIR = RESOURCES_DIR / "basemap"
REGION_MARGIN_DEG = 20.0  # around the trip; the reader cannot pan or zoom out beyond it
_SCRIPT_BLOCK = re.compile(r"<script>(.*?)</script>", re.S)
# JSON is valid JS and HTML-inert once these are escapes (ensure_ascii covers U+2028/U+2029).
_JSON_ESCAPES = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def json_text(value: object) -> str:
    """JSON safe inside a ``<script>`` element: no ``<``, ``>``, ``&``, U+2028/U+2029 or non-ASCII."""
    return json.dumps(value, ensure_ascii=True, separators=(",", ":")).translate(_JSON_ESCAPES)


def json_block(element_id: str, value: object) -> str:
    """``value`` as the page's ``<script type="application/json">`` block of id ``element_id``."""
    return f'<script type="application/json" id="{element_id}">{json_text(value)}</script>'


def region(bounds: list[list[float]] | None) -> list[list[float]] | None:
    """The part of the world the page lets the reader see: the trip with a wide margin."""
    if bounds is None:
        return None
    (south, west), (north, east) = bounds
    lat_pad, lon_pad = max(REGION_MARGIN_DEG, north - south), max(REGION_MARGIN_DEG, east - west)
    return [[round(max(south - lat_pad, -85.0), 4), round(max(west - lon_pad, -180.0), 4)],
            [round(min(north + lat_pad, 85.0), 4), round(min(east + lon_pad, 180.0), 4)]]


def basemap_block(region: list[list[float]] | None, focus: list[list[float]] | None = None) -> str:
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
    return json_block("tw-basemap", {"region": region, **layers}) if layers else ""


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


def leaflet_dir() -> Path:
    """The vendored Leaflet (the ``xstatic`` package's copy)."""
    import xstatic.pkg.leaflet as leaflet
    return Path(leaflet.BASE_DIR)


def vendored_script(path: Path) -> str:
    """A vendored script's source, without its source-map comment (it would only make devtools
    fetch a file that is not there)."""
    text = path.read_text(encoding="utf-8")
    return re.sub(r"\n//# sourceMappingURL=\S+\s*$", "\n", text)


@lru_cache(maxsize=8)
def asset(name: str) -> str:
    """A page's own script or stylesheet, next to this module (``html_map.js``, ``phone.css``...)."""
    return (_HERE / name).read_text(encoding="utf-8")


@lru_cache(maxsize=4)
def renderer(name: str) -> str:
    """The map renderer the app loads from ``resources/`` too."""
    return (RESOURCES_DIR / name).read_text(encoding="utf-8")


def with_csp(page: str) -> str:
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
