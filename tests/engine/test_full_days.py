"""Full days at the traveller's pace (issue 31 §2): days filled by time, not by a count; the pace
read from the intent; each stretch's sights in their shortest feasible order; 1–3 day stays plan.

Real fixture catalog and tools, the real pipeline; nothing mocked.
"""

from __future__ import annotations

import asyncio
from itertools import permutations

import pytest

from engine.models import IntentV1, minutes_of
from engine.models.visit_time import DAY_VISIT_BUDGET, SIGHTS_END
from engine.pipeline import PlanningSession
from engine.planning.branches import enumerate_branches
from engine.planning.builder import DAY_START, PlanBuilder
from engine.planning.day_state import DayState, Limit, snapshot
from engine.planning.day_order import reorder
from engine.verify import blocking, verify_plan

from .conftest import TODAY, gather_inputs, intent_dict


def _intent(days: int = 5, pace: str | None = None, city: str = "Paris", **kw) -> IntentV1:
    data = intent_dict(city, days=days, budget=900000, **kw)
    if pace is not None:
        data["prefs"]["pace"] = pace
    return IntentV1.model_validate(data)


def _plan(intent: IntentV1):
    return asyncio.run(PlanningSession(today=TODAY).plan(intent))


def _full_days(plan):
    return [d for d in plan.days if not any(s.role in ("arrival", "departure") for s in d.slots)]


def _holes(day) -> list[int]:
    at, holes = 9 * 60, []
    for s in sorted(day.slots, key=lambda s: s.window.start):
        lo, hi = max(9 * 60, minutes_of(s.window.start)), min(18 * 60, minutes_of(s.window.end))
        if hi <= lo:
            continue
        if lo > at:
            holes.append(lo - at)
        at = max(at, hi)
    return [*holes, max(0, 18 * 60 - at)]


def _sight_minutes(day) -> int:
    return sum(s.window.minutes for s in day.slots if s.role == "activity")


@pytest.mark.parametrize("city", ["Paris", "Rome", "New York", "Tokyo"])
def test_a_full_day_has_no_hole_of_three_hours_between_nine_and_six(city: str) -> None:
    result = _plan(_intent(city=city))
    full = _full_days(result.plan)
    assert full
    for day in full:
        assert max(_holes(day)) < 180, (day.date, _holes(day))
        assert sum(1 for s in day.slots if s.role == "activity") >= 3  # past the old count of 3 a day
        assert sum(1 for s in day.slots if s.role == "meal") == 2  # more sights never cost a meal
    assert not blocking(verify_plan(result.plan, result.inputs.intent, result.inputs.facts))


@pytest.mark.parametrize("city", ["Tokyo", "Paris"])
def test_a_full_day_with_kids_keeps_lunch_and_an_early_dinner(city: str) -> None:
    plan = _plan(_intent(city=city, kid=True)).plan
    for day in _full_days(plan):
        meals = sorted(minutes_of(s.window.start) for s in day.slots if s.role == "meal")
        assert len(meals) == 2 and meals[0] <= 14 * 60 + 30 and meals[1] <= 19 * 60, (day.date, meals)


def test_the_pace_sets_how_much_of_a_day_goes_to_sights() -> None:
    minutes = {}
    for pace in ("relaxed", "balanced", "packed"):
        plan = _plan(_intent(pace=pace)).plan
        days = _full_days(plan)
        minutes[pace] = sum(_sight_minutes(d) for d in days) / len(days)
        for day in days:
            last = max((minutes_of(s.window.end) for s in day.slots if s.role == "activity"), default=0)
            assert last <= SIGHTS_END[pace]
            # the budget bounds the sights started: the last one may run over, by at most its own length
            assert _sight_minutes(day) < DAY_VISIT_BUDGET[pace] + 300
    assert minutes["relaxed"] < minutes["balanced"] < minutes["packed"]


def test_the_pace_defaults_to_balanced_and_is_checked() -> None:
    assert _intent().prefs.pace == "balanced"
    data = intent_dict("Paris")
    data["prefs"]["pace"] = "frantic"
    with pytest.raises(ValueError, match="pace"):
        IntentV1.model_validate(data)


@pytest.mark.parametrize("days", [2, 3])
def test_short_stays_plan(days: int) -> None:
    result = _plan(_intent(days=days))
    assert len(result.plan.days) == days
    assert not blocking(verify_plan(result.plan, result.inputs.intent, result.inputs.facts))
    if days == 3:
        assert any(s.role == "activity" for d in result.plan.days for s in d.slots)


def test_a_day_with_no_night_is_no_city_stay() -> None:
    with pytest.raises(ValueError, match="2-7 days, got 1"):
        _intent(days=1)


def _replay(builder, start: DayState, limit: Limit, order, restaurants) -> DayState | None:
    """The stretch filled with exactly ``order``'s sights in that order (None: one does not fit)."""
    state = snapshot(start)
    for venue in order:
        if not builder.run(state, limit, [venue], restaurants, one_visit=True, budget=False):
            return None
    builder.run(state, limit, [], restaurants)
    return state


def test_the_order_of_a_stretch_is_the_shortest_of_every_feasible_order() -> None:
    inputs = gather_inputs(_intent(pace="packed"))
    planner = PlanBuilder(inputs)
    branch = enumerate_branches(inputs)[0]
    builder = planner.day_builder(branch)
    limit = Limit(end=23 * 60 + 59, geo=None)
    checked = 0
    used: set[str] = set()
    for di in (1, 2, 3):
        start = DayState(di=di, day=planner.dates[di], cursor=DAY_START, geo=branch.hotel.geo, prev_museum=False,
                         used=used)
        greedy = snapshot(start)
        builder.run(greedy, limit, inputs.attractions, inputs.restaurants)
        by_id = {v.id: v for v in inputs.attractions}
        chosen = [by_id[s.selected.option_ref] for s in greedy.slots if s.role == "activity"]
        assert 2 <= len(chosen) <= 7
        best = reorder(builder, start, limit, chosen, inputs.restaurants, greedy)
        cost = best.metres + builder.home_metres(best, limit)
        assert cost <= greedy.metres + builder.home_metres(greedy, limit)
        assert sorted(s.selected.option_ref for s in best.slots if s.role == "activity") == \
            sorted(v.id for v in chosen)  # the same sights, only their order changes
        brute = [r for r in (_replay(builder, start, limit, order, inputs.restaurants) for order in permutations(chosen))
                 if r is not None]
        assert min(r.metres + builder.home_metres(r, limit) for r in brute) == pytest.approx(cost)
        used |= best.used
        checked += 1
    assert checked == 3


def test_the_chat_brief_sets_the_pace_only_when_the_traveller_did_not() -> None:
    from engine.llm.chat_brief import with_brief_pace
    brief = {"preferences": {"pace": "slow", "budget": "unknown", "focus": [], "logistics": []}}
    assert with_brief_pace(_intent(), brief).prefs.pace == "relaxed"
    assert with_brief_pace(_intent(pace="packed"), brief).prefs.pace == "packed"
    assert with_brief_pace(_intent(), {"preferences": {"pace": "unknown"}}).prefs.pace == "balanced"
    assert with_brief_pace(_intent(), None).prefs.pace == "balanced"
