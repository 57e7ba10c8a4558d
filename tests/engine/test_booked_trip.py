"""A trip built around the traveller's own bookings (issue 21 §1), through the real pipeline: the
booked flights and hotel are the plan's (data_source "user"), priced as booked or not counted when
paid, never moved, and a booking that contradicts the trip is one line naming both."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import InputError
from engine.models import IntentV1
from engine.pipeline.run import PlanningSession
from tests.engine.conftest import PARIS_DEMO, TODAY

# Real-shaped, fictional: the airline, airports and hotel are real; times, fares and codes are ours.
OUT = {"carrier": "Air France", "flight_number": "AF 23", "origin": "JFK", "dest": "CDG",
       "departure": "2027-06-14T18:30:00-04:00", "arrival": "2027-06-15T07:50:00+02:00",
       "confirmation": "QX7K2M", "price_usd_cents": 61200, "source": "email"}
BACK = {"carrier": "Air France", "flight_number": "AF 22", "origin": "CDG", "dest": "JFK",
        "departure": "2027-06-19T16:05:00+02:00", "arrival": "2027-06-19T18:20:00-04:00",
        "confirmation": "QX7K2M", "price_usd_cents": 58800, "source": "email"}
HOTEL = {"name": "Hôtel Jeanne d'Arc Le Marais", "address": "3 Rue de Jarente, 75004 Paris",
         "geo": {"lat": 48.85604, "lon": 2.36289}, "checkin": "2027-06-15", "checkout": "2027-06-19",
         "confirmation": "HJ-88213", "price_usd_cents": 98000, "paid": True, "source": "email"}


def booked(**changes) -> IntentV1:
    data = json.loads(json.dumps(PARIS_DEMO))
    data["bookings"] = {"flights": [OUT, BACK], "hotel": HOTEL} | changes
    return IntentV1.model_validate(data)


def plan(intent: IntentV1):
    return asyncio.run(PlanningSession(today=TODAY).plan(intent))


def test_the_plan_is_built_around_the_bookings() -> None:
    result = plan(booked())
    assert result.status == "completed", result.failure
    itin = result.itinerary
    acts = [a for d in itin.days for a in d.activities]
    flights = [a for a in acts if a.kind.value == "flight"]
    assert [a.name.split(" ")[0] + " " + a.name.split(" ")[1] for a in flights] == ["AF 23", "AF 22"]
    assert all(a.provenance.data_source == "user" and "your booking" in a.notes for a in flights)
    assert "confirmation QX7K2M" in flights[0].notes
    stay = [a for a in acts if a.kind.value == "lodging"]
    assert {a.name for a in stay} == {"Hôtel Jeanne d'Arc Le Marais"}
    assert "paid (not counted in the budget)" in stay[0].notes
    assert stay[0].address == "3 Rue de Jarente, 75004 Paris"  # the booking's own address
    cost = itin.cost_breakdown
    assert cost.flights_usd_cents == 61200 + 58800 and cost.lodging_usd_cents == 0
    assert "flights" not in cost.estimated_parts


def test_a_late_landing_makes_day_one_arrival_only() -> None:
    # (landing after ~22:30 at CDG would put the check-in past midnight, which a plan day cannot hold)
    late = OUT | {"departure": "2027-06-15T07:00:00-04:00", "arrival": "2027-06-15T21:40:00+02:00"}
    result = plan(booked(flights=[late, BACK]))
    assert result.status == "completed", result.failure
    first = [a for a in result.itinerary.days[0].activities if a.kind.value != "transit"]
    assert [a.kind.value for a in first] == ["flight", "lodging"]


# Landing at 22:40 at CDG: deplaning and the ride into the Marais take ~86 min, so the traveller
# reaches the hotel after midnight. The check-in opens the next day (the night of the 15th is booked
# and held), the ride is day 1's last row, and the verifier checks the gap across midnight.
LATE = OUT | {"departure": "2027-06-15T09:25:00-04:00", "arrival": "2027-06-15T22:40:00+02:00"}


def test_a_landing_after_22_30_checks_in_after_midnight() -> None:
    result = plan(booked(flights=[LATE, BACK]))
    assert result.status == "completed", result.failure
    itin = result.itinerary
    first = [a for a in itin.days[0].activities if a.kind.value != "transit"]
    assert [a.role for a in first] == ["arrival"]
    ride = [a for a in itin.days[0].activities if a.role == "transfer"]
    assert len(ride) == 1 and ride[0].window.start.strftime("%H:%M") == "22:40"
    desk = itin.days[1].activities[0]
    assert (desk.role, desk.name) == ("checkin", "Hôtel Jeanne d'Arc Le Marais")
    assert "00:" in desk.window.start.strftime("%H:%M") and "after midnight" in desk.notes
    assert itin.cost_breakdown.transit_usd_cents > 0
    assert any(a.kind.value == "attraction" for a in itin.days[1].activities)


def retimed(plan, start):
    """The plan with its day-2 check-in (the first slot) moved to ``start`` for 30 min."""
    from engine.models import TimeWindow

    day = plan.days[1]
    desk = day.slots[0].model_copy(update={"window": TimeWindow(start=start, end=start.replace(minute=30))})
    days = list(plan.days)
    days[1] = day.model_copy(update={"slots": [desk, *day.slots[1:]]})
    return plan.model_copy(update={"days": days})


def test_a_late_check_in_is_verified_across_midnight() -> None:
    from datetime import time

    from engine.verify.lodging_windows import verify_lodging_windows
    from engine.verify.timing import verify_timing

    intent = booked(flights=[LATE, BACK])
    result = plan(intent)
    session_plan, facts = result.plan, result.inputs.facts
    assert not verify_timing(session_plan, intent, facts)
    too_soon = retimed(session_plan, time(0, 0))
    found = verify_timing(too_soon, intent, facts)
    assert [v.details["reason"] for v in found] == ["gap_too_short"]
    assert "AF 23" in found[0].details["message"] and "80 min" in found[0].details["message"]
    too_late = retimed(session_plan, time(5, 0))
    assert [v.details["reason"] for v in verify_lodging_windows(too_late, intent, facts)] == ["checkin_window"]


def test_a_late_booked_trip_verifies_and_exports(tmp_path) -> None:
    from icalendar import Calendar

    result = plan(booked(flights=[LATE, BACK]))
    path = tmp_path / "late.json"
    path.write_text(result.itinerary.model_dump_json())
    exe = Path(sys.executable).with_name("tripwright")
    done = subprocess.run([str(exe), "verify", str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "0 blocking" in done.stdout, done.stdout + done.stderr
    ics = tmp_path / "late.ics"
    done = subprocess.run([str(exe), "export", str(path), "--ics", str(ics)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    stay = [e.decoded("DTSTART").isoformat() for e in Calendar.from_ical(ics.read_bytes()).walk("VEVENT")
            if "Jeanne d'Arc" in str(e["SUMMARY"])]
    assert min(stay).startswith("2027-06-16T00:")  # the check-in, on the calendar after midnight


def test_a_booking_that_contradicts_the_trip_names_both() -> None:
    wrong_day = OUT | {"departure": "2027-06-15T18:30:00-04:00", "arrival": "2027-06-16T07:50:00+02:00"}
    with pytest.raises(InputError, match=r"AF 23 lands Paris on 2027-06-16, but the trip's first day is 2027-06-15"):
        plan(booked(flights=[wrong_day, BACK]))
    with pytest.raises(InputError, match="booked 2027-06-16 to 2027-06-19, but the trip runs 2027-06-15"):
        plan(booked(hotel=HOTEL | {"checkin": "2027-06-16"}))
    lisbon = OUT | {"dest": "LIS", "arrival": "2027-06-15T06:50:00+01:00"}
    with pytest.raises(InputError, match="neither lands at nor leaves Paris's airports"):
        plan(booked(flights=[lisbon, BACK]))


def test_a_booked_trip_verifies(tmp_path) -> None:
    result = plan(booked())
    path = tmp_path / "paris.json"
    path.write_text(result.itinerary.model_dump_json())
    exe = Path(sys.executable).with_name("tripwright")
    done = subprocess.run([str(exe), "verify", str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "0 blocking" in done.stdout, done.stdout + done.stderr


# -- a hotel booked by its address (issue 21 §1: geocoded) -------------------------------------
# A hotel the Paris fixture does not list: Hôtel du Petit Moulin, 29-31 Rue de Poitou (its real
# position, OpenStreetMap), in Nominatim's /search?format=json&addressdetails=1 shape.
POITOU = [{"place_id": 1, "osm_type": "node", "osm_id": 3322000001, "lat": "48.8622600", "lon": "2.3640900",
           "class": "tourism", "type": "hotel", "importance": 0.2, "name": "Hôtel du Petit Moulin",
           "display_name": "Hôtel du Petit Moulin, 29-31, Rue de Poitou, Paris, 75003, France",
           "address": {"tourism": "Hôtel du Petit Moulin", "house_number": "29-31", "road": "Rue de Poitou",
                       "city": "Paris", "postcode": "75003", "country": "France", "country_code": "fr",
                       "ISO3166-2-lvl4": "FR-IDF", "state": "Île-de-France"}}]
BY_ADDRESS = {k: v for k, v in HOTEL.items() if k != "geo"} | {"name": "Hôtel du Petit Moulin",
                                                               "address": "29-31 Rue de Poitou, 75003 Paris"}


@pytest.mark.standin_urls("TRIPWRIGHT_NOMINATIM_URL")
def test_a_hotel_booked_by_its_address_is_found_online_once(server, monkeypatch) -> None:
    from tests.engine.standin_server import Reply
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)
    server.then("/search", Reply(body=json.dumps(POITOU).encode()))
    result = plan(booked(hotel=BY_ADDRESS))
    assert result.status == "completed", result.failure
    stay = [a for d in result.itinerary.days for a in d.activities if a.kind.value == "lodging"][0]
    assert (stay.geo.lat, stay.geo.lon) == (pytest.approx(48.86226), pytest.approx(2.36409))
    assert stay.provenance.data_source == "user"  # the booking is the traveller's; its position is OSM's:
    assert stay.provenance.source_url == "https://www.openstreetmap.org/node/3322000001"
    assert "placed by its address (OpenStreetMap Nominatim)" in stay.notes
    asked = server.hits("/search")
    assert len(asked) == 1 and asked[0].query["q"] == "29-31 Rue de Poitou, 75003 Paris"
    assert asked[0].query["format"] == "json" and asked[0].query["addressdetails"] == "1"


@pytest.mark.standin_urls("TRIPWRIGHT_NOMINATIM_URL")
def test_an_address_that_answers_somewhere_else_is_refused(server, monkeypatch) -> None:
    from tests.engine.standin_server import Reply
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)
    lyon = [POITOU[0] | {"lat": "45.7578", "lon": "4.8320", "display_name": "Rue de Poitou, Lyon, France"}]
    server.then("/search", Reply(body=json.dumps(lyon).encode()), Reply(body=json.dumps(lyon).encode()))
    with pytest.raises(InputError, match=r"bookings.hotel.geo: where Hôtel du Petit Moulin is: no place near Paris"):
        plan(booked(hotel=BY_ADDRESS))


def test_offline_a_hotel_booked_by_its_address_is_one_clear_line() -> None:
    with pytest.raises(InputError, match=r"bookings.hotel.geo: where Hôtel du Petit Moulin is: offline"):
        plan(booked(hotel=BY_ADDRESS))


def test_a_hotel_the_city_lists_is_placed_without_a_request() -> None:
    from engine.catalog import default_catalog
    known = default_catalog().city("Paris").raw.hotels[0]
    result = plan(booked(hotel=BY_ADDRESS | {"name": known.name, "address": ""}))
    assert result.status == "completed", result.failure
    stay = [a for d in result.itinerary.days for a in d.activities if a.kind.value == "lodging"][0]
    assert (stay.geo.lat, stay.geo.lon) == (known.geo.lat, known.geo.lon)
