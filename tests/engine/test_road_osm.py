"""Real sights and beds along a road trip from OpenStreetMap (issue 20 §1–2, §4), in process: the
real corridor client against the Overpass stand-in on 127.0.0.1 serving hand-made data of real
places (``tests/data/osm/README.md``: the California coast, the Colorado–Utah corridor) and a
synthetic dense corridor, through the real road pipeline."""

from __future__ import annotations

import asyncio
import json
import math
import random
import os
import shutil
import subprocess
import sys
import time
from datetime import date, timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest

from engine.geocode.trust import geodesic_miles
from engine.models import RoadTripIntent
from engine.models.dated_hours import dated_hours
from engine.pipeline import PlanningSession
from engine.places import corridor as chunks
from engine.places.osm_tags import read_tags
from engine.places.overpass import parse_answer
from engine.roadtrip.invariants import check_pacing, verify_road_plan
from engine.roadtrip.itinerary import road_itinerary
from engine.roadtrip.osm_beds import BedPicker
from engine.roadtrip.plan import RoadDay, RoadPlan, RoadStop, Town
from engine.roadtrip.planner import plan_road_trip
from engine.roadtrip.reconstruct import saved_stops
from tests.data.osm.synthetic import synthetic_corridor
from tests.overpass_standin import OverpassStandIn, Reply

DATA = Path(__file__).resolve().parents[1] / "data" / "osm"
EXE = Path(sys.executable).with_name("tripwright")
TODAY = date(2026, 11, 23)
OSM_PAGE = "https://www.openstreetmap.org/"
OFFLINE_NOTE = "offline: sights limited to the shipped data"
# I-70, UT-128 and US-6 from Denver to Salt Lake City by Grand Junction and Moab: (lat, lon) of the
# towns and junctions it passes, as a GPX track would give them (plan --route-file).
I70_TRACK = [(39.7392, -104.9903), (39.7555, -105.2211), (39.7425, -105.5136), (39.7061, -105.6975),
             (39.6797, -105.9222), (39.6303, -106.0714), (39.5744, -106.0975), (39.5022, -106.1511),
             (39.5311, -106.2170), (39.6403, -106.3742), (39.6311, -106.5222), (39.6553, -106.8287),
             (39.6469, -106.9517), (39.6450, -107.0656), (39.5883, -107.1911), (39.5505, -107.3248),
             (39.5727, -107.5365), (39.5347, -107.7831), (39.4519, -108.0529), (39.3319, -108.2162),
             (39.1103, -108.3509), (39.0639, -108.5506), (39.1589, -108.7290), (39.2230, -108.8634),
             (38.9697, -109.3207), (38.8114, -109.3076), (38.7254, -109.3092), (38.6400, -109.4100),
             (38.5733, -109.5498), (38.6167, -109.6195), (38.9491, -109.8245), (38.9953, -110.1596),
             (39.2700, -110.3400), (39.5430, -110.7357), (39.5994, -110.8107), (39.6841, -110.8546),
             (39.9297, -111.0796), (40.1149, -111.6549), (40.2338, -111.6585), (40.3916, -111.8508),
             (40.5649, -111.8389), (40.7608, -111.8910)]


def load(name: str) -> list[dict]:
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


def denver_to_salt_lake(**kw) -> RoadTripIntent:
    return RoadTripIntent(**({"origin": "Denver", "terminus": "Salt Lake City", "days": 3,
                              "start_date": date(2027, 5, 3), "route_track": I70_TRACK,
                              "route_track_name": "I-70 and US-6 via Moab",
                              "stops": ["Grand Junction, CO", "Moab, UT"]} | kw))


def coast(**kw) -> RoadTripIntent:
    return RoadTripIntent(**({"origin": "San Francisco", "terminus": "Los Angeles", "days": 4,
                              "start_date": date(2027, 4, 30), "route": "Pacific Coast Highway",
                              "stops": ["Monterey, CA", "Cambria, CA", "Santa Barbara, CA"]} | kw))


@pytest.fixture(scope="module")
def gazetteer():
    from engine.geocode import GazetteerIndex
    return GazetteerIndex.open(os.environ["TRIPWRIGHT_HOME"])


@pytest.fixture()
def home(tmp_path, monkeypatch):
    """A data dir of the test's own: its corridor chunks (and zones) are no other test's."""
    monkeypatch.setenv("TRIPWRIGHT_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture()
def overpass(home, monkeypatch):
    servers = []

    def start(elements: list[dict]) -> OverpassStandIn:
        server = OverpassStandIn(elements=elements).start()
        servers.append(server)
        monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)
        monkeypatch.delenv("TRIPWRIGHT_ROUTING_URL", raising=False)  # unset: estimated road miles
        monkeypatch.setenv("TRIPWRIGHT_OVERPASS_URL", server.interpreter_url)
        monkeypatch.setenv("TRIPWRIGHT_OVERPASS_TIMEOUT_S", "2")
        return server
    yield start
    for server in servers:
        server.stop()


def plan(intent: RoadTripIntent, gazetteer):
    result = asyncio.run(PlanningSession(today=TODAY, geocoder=gazetteer).plan(intent))
    assert result.status == "completed", result.failure and result.failure.message
    return result


def osm_sights(day) -> list:
    return [a for a in day.activities if a.role == "activity" and a.provenance.data_source == "osm"]


def night(day):
    return next(a for a in day.activities if a.role in ("checkin", "arrival"))


def assert_real_days(result, intent: RoadTripIntent) -> None:
    """Every driving day: ≥ 2 OSM sights with their identity, open on the date; every night a bed
    with its estimated price, within 5 mi of the town."""
    itinerary, road = result.itinerary, result.extra["road_plan"]
    for day, planned in zip(itinerary.days, road.days):
        sights = osm_sights(day)
        assert len(sights) >= 2, (day.date, [a.name for a in day.activities])
        for a in sights:
            assert a.provenance.source_url.startswith(OSM_PAGE) and a.ref.startswith("osm_")
            assert "OpenStreetMap" in a.notes
        for stop in planned.stops:
            assert stop.offset_miles <= 25 and not stop.name.endswith("(town walk)")
        if planned is not road.days[-1]:
            bed, stay = planned.bed, night(day)
            assert bed is not None and geodesic_miles((bed.lat, bed.lon), planned.anchor.point) <= 5
            assert stay.provenance.data_source == "osm" and stay.provenance.source_url.startswith(OSM_PAGE)
            assert bed.name in stay.name and "(estimated)" in stay.notes and stay.cost_usd_cents > 0
            assert (stay.geo.lat, stay.geo.lon) == (bed.lat, bed.lon)
    assert itinerary.attributions == ["© OpenStreetMap contributors (ODbL)"]
    assert "lodging" in itinerary.cost_breakdown.estimated_parts
    assert not [v for v in itinerary.violations if v.blocking]


def test_denver_to_salt_lake_city_has_real_sights_each_day_and_a_bed_each_night(overpass, gazetteer) -> None:
    server = overpass(load("colorado_utah"))
    intent = denver_to_salt_lake()
    result = plan(intent, gazetteer)
    assert_real_days(result, intent)
    planned = {a.name for d in result.itinerary.days for a in osm_sights(d)}
    assert {"Arches National Park", "Colorado National Monument"} <= planned
    # never sent where the tags say no: private, disused; a park far off the road stays out of reach
    assert not planned & {"Glenwood Springs private viewpoint", "Old Moab drive-in", "Goblin Valley State Park"}
    moab = result.itinerary.days[1]
    assert "Motel" in night(moab).name or "Lodge" in night(moab).name or "Inn" in night(moab).name
    assert len(server.seen) <= 6  # a few corridor queries per trip, not one per town
    assert all("[out:json]" in s.ql and s.header("User-Agent").startswith("Tripwright/") for s in server.seen)
    done = [e for e in result.events if e.node == "corridor_sights" and e.status.value == "completed"]
    assert done and f"{len(server.seen)} queries" in done[0].decision_note
    assert "Result: PASS" in result.extra["report"]


def test_san_francisco_to_los_angeles_adds_osm_sights_beside_the_curated_stops(overpass, gazetteer) -> None:
    server = overpass(load("california_coast"))
    result = plan(coast(), gazetteer)
    assert_real_days(result, coast())
    activities = [a for d in result.itinerary.days for a in d.activities if a.role == "activity"]
    curated = {a.name for a in activities if a.provenance.data_source == "fixture"}
    osm = {a.name for a in activities if a.provenance.data_source == "osm"}
    assert curated and osm  # the route's own stops stay; OpenStreetMap adds to them
    # a curated POI mapped in OSM too is that POI, never a second stop
    assert not osm & {"McWay Falls", "Bixby Creek Bridge", "Point Lobos State Natural Reserve",
                      "Monterey Bay Aquarium", "Hearst Castle"}
    assert "Channel Islands National Park" not in osm  # its centre is 30 mi out to sea
    assert len(server.seen) <= 6


def test_hours_are_checked_by_date(gazetteer, home) -> None:
    """Griffith Observatory is closed on Mondays (tests/data/osm/README.md): the same drive past
    Los Angeles visits it on a Sunday morning and never on a Monday."""
    elements = [e for e in load("california_coast") if e["id"] == 9_100_000_046] + [
        {"type": "node", "id": 9_100_000_099, "lat": 34.0900, "lon": -118.2600,
         "tags": {"name": "Hollywood Bowl Overlook", "tourism": "viewpoint"}}]
    intent = RoadTripIntent(origin="Santa Barbara, CA", terminus="Palm Springs, CA", days=1,
                            start_date=date(2027, 5, 2))
    data = _data_of(elements)
    sunday = plan_road_trip(intent, gazetteer, osm=data)
    monday = plan_road_trip(intent.model_copy(update={"start_date": date(2027, 5, 3)}), gazetteer, osm=data)
    names = lambda p: {s.name for d in p.days for s in d.stops}  # noqa: E731
    assert "Griffith Observatory" in names(sunday)
    assert "Griffith Observatory" not in names(monday) and "Hollywood Bowl Overlook" in names(monday)
    griffith = next(s for d in sunday.days for s in d.stops if s.name == "Griffith Observatory")
    hours = dated_hours("Tu-Fr 12:00-22:00; Sa,Su 10:00-22:00; Mo off", "US")
    assert hours.covers(date(2027, 5, 2), *(t for t in _clock(griffith)))
    assert "Open 10:00–22:00 on Sun 02 May 2027" in griffith.description


def test_a_road_stop_is_named_in_the_travellers_language_with_the_local_name_beside_it(gazetteer, home) -> None:
    """Issue 31 §3 on the road: a place mapped with a local name and ``name:en`` is shown in English
    with the local name beside it, and a re-read of the itinerary (verify, re-plan) keeps both."""
    elements = [{"type": "node", "id": 9_100_000_098, "lat": 34.0900, "lon": -118.2600,
                 "tags": {"name": "Mirador del Hollywood Bowl", "name:en": "Hollywood Bowl Overlook",
                          "name:es": "Mirador del Hollywood Bowl", "tourism": "viewpoint"}}]
    intent = RoadTripIntent(origin="Santa Barbara, CA", terminus="Palm Springs, CA", days=1,
                            start_date=date(2027, 5, 3))
    road = plan_road_trip(intent, gazetteer, osm=_data_of(elements))
    stop = next(s for d in road.days for s in d.stops if s.id == "osm_n9100000098")
    assert (stop.name, stop.local_name) == ("Hollywood Bowl Overlook", "Mirador del Hollywood Bowl")
    itinerary = road_itinerary(road, intent, [], trace_id="t", run_id="r")
    visit = next(a for d in itinerary.days for a in d.activities if a.ref == "osm_n9100000098")
    assert visit.shown_name == "Hollywood Bowl Overlook (Mirador del Hollywood Bowl)"
    again = next(s for s in saved_stops(itinerary.days[0], road.corridor) if s.id == "osm_n9100000098")
    assert (again.name, again.local_name) == (stop.name, stop.local_name)


def _clock(stop: RoadStop):
    from engine.models import time_of
    return time_of(stop.start_min), time_of(stop.end_min)


def _data_of(elements: list[dict]):
    """CorridorData straight from elements, as the fetcher would cache them (no HTTP)."""
    answer = parse_answer(json.dumps({"elements": elements}).encode())
    cells = sorted({chunks.cell_of(*(e.point())) for e in answer.elements})
    boxes = chunks.query_boxes(cells)
    got = chunks.split_answer(answer, boxes, fetched_at=chunks.datetime.now(chunks.timezone.utc), source_url="test")
    wanted = sorted(set(cells) | {(c[0] + a, c[1] + b) for c in cells for a in (-1, 0, 1) for b in (-1, 0, 1)})
    return chunks.assemble(wanted, {c: got.get(c) or chunks.Chunk(c, chunks.datetime.now(chunks.timezone.utc), ())
                                    for c in wanted})


def test_cached_chunks_answer_the_second_plan_offline_without_a_request(overpass, gazetteer, monkeypatch) -> None:
    server = overpass(load("california_coast"))
    first = plan(coast(), gazetteer)
    asked = len(server.seen)
    files = sorted(p.name for p in (Path(os.environ["TRIPWRIGHT_HOME"]) / "corridor-chunks").glob("*.json.gz"))
    assert files and all(name.count("_") == 3 for name in files)  # one file per cell, named by its box
    santa_barbara = chunks.ChunkStore().load(chunks.cell_of(34.4175, -119.6770))
    names = [p.name for p in santa_barbara.places]
    assert names.count("Motel 6 Santa Barbara - Beach") == 1  # a node/way twin is kept once
    assert "Old Cambria memorial plaque" not in str(files) and santa_barbara.osm_base == "2026-11-20T10:00:00Z"
    monkeypatch.setenv("TRIPWRIGHT_OFFLINE", "1")
    second = plan(coast(), gazetteer)
    assert len(server.seen) == asked  # offline: the cache answered, nobody was asked
    stops = lambda r: [(a.name, a.window) for d in r.itinerary.days for a in d.activities]  # noqa: E731
    assert stops(second) == stops(first)
    done = next(e for e in second.events if e.node == "corridor_sights" and e.status.value == "completed")
    assert done.cache_hit and "0 queries" in done.decision_note
    assert not any(OFFLINE_NOTE in night(d).notes for d in second.itinerary.days)


def test_offline_with_nothing_cached_plans_as_before_with_the_note(gazetteer, home, monkeypatch) -> None:
    monkeypatch.setenv("TRIPWRIGHT_OFFLINE", "1")
    intent = RoadTripIntent(origin="Los Angeles", terminus="Chicago", days=7, start_date=date(2027, 5, 3),
                            route="Route 66")
    result = plan(intent, gazetteer)
    before = plan_road_trip(intent, gazetteer)  # the planner with no OpenStreetMap at all
    after = result.extra["road_plan"]
    assert [(d.anchor, d.stops, d.drive_miles) for d in after.days] == \
        [(d.anchor, d.stops, d.drive_miles) for d in before.days]
    assert all(d.note == OFFLINE_NOTE and d.bed is None and not d.bed_note for d in after.days)
    for day in result.itinerary.days:
        assert "Offline: sights limited to the shipped data" in night(day).notes
        assert not osm_sights(day) and not any("(town walk)" in a.name for a in day.activities)
    assert result.itinerary.attributions == [] and "overpass" not in result.itinerary.degraded_tools
    assert not [e for e in result.events if e.node == "corridor_sights"]
    assert [e.node for e in result.events if e.status.value == "completed"][:2] == ["intent_extractor", "planner"]


def test_a_day_with_nothing_mapped_says_so_and_walks_the_town(overpass, gazetteer) -> None:
    """The Grand Junction → Moab day with none of its sights nor Moab's beds in the data."""
    gone = {109, 110, 111, 120, 121, 122, 123, 130, 131, 132, 153, 154, 155, 156, 157}
    overpass([e for e in load("colorado_utah") if e["id"] - 9_100_000_000 not in gone])
    result = plan(denver_to_salt_lake(), gazetteer)
    road, itinerary = result.extra["road_plan"], result.itinerary
    moab, day = road.days[1], itinerary.days[1]
    assert moab.note.startswith("no sights mapped in OpenStreetMap within 25 mi") and moab.sights_in_reach == 0
    assert "No sights mapped in OpenStreetMap" in night(day).notes
    assert moab.bed is None and moab.bed_note == "no lodging mapped within 5 mi of Moab, UT (OpenStreetMap)"
    assert "No lodging mapped within 5 mi of Moab, UT" in night(day).notes and night(day).cost_usd_cents == 0
    assert "⚠️ lodging: no lodging mapped within 5 mi of Moab, UT" in result.extra["report"]
    walks = [s for s in moab.stops if s.kind == "town"]
    assert len(walks) >= 2 and all(s.name.endswith("(town walk)") for s in walks)
    assert not [v for v in check_pacing(road) if v.node_ref == "day:1"]  # nothing real to replace them
    assert road.days[0].bed is not None and osm_sights(itinerary.days[2])


def _day(stops, sights_in_reach) -> RoadDay:
    town = Town(name="Kanab", lat=37.0475, lon=-112.5263, admin1="UT", country="US")
    return RoadDay(index=0, date=date(2027, 5, 3), start=town, anchor=town, start_progress=0, anchor_progress=100,
                   anchor_offset=0, drive_miles=100, drive_hours=2, depart_min=510, arrive_min=700,
                   stops=tuple(stops), sights_in_reach=sights_in_reach)


def test_a_town_walk_never_counts_for_inv_pace_01_in_place_of_a_real_sight() -> None:
    real = RoadStop(id="osm_n1", name="Coral Pink Sand Dunes", lat=37.04, lon=-112.73, kind="park", start_min=0,
                    end_min=60, progress_miles=20, offset_miles=3, source_url=OSM_PAGE + "node/1")
    walk = RoadStop(id="visit_geonames_1", name="Walk in Kanab (town walk)", lat=37.05, lon=-112.53, kind="town",
                    start_min=0, end_min=60, progress_miles=60, offset_miles=0)
    mine = RoadStop(id="visit_user_Kanab_60", name="Walk in Kanab", lat=37.05, lon=-112.53, kind="town",
                    start_min=0, end_min=60, progress_miles=60, offset_miles=0)

    def pace01(*days) -> list[str]:
        plan = RoadPlan(origin=days[0].start, terminus=days[-1].anchor, days=days, corridor=None, corridor_miles=50,
                        region="us", trip_type="one_way", max_daily_miles=400)
        return [v.details["message"] for v in check_pacing(plan) if v.details["invariant"] == "INV-PACE-01"]
    assert pace01(_day([real, walk], sights_in_reach=4)) == ["day 1 has 1 activities (at least 2)"]
    assert pace01(_day([real, walk], sights_in_reach=1)) == []  # the walk fills what nothing real could
    assert pace01(_day([real, walk], sights_in_reach=None)) == []  # no OpenStreetMap data: today's rule
    assert pace01(_day([real, mine], sights_in_reach=4)) == []  # the traveller's own visit always counts


def test_a_failed_fetch_plans_with_the_shipped_data_and_says_why(overpass, gazetteer) -> None:
    server = overpass(load("california_coast"))
    server.then(Reply(status=504), Reply(status=504))
    result = plan(coast(), gazetteer)
    road = result.extra["road_plan"]
    assert "overpass" not in result.itinerary.degraded_tools  # the plan is the one without OpenStreetMap
    assert all(d.note.startswith("OpenStreetMap unavailable (server busy (HTTP 504))") for d in road.days)
    said = next(e for e in result.events if e.node == "corridor_sights" and e.status.value == "completed")
    assert "OpenStreetMap unavailable: server busy (HTTP 504)" in said.decision_note
    assert not any(osm_sights(d) for d in result.itinerary.days) and len(server.seen) == 2  # retried once
    assert not result.itinerary.attributions


def test_beds_suit_the_party(gazetteer) -> None:
    moab = Town(name="Moab", lat=38.5733, lon=-109.5498, admin1="UT", country="US")
    elements = [{"type": "node", "id": 9_100_000_201, "lat": 38.5740, "lon": -109.5500,
                 "tags": {"name": "Lazy Lizard Hostel", "tourism": "hostel"}},
                {"type": "node", "id": 9_100_000_202, "lat": 38.5900, "lon": -109.5600,
                 "tags": {"name": "Canyonlands Motel", "tourism": "motel"}}]
    data = _data_of(elements)

    def intent(**kw):
        return SimpleNamespace(travellers=kw.get("travellers", 1), prefs=SimpleNamespace(kid_friendly=False))
    family, _ = BedPicker(data, intent(travellers=4)).bed_for(moab, date(2027, 5, 4))
    assert family.name == "Canyonlands Motel" and family.estimated and family.price_usd_cents == 12000
    # a booked night's bed is the planner's (its anchor is the booking): tests/engine/test_road_bookings.py


def test_road_readings_leave_city_packs_as_they_were() -> None:
    motel = {"name": "Apache Motel", "tourism": "motel"}
    falls = {"name": "Rifle Falls", "natural": "waterfall"}
    museum = {"name": "Museum of Moab", "tourism": "museum"}
    assert read_tags(motel) is None and read_tags(falls) is None  # a city pack never read them
    assert read_tags(motel, road=True).kind == "bed" and read_tags(falls, road=True).value == "waterfall"
    assert read_tags(museum) == read_tags(museum, road=True)
    assert read_tags({"name": "Cafe", "amenity": "cafe"}, road=True) is None  # a road trip reads no food
    wilderness = {"name": "Some Wilderness", "boundary": "protected_area", "protect_class": "1b"}
    assert read_tags(wilderness, road=True) is None
    assert read_tags(wilderness | {"protection_title": "State Park"}, road=True).kind == "sight"


def test_a_coast_to_coast_trip_asks_at_most_six_queries_and_plans_from_the_cache(
        overpass, gazetteer, monkeypatch) -> None:
    from engine.roadtrip.corridor import DirectCorridor
    line = DirectCorridor((40.7128, -74.0060), (37.7749, -122.4194))
    length = line.length_miles()
    elements = synthetic_corridor([line.point_at(length * k / 200) for k in range(201)])
    server = overpass(elements)
    intent = RoadTripIntent(origin="New York", terminus="San Francisco", days=14, start_date=date(2027, 5, 3))
    first = plan(intent, gazetteer)
    assert len(server.seen) <= 6 and len(first.itinerary.days) == 14
    assert all(len(osm_sights(d)) >= 2 for d in first.itinerary.days)
    monkeypatch.setenv("TRIPWRIGHT_OFFLINE", "1")
    chunks._read_chunk.cache_clear()
    chunks._ASSEMBLED.clear()
    again = plan(intent, gazetteer)  # from the cached chunks alone (its speed: bench/road_bench.py)
    assert len(server.seen) <= 6 and all(len(osm_sights(d)) >= 2 for d in again.itinerary.days)


def test_the_first_online_plan_through_the_executable_verifies(overpass, gazetteer, tmp_path) -> None:
    """The whole ``tripwright plan`` process, its cells fetched from the stand-in; ``verify`` then
    accepts the OpenStreetMap stops and beds of the saved file, offline."""
    server = overpass(load("colorado_utah"))
    shutil.copy(gazetteer.path, tmp_path / gazetteer.path.name)
    request, out = tmp_path / "road.json", tmp_path / "out.json"
    request.write_text(denver_to_salt_lake().model_dump_json())
    env = dict(os.environ)
    done = subprocess.run([str(EXE), "plan", "--intent", str(request), "--out", str(out), "--today", "2026-11-23"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert 1 <= len(server.seen) <= 6
    itinerary = json.loads(out.read_text())
    assert any(a["provenance"]["data_source"] == "osm" for d in itinerary["days"] for a in d["activities"])
    verified = subprocess.run([str(EXE), "verify", str(out)], capture_output=True, text=True,
                              env=env | {"TRIPWRIGHT_OFFLINE": "1"}, timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert date.fromisoformat(itinerary["days"][-1]["date"]) == date(2027, 5, 3) + timedelta(days=2)


# -- property: random trips over dense data (issue 20 §4) -------------------------------------
US_TOWNS = ["Denver", "Chicago", "Dallas", "Atlanta", "Nashville", "Kansas City, MO", "Minneapolis",
            "Albuquerque", "Memphis", "Omaha", "El Paso", "Billings", "Charlotte", "Pittsburgh", "Boise"]
EU_TOWNS = ["Paris", "Munich", "Vienna", "Milan", "Lyon", "Hamburg", "Prague", "Zurich", "Amsterdam",
            "Berlin", "Brussels", "Madrid", "Warsaw", "Bordeaux", "Krakow", "Budapest"]


BEDS = {"hotel", "motel", "guest_house", "hostel", "camp_site"}
BED_MILES = 5.0  # engine.roadtrip.osm_beds.BED_RADIUS_MILES


def _a_bed(element: dict) -> bool:
    """A place to stay a road trip keeps (not a private or disused one, the data's decoys)."""
    tags = element.get("tags", {})
    reading = read_tags(tags, road=True)
    return tags.get("tourism") in BEDS and reading is not None and reading.kind == "bed"


def _point(element: dict) -> tuple[float, float]:
    at = element.get("center") or element
    return at["lat"], at["lon"]


def _random_trips(gazetteer, count: int, seed: int) -> list[RoadTripIntent]:
    """Feasible one-way trips between towns whose straight line stays on land (the synthetic
    data lies along it), at a pace that leaves room for the day's sights."""
    from engine.roadtrip.resolve import PlaceResolver
    from engine.roadtrip.scenery import FERRY_MILES, sea_crossing
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        towns, region = rng.choice(((US_TOWNS, "us"), (EU_TOWNS, "europe")))
        a, b = rng.sample(towns, 2)
        resolver = PlaceResolver(gazetteer, region=region)
        pa, pb = (resolver.resolve(x, field="origin").point for x in (a, b))
        miles = geodesic_miles(pa, pb) * 1.3
        if miles > 1600 or sea_crossing(pa, pb)[0] > FERRY_MILES:
            continue
        days = max(2, math.ceil(miles / 250)) + rng.randint(0, 2)
        out.append(RoadTripIntent(origin=a, terminus=b, days=days, start_date=date(2027, 5, 3) + timedelta(
            days=rng.randint(0, 150)), max_daily_miles=rng.choice((300.0, 400.0))))
    return out


def test_random_trips_over_dense_data_keep_every_invariant_with_real_sights_and_beds(
        overpass, gazetteer, tmp_path, monkeypatch) -> None:
    from engine.roadtrip.corridor import DirectCorridor
    from engine.roadtrip.resolve import PlaceResolver
    for n, intent in enumerate(_random_trips(gazetteer, 6, seed=20)):
        monkeypatch.setenv("TRIPWRIGHT_HOME", str(tmp_path / f"trip{n}"))  # each trip its own data and cache
        chunks._read_chunk.cache_clear()
        chunks._ASSEMBLED.clear()
        region = "us" if intent.origin in US_TOWNS else "europe"
        resolver = PlaceResolver(gazetteer, region=region)
        line = DirectCorridor(*(resolver.resolve(x, field="origin").point for x in (intent.origin, intent.terminus)))
        length = line.length_miles()
        server = overpass(synthetic_corridor([line.point_at(length * k / 60) for k in range(61)],
                                             per_100_miles=600, seed=len(intent.origin)))
        result = plan(intent, gazetteer)
        road, itinerary = result.extra["road_plan"], result.itinerary
        assert not [v for v in itinerary.violations if v.blocking], intent
        for day, planned in zip(itinerary.days, road.days):
            if planned.exemption is None:  # a driving day: two real sights, open that day
                assert len(osm_sights(day)) >= 2, (intent.origin, intent.terminus, day.date)
            if planned is not road.days[-1] and planned.bed is not None:  # a named bed each night…
                assert planned.bed.name in night(day).name
            elif planned is not road.days[-1]:  # …where the data has one
                assert planned.bed_note.startswith("no lodging mapped within")
                beds = [e for e in server.elements if _a_bed(e) and geodesic_miles(_point(e), planned.anchor.point) <= BED_MILES]
                assert not beds, (planned.anchor.label, beds[:2])
            assert planned.drive_miles <= intent.max_daily_miles + 0.5
        server.stop()
