"""The map's layer document, built from real planned itineraries (no Qt involved)."""

from __future__ import annotations

import asyncio
import json
from datetime import date
from functools import lru_cache

import pytest
from shapely.geometry import Point, shape

from engine.maps.trip_map import DAY_COLOURS
from engine.roadtrip.corridor_band import corridor_band
from engine.models import IntentV1, ItineraryV1
from engine.models.road_trip import RoadTripIntent
from engine.roadtrip.routes import find_route
from engine.maps.map_document import BANNER_TEXT, MAX_LABEL, build_map_document, empty_map_document, is_finite_lat_lon

XSS = "<img src=x onerror=window.__xss=1>"
TODAY = date(2026, 11, 23)


def _plan(intent) -> ItineraryV1:
    from engine.pipeline import PlanningSession

    result = asyncio.run(PlanningSession(today=TODAY).plan(intent))
    assert result.itinerary is not None
    return result.itinerary


@lru_cache(maxsize=1)
def city_trip() -> ItineraryV1:
    """A Paris city trip planned by the engine (once per test session)."""
    return _plan(IntentV1.model_validate({
        "city": "Paris", "date_window": {"start": "2027-05-10", "end": "2027-05-13", "tz": "Europe/Paris"},
        "budget_usd_cents": 400000, "airports": ["CDG"], "origin_airport": "LHR",
        "prefs": {"themes": ["history"]}}))


@lru_cache(maxsize=1)
def road_trip() -> ItineraryV1:
    """Los Angeles to Chicago on Route 66 in 7 days, planned by the engine (once per session)."""
    return _plan(RoadTripIntent(origin="Los Angeles", terminus="Chicago", days=7,
                                start_date=date(2027, 5, 3), route="Route 66"))


def with_activity(itinerary: ItineraryV1, activity_id: str, **update) -> ItineraryV1:
    """A copy of ``itinerary`` whose activity ``activity_id`` has ``update`` applied."""
    days, found = [], False
    for day in itinerary.days:
        acts = []
        for a in day.activities:
            if a.id == activity_id:
                a, found = a.model_copy(update=update), True
            acts.append(a)
        days.append(day.model_copy(update={"activities": acts}))
    assert found, activity_id
    return itinerary.model_copy(update={"days": days})


def with_anchor(itinerary: ItineraryV1, day_index: int, **update) -> ItineraryV1:
    days = list(itinerary.days)
    days[day_index] = days[day_index].model_copy(update={"anchor": days[day_index].anchor.model_copy(update=update)})
    return itinerary.model_copy(update={"days": days})


def located(itinerary: ItineraryV1):
    return [(di, a) for di, d in enumerate(itinerary.days) for a in d.activities if a.geo is not None]


@pytest.fixture(scope="module")
def city() -> ItineraryV1:
    return city_trip()


@pytest.fixture(scope="module")
def road() -> ItineraryV1:
    return road_trip()


@pytest.fixture(scope="module")
def route66():
    return find_route("Route 66")


def by_id(doc: dict) -> dict[str, dict]:
    return {m["id"]: m for m in doc["markers"]}


# -- city trips ---------------------------------------------------------------------------------
def test_city_document_has_a_marker_per_located_activity_and_a_line_per_day(city):
    doc = build_map_document(city)
    assert doc["mode"] == "city" and doc["title"] == "Paris"
    assert [m["id"] for m in doc["markers"]] == [a.id for _, a in located(city)]
    assert [m["day"] for m in doc["markers"]] == [di for di, _ in located(city)]
    assert len(doc["days"]) == len(city.days)
    for di, day in enumerate(doc["days"]):
        assert day["colour"] == DAY_COLOURS[di]
        stops = [a for a in city.days[di].activities if a.geo is not None and a.kind.value != "flight"]
        if len(stops) < 2:  # flights are not drawn: a day with one place on the ground has no line
            assert day["path"] is None
            continue
        assert day["path"]["type"] == "LineString"
        assert day["path"]["coordinates"][0] == [stops[0].geo.lon, stops[0].geo.lat]
    assert doc["corridor"] is None and doc["banner"] is None


def test_city_markers_carry_kind_source_and_visit_order(city):
    markers = by_id(build_map_document(city))
    louvre = markers["d2-activity-louvre"]
    assert louvre["kind"] == "attraction" and louvre["data_source"] == "fixture"
    assert louvre["confidence"] == "high" and louvre["low_reason"] == ""
    assert louvre["seq"] == 1 and louvre["time"] == city.days[2].activities[0].window.label()
    assert markers["d2-meal-bouillon_chartier"]["seq"] == 2
    assert not any(m["draggable"] for m in markers.values())
    kinds = {m["kind"] for m in markers.values()}
    assert kinds == {"flight", "lodging", "attraction", "meal"}


def test_city_actions_follow_the_edit_rules(city):
    doc = build_map_document(with_activity(city, "d1-activity-pantheon", locked=True))
    markers = by_id(doc)
    assert markers["d2-activity-louvre"]["actions"] == ["lock", "remove", "replace", "move:0", "move:1", "move:3"]
    assert markers["d1-activity-pantheon"]["actions"] == ["unlock"]
    assert markers["d0-checkin-hotel_jeanne_darc"]["actions"] == ["lock"]
    flights = [m for m in markers.values() if m["kind"] == "flight"]
    assert flights and all(m["actions"] == [] for m in flights)


def test_city_focus_leaves_the_airport_out(city):
    doc = build_map_document(city)
    (south, west), (north, east) = doc["focus"]
    cdg = next(m for m in doc["markers"] if m["kind"] == "flight")
    assert north < cdg["lat"] and east < cdg["lon"]
    assert all(south <= m["lat"] <= north for m in doc["markers"] if m["kind"] != "flight")


# -- road trips ---------------------------------------------------------------------------------
def test_road_document_has_anchors_stops_origin_and_day_paths(road, route66):
    doc = build_map_document(road, corridor=corridor_band(route66.polyline, route66.name, 50))
    assert doc["mode"] == "road_trip" and doc["title"] == "Los Angeles → Chicago"
    ids = [m["id"] for m in doc["markers"]]
    assert ids == ["origin"] + [a.id for _, a in located(road)]
    anchors = [m for m in doc["markers"] if m["kind"] == "anchor"]
    assert [m["id"] for m in anchors] == [f"d{i}-overnight" for i in range(6)] + ["d6-arrive"]
    assert [m["draggable"] for m in anchors] == [True] * 6 + [False]
    assert [m["actions"] for m in anchors] == [["lock", "rest"]] + [["lock"]] * 4 + [["lock", "rest"]] + [[]]  # issue 20: a night may be rested at where the legs still fit the days (issue 32)
    origin = doc["markers"][0]
    assert origin["kind"] == "origin" and not origin["selectable"] and origin["actions"] == []
    assert "Los Angeles" in origin["label"]
    stop = by_id(doc)["d0-stop-amboy_crater"]
    assert stop["actions"] == ["remove", "replace"]  # no "move to day", no "lock" on a road trip (issue 32 §3)
    for day, itin_day in zip(doc["days"], road.days):
        assert len(day["path"]["coordinates"]) > 10
        assert day["path"]["coordinates"][-1] == [round(itin_day.path[-1].lon, 5), round(itin_day.path[-1].lat, 5)]
    assert doc["days"][0]["label"].startswith("Day 1 · Mon 3 May → Needles, CA · ")


def test_corridor_is_the_route_buffered_by_the_corridor_width(road, route66):
    doc = build_map_document(road, corridor=corridor_band(route66.polyline, route66.name, 50))
    corridor = doc["corridor"]
    assert corridor["name"] == "Route 66" and corridor["width_miles"] == 50.0
    band = shape(corridor["geometry"])
    assert band.geom_type in ("Polygon", "MultiPolygon") and band.is_valid
    for m in doc["markers"]:
        assert band.contains(Point(m["lon"], m["lat"])), m["id"]
    # probe north of route vertices: inside below the width, outside beyond it
    for lon, lat in route66.polyline[50::150]:
        for miles, inside in ((40, True), (60, False)):
            p_lat = lat + miles / 69.05
            offset = route66.offset_miles(p_lat, lon)
            if abs(offset - 50) > 5:
                assert band.contains(Point(lon, p_lat)) == (offset < 50), (lon, lat, miles, offset)


def test_corridor_width_can_be_overridden_and_needs_a_route(road, route66):
    narrow = build_map_document(road, corridor=corridor_band(route66.polyline, route66.name, 10))
    wide = build_map_document(road, corridor=corridor_band(route66.polyline, route66.name, 50))
    assert shape(narrow["corridor"]["geometry"]).area < shape(wide["corridor"]["geometry"]).area / 3
    assert build_map_document(road)["corridor"] is None


def test_labels_follow_the_distance_unit(road, route66):
    miles = build_map_document(road, corridor=corridor_band(route66.polyline, route66.name, 50))
    km = build_map_document(road, corridor=corridor_band(route66.polyline, route66.name, 50), distance_unit="km")
    assert miles["corridor"]["width_label"] == "\u00b150 mi" and km["corridor"]["width_label"] == "\u00b180 km"
    drive = road.days[0].drive.miles
    assert miles["days"][0]["label"].endswith(f"{drive:,.0f} mi")
    assert km["days"][0]["label"].endswith(f"{drive * 1.609344:,.0f} km")
    assert km["corridor"]["geometry"] == miles["corridor"]["geometry"]  # only the words change
    with pytest.raises(ValueError):
        build_map_document(road, distance_unit="furlongs")


def test_low_confidence_anchor_carries_the_reason(road):
    note = "no town found near the day's target; interpolated"
    doc = build_map_document(with_anchor(road, 2, confidence="low", note=note, source="interpolated"))
    marker = by_id(doc)["d2-overnight"]
    assert marker["confidence"] == "low" and marker["low_reason"] == note
    before = sum(m["confidence"] == "low" for m in build_map_document(road)["markers"])  # meals of unknown hours
    assert sum(m["confidence"] == "low" for m in doc["markers"]) == before + 1


def test_low_confidence_activity_gets_a_default_reason(city):
    marker = by_id(build_map_document(with_activity(city, "d1-activity-pantheon", confidence="low")))["d1-activity-pantheon"]
    assert marker["confidence"] == "low" and "low confidence" in marker["low_reason"]


# -- labels, banner, serialisation --------------------------------------------------------------
def test_labels_are_not_escaped_but_truncated(city):
    doc = build_map_document(with_activity(city, "d2-activity-louvre", name=XSS))
    assert by_id(doc)["d2-activity-louvre"]["label"] == XSS  # the page escapes (textContent)
    long = build_map_document(with_activity(city, "d2-activity-louvre", name="Musée " * 60))
    label = by_id(long)["d2-activity-louvre"]["label"]
    assert len(label) == MAX_LABEL and label.endswith("…")


def test_banner_when_a_tool_fell_back_or_data_was_omitted(city):
    doc = build_map_document(city.model_copy(update={"degraded_tools": ["weather", "flights"]}))
    assert doc["banner"] == BANNER_TEXT + " Fell back: flights, weather."
    louvre = next(a for _, a in located(city) if a.id == "d2-activity-louvre")
    omitted = with_activity(city, "d2-activity-louvre",
                            provenance=louvre.provenance.model_copy(update={"data_source": "omitted"}))
    doc = build_map_document(omitted)
    assert doc["banner"] == BANNER_TEXT
    assert by_id(doc)["d2-activity-louvre"]["data_source"] == "omitted"


def test_document_is_strict_json(road, route66):
    doc = build_map_document(road, corridor=corridor_band(route66.polyline, route66.name, 50), online=True)
    text = json.dumps(doc, allow_nan=False, ensure_ascii=False)
    assert json.loads(text) == doc and doc["online"] is True
    assert len(text) < 200_000


def test_empty_document():
    doc = empty_map_document(online=True)
    assert doc["markers"] == [] and doc["days"] == [] and doc["corridor"] is None and doc["online"] is True


@pytest.mark.parametrize(("lat", "lon", "ok"), [
    (0, 0, True), (48.85, 2.35, True), (-90, 180, True), (90.0001, 0, False), (0, -180.5, False),
    (999, 0, False), (float("nan"), 0, False), (0, float("inf"), False), (None, 0, False),
    ("1", 0, False), (True, 0, False),
])
def test_lat_lon_validation(lat, lon, ok):
    assert is_finite_lat_lon(lat, lon) is ok
