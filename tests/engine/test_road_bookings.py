"""A road trip's booked lodging (issue 21 §1): on the corridor it is that night's fixed anchor and
the other nights are chosen around it; off the corridor it is still that night's bed, the plan
says how far from the route it lies and the day's miles count the way out to it; verify blocks a
plan whose night is elsewhere; dates outside the trip, caps that cannot be met and a place that
cannot be found are one line naming the booking.

Real places, from published sources: the Blue Swallow Motel, 815 E Route 66 Blvd, Tucumcari, NM —
35.171866, -103.716421 (Wikipedia's infobox, NRHP 93001210; the address from RoadsideAmerica.com)
— on Route 66; El Tovar Hotel, 9 Village Loop Dr, Grand Canyon, AZ — 36.05750, -112.13722
(Wikipedia's infobox, NRHP 74000334; the address from the Historical Marker Database) — on the
South Rim, about 55 mi north of Route 66 at Williams. Codes, prices and guests are made up.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from engine.errors import InputError
from engine.geocode.trust import geodesic_miles
from engine.models import RoadTripIntent
from engine.pipeline import PlanningSession
from engine.roadtrip.invariants import verify_road_plan
from engine.roadtrip.planner import RoadTripPlanner, plan_road_trip
from tests.engine.conftest import TODAY
from tests.engine.standin_server import Reply as NominatimReply
from tests.overpass_standin import OverpassStandIn

BLUE_SWALLOW = (35.171866, -103.716421)
EL_TOVAR = (36.05750, -112.13722)
BLUE = {"name": "Blue Swallow Motel", "address": "815 E Route 66 Blvd, Tucumcari, NM 88401",
        "geo": {"lat": BLUE_SWALLOW[0], "lon": BLUE_SWALLOW[1]}, "checkin": "2027-05-05", "checkout": "2027-05-06",
        "confirmation": "BSW20418", "price_usd_cents": 12900, "source": "email"}
TOVAR = {"name": "El Tovar Hotel", "address": "9 Village Loop Dr, Grand Canyon, AZ 86023",
         "geo": {"lat": EL_TOVAR[0], "lon": EL_TOVAR[1]}, "checkin": "2027-05-04", "checkout": "2027-05-05",
         "confirmation": "ELT88213", "price_usd_cents": 56000, "source": "manual"}
EML = Path(__file__).parents[1] / "data" / "bookings" / "blue_swallow_route66.eml"
EXE = Path(sys.executable).with_name("tripwright")
PROMPT = "LA to Chicago via Route 66, 7 days from 2027-05-03"


@pytest.fixture(scope="module")
def gazetteer(tmp_path_factory):
    from engine.geocode import GazetteerIndex
    return GazetteerIndex.open(os.environ.get("TRIPWRIGHT_HOME") or str(tmp_path_factory.mktemp("home")))


def trip(hotel: dict | None = None, **kw) -> RoadTripIntent:
    base = {"origin": "Los Angeles", "terminus": "Chicago", "days": 7, "start_date": date(2027, 5, 3),
            "route": "Route 66"}
    return RoadTripIntent(**(base | kw | ({"bookings": {"hotel": hotel}} if hotel else {})))


def blocking(violations):
    return [v for v in violations if v.blocking]


def night(day):
    return next(a for a in day.activities if a.role in ("checkin", "arrival"))


def test_a_booked_motel_on_the_corridor_is_that_nights_anchor(gazetteer) -> None:
    free = plan_road_trip(trip(), gazetteer)
    assert free.days[2].anchor.name != "Tucumcari"  # left alone, the planner sleeps elsewhere that night
    plan = plan_road_trip(trip(BLUE), gazetteer)
    third = plan.days[2]
    assert third.date == date(2027, 5, 5) and third.anchor.name == "Tucumcari" and third.forced
    assert geodesic_miles(third.anchor.point, BLUE_SWALLOW) < 0.01 and third.anchor.source == "user"
    bed = third.bed
    assert (bed.name, bed.data_source, bed.estimated, bed.price_usd_cents, bed.confirmation) == (
        "Blue Swallow Motel", "user", False, 12900, "BSW20418")
    assert [d.anchor.name for d in plan.days[:2]] != [d.anchor.name for d in free.days[:2]]  # chosen around it
    assert all(d.drive_miles <= 400 for d in plan.days) and len(plan.days) == 7
    assert all(d.bed is None for d in plan.days if d is not third)  # no OpenStreetMap here: only the booking
    assert blocking(verify_road_plan(plan)) == []


def test_off_the_corridor_it_is_still_the_night_with_its_distance_and_honest_miles(gazetteer) -> None:
    planner = RoadTripPlanner(trip(TOVAR), gazetteer)
    plan = planner.plan()
    second = plan.days[1]
    assert geodesic_miles(second.anchor.point, EL_TOVAR) < 0.01 and second.bed.name == "El Tovar Hotel"
    assert second.anchor.label == "Grand Canyon Village, AZ"  # the night named by the place it is in
    off = plan.corridor.offset_miles(*EL_TOVAR)
    assert 50 < off < 60  # the corridor is 50 mi wide
    # both days drive the corridor and, at least in a straight line, the way out to the rim and back
    along = planner.road.between(plan.days[0].anchor_progress, plan.days[2].anchor_progress)
    assert second.drive_miles + plan.days[2].drive_miles >= along + 2 * off
    assert all(d.drive_miles <= 400 for d in plan.days)
    found = verify_road_plan(plan)
    assert blocking(found) == []
    said = [v for v in found if v.details["invariant"] == "INV-BOOKED-02"]
    assert len(said) == 1 and said[0].node_ref == "day:1" and said[0].details["offset_miles"] == pytest.approx(off, abs=0.1)
    assert said[0].details["message"].startswith(f"El Tovar Hotel (confirmation EL••••••) is {off:.0f} mi from Route 66")
    assert not [v for v in found if v.details["invariant"] == "INV-CORR-02"]  # said once, as the booking
    assert any("El Tovar Hotel" in line and "mi from Route 66" in line for line in plan.log)


def test_the_itinerary_shows_the_booking_as_the_travellers_own(gazetteer) -> None:
    result = asyncio.run(PlanningSession(today=TODAY, geocoder=gazetteer).plan(trip(TOVAR, travellers=4)))
    assert result.status == "completed", result.failure
    stay = night(result.itinerary.days[1])
    assert stay.provenance.data_source == "user" and stay.locked
    assert "your booking, confirmation ELT88213" in stay.notes and "$560.00 a night as booked" in stay.notes
    assert stay.cost_usd_cents == 56000  # the booking's price, not once per room of the party
    assert (stay.geo.lat, stay.geo.lon) == EL_TOVAR
    deviation = [v for v in result.itinerary.violations if v.details.get("invariant") == "INV-BOOKED-02"]
    assert len(deviation) == 1 and not deviation[0].blocking and "55 mi from Route 66" in deviation[0].details["message"]
    assert "INV-BOOKED-02: El Tovar Hotel" in result.extra["report"]


def test_a_paid_booking_is_shown_and_left_out_of_the_costs(gazetteer) -> None:
    session = PlanningSession(today=TODAY, geocoder=gazetteer)
    owed = asyncio.run(session.plan(trip(BLUE))).itinerary
    paid = asyncio.run(session.plan(trip(BLUE | {"paid": True}))).itinerary
    stay = night(paid.days[2])
    assert "your booking, confirmation BSW20418" in stay.notes and "paid (not counted in the trip's costs)" in stay.notes
    assert stay.cost_usd_cents == 0 and night(owed.days[2]).cost_usd_cents == 12900
    assert owed.cost_breakdown.lodging_usd_cents - paid.cost_breakdown.lodging_usd_cents == 12900


def test_a_stay_of_two_nights_rests_a_day_there(gazetteer) -> None:
    plan = plan_road_trip(trip(BLUE | {"checkout": "2027-05-07"}, days=8), gazetteer)
    third, fourth = plan.days[2], plan.days[3]
    assert third.anchor.name == fourth.anchor.name == "Tucumcari"
    assert fourth.exemption == "rest" and fourth.drive_miles == 0 and fourth.bed.name == "Blue Swallow Motel"
    assert plan.days[-1].anchor.name == "Chicago" and len(plan.days) == 8
    assert blocking(verify_road_plan(plan)) == []


def test_a_stop_or_rest_day_in_the_booked_town_is_the_booked_night(gazetteer) -> None:
    stop = plan_road_trip(trip(BLUE, stops=["Tucumcari, NM"]), gazetteer)  # the stop is the booked night
    assert len(stop.days) == 7 and stop.days[2].anchor.name == "Tucumcari" and stop.days[2].bed.name == BLUE["name"]
    assert [d.anchor.name for d in stop.days].count("Tucumcari") == 1
    two = plan_road_trip(trip(BLUE | {"checkout": "2027-05-07"}, days=8, rest_days=["Tucumcari, NM"]), gazetteer)
    assert [d.exemption for d in two.days].count("rest") == 1  # the rest day asked is the booked second night
    assert [d.bed.name if d.bed else None for d in two.days[2:4]] == [BLUE["name"]] * 2
    one = plan_road_trip(trip(BLUE, days=8, rest_days=["Tucumcari, NM"]), gazetteer)
    rest = one.days[3]
    assert rest.exemption == "rest" and rest.anchor.name == "Tucumcari" and rest.bed is None
    assert rest.bed_note == "Blue Swallow Motel is booked until 2027-05-06: this night is not booked"
    assert all(blocking(verify_road_plan(p)) == [] for p in (stop, two, one))


def test_a_round_trip_keeps_a_night_booked_on_the_way_back(gazetteer) -> None:
    plan = plan_road_trip(trip(BLUE | {"checkin": "2027-05-06", "checkout": "2027-05-07"}, origin="Oklahoma City",
                               terminus="Albuquerque", trip_type="round_trip", days=6), gazetteer)
    back = plan.days[3]
    assert back.returning and back.anchor.name == "Tucumcari" and back.bed.name == "Blue Swallow Motel"
    assert plan.days[2].anchor.name == "Albuquerque" and blocking(verify_road_plan(plan)) == []


def test_a_loop_from_home_goes_round_by_the_booked_night(gazetteer) -> None:
    """Denver and back in five days with a motel booked in Moab, UT (a made-up booking at the
    town's own point) for the second night: the loop drawn without it passes 137 mi from Moab, so
    it goes out by the booking instead of its side town, and the second night is there."""
    moab = {"name": "Moab Valley Inn", "geo": {"lat": 38.5733, "lon": -109.5498}, "checkin": "2027-05-04",
            "checkout": "2027-05-05"}
    plan = plan_road_trip(trip(moab, origin="Denver", terminus="Denver", trip_type="round_trip", route=None, days=5),
                          gazetteer)
    assert plan.days[1].anchor.name == "Moab" and plan.days[1].bed.name == "Moab Valley Inn"
    assert plan.days[-1].anchor.name == "Denver" and all(d.drive_miles <= 400 for d in plan.days)
    assert plan.days[1].anchor_offset < 1 and "a loop out by Moab Valley Inn (your booking)" in " ".join(plan.log)
    assert verify_road_plan(plan) == []


@pytest.mark.parametrize("hotel, words", [
    (BLUE | {"checkin": "2027-05-03", "checkout": "2027-05-04"},  # 1,000 mi from LA on the first night
     ["Blue Swallow Motel, booked for night 1 (2027-05-03)", "from Los Angeles, CA to it", "400-mile daily cap"]),
    (BLUE | {"checkin": "2027-05-09", "checkout": "2027-05-10"},  # the last day ends in Chicago
     ["Blue Swallow Motel is booked 2027-05-09 to 2027-05-10", "road trip starts 2027-05-03 and lasts 7 day(s)"]),
    (BLUE | {"checkin": "2027-04-30", "checkout": "2027-05-01"},
     ["booked 2027-04-30 to 2027-05-01", "its nights run 2027-05-03 to 2027-05-08"]),
])
def test_a_booking_the_trip_cannot_keep_is_one_line_naming_it(gazetteer, hotel, words) -> None:
    with pytest.raises(InputError) as err:
        plan_road_trip(trip(hotel), gazetteer)
    assert err.value.field == "bookings.hotel" and all(w in err.value.message for w in words), err.value.message
    assert "\n" not in err.value.message


def test_a_booking_behind_the_trip_on_its_night_is_refused(gazetteer) -> None:
    """Tucumcari on the 4th night of a round trip from Flagstaff that turns round in Albuquerque."""
    with pytest.raises(InputError, match=r"bookings.hotel: Blue Swallow Motel, booked for night 4 \(2027-05-06\): "
                                         r"it is not on the way from Albuquerque"):
        plan_road_trip(trip(BLUE | {"checkin": "2027-05-06", "checkout": "2027-05-07"}, origin="Flagstaff",
                            terminus="Albuquerque", trip_type="round_trip", days=6), gazetteer)


def test_offline_a_motel_booked_by_its_address_only_is_one_line(gazetteer) -> None:
    by_address = {k: v for k, v in BLUE.items() if k != "geo"}
    with pytest.raises(InputError, match=r"^bookings.hotel.geo: where Blue Swallow Motel is: offline"):
        asyncio.run(PlanningSession(today=TODAY, geocoder=gazetteer).plan(trip(by_address)))


# -- placed online: the corridor's own beds, else Nominatim -------------------------------------
BLUE_OSM = {"type": "node", "id": 9_100_000_661, "lat": BLUE_SWALLOW[0], "lon": BLUE_SWALLOW[1],
            "tags": {"name": "Blue Swallow Motel", "tourism": "motel", "addr:street": "East Route 66 Boulevard"}}
# Nominatim's /search?format=json&addressdetails=1 shape for El Tovar
TOVAR_NOMINATIM = [{"place_id": 7, "osm_type": "way", "osm_id": 26845432, "lat": "36.0575000", "lon": "-112.1372200",
                    "class": "tourism", "type": "hotel", "importance": 0.4, "name": "El Tovar Hotel",
                    "display_name": "El Tovar Hotel, 9, Village Loop Drive, Grand Canyon Village, Coconino County, "
                                    "Arizona, 86023, United States",
                    "address": {"tourism": "El Tovar Hotel", "house_number": "9", "road": "Village Loop Drive",
                                "village": "Grand Canyon Village", "county": "Coconino County", "state": "Arizona",
                                "ISO3166-2-lvl4": "US-AZ", "postcode": "86023", "country": "United States",
                                "country_code": "us"}}]


@pytest.fixture()
def online(tmp_path, monkeypatch, server):
    """Overpass and Nominatim stand-ins, a data dir of the test's own (its corridor cells)."""
    monkeypatch.setenv("TRIPWRIGHT_HOME", str(tmp_path))
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)
    monkeypatch.delenv("TRIPWRIGHT_ROUTING_URL", raising=False)
    monkeypatch.setenv("TRIPWRIGHT_NOMINATIM_URL", server.url)
    overpass = OverpassStandIn(elements=[BLUE_OSM]).start()
    monkeypatch.setenv("TRIPWRIGHT_OVERPASS_URL", overpass.interpreter_url)
    monkeypatch.setenv("TRIPWRIGHT_OVERPASS_TIMEOUT_S", "2")
    yield server
    overpass.stop()


def test_online_the_corridors_own_motel_of_that_name_places_it_without_a_lookup(online, gazetteer) -> None:
    by_name = {k: v for k, v in BLUE.items() if k not in ("geo", "address")}
    result = asyncio.run(PlanningSession(today=TODAY, geocoder=gazetteer).plan(trip(by_name)))
    assert result.status == "completed", result.failure
    stay = night(result.itinerary.days[2])
    assert (stay.geo.lat, stay.geo.lon) == BLUE_SWALLOW and stay.provenance.data_source == "user"
    assert result.itinerary.intent.bookings.hotel.geo.lat == BLUE_SWALLOW[0]  # kept for verify
    placed = [e for e in result.events if e.node == "bookings"]
    assert "placed by the corridor's places to stay (OpenStreetMap)" in placed[0].decision_note
    assert not online.hits("/search")


def test_online_an_address_off_the_corridor_is_asked_of_nominatim(online, gazetteer) -> None:
    online.then("/search", NominatimReply(body=json.dumps(TOVAR_NOMINATIM).encode()))
    by_address = {k: v for k, v in TOVAR.items() if k != "geo"}
    result = asyncio.run(PlanningSession(today=TODAY, geocoder=gazetteer).plan(trip(by_address)))
    assert result.status == "completed", result.failure
    stay = night(result.itinerary.days[1])
    assert (stay.geo.lat, stay.geo.lon) == EL_TOVAR
    asked = [h for h in online.hits("/search") if h.query["q"] == TOVAR["address"]]
    assert len(asked) == 1


# -- the command line ----------------------------------------------------------------------------
def _cli(*args: str, home: Path):
    env = {**os.environ, "TRIPWRIGHT_HOME": str(home), "TRIPWRIGHT_OFFLINE": "1"}
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, env=env, timeout=180)


def test_plan_bookings_on_a_road_trip_and_verify_its_night(tmp_path) -> None:
    out = tmp_path / "route66.json"
    done = _cli("-v", "plan", "--prompt", PROMPT, "--bookings", str(EML), "--out", str(out), "--today", "2026-11-23",
                home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "BSW20418" not in done.stderr + done.stdout and "BS••••••" in done.stderr  # masked in logs
    itin = json.loads(out.read_text())
    third = itin["days"][2]
    stay = next(a for a in third["activities"] if a["role"] == "checkin")
    assert third["anchor"]["name"] == "Tucumcari, NM" and third["anchor"]["source"] == "user"
    assert stay["provenance"]["data_source"] == "user" and "confirmation BSW20418" in stay["notes"]
    checked = _cli("verify", str(out), home=tmp_path)
    assert checked.returncode == 0 and "0 blocking" in checked.stdout, checked.stdout + checked.stderr
    # the same file claiming the motel for the next night: that night is elsewhere — blocking
    itin["intent"]["bookings"]["hotel"] |= {"checkin": "2027-05-06", "checkout": "2027-05-07"}
    moved = tmp_path / "moved.json"
    moved.write_text(json.dumps(itin))
    checked = _cli("verify", str(moved), home=tmp_path)
    assert checked.returncode == 1 and "INV-BOOKED-01" in checked.stdout
    assert "night of 2027-05-06 is at " in checked.stdout and "from Blue Swallow Motel (confirmation BS••••••)" \
        in checked.stdout


def test_verify_rederives_an_off_corridor_nights_miles_as_the_planner_counted_them(gazetteer, tmp_path) -> None:
    result = asyncio.run(PlanningSession(today=TODAY, geocoder=gazetteer).plan(trip(TOVAR)))
    saved = tmp_path / "tovar.json"
    saved.write_text(result.itinerary.model_dump_json())
    checked = _cli("verify", str(saved), home=tmp_path)
    assert checked.returncode == 0 and "0 blocking, 1 advisory" in checked.stdout, checked.stdout + checked.stderr
    assert "El Tovar Hotel (confirmation EL••••••) is 55 mi from Route 66" in checked.stdout


def test_verify_a_loop_round_by_two_booked_nights(tmp_path) -> None:
    """The loop is sized by the days that drive (the booked stay's second night rests), in the
    plan and in verify alike; the rest day there drives nowhere."""
    moab = {"name": "Moab Valley Inn", "geo": {"lat": 38.5733, "lon": -109.5498}, "checkin": "2027-05-04",
            "checkout": "2027-05-06"}
    request = tmp_path / "loop.json"
    request.write_text(trip(moab, origin="Denver", terminus="Denver", trip_type="round_trip", route=None,
                            days=6).model_dump_json())
    out = tmp_path / "loop-out.json"
    done = _cli("plan", "--intent", str(request), "--out", str(out), "--today", "2026-11-23", home=tmp_path)
    assert done.returncode == 0, done.stderr
    days = json.loads(out.read_text())["days"]
    assert [d["anchor"]["name"] for d in days[1:3]] == ["Moab, UT"] * 2 and days[2]["exemption"] == "rest"
    checked = _cli("verify", str(out), home=tmp_path)
    assert checked.returncode == 0 and "0 blocking" in checked.stdout, checked.stdout + checked.stderr


def test_plan_a_road_trip_with_bookings_outside_it_or_with_flights_exits_2(tmp_path) -> None:
    late = _cli("plan", "--prompt", "LA to Chicago via Route 66, 3 days from 2027-05-03", "--bookings", str(EML),
                "--out", str(tmp_path / "x.json"), home=tmp_path)
    assert late.returncode == 2 and len(late.stderr.strip().splitlines()) == 1, late.stderr
    assert "Blue Swallow Motel is booked 2027-05-05 to 2027-05-06" in late.stderr and "Traceback" not in late.stderr
    assert not (tmp_path / "x.json").exists()
    flight = EML.with_name("af_jfk_cdg.eml")
    flown = _cli("plan", "--prompt", PROMPT, "--bookings", str(flight), home=tmp_path)
    assert flown.returncode == 2 and "a road trip plans no flights" in flown.stderr, flown.stderr
    assert len(flown.stderr.strip().splitlines()) == 1


def test_plan_llm_keeps_the_bookings_too(tmp_path) -> None:
    """``--llm`` with no model reachable plans by the rules, around the same booked night."""
    request = tmp_path / "road.json"
    request.write_text(trip().model_dump_json())
    out = tmp_path / "llm.json"
    done = _cli("plan", "--llm", "--intent", str(request), "--bookings", str(EML), "--out", str(out),
                "--today", "2026-11-23", home=tmp_path)
    assert done.returncode == 0, done.stderr
    third = json.loads(out.read_text())["days"][2]
    assert third["anchor"]["name"] == "Tucumcari, NM" and third["anchor"]["source"] == "user"


def test_a_ticket_on_a_road_trip_is_one_line_not_dropped(tmp_path) -> None:
    """A road trip plans no timed tickets (a city trip does): the CLI says so instead of dropping it."""
    ticket = Path(__file__).parents[1] / "data" / "bookings" / "garnier_giselle.eml"
    done = subprocess.run([str(EXE), "plan", "--prompt", PROMPT, "--bookings", str(ticket), "--out",
                           str(tmp_path / "road.json")], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TRIPWRIGHT_HOME": str(tmp_path / "home")})
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "bookings.events" in done.stderr and "tickets are planned on city trips" in done.stderr


def test_a_booking_that_a_locked_stop_makes_unreachable_names_the_lock() -> None:
    """Issue 32 §1: a night the traveller locked on the map (a requested stop) before the booked
    motel leaves too few days to reach it — the one line names the lock and the way out, not only a
    mileage rule; without the lock the same booking plans."""
    with pytest.raises(InputError) as caught:
        asyncio.run(PlanningSession(today=TODAY).plan(trip(BLUE, stops=["Moriarty, NM"])))
    line = str(caught.value)
    assert "Blue Swallow Motel, booked for night 3 (2027-05-05)" in line
    assert "your locked stop at Moriarty, NM" in line and "unlock Moriarty, NM on the map" in line
    assert "\n" not in line
    assert asyncio.run(PlanningSession(today=TODAY).plan(trip(BLUE))).status == "completed"
