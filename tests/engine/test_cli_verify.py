"""``tripwright verify`` trusts nothing it can re-derive (issue 9), through the real executable.

Each test plans a real trip once (module fixtures), tampers with a copy of the saved JSON the way a
hand edit would, and checks the exit code and the line that says what does not match.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from .test_cli import INTENT, ROAD, TODAY, tw


def _plan(tmp: Path, intent: dict, name: str) -> dict:
    intent_path, out = tmp / f"{name}-intent.json", tmp / f"{name}.json"
    intent_path.write_text(json.dumps(intent))
    done = tw("plan", "--intent", str(intent_path), "--out", str(out), "--today", TODAY)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text())


@pytest.fixture(scope="module")
def paris(tmp_path_factory) -> dict:
    return _plan(tmp_path_factory.mktemp("paris"), INTENT, "paris")


@pytest.fixture(scope="module")
def route66(tmp_path_factory) -> dict:
    return _plan(tmp_path_factory.mktemp("road"), ROAD, "road")


def verify(tmp_path: Path, data: dict):
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    return tw("verify", str(path))


def _acts(data: dict, day: int, role: str) -> list[dict]:
    return [a for a in data["days"][day]["activities"] if a["role"] == role]


# -- city trips ------------------------------------------------------------------------------
def test_a_fresh_plan_records_its_planning_date_and_verifies(tmp_path, paris) -> None:
    assert paris["planning_date"] == TODAY
    done = verify(tmp_path, paris)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1] == "0 blocking, 0 advisory"


@pytest.mark.parametrize("changes", [
    {"city": "Rome", "date_window": {"start": "2027-05-10", "end": "2027-05-14", "tz": "Europe/Rome"},
     "airports": ["FCO", "CIA"], "prefs": {"themes": ["history"]}},
    {"city": "New York", "date_window": {"start": "2027-03-06", "end": "2027-03-12", "tz": "America/New_York"},
     "airports": ["JFK", "EWR"], "origin_airport": "LAX", "prefs": {"themes": ["art"], "kid_friendly": True}},
    {"city": "Tokyo", "date_window": {"start": "2027-10-30", "end": "2027-11-03", "tz": "Asia/Tokyo"},
     "airports": ["HND", "NRT"], "origin_airport": "LAX", "prefs": {"themes": ["food"], "avoid_overnight": True}},
    {"budget_usd_cents": 200000},  # repaired: the hotel is downgraded to fit
], ids=["rome", "new-york-kids", "tokyo-yen", "paris-repaired"])
def test_real_plans_in_every_city_re_derive_exactly(tmp_path, changes) -> None:
    """No false alarms: what the planner wrote is what the catalog re-derives, in every currency."""
    data = _plan(tmp_path, INTENT | changes, "city")
    done = verify(tmp_path, data)
    assert done.returncode == 0, done.stdout
    assert "fact_mismatch" not in done.stdout


def test_budget_lowered_and_hotel_and_flights_repriced_to_a_cent(tmp_path, paris) -> None:
    data = copy.deepcopy(paris)
    data["intent"]["budget_usd_cents"] = 100000
    for day in (0, -1):
        for act in data["days"][day]["activities"]:
            if act["role"] in ("arrival", "checkin", "departure"):
                act["cost_usd_cents"] = 1
    costs = data["cost_breakdown"]
    costs.update(flights_usd_cents=2, lodging_usd_cents=1)
    costs["total_usd_cents"] = sum(v for k, v in costs.items() if k.endswith("_cents") and k != "total_usd_cents")
    done = verify(tmp_path, data)
    assert done.returncode == 1
    hotel = _acts(paris, 0, "checkin")[0]
    nights = len(paris["days"]) - 1
    price = f"${hotel['cost_usd_cents'] / 100:,.2f}"
    assert f"itinerary says $0.01, catalog price for {hotel['name'].split(' (')[0]} {nights} nights is {price}" in done.stdout
    flight = _acts(paris, 0, "arrival")[0]
    assert f"arrival day 1 #1: itinerary says $0.01, catalog price for {flight['name']} is " \
           f"${flight['cost_usd_cents'] / 100:,.2f}" in done.stdout
    total = f"${paris['cost_breakdown']['total_usd_cents'] / 100:,.2f}"
    assert f"budget_exceeded at trip: total {total} exceeds budget $1,000.00" in done.stdout
    assert "cost_breakdown.total_usd_cents: itinerary says" in done.stdout


def test_an_activity_at_a_venue_that_does_not_exist(tmp_path, paris) -> None:
    data = copy.deepcopy(paris)
    visit = _acts(data, 1, "activity")[0]
    visit["ref"] = "xyz"
    booked = [a for a in data["days"][1]["activities"] if a["kind"] != "transit"]
    done = verify(tmp_path, data)
    assert done.returncode == 1
    assert f"activity day 2 #{booked.index(visit) + 1}: venue 'xyz' is not in the Paris catalog" in done.stdout


def test_a_meal_at_a_restaurant_that_does_not_exist(tmp_path, paris) -> None:
    data = copy.deepcopy(paris)
    _acts(data, 2, "meal")[0]["ref"] = "chez_nobody"
    done = verify(tmp_path, data)
    assert done.returncode == 1 and "restaurant 'chez_nobody' is not in the Paris catalog" in done.stdout


def test_a_deleted_return_flight(tmp_path, paris) -> None:
    data = copy.deepcopy(paris)
    last = data["days"][-1]
    last["activities"] = [a for a in last["activities"] if a["role"] != "departure"]
    done = verify(tmp_path, data)
    assert done.returncode == 1
    assert f"return flight: missing from day {len(data['days'])} ({last['date']})" in done.stdout


def test_an_outbound_flight_the_catalog_does_not_fly(tmp_path, paris) -> None:
    data = copy.deepcopy(paris)
    _acts(data, 0, "arrival")[0]["ref"] = "zz999-budget-20270614"
    done = verify(tmp_path, data)
    assert done.returncode == 1
    assert "flight 'zz999-budget-20270614' is not a catalog outbound flight JFK→CDG/ORY landing 2027-06-15" in done.stdout


def test_a_flight_retimed_by_hand(tmp_path, paris) -> None:
    data = copy.deepcopy(paris)
    arrival = _acts(data, 0, "arrival")[0]
    landing = arrival["window"]["end"][:5]
    arrival["window"]["end"] = "06:00:00"
    done = verify(tmp_path, data)
    assert done.returncode == 1
    assert f"lands at 06:00, the catalog says {landing}" in done.stdout


def test_a_tampered_total_alone(tmp_path, paris) -> None:
    data = copy.deepcopy(paris)
    data["cost_breakdown"]["total_usd_cents"] -= 50000
    done = verify(tmp_path, data)
    assert done.returncode == 1
    assert "cost_breakdown.total_usd_cents: itinerary says" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "1 blocking, 0 advisory"


def test_an_intent_the_catalog_does_not_back_is_a_mismatch(tmp_path, paris) -> None:
    data = copy.deepcopy(paris)
    data["intent"]["airports"] = ["LHR"]
    done = verify(tmp_path, data)
    assert done.returncode == 1 and "intent.airports: LHR not serving Paris" in done.stdout


def test_a_file_without_planning_date_is_verified_with_a_note(tmp_path, paris) -> None:
    data = copy.deepcopy(paris)
    del data["planning_date"]
    data["created_at"] = f"{TODAY}T09:00:00Z"
    done = verify(tmp_path, data)
    assert done.returncode == 0, done.stdout
    assert "note: itinerary has no planning_date" in done.stdout and f"created_at day {TODAY}" in done.stdout


@pytest.mark.parametrize("where, value, field", [
    (("days", 1, "activities", 0, "cost_usd_cents"), "1509", "days.1.activities.0.cost_usd_cents"),
    (("planning_date",), "yesterday", "planning_date"),
    (("cost_breakdown", "total_usd_cents"), None, "cost_breakdown.total_usd_cents"),
    (("days", 0, "activities", 0, "surprise"), 1, "days.0.activities.0.surprise"),
])
def test_a_schema_violation_is_exit_2_naming_the_field(tmp_path, paris, where, value, field) -> None:
    data = copy.deepcopy(paris)
    node = data
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    done = verify(tmp_path, data)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"tripwright: {field}:")
    assert done.stdout == ""


def test_the_failure_file_of_an_exit_3_plan_holds_no_plan(tmp_path) -> None:
    intent, out = tmp_path / "poor.json", tmp_path / "failure.json"
    intent.write_text(json.dumps(INTENT | {"budget_usd_cents": 100000}))
    assert tw("plan", "--intent", str(intent), "--out", str(out), "--today", TODAY).returncode == 3
    done = tw("verify", str(out))
    assert done.returncode == 1
    assert done.stderr.startswith(f"tripwright: {out} holds no plan (Unable to meet budget constraint")
    assert done.stderr.count("\n") == 1


# -- road trips ------------------------------------------------------------------------------
def test_a_fresh_road_trip_verifies(tmp_path, route66) -> None:
    assert route66["planning_date"] == TODAY
    done = verify(tmp_path, route66)
    assert done.returncode == 0, done.stdout


def test_an_overnight_stop_in_a_town_that_is_not_on_the_route(tmp_path, route66) -> None:
    data = copy.deepcopy(route66)
    data["days"][2]["anchor"]["name"] = "Xyzzyville, NM"
    done = verify(tmp_path, data)
    assert done.returncode == 1 and "day 3: overnight stop 'Xyzzyville, NM' is not a Route 66 town" in done.stdout


def test_drive_miles_tampered_under_the_cap(tmp_path, route66) -> None:
    """Day 1 made to end where day 2 ended, its stated miles left alone: the route says 600+."""
    data = copy.deepcopy(route66)
    data["days"][0]["anchor"] = copy.deepcopy(route66["days"][1]["anchor"])
    done = verify(tmp_path, data)
    assert done.returncode == 1
    stated = route66["days"][0]["drive"]["miles"]
    assert f"day 1: drive: itinerary says {stated:.0f} mi, the route gives 6" in done.stdout
    assert "(cap 400) (INV-PACE-02)" in done.stdout


def test_drive_miles_lowered_by_hand(tmp_path, route66) -> None:
    data = copy.deepcopy(route66)
    data["days"][3]["drive"]["miles"] = 250.0
    done = verify(tmp_path, data)
    assert done.returncode == 1 and "day 4: drive: itinerary says 250 mi, the route gives" in done.stdout


def test_a_day_that_moves_backwards_by_name_only(tmp_path, route66) -> None:
    """Day 4 renamed to day 2's town, the file's coordinates left as they were: the fixture's
    position of that town is what counts, so the day goes backwards along the route."""
    data = copy.deepcopy(route66)
    earlier = route66["days"][1]["anchor"]
    data["days"][3]["anchor"].update(name=earlier["name"], admin1=earlier["admin1"])
    done = verify(tmp_path, data)
    assert done.returncode == 1
    assert "behind the previous night along Route 66" in done.stdout and "(INV-DIR-04)" in done.stdout
    assert f"itinerary puts {earlier['name']} at" in done.stdout


def test_a_stop_that_is_not_a_point_of_interest_of_the_route(tmp_path, route66) -> None:
    data = copy.deepcopy(route66)
    stop = _acts(data, 1, "activity")[0]
    stop["ref"] = "nowhere_poi"
    done = verify(tmp_path, data)
    assert done.returncode == 1 and "activity day 2 #1: stop 'nowhere_poi' is not a Route 66 point of interest" in done.stdout


def test_a_road_trip_day_deleted(tmp_path, route66) -> None:
    data = copy.deepcopy(route66)
    del data["days"][3]
    done = verify(tmp_path, data)
    assert done.returncode == 1
    assert "days: itinerary has 6 day(s) 2027-05-03..2027-05-09, the intent asks for 7 from 2027-05-03" in done.stdout


def test_a_road_trip_on_a_route_with_no_fixture(tmp_path, route66) -> None:
    data = copy.deepcopy(route66)
    data["intent"]["route"] = "Route 67"
    done = verify(tmp_path, data)
    assert done.returncode == 1 and done.stdout.startswith("[blocking] fact_mismatch at intent: intent.route:")


def test_road_costs_are_recomputed(tmp_path, route66) -> None:
    data = copy.deepcopy(route66)
    data["cost_breakdown"]["lodging_usd_cents"] = 100
    done = verify(tmp_path, data)
    assert done.returncode == 1
    assert "cost_breakdown.lodging_usd_cents: itinerary says $1.00, re-derived from the route" in done.stdout


def test_a_paid_visit_disguised_as_a_transfer_is_still_priced(tmp_path, paris) -> None:
    data = copy.deepcopy(paris)
    paid = next(a for d in data["days"] for a in d["activities"] if a["role"] == "activity" and a["cost_usd_cents"])
    paid.update(kind="transit", cost_usd_cents=0)
    done = verify(tmp_path, data)
    assert done.returncode == 1
    assert "kind 'transit', but" in done.stdout and "itinerary says $0.00, catalog price for" in done.stdout


def test_a_hotel_that_does_not_exist(tmp_path, paris) -> None:
    data = copy.deepcopy(paris)
    for role in ("checkin", "checkout"):
        _acts(data, 0 if role == "checkin" else -1, role)[0]["ref"] = "hotel_nowhere"
    done = verify(tmp_path, data)
    assert done.returncode == 1
    assert "checkin day 1 #2: hotel 'hotel_nowhere' is not in the Paris catalog" in done.stdout


def test_a_deleted_day(tmp_path, paris) -> None:
    data = copy.deepcopy(paris)
    del data["days"][2]
    done = verify(tmp_path, data)
    assert done.returncode == 1
    assert "days: itinerary has 4 day(s) 2027-06-15..2027-06-19, the intent's window is 5 day(s)" in done.stdout


def test_an_itinerary_marked_as_an_error_holds_no_plan(tmp_path, paris) -> None:
    data = copy.deepcopy(paris) | {"status": "error", "message": "gave up"}
    done = verify(tmp_path, data)
    assert done.returncode == 1 and "holds no plan (gave up)" in done.stderr


def test_a_direct_round_trip_verifies_against_its_turnaround(tmp_path) -> None:
    """The corridor of a round trip without a named route runs to the turnaround, not origin to origin."""
    data = _plan(tmp_path, {"mode": "road_trip", "origin": "Denver", "terminus": "Moab", "days": 4,
                            "start_date": "2027-05-03", "trip_type": "round_trip"}, "direct")
    done = verify(tmp_path, data)
    assert done.returncode == 0, done.stdout
