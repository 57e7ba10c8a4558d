"""A multi-city trip's stay of up to 14 nights (SPEC_DECISIONS §2.11) plans: Paris 10 nights then
Rome 3 nights through the real run and ``tripwright plan --intent``, every day with its sights and
meals, no sight twice, within the budget — while a one-city trip keeps the seed's 2–7 days."""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import pytest
from pydantic import ValidationError

from engine.models import IntentV1, MultiCityIntent
from engine.models.intent import StayIntent
from engine.pipeline import PlanningSession
from engine.repair.chain_moves import ChainDraft, move_night
from engine.tools.requests import AttractionsRequest
from engine.verify import blocking, verify_chain

from .conftest import TODAY as TODAY_DATE
from .test_cli import TODAY, tw
from .test_multi_city_run import PARIS_ROME, plan

LONG = {**PARIS_ROME, "budget_usd_cents": 1_200_000,
        "stays": [{"city": "Paris", "nights": 10}, {"city": "Rome", "nights": 3}]}
ONE_CITY = {"city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-21", "tz": "Europe/Paris"},
            "budget_usd_cents": 600000, "airports": ["CDG"], "origin_airport": "JFK"}


@pytest.fixture(scope="module")
def long_trip():
    result = plan(LONG)
    assert result.status == "completed", result.failure
    return result.itinerary


def _refs(day, role: str) -> list[str]:
    return [a.ref for a in day.activities if a.role == role]


def test_ten_nights_in_paris_then_three_in_rome_plan_as_one_trip(long_trip) -> None:
    it = long_trip
    assert [d.stay for d in it.days] == [0] * 10 + [1] * 4
    assert str(it.days[0].date) == "2027-06-15" and str(it.days[-1].date) == "2027-06-28"
    assert not blocking(it.violations) and not blocking(verify_chain(it))


def test_every_whole_day_of_the_long_stay_has_sights_and_both_meals(long_trip) -> None:
    whole = long_trip.days[1:10]  # day 0 lands, day 10 is the leg to Rome
    for day in whole:
        assert _refs(day, "activity"), f"{day.date} has no sight"
        meals = _refs(day, "meal")
        assert len(meals) == 2, f"{day.date} has meals {meals}"
        assert len(set(meals)) == 2, f"{day.date} eats twice at {meals[0]}"


def test_no_sight_is_planned_twice_and_the_budget_holds(long_trip) -> None:
    sights = Counter(ref for d in long_trip.days for ref in _refs(d, "activity"))
    assert sights and max(sights.values()) == 1, sights.most_common(3)
    cost = long_trip.cost_breakdown
    assert 0 < cost.total_usd_cents <= LONG["budget_usd_cents"]
    assert not [v for v in long_trip.violations if v.kind.value == "budget"]


def test_a_long_stay_is_planned_from_more_sights_than_a_week() -> None:
    week = AttractionsRequest(city="Paris", themes=["art"])
    assert "count" not in week.model_dump()  # a week's request, and its cache key, as before
    assert [AttractionsRequest.count_for(d) for d in (2, 7)] == [week.count, week.count]
    assert AttractionsRequest.count_for(15) >= 15 * week.count // 7


def test_a_stay_plans_up_to_fourteen_nights_and_a_city_trip_keeps_its_week() -> None:
    fourteen = {**ONE_CITY, "date_window": {**ONE_CITY["date_window"], "end": "2027-06-29"}}
    assert StayIntent.model_validate(fourteen).days == 15
    with pytest.raises(ValidationError, match="a city trip lasts 2-7 days, got 15"):
        IntentV1.model_validate(fourteen)
    assert IntentV1.model_validate(ONE_CITY).days == 7
    fifteen = {**ONE_CITY, "date_window": {**ONE_CITY["date_window"], "end": "2027-06-30"}}
    with pytest.raises(ValidationError, match="a stay lasts 1-14 nights, got 16"):
        StayIntent.model_validate(fifteen)


def test_chain_repair_moves_a_night_into_a_stay_up_to_fourteen_nights() -> None:
    def draft(a: int, b: int) -> ChainDraft:
        return ChainDraft(intent=MultiCityIntent.model_validate(
            {**PARIS_ROME, "stays": [{"city": "Paris", "nights": a}, {"city": "Rome", "nights": b}]}))

    moved, _ = move_night(draft(3, 13), 0, 1, "budget")
    assert [s.nights for s in moved.intent.stays] == [2, 14]
    assert move_night(draft(3, 14), 0, 1, "budget") is None  # a stay lasts at most 14 nights


def test_a_long_stay_plans_on_the_command_line(tmp_path) -> None:
    path, out = tmp_path / "intent.json", tmp_path / "out.json"
    path.write_text(json.dumps(LONG))
    done = tw("plan", "--intent", str(path), "--out", str(out), "--today", TODAY)
    assert done.returncode == 0, done.stderr
    assert "Paris (10n) → Rome (3n)" in done.stdout
    days = json.loads(out.read_text())["days"]
    assert [d["stay"] for d in days] == [0] * 10 + [1] * 4


def test_a_stay_past_fourteen_nights_is_one_line(tmp_path) -> None:
    path = tmp_path / "intent.json"
    path.write_text(json.dumps({**LONG, "stays": [{"city": "Paris", "nights": 15}, {"city": "Rome", "nights": 2}]}))
    done = tw("plan", "--intent", str(path), "--today", TODAY)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "14" in done.stderr, done.stderr


def test_a_one_city_week_still_never_eats_at_a_table_twice() -> None:
    """Only a stay eats at a table of an earlier day again: a one-city week plans as it did."""
    intent = IntentV1.model_validate({**ONE_CITY, "prefs": {"themes": ["food"]}})
    result = asyncio.run(PlanningSession(today=TODAY_DATE).plan(intent))
    assert result.status == "completed", result.failure
    tables = Counter(ref for d in result.itinerary.days for ref in _refs(d, "meal"))
    assert tables and max(tables.values()) == 1, tables.most_common(2)
