"""Road trips a person would drive (issue 31 §5), through the real road path: the planner, the
offline gazetteer and corridor chunks fetched from the Overpass stand-in serving the hand-made
California coast and Colorado–Utah data (``tests/data/osm/README.md``), routing unreachable (the
offline estimate).

- honest drives: no leg between two stops implies more than 70 mph as the crow flies, a visit
  never starts before its drive has ended, and a day's miles are never below the straight line
  through its stops;
- nights where the beds are: a loop down the coast sleeps at a mapped bed every night, and a
  night with none names the nearest mapped bed and its detour;
- days that use the daylight: a national park at the end of the trip is visited the day it
  arrives, and days run into the afternoon.
"""

from __future__ import annotations

from datetime import date

import pytest

from engine.geocode.trust import geodesic_miles
from engine.models import RoadTripIntent
from engine.roadtrip.osm_beds import BedPicker
from engine.roadtrip.plan import Town
from tests.engine import test_road_osm as road_osm
from tests.engine.test_road_osm import _data_of, coast, denver_to_salt_lake, load, plan

# the road tests' own fixtures: the offline gazetteer, a data dir per test, the Overpass stand-in
gazetteer, home, overpass = road_osm.gazetteer, road_osm.home, road_osm.overpass

MAX_CROW_MPH = 70.0


def pch_loop() -> RoadTripIntent:
    return RoadTripIntent(origin="San Francisco, CA", terminus="San Francisco, CA", trip_type="round_trip", days=5,
                          start_date=date(2027, 4, 30), route="Pacific Coast Highway")


def coast_round_trip() -> RoadTripIntent:
    """No named route: the direct corridor from San Francisco to Santa Barbara and back."""
    return RoadTripIntent(origin="San Francisco, CA", terminus="Santa Barbara, CA", trip_type="round_trip", days=6,
                          start_date=date(2027, 4, 30))


def denver_to_moab() -> RoadTripIntent:
    return RoadTripIntent(origin="Denver", terminus="Moab, UT", days=2, start_date=date(2027, 5, 3))


def legs(day, planned):
    """(from point, to point, minutes of the drive from leaving the one to reaching the other, the
    drive's end, the next event's start) for each drive of an itinerary day."""
    out, at, left, drive_end = [], planned.start.point, None, None
    for a in day.activities:
        if a.role == "transfer":
            left = a.start if left is None else left
            drive_end = a.end
            continue
        if a.geo is None:
            continue
        here = (a.geo.lat, a.geo.lon)
        if drive_end is not None:
            out.append((at, here, (drive_end - left).total_seconds() / 60, drive_end, a.start))
        at, left, drive_end = here, a.end, None
    return out


@pytest.mark.parametrize("data, intent", [("california_coast", coast), ("california_coast", coast_round_trip),
                                          ("california_coast", pch_loop), ("colorado_utah", denver_to_salt_lake),
                                          ("colorado_utah", denver_to_moab)])
def test_every_drive_could_be_driven(overpass, gazetteer, data, intent) -> None:
    overpass(load(data))
    result = plan(intent(), gazetteer)
    road = result.extra["road_plan"]
    assert not [v for v in result.itinerary.violations if v.blocking]
    for day, planned in zip(result.itinerary.days, road.days):
        for a, b, minutes, drive_end, visit_start in legs(day, planned):
            crow = geodesic_miles(a, b)
            assert visit_start >= drive_end, (day.date, a, b)  # no visit while its drive is under way
            if crow > 1:
                assert minutes > 0 and crow / (minutes / 60) <= MAX_CROW_MPH, (day.date, a, b, crow, minutes)
        en_route = [s for s in planned.stops if s.en_route]
        order = sorted(en_route, key=lambda s: abs(s.progress_miles - planned.start_progress))
        points = [planned.start.point, *((s.lat, s.lon) for s in order), planned.anchor.point]
        straight = sum(geodesic_miles(p, q) for p, q in zip(points, points[1:]))
        assert planned.drive_miles + 0.5 >= straight, (day.date, planned.drive_miles, straight)


def test_a_coast_loop_sleeps_where_the_beds_are(overpass, gazetteer) -> None:
    """The coast has mapped beds in Monterey, Cambria, San Luis Obispo and Santa Barbara: every
    night of a loop down the Pacific Coast Highway and back is at one of them (before: none was —
    Big Sur, Lompoc, Los Angeles, Cayucos, each "No lodging mapped within 5 mi")."""
    overpass(load("california_coast"))
    result = plan(pch_loop(), gazetteer)
    road = result.extra["road_plan"]
    for planned in road.days[:-1]:
        assert planned.bed is not None, (planned.anchor.label, planned.bed_note)
        assert geodesic_miles((planned.bed.lat, planned.bed.lon), planned.anchor.point) <= 5
    assert "no lodging mapped" not in result.extra["report"]


def test_a_night_without_a_bed_names_the_nearest_and_its_detour(gazetteer) -> None:
    data = _data_of(load("california_coast"))
    picker = BedPicker(data, pch_loop())
    cayucos = Town(name="Cayucos", lat=35.4428, lon=-120.8918, admin1="CA", country="US")
    bed, note = picker.bed_for(cayucos, date(2027, 5, 1))
    assert bed is None and picker.has_bed(cayucos) is False
    assert note.startswith("no lodging mapped within 5 mi of Cayucos, CA")
    # Cambria's beds are 13-14 mi up the coast: the nearest is named, with the miles there and back
    assert "the nearest mapped bed is" in note and "mi there and back" in note
    nearest = min(data.beds, key=lambda b: geodesic_miles((b.lat, b.lon), cayucos.point))
    assert nearest.name in note
    cambria = Town(name="Cambria", lat=35.5641, lon=-121.0808, admin1="CA", country="US")
    assert picker.has_bed(cambria) is True and picker.bed_for(cambria, date(2027, 5, 1))[0] is not None


def test_a_national_park_at_the_end_is_visited_and_days_use_the_afternoon(overpass, gazetteer) -> None:
    """Arches National Park lies 11 mi north of Moab: a trip that reaches Moab early in the
    afternoon visits it (before: it arrived at 15:00 and never went)."""
    overpass(load("colorado_utah"))
    result = plan(denver_to_moab(), gazetteer)
    last = result.itinerary.days[-1]
    assert "Arches National Park" in {a.name for a in last.activities if a.role == "activity"}
    overpass(load("colorado_utah"))
    result = plan(denver_to_salt_lake(), gazetteer)
    for day in result.itinerary.days:  # days with sights to see run into the late afternoon
        end = max(a.end for a in day.activities).astimezone(day.activities[0].start.tzinfo)
        assert end.hour * 60 + end.minute >= 16 * 60, (day.date, end)


def test_a_sight_reached_before_it_opens_is_visited_once_open(gazetteer, home) -> None:
    """A museum with no published hours is visited inside 10:00–17:00: reached at about 08:45, the
    day waits for 10:00 there instead of leaving it out (the Loire's châteaux, all unknown hours,
    were never visited in the morning); its drive still ends when the car arrives."""
    from engine.roadtrip.itinerary import road_itinerary
    from engine.roadtrip.planner import plan_road_trip
    elements = [{"type": "node", "id": 9_100_000_097, "lat": 34.3989, "lon": -119.5187,
                 "tags": {"name": "Carpinteria Valley Museum of History", "tourism": "museum"}},
                {"type": "node", "id": 9_100_000_098, "lat": 34.0900, "lon": -118.2600,
                 "tags": {"name": "Hollywood Bowl Overlook", "tourism": "viewpoint"}}]
    intent = RoadTripIntent(origin="Santa Barbara, CA", terminus="Palm Springs, CA", days=1,
                            start_date=date(2027, 5, 4))
    road = plan_road_trip(intent, gazetteer, osm=_data_of(elements))
    museum = next(s for s in road.days[0].stops if s.name.startswith("Carpinteria"))
    assert museum.hours_known is False and museum.wait_min > 0
    assert museum.start_min == 10 * 60 and museum.end_min <= 17 * 60
    itinerary = road_itinerary(road, intent, [], trace_id="t", run_id="r")
    acts = itinerary.days[0].activities
    k = next(i for i, a in enumerate(acts) if a.name.startswith("Carpinteria"))
    drive, visit = acts[k - 1], acts[k]
    assert drive.role == "transfer" and drive.end < visit.start  # arrived, then waited for the opening
    assert (visit.start - drive.end).total_seconds() / 60 == museum.wait_min


def test_a_park_past_the_end_of_the_trip_is_visited_and_its_miles_counted(gazetteer, home) -> None:
    """Dead Horse Point State Park lies 12 mi beyond Moab, where the trip ends: a day that arrives
    early goes there (its leg measures at the corridor's end, so the miles out and back are the
    leg's detour) — the day's miles cover the straight line through it."""
    from engine.roadtrip.planner import plan_road_trip
    elements = [e for e in load("colorado_utah") if e["tags"].get("name") in ("Dead Horse Point State Park",
                                                                               "Fisher Towers")]
    intent = RoadTripIntent(origin="Grand Junction, CO", terminus="Moab, UT", days=1, start_date=date(2027, 5, 4))
    road = plan_road_trip(intent, gazetteer, osm=_data_of(elements))
    day = road.days[0]
    park = next(s for s in day.stops if s.name == "Dead Horse Point State Park")
    assert park.en_route and park.start_min >= day.depart_min
    order = sorted((s for s in day.stops if s.en_route), key=lambda s: abs(s.progress_miles - day.start_progress))
    points = [day.start.point, *((s.lat, s.lon) for s in order), day.anchor.point]
    assert day.drive_miles >= sum(geodesic_miles(p, q) for p, q in zip(points, points[1:]))
    assert day.arrive_min >= park.end_min + 12 * 60 // 55  # 12 mi back to Moab take their time
