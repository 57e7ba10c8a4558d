"""Property tests (seed §14.4, §6.2): randomized trips through the real pipeline, and random
plans through the verifiers."""

from __future__ import annotations

import asyncio
from datetime import date, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.costs import plan_cost
from engine.models import (Assumptions, ChoiceKind, DayPlan, PlanV1, Slot, TimeWindow, VenueType, Violation,
                           ViolationKind)
from engine.pipeline import PlanningSession
from engine.tools import ToolOverrides
from engine.planning.builder import flight_choice, lodging_choice, venue_choice
from engine.schedule import elapsed_minutes
from engine.verify import VERIFIERS, blocking, verify_plan, verify_timing

from .conftest import (CITY_SETUP, TODAY, cached_inputs, gather_inputs, make_intent, new_toolbox, paris_demo,
                       placeless_slot)

THEMES = ["art", "food", "history", "outdoor", "views", "architecture", "family", "science", "culture",
          "shopping", "religion", "nightlife"]
PROPS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_TOOLBOX = new_toolbox()  # tools are deterministic; sharing their cache keeps the examples fast


@st.composite
def trips(draw):
    city = draw(st.sampled_from(sorted(CITY_SETUP)))
    start = date(2027, 1, 1) + timedelta(days=draw(st.integers(0, 350)))
    days = draw(st.integers(4, 7))
    themes = draw(st.lists(st.sampled_from(THEMES), max_size=3, unique=True))
    kid = draw(st.booleans())
    budget = draw(st.integers(1_500_000, 4_000_000))  # $15k–$40k: generous
    return make_intent(city, start, days, budget=budget, themes=themes, kid=kid)


def plan_trip(intent):
    # A fresh session per example: nothing memoised from an earlier example can leak in.
    return asyncio.run(PlanningSession(today=TODAY, toolbox=_TOOLBOX).plan(intent))


def min_buffer(a: Slot, b: Slot, facts) -> int:
    """The seed's buffers alone (no transfer time): a lower bound on every gap."""
    if b.role == "departure":
        return 120
    if a.role == "arrival":
        return 30
    venue = facts.venue(a.selected.option_ref) if a.selected.kind is ChoiceKind.attraction else None
    return 20 if venue is not None and venue.venue_type is VenueType.museum else 15


@PROPS
@given(trips())
def test_delivered_plans_fit_the_budget_buffers_and_verify_clean(intent) -> None:
    result = plan_trip(intent)
    assert result.status == "completed", result.failure and result.failure.message
    plan, facts, it = result.plan, result.inputs.facts, result.itinerary
    assert len(plan.days) == intent.days

    # Budget monotonicity: the delivered total never exceeds the budget, and it is the plan's cost.
    assert it.cost_breakdown.total_usd_cents <= intent.budget_usd_cents
    assert plan_cost(plan, facts).total == it.cost_breakdown.total_usd_cents

    # No blocking violation, re-verified from scratch.
    again = verify_plan(plan, intent, facts)
    assert blocking(again) == []

    # Timing transitivity: A ends at T1, B starts at T2 ⇒ T2 ≥ T1 + buffer (real minutes).
    for day in plan.days:
        for a, b in zip(day.slots, day.slots[1:]):
            gap = elapsed_minutes(day.date, a.window.end, b.window.start, facts.tz)
            assert gap >= min_buffer(a, b, facts), (day.date, a.selected.label, b.selected.label, gap)

    # Kid-friendly trips end scheduled activities by 20:00.
    if intent.prefs.kid_friendly:
        for _, _, s in plan.slots():
            if s.selected.kind in (ChoiceKind.attraction, ChoiceKind.meal) and not s.locked:
                assert s.window.end.hour * 60 + s.window.end.minute <= 20 * 60


@PROPS
@given(trips())
def test_weather_verification_is_deterministic(intent) -> None:
    result = plan_trip(intent)
    assert result.status == "completed"
    plan = result.plan
    # Re-check the delivered plan as if every day turned wet, with two independently built toolboxes.
    storm = ToolOverrides(weather={d.date: {"precip_prob": 0.8} for d in plan.days})
    wet, wet_again = gather_inputs(intent, storm).facts, gather_inputs(intent, storm).facts
    first = verify_plan(plan, intent, wet)
    assert verify_plan(plan, intent, wet) == first
    assert verify_plan(plan, intent, wet_again) == first
    exposed = {s.selected.choice_id: s.selected.features.indoor for _, _, s in plan.slots()
               if s.selected.kind is ChoiceKind.attraction and s.selected.features.indoor is not True}
    weather = {v.node_ref: v.blocking for v in first if v.kind is ViolationKind.weather_unsuitable}
    assert weather == {ref: indoor is False for ref, indoor in exposed.items()}
    # And under the real (typical) weather the delivered plan has no blocking weather problem.
    assert not [v for v in verify_plan(plan, intent, result.inputs.facts)
                if v.kind is ViolationKind.weather_unsuitable and v.blocking]


# -- random plans through the verifiers ---------------------------------------------------------
_FACTS = {city: cached_inputs(make_intent(city, date(2027, 6, 14), 5)).facts for city in CITY_SETUP}


@st.composite
def random_plans(draw):
    city = draw(st.sampled_from(sorted(CITY_SETUP)))
    facts = _FACTS[city]
    start = date(2027, 1, 1) + timedelta(days=draw(st.integers(0, 364)))  # DST nights and holidays included
    n_days = draw(st.integers(1, 7))
    venues = sorted(facts.venues)
    flights = sorted(facts.flights)
    hotels = sorted(facts.lodgings)
    days = []
    for di in range(n_days):
        cuts = sorted(draw(st.sets(st.integers(0, 24 * 60 - 1), max_size=10)))
        slots = []
        for s, e in zip(cuts[::2], cuts[1::2]):
            window = TimeWindow.of_minutes(s, e)
            kind = draw(st.sampled_from(["venue", "venue", "flight", "hotel", "placeless"]))
            if kind == "venue":
                v = facts.venues[draw(st.sampled_from(venues))]
                k = ChoiceKind.meal if v.provenance.tool == "dining" else ChoiceKind.attraction
                slot = Slot(window=window, role="meal" if k is ChoiceKind.meal else "activity",
                            choices=[venue_choice(di, v, k)], locked=draw(st.booleans()))
            elif kind == "flight":
                f = facts.flights[draw(st.sampled_from(flights))]
                role = draw(st.sampled_from(["arrival", "departure"]))
                slot = Slot(window=window, role=role, choices=[flight_choice(di, role, f, None)])
            elif kind == "hotel":
                h = facts.lodgings[draw(st.sampled_from(hotels))]
                role = draw(st.sampled_from(["checkin", "checkout"]))
                slot = Slot(window=window, role=role, choices=[lodging_choice(di, role, h, n_days)])
            else:
                slot = placeless_slot(f"x{s}", window.start.isoformat("minutes"), window.end.isoformat("minutes"),
                                      di=di, indoor=draw(st.sampled_from([True, False, None])))
            slots.append(slot)
        days.append(DayPlan(date=start + timedelta(days=di), slots=slots))
    plan = PlanV1(days=days, assumptions=Assumptions(daily_spend_est_cents=draw(st.integers(0, 50_000)),
                                                     local_currency=facts.currency), rng_seed=1)
    tz, airports, origin = CITY_SETUP[city]
    intent = make_intent(city, date(2027, 6, 14), 5, budget=draw(st.integers(1, 10_000_000)),
                         kid=draw(st.booleans()), avoid_overnight=draw(st.booleans()))
    return plan, intent, facts


@settings(max_examples=100, deadline=None)
@given(random_plans())
def test_verifiers_never_raise_on_random_plans(case) -> None:
    plan, intent, facts = case
    for verifier in VERIFIERS:
        found = verifier(plan, intent, facts)
        assert isinstance(found, list) and all(isinstance(v, Violation) for v in found)
    everything = verify_plan(plan, intent, facts)
    assert everything == verify_plan(plan, intent, facts)
    assert [v.blocking for v in everything] == sorted((v.blocking for v in everything), reverse=True)
    assert sum(1 for v in everything if v.kind is ViolationKind.budget_exceeded) <= 1


@settings(max_examples=100, deadline=None)
@given(day=st.dates(date(2027, 1, 1), date(2027, 12, 31)), start=st.integers(0, 22 * 60),
       length=st.integers(5, 60), gap=st.integers(0, 60))
def test_gaps_shorter_than_the_buffer_are_always_detected(day, start, length, gap) -> None:
    """Seed §6.2 acceptance: randomized close windows (on any day, DST nights included)."""
    facts = _FACTS["Paris"]
    a_end = start + length
    b_start = a_end + gap
    if b_start + 10 > 24 * 60 - 1:
        return
    a = placeless_slot("a", TimeWindow.of_minutes(start, a_end).start.isoformat("minutes"),
                       TimeWindow.of_minutes(start, a_end).end.isoformat("minutes"))
    b = placeless_slot("b", TimeWindow.of_minutes(b_start, b_start + 10).start.isoformat("minutes"),
                       TimeWindow.of_minutes(b_start, b_start + 10).end.isoformat("minutes"))
    plan = PlanV1(days=[DayPlan(date=day, slots=[a, b])], assumptions=Assumptions(daily_spend_est_cents=0),
                  rng_seed=1)
    real_gap = elapsed_minutes(day, a.window.end, b.window.start, "Europe/Paris")
    found = verify_timing(plan, paris_demo(), facts)
    if real_gap < 15:
        assert [v.node_ref for v in found] == ["d0-activity-b"]
        assert found[0].details["gap_minutes"] == round(real_gap)
    else:
        assert found == []


def test_property_strategies_cover_every_city() -> None:
    assert set(_FACTS) == {"Paris", "Rome", "New York", "Tokyo"}
    assert all(len(f.venues) > 20 for f in _FACTS.values())

