"""Issue 32 §3 and §5 on a road trip's rows: a stop with published hours shows them ("open 7–15",
Lou Mitchell's in Chicago), a stop without them is marked "hours unknown", and a diner or a café on
the way is a meal — labelled "Meal" in the itinerary and drawn as a meal on the map — not a "Sight".
Renders the panel offscreen to /tmp/itinerary-road-stops.png."""

from __future__ import annotations

from datetime import date
from functools import lru_cache

from engine.maps.map_document import build_map_document
from engine.models import ChoiceKind, ItineraryV1
from engine.models.road_trip import RoadTripIntent
from engine.roadtrip.integrity import TOWN_WALKS
from engine.roadtrip.routes import find_route
from tests.widgets.test_map_layers import _plan
from widgets.itinerary_panel import ItineraryModel, ItineraryPanel


@lru_cache(maxsize=1)
def westward_slow() -> ItineraryV1:
    """Route 66 from Los Angeles to Chicago in 12 days: the last day reaches Chicago early enough for
    Lou Mitchell's (a diner open 07:00–15:00 by route66.json) before it closes."""
    return _plan(RoadTripIntent(origin="Los Angeles", terminus="Chicago", days=12, start_date=date(2027, 5, 3),
                                route="Route 66"))


def _visits(itinerary: ItineraryV1):
    return [a for d in itinerary.days for a in d.activities if a.role == "activity"]


def _what(model: ItineraryModel, activity) -> str:
    return model.activity_index(activity.id, ItineraryModel.COL_NAME).data()


def test_a_road_stop_shows_its_published_hours_and_only_an_unpublished_one_says_unknown(qtbot) -> None:
    itinerary = westward_slow()
    model = ItineraryModel()
    model.set_itinerary(itinerary)
    route = find_route("Route 66")
    published = {p.id for p in route.pois if p.opening_hours}
    lou = next(a for a in _visits(itinerary) if a.ref == "lou_mitchells")
    assert "Open 07:00\u201315:00 on Fri 14 May 2027 (published hours)" in lou.notes  # as the engine wrote it
    assert _what(model, lou) == "Lou Mitchell's \u00b7 open 7\u201315"
    walks = [a for a in _visits(itinerary) if a.ref.startswith(TOWN_WALKS)]
    others = [a for a in _visits(itinerary) if a.ref not in published and a not in walks]
    assert others and walks  # "Walk in Waynesville": a town keeps no hours, so its row claims none
    for a in others:
        assert _what(model, a) == f"{a.shown_name} \u00b7 hours unknown", a.ref
    for a in walks:
        assert _what(model, a) == a.shown_name, a.ref


def test_a_diner_on_the_way_is_a_meal_in_the_row_and_on_the_map(qtbot) -> None:
    itinerary = westward_slow()
    food = {p.id for p in find_route("Route 66").pois if p.kind == "food"}
    meals = [a for a in _visits(itinerary) if a.ref in food]
    sights = [a for a in _visits(itinerary) if a.ref not in food and a.geo is not None]
    assert meals and sights
    assert all(a.kind is ChoiceKind.meal for a in meals) and all(a.kind is ChoiceKind.attraction for a in sights)
    model = ItineraryModel()
    model.set_itinerary(itinerary)
    for a in meals:
        assert model.activity_index(a.id, ItineraryModel.COL_KIND).data() == "Meal", a.ref
    for a in sights:
        assert model.activity_index(a.id, ItineraryModel.COL_KIND).data() == "Sight", a.ref
    markers = {m["id"]: m for m in build_map_document(itinerary)["markers"]}
    assert {markers[a.id]["kind"] for a in meals} == {"meal"}
    assert {markers[a.id]["kind"] for a in sights} == {"attraction"}
    # a meal stop is still a stop on the way: skipped or swapped like a sight, numbered in the day's order
    assert all(markers[a.id]["actions"] == ["remove", "replace"] and markers[a.id]["seq"] for a in meals)


def test_the_panel_shows_the_road_stops(qtbot) -> None:
    panel = ItineraryPanel()
    qtbot.addWidget(panel)
    panel.resize(900, 900)
    panel.set_itinerary(westward_slow())
    panel.show()
    qtbot.waitExposed(panel)
    panel.tree.expandAll()
    panel.tree.scrollToBottom()
    qtbot.wait(50)
    assert panel.grab().save("/tmp/itinerary-road-stops.png")
