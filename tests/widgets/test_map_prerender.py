"""Issue 23 §2 (seed 000 §6, "Pre-Render"): the map checks every coordinate against the trust
boundary again before drawing it, leaves out what fails with a note, and draws the start of a road
trip with its real confidence."""

from __future__ import annotations

from engine.geocode.trust import check_point
from engine.models.common import Geo
from engine.models.violations import Violation, ViolationKind
from tests.widgets.test_map_layers import city_trip, road_trip, with_activity
from tests.widgets.test_map_view import make_view, state, until_painted  # noqa: F401 (fixture)
from engine.maps.map_document import build_map_document

PACIFIC = Geo(lat=34.2, lon=-160.1)  # north-east of Hawaii: the seed's INV-GEO-01 example
TOKYO = Geo(lat=35.68, lon=139.76)


def _ids(doc) -> set[str]:
    return {m["id"] for m in doc["markers"]}


def _first_stop(itinerary, role="activity"):
    return next(a for d in itinerary.days for a in d.activities if a.role == role and a.geo is not None)


def test_a_road_trip_stop_outside_the_trust_boundary_is_not_drawn_and_the_banner_says_so():
    road = road_trip()
    stop = _first_stop(road)
    bad = with_activity(road, stop.id, geo=PACIFIC)
    assert check_point(PACIFIC.lat, PACIFIC.lon, "us")  # the engine's own check rejects it
    doc = build_map_document(bad)
    assert stop.id not in _ids(doc)
    assert doc["excluded"] == [{"id": stop.id, "label": stop.name,
                                "reason": "its position is outside the region of the trip"}]
    assert f"Not shown on the map: {stop.name}" in doc["banner"]
    # Everything still drawn is inside the box, lines included.
    for m in doc["markers"]:
        assert not check_point(m["lat"], m["lon"], "us"), m
    day_one = [m["seq"] for m in doc["markers"] if m["day"] == 0 and m["kind"] == "attraction"]
    assert day_one == list(range(1, len(day_one) + 1))  # numbered among the stops drawn
    assert stop.id in _ids(build_map_document(road)) and build_map_document(road)["excluded"] == []


def test_a_city_stop_at_null_island_or_far_from_every_other_stop_is_not_drawn():
    city = city_trip()
    visits = [a for d in city.days for a in d.activities if a.role == "activity" and a.geo is not None]
    bad = with_activity(with_activity(city, visits[0].id, geo=Geo(lat=0.0, lon=0.0)), visits[1].id, geo=TOKYO)
    doc = build_map_document(bad)
    reasons = {e["id"]: e["reason"] for e in doc["excluded"]}
    assert reasons == {visits[0].id: "its position is 0°, 0° (no real location)",
                       visits[1].id: "its position is over 500 miles from every other stop"}
    assert not {visits[0].id, visits[1].id} & _ids(doc)
    for day in doc["days"]:  # no day line runs to Tokyo or the Gulf of Guinea
        for lon, lat in (day["path"] or {"coordinates": []})["coordinates"]:
            assert 40 < lat < 60 and -5 < lon < 10
    # The airports of a city trip are far from the city by design: they stay.
    flights = [a.id for d in city.days for a in d.activities if a.kind.value == "flight" and a.geo is not None]
    assert flights and set(flights) <= _ids(doc)


def _with_uncertain_origin(road):
    ambiguous = Violation(kind=ViolationKind.location_ambiguous, node_ref="origin", blocking=False,
                          details={"invariant": "INV-AMBIG-03",
                                   "message": "Los Angeles, CA: low confidence (two places share the name)"})
    return road.model_copy(update={"violations": [*road.violations, ambiguous]})


def test_the_start_marker_carries_its_real_confidence():
    road = road_trip()
    assert build_map_document(road)["markers"][0]["confidence"] == "high"
    origin = build_map_document(_with_uncertain_origin(road))["markers"][0]
    assert origin["id"] == "origin" and origin["confidence"] == "low"
    assert origin["low_reason"] == "Los Angeles, CA: low confidence (two places share the name)"


def test_the_map_draws_the_uncertain_start_dashed_and_leaves_the_bad_stop_out(qtbot, make_view, tmp_path):
    road = road_trip()
    stop = _first_stop(road)
    shown = _with_uncertain_origin(with_activity(road, stop.id, geo=PACIFIC))
    view = make_view(shown)
    qtbot.waitUntil(lambda: state(qtbot, view)["markers"] == len(view.document["markers"]), timeout=5_000)
    now = state(qtbot, view)
    assert now["markers"] == len(build_map_document(road)["markers"]) - 1
    assert now["banner"].endswith(f"Not shown on the map: {stop.name} (its position is outside the region of the trip).")
    from tests.widgets.test_map_view import run_js
    origin = run_js(qtbot, view, """JSON.stringify((() => {
        const el = tripwright.marker('origin').getElement();
        return {low: el.querySelector('.tw-pin').classList.contains('tw-low'),
                badge: !!el.querySelector('.tw-badge-warn'),
                ring: getComputedStyle(el.querySelector('.tw-dot')).borderTopStyle};
    })())""")
    assert origin == {"low": True, "badge": True, "ring": "dashed"}
    until_painted(qtbot, view, str(tmp_path / "prerender.png"))
