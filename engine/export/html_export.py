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

from functools import lru_cache

from engine.models import ItineraryV1

from ._bookings import masked_itinerary
from .html_document import map_document
from .html_parts import asset, basemap_block, json_block, json_text, leaflet_dir, region, renderer, vendored_script, with_csp

__all__ = ["COST_PARTS", "COSTS_CSS", "cost_rows", "itinerary_to_html", "json_text"]


def itinerary_to_html(itin: ItineraryV1) -> str:
    from ._folium_skeleton import OfflineMap, RawText

    document = map_document(masked_itinerary(itin))  # a page to share: booking codes masked
    fmap = OfflineMap(location=_centre(document["focus"]), zoom_start=_zoom(document), tiles=None,
                      control_scale=True, zoom_snap=0.25)
    root = fmap.get_root()
    root.header.add_child(RawText(_head()), name="tw_head", index=0)
    root.html.add_child(RawText('<aside id="tw-itinerary"></aside>'), name="tw_itinerary", index=0)
    root.html.add_child(RawText(json_block("tw-data", document)), name="tw_data")
    root.html.add_child(RawText(json_block("tw-costs", cost_rows(itin))), name="tw_costs")
    basemap = basemap_block(region(document["focus"]), document["focus"])
    if basemap:
        root.html.add_child(RawText(basemap), name="tw_basemap")
    # One script block: the shared renderer, then the page's own part (it runs once parsed).
    root.script.add_child(RawText(renderer("trip_map.js") + "\n" + asset("html_map.js") + "\n"
                                  + asset("html_costs.js")), name="tw_script")
    return with_csp(root.render())


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


@lru_cache(maxsize=1)
def _head() -> str:
    leaflet = leaflet_dir()
    css = leaflet.joinpath("leaflet.css").read_text(encoding="utf-8")
    return (f"<title>Tripwright trip map</title>\n<style>{css}</style>\n"
            f"<style>{renderer('trip_map.css')}</style>\n<style>{asset('html_map.css')}{COSTS_CSS}</style>\n<script>{vendored_script(leaflet / 'leaflet.js')}</script>\n")
