"""Issue 12 §1: whenever a road trip fits the daily cap and 30 days, a plan comes back and keeps
every seed 000 invariant; when it does not fit, the error names the days it needs.

A seeded random sample of US and European city pairs × feasible day counts (and daily caps) is
planned on the real offline gazetteer; a small sample always runs, 200+ trips under ``slow``.
"""

from __future__ import annotations

import math
import random
from datetime import date

import pytest

from engine.errors import InputError
from engine.geocode.models import GeocodeRequest
from engine.geocode.trust import geodesic_miles
from engine.models import RoadTripIntent
from engine.roadtrip.day_stops import quiet_stretch
from engine.roadtrip.invariants import verify_road_plan
from engine.roadtrip.planner import plan_road_trip

US = ["Seattle", "Miami", "New York City", "Los Angeles", "Boston, MA", "San Francisco", "Denver", "Chicago",
      "Dallas", "Atlanta", "Phoenix, AZ", "Nashville", "Salt Lake City", "Kansas City, MO", "Minneapolis",
      "Albuquerque", "Memphis", "Omaha", "Portland, OR", "El Paso", "Billings", "Charlotte", "New Orleans",
      "Boise", "Las Vegas", "Detroit", "Pittsburgh", "Tampa", "Houston", "San Diego"]
EU = ["Paris", "Munich", "Vienna", "Milan", "Lyon", "Hamburg", "Prague", "Zurich", "Barcelona", "Amsterdam",
      "Berlin", "Brussels", "Madrid", "Lisbon", "Rome", "Warsaw", "Copenhagen", "Bordeaux", "Naples", "Krakow",
      "Seville", "Marseille", "Frankfurt am Main", "Budapest", "Stockholm", "Edinburgh", "London", "Oslo"]
CAPS = (300.0, 400.0, 500.0)
MARGIN = 1.02  # the planner resolves each end itself; stay clear of the exact boundary


@pytest.fixture(scope="module")
def gazetteer(tmp_path_factory):
    import os
    from engine.geocode import GazetteerIndex
    home = os.environ.get("TRIPWRIGHT_HOME") or str(tmp_path_factory.mktemp("home"))
    return GazetteerIndex.open(home)


def _point(gazetteer, name: str) -> tuple[float, float]:
    c = gazetteer.candidates(GeocodeRequest(query=name))[0]
    return c.lat, c.lon


def _needed(gazetteer, a: str, b: str, cap: float) -> int:
    miles = geodesic_miles(_point(gazetteer, a), _point(gazetteer, b)) * 1.3
    return max(1, math.ceil(miles * MARGIN / cap))


def _sample(gazetteer, n: int, seed: int) -> list[tuple[str, str, int, float]]:
    rng, out = random.Random(seed), []
    while len(out) < n:
        a, b = rng.sample(rng.choice((US, EU)), 2)
        cap = rng.choice(CAPS)
        need = _needed(gazetteer, a, b, cap)
        if need <= 30:
            out.append((a, b, rng.randint(need, min(30, need + 8)), cap))
    return out


def _trip(a: str, b: str, days: int, cap: float) -> RoadTripIntent:
    return RoadTripIntent(origin=a, terminus=b, days=days, start_date=date(2027, 5, 3), max_daily_miles=cap)


def _assert_planned(gazetteer, a: str, b: str, days: int, cap: float) -> None:
    plan = plan_road_trip(_trip(a, b, days, cap), gazetteer)
    assert len(plan.days) == days
    assert geodesic_miles(plan.days[-1].anchor.point, plan.terminus.point) < 1
    bad = [v.describe() for v in verify_road_plan(plan) if v.blocking]
    assert bad == [], (a, b, days, cap, bad)
    assert all(d.drive_miles <= cap + 0.5 for d in plan.days)
    # two activities a day, but on a travel-only day (nothing within reach of its drive, which
    # the planner must show: no place of any size within 30 mi of the stretch)
    for d in plan.days:
        if d.exemption == "travel_only":
            assert quiet_stretch(plan.corridor, gazetteer, d.start_progress, d.anchor_progress,
                                 [d.start.point, d.anchor.point])
            assert d.stops and "travel day" in d.note
        else:
            assert sum(1 for s in d.stops if s.kind != "break") >= 2, (a, b, d.index)


def test_a_feasible_trip_always_gets_a_plan_that_keeps_the_invariants(gazetteer) -> None:
    for a, b, days, cap in _sample(gazetteer, 24, seed=12):
        _assert_planned(gazetteer, a, b, days, cap)


@pytest.mark.slow
def test_two_hundred_random_trips_all_get_plans(gazetteer) -> None:
    for a, b, days, cap in _sample(gazetteer, 210, seed=2026):
        _assert_planned(gazetteer, a, b, days, cap)


@pytest.mark.parametrize("days", [9, 10, 12, 15, 20, 30])
def test_seattle_to_miami_at_every_length(gazetteer, days) -> None:
    _assert_planned(gazetteer, "Seattle", "Miami", days, 400.0)


@pytest.mark.parametrize("a, b, days", [("New York City", "Los Angeles", 8), ("Boston, MA", "San Francisco", 9)])
def test_coast_to_coast_at_the_edge_of_the_cap_is_balanced(gazetteer, a, b, days) -> None:
    plan = plan_road_trip(_trip(a, b, days, 400.0), gazetteer)
    miles = [d.drive_miles for d in plan.days]
    assert max(miles) <= 400.5 and max(miles) - min(miles) < 60, miles
    assert not [v for v in verify_road_plan(plan) if v.blocking]


def test_an_infeasible_trip_names_the_days_it_needs(gazetteer) -> None:
    for a, b, _, cap in _sample(gazetteer, 6, seed=7):
        need = _needed(gazetteer, a, b, cap)
        if need < 3:
            continue
        with pytest.raises(InputError) as err:
            plan_road_trip(_trip(a, b, need - 2, cap), gazetteer)
        assert err.value.field == "days" and "at least" in err.value.message


@pytest.mark.parametrize("home, days", [("Chicago", 5), ("Lyon", 8), ("Denver", 3), ("Atlanta", 12)])
def test_a_round_trip_from_home_loops_out_and_back(gazetteer, home, days) -> None:
    intent = RoadTripIntent(origin=home, terminus=home, days=days, trip_type="round_trip", start_date=date(2027, 5, 3))
    plan = plan_road_trip(intent, gazetteer)
    assert len(plan.days) == days and plan.days[-1].anchor.name == plan.origin.name
    assert not [v.describe() for v in verify_road_plan(plan) if v.blocking]
    out = {d.anchor.name for d in plan.days if not d.returning}
    back = {d.anchor.name for d in plan.days[:-1] if d.returning}
    assert len(back - out) >= len(back) // 2  # back mostly through other towns
