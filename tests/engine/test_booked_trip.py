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
