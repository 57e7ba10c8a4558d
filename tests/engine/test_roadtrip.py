"""Road trips end to end on the real route fixtures and the offline gazetteer (seed 000)."""

from __future__ import annotations

import asyncio
import math
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import InputError
from engine.geocode.models import GeoCandidate, GeocodeRequest
from engine.geocode.trust import check_point, geodesic_miles
from engine.models import EventStatus, RoadTripIntent
from engine.pipeline import PlanningSession
from engine.roadtrip.invariants import verify_road_plan
from engine.roadtrip.planner import plan_road_trip
from engine.roadtrip.routes import find_route

LA = (34.0522, -118.2437)


@pytest.fixture(scope="module")
def gazetteer(tmp_path_factory):
    import os
    from engine.geocode import GazetteerIndex
    home = os.environ.get("TRIPWRIGHT_HOME") or str(tmp_path_factory.mktemp("home"))
    return GazetteerIndex.open(home)


def trip(**kw) -> RoadTripIntent:
    base = {"origin": "Los Angeles", "terminus": "Chicago", "days": 7, "start_date": date(2027, 5, 3),
            "route": "Route 66"}
    return RoadTripIntent(**(base | kw))


def blocking(violations):
    return [v for v in violations if v.blocking]


def test_la_to_chicago_on_route_66(gazetteer) -> None:
    plan = plan_road_trip(trip(), gazetteer)
    route = find_route("Route 66").reversed()
    assert len(plan.days) == 7
    assert plan.days[-1].anchor.name == "Chicago"
    progress = [d.anchor_progress for d in plan.days]
    assert progress == sorted(progress) and progress[0] > 100
    for d in plan.days:
        assert route.offset_miles(*d.anchor.point) <= 50, d.anchor.label
        assert d.drive_miles <= 400
        assert len(d.stops) >= 2
        assert geodesic_miles(d.anchor.point, LA) > 50 or d.index == 0  # never back to Los Angeles
        assert not check_point(d.anchor.lat, d.anchor.lon, "us")
    distances = [geodesic_miles(LA, d.anchor.point) for d in plan.days]
    assert distances == sorted(distances)
    assert blocking(verify_road_plan(plan)) == []


def test_pipeline_delivers_anchor_and_drive_fields(gazetteer) -> None:
    session = PlanningSession(today=date(2026, 11, 23), geocoder=gazetteer)
    result = asyncio.run(session.plan(trip()))
    assert result.status == "completed"
    assert [e.node for e in result.events if e.status is EventStatus.completed][:2] == ["intent_extractor", "planner"]
    itin = result.itinerary
    for day in itin.days:
        assert day.anchor.confidence == "high" and day.anchor.route_progress_miles is not None
        assert day.drive.miles > 0 and day.tz.startswith("America/") and len(day.path) > 10
        assert sum(1 for a in day.activities if a.kind.value == "attraction") >= 2
    assert {d.tz for d in itin.days} >= {"America/Los_Angeles", "America/Chicago"}
    assert "ROAD_TRIP Validation Report" in result.extra["report"] and "Result: PASS" in result.extra["report"]


class PacificKingman:
    """A geocoder that answers bare "Kingman" with the seed's Pacific coordinate (as a bad online
    geocoder did) and defers everything else to the real gazetteer."""

    def __init__(self, real) -> None:
        self.real = real
        self.queries: list[str] = []

    def candidates(self, request):
        self.queries.append(request.query)
        if request.query.strip().lower() == "kingman":
            return [GeoCandidate(name="Kingman", admin1="AZ", admin1_name="Arizona", country="US", lat=34.2,
                                 lon=-160.1, confidence=0.9, source="nominatim", feature_id="osm:bad")]
        return self.real.candidates(request)


def test_kingman_in_the_pacific_is_regeocoded_with_context(gazetteer) -> None:
    geocoder = PacificKingman(gazetteer)
    plan = plan_road_trip(trip(stops=["Kingman"], route="Route 66"), geocoder)
    kingman = next(d.anchor for d in plan.days if d.anchor.name == "Kingman")
    assert abs(kingman.lat - 35.19) < 0.1 and abs(kingman.lon + 114.05) < 0.1
    assert geocoder.queries[:2] == ["Kingman", "Kingman, AZ, USA"] or "Kingman" not in geocoder.queries


def test_kingman_fallback_without_route_towns(gazetteer) -> None:
    from engine.roadtrip.resolve import PlaceResolver
    geocoder = PacificKingman(gazetteer)
    resolver = PlaceResolver(geocoder, region="us", corridor=find_route("Route 66"), corridor_miles=50)
    place = resolver.resolve("Kingman", field="stops[0]")
    assert geocoder.queries == ["Kingman", "Kingman, AZ, USA"]
    assert abs(place.lat - 35.19) < 0.1 and not check_point(place.lat, place.lon, "us")
    assert any("INV-GEO-01" in line for line in place.considered)


def test_off_corridor_candidates_are_rejected_with_a_reason(gazetteer) -> None:
    from engine.roadtrip.resolve import PlaceResolver
    resolver = PlaceResolver(gazetteer, region="us", corridor=find_route("Route 66"), corridor_miles=50)
    place = resolver.resolve("Springfield, MO", field="stops[0]")
    assert place.admin1 == "MO"
    springfield = resolver.resolve("Springfield", field="stops[0]")
    assert springfield.admin1 in ("MO", "IL")
    with pytest.raises(InputError) as err:  # not Phoenix, IL (a suburb on the route): Phoenix, AZ is meant
        resolver.resolve("Phoenix", field="origin")
    assert err.value.field == "origin" and "122 mi off Route 66" in err.value.message


def test_a_requested_detour_is_kept_and_justified(gazetteer) -> None:
    plan = plan_road_trip(trip(stops=["Grand Canyon Village"], days=8), gazetteer)
    detour = next(d for d in plan.days if d.anchor.name == "Grand Canyon Village")
    assert detour.forced and 40 < detour.anchor_offset < 80
    found = [v for v in verify_road_plan(plan) if v.details["invariant"] == "INV-CORR-02"]
    assert len(found) == 1 and not found[0].blocking and "detour" in found[0].details["message"]


def test_springfield_is_resolved_by_the_corridor(gazetteer) -> None:
    from engine.roadtrip.resolve import PlaceResolver
    resolver = PlaceResolver(gazetteer, region="us", corridor=find_route("Route 66"), corridor_miles=50)
    place = resolver._from_candidates("Springfield", None, log := [], [])  # noqa: SLF001 the gazetteer path
    assert place.admin1 in ("MO", "IL")
    rejected = [line for line in log if "off Route 66" in line]
    assert len(rejected) >= 10  # Oregon, Massachusetts, Ohio ... each with its distance
    assert place.confidence == "low" and "Springfield" in place.note  # IL and MO are both on the route


def test_round_trip_returns_only_on_the_last_day(gazetteer) -> None:
    plan = plan_road_trip(trip(origin="Chicago", terminus="Chicago", days=6, trip_type="round_trip"), gazetteer)
    assert plan.days[-1].anchor.name == "Chicago"
    out = [d.anchor_progress for d in plan.days if not d.returning]
    back = [d.anchor_progress for d in plan.days if d.returning]
    assert out == sorted(out) and back == sorted(back, reverse=True)
    assert blocking(verify_road_plan(plan)) == []


@pytest.mark.parametrize("changes, field", [
    ({"route": "Route 67"}, "route"),
    ({"origin": "Atlantis"}, "origin"),
    ({"days": 2}, "days"),
    ({"origin": "Seattle"}, "origin"),
])
def test_bad_road_input(gazetteer, changes, field) -> None:
    with pytest.raises(InputError) as err:
        plan_road_trip(trip(**changes), gazetteer)
    assert err.value.field == field
    assert "\n" not in err.value.message


@pytest.mark.parametrize("changes, fragment", [
    ({"days": 0}, "1-30"), ({"days": 31}, "1-30"), ({"origin": "<img src=x onerror=alert(1)>"}, "markup"),
    ({"terminus": "Los Angeles"}, "one-way"),
])
def test_invalid_road_intents(changes, fragment) -> None:
    with pytest.raises(ValueError) as err:
        trip(**changes)
    assert fragment in str(err.value)


def test_romantic_road_uses_the_european_trust_box(gazetteer) -> None:
    plan = plan_road_trip(trip(origin="Würzburg", terminus="Füssen", days=3, route="Romantische Straße"), gazetteer)
    assert plan.region == "europe" and plan.days[-1].anchor.name == "Füssen"
    assert all(not check_point(d.anchor.lat, d.anchor.lon, "europe") for d in plan.days)
    assert all(check_point(d.anchor.lat, d.anchor.lon, "us") for d in plan.days)  # Bavaria is no US point
    assert blocking(verify_road_plan(plan)) == []


def test_no_named_route_follows_the_geodesic_corridor(gazetteer) -> None:
    plan = plan_road_trip(trip(origin="Denver", terminus="Chicago", days=4, route=None), gazetteer)
    assert plan.corridor.name == "direct" and plan.days[-1].anchor.name == "Chicago"
    assert all(d.anchor_offset <= 50 and d.drive_miles <= 400 for d in plan.days)
    assert [d.anchor_progress for d in plan.days] == sorted(d.anchor_progress for d in plan.days)
    assert blocking(verify_road_plan(plan)) == []


US_CITIES = ["Denver", "Chicago", "Dallas", "Atlanta", "Seattle", "Boston, MA", "Phoenix, AZ", "Nashville",
             "Salt Lake City", "Kansas City, MO", "Minneapolis", "Albuquerque", "Memphis", "Omaha"]
EU_CITIES = ["Paris", "Munich", "Vienna", "Milan", "Lyon", "Hamburg", "Prague", "Zurich", "Barcelona",
             "Amsterdam", "Berlin", "Brussels"]


def _pairs(cities):
    return st.tuples(st.sampled_from(cities), st.sampled_from(cities)).filter(lambda p: p[0] != p[1])


def _days_for(plan_miles: float) -> int:
    return min(30, max(1, math.ceil(plan_miles * 1.3 / 380)) + 1)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pair=st.one_of(_pairs(US_CITIES), _pairs(EU_CITIES)), extra=st.integers(0, 3))
def test_delivered_plans_never_break_direction_corridor_or_geo(gazetteer, pair, extra) -> None:
    origin, terminus = pair
    a = gazetteer.candidates(GeocodeRequest(query=origin))[0]
    b = gazetteer.candidates(GeocodeRequest(query=terminus))[0]
    days = min(30, _days_for(geodesic_miles((a.lat, a.lon), (b.lat, b.lon))) + extra)
    plan = plan_road_trip(trip(origin=origin, terminus=terminus, days=days, route=None), gazetteer)
    bad = [v for v in verify_road_plan(plan) if v.blocking
           and v.details["invariant"].split("-")[1] in ("DIR", "CORR", "GEO")]
    assert bad == [], [v.describe() for v in bad]


@pytest.mark.parametrize("stop", ["Kingman", "Amarillo", "Rolla", "Springfield, IL"])
def test_forced_stops_get_the_days_their_stretch_needs(gazetteer, stop) -> None:
    """Rolla leaves 402 miles to Chicago: that stretch needs two days, not a proportional one."""
    plan = plan_road_trip(trip(stops=[stop]), gazetteer)
    assert any(d.forced or d.anchor.source == "user" or d.anchor.name == stop.split(",")[0] for d in plan.days)
    assert all(d.drive_miles <= 400 for d in plan.days)
    assert blocking(verify_road_plan(plan)) == []


def test_requested_stops_are_locked_in_the_itinerary(gazetteer) -> None:
    session = PlanningSession(today=date(2026, 11, 23), geocoder=gazetteer)
    itin = asyncio.run(session.plan(trip(stops=["Amarillo"]))).itinerary
    nights = {a.name: a.locked for d in itin.days for a in d.activities if a.role == "checkin"}
    assert nights["Overnight in Amarillo, TX"] is True
    assert sum(nights.values()) == 1
