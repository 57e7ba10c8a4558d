"""Bounded, deterministic repair (seed §7): moves in priority order, limits, locked slots."""

from __future__ import annotations

from datetime import date


from engine.costs import plan_cost
from engine.models import (MOVE_PRIORITY, MoveType, PlanV1, Slot, Tier, TimeWindow, ViolationKind,
                           minutes_of)
from engine.planning.branches import enumerate_branches
from engine.planning.builder import PlanBuilder, venue_choice
from engine.planning.selector import select
from engine.repair import MAX_CYCLES, MAX_MOVES_PER_CYCLE, RepairContext, repair
from engine.repair.moves import downgrade_hotel, reorder_days, replace_activity, swap_airport
from engine.tools import ToolOverrides
from engine.verify import blocking, verify_plan

from .conftest import gather_inputs, make_intent, paris_demo

RAINY = date(2027, 6, 17)
EIFFEL_LOCK = {"day_offset": 2, "window": {"start": "14:00", "end": "16:00"}, "activity_id": "eiffel_tower"}


def planned(intent, inputs) -> PlanV1:
    """What the planner + selector would hand to the verifier."""
    builder = PlanBuilder(inputs)
    best, _ = select([builder.build(b) for b in enumerate_branches(inputs)], intent, inputs.facts)
    return best.plan


def hotel_tier(plan: PlanV1, facts) -> Tier:
    ref = next(s.selected.option_ref for _, _, s in plan.slots() if s.role == "checkin")
    return facts.lodgings[ref].tier


def locked_slots(plan: PlanV1) -> list[tuple[int, Slot]]:
    return [(di, s) for di, _, s in plan.slots() if s.locked]


def moves_of(result) -> list:
    return [m for d in result.diffs for m in d.moves]


def check_diff_bookkeeping(result, initial_blocking: int) -> None:
    assert 1 <= len(result.diffs) <= MAX_CYCLES
    assert [d.cycle for d in result.diffs] == list(range(1, len(result.diffs) + 1))
    assert result.diffs[0].violations_before == initial_blocking
    for a, b in zip(result.diffs, result.diffs[1:]):
        assert b.violations_before == a.violations_after
    assert result.diffs[-1].violations_after == len(blocking(result.violations))
    for d in result.diffs:
        assert len(d.moves) <= MAX_MOVES_PER_CYCLE


# -- budget -------------------------------------------------------------------------------------
def test_budget_violation_downgrades_the_hotel_and_then_passes() -> None:
    intent = paris_demo(budget_usd_cents=200000)
    inputs = gather_inputs(intent)
    plan = planned(intent, inputs)
    before = verify_plan(plan, intent, inputs.facts)
    assert [v.kind for v in blocking(before)] == [ViolationKind.budget_exceeded]
    assert hotel_tier(plan, inputs.facts) is Tier.mid
    result = repair(plan, RepairContext(inputs, intent, inputs.facts), before)
    assert result.ok
    [move] = moves_of(result)
    assert (move.move_type, move.old_value, move.new_value) == (MoveType.downgrade_hotel, "mid", "budget")
    assert hotel_tier(result.plan, inputs.facts) is Tier.budget
    total = plan_cost(result.plan, inputs.facts).total
    assert total <= 200000
    [diff] = result.diffs
    assert diff.delta_usd_cents == total - plan_cost(plan, inputs.facts).total < 0
    assert (diff.violations_before, diff.violations_after) == (1, 0)
    assert [v.kind for v in result.violations] == [ViolationKind.slippage_risk]  # tight, but within budget
    assert move.provenance.tool == "repair" and len(move.provenance.response_digest) == 64


def test_cheaper_airport_is_tried_before_the_hotel() -> None:
    """From Newark, Orly only has a premium way home: the ORY/mid branch costs $3,291.17 (the Louvre at €32, issue 9; full days, issue 31 §2)."""
    intent = make_intent("Paris", date(2027, 6, 15), 5, origin="EWR", budget=215000)
    inputs = gather_inputs(intent)
    branch = next(b for b in enumerate_branches(inputs) if b.label == "ORY/mid")
    plan = PlanBuilder(inputs).build(branch)
    assert plan_cost(plan, inputs.facts).total == 329117
    result = repair(plan, RepairContext(inputs, intent, inputs.facts))
    assert result.ok
    moves = moves_of(result)
    assert [m.move_type for m in moves] == [MoveType.swap_airport, MoveType.downgrade_hotel]
    assert sorted(moves, key=lambda m: MOVE_PRIORITY.index(m.move_type)) == moves
    assert moves[0].old_value.startswith("ORY ") and moves[0].new_value == "CDG UA55/UA56"
    assert result.plan.branch == "CDG/budget"
    arrival = result.plan.days[0].slots[0]
    assert arrival.role == "arrival" and inputs.facts.flights[arrival.selected.option_ref].dest == "CDG"
    assert plan_cost(result.plan, inputs.facts).total == 209763 <= 215000
    assert blocking(verify_plan(result.plan, intent, inputs.facts)) == []


def test_moves_that_cannot_save_money_decline() -> None:
    intent = paris_demo(budget_usd_cents=210000)
    inputs = gather_inputs(intent)
    ctx = RepairContext(inputs, intent, inputs.facts)
    plan = planned(intent, inputs)
    assert swap_airport(plan, ctx, "budget") is None  # already on the cheapest CDG pair
    cheaper, move = downgrade_hotel(plan, ctx, "budget")
    assert move.new_value == "budget"
    assert downgrade_hotel(cheaper, ctx, "budget") is None  # nothing below budget tier


# -- weather ------------------------------------------------------------------------------------
def test_rainy_day_outdoor_visit_is_moved_or_replaced_indoors() -> None:
    intent = paris_demo()
    inputs = gather_inputs(intent, ToolOverrides(weather={RAINY: {"precip_prob": 0.8}}))
    plan = planned(intent, inputs)
    facts = inputs.facts
    rainy = next(i for i, d in enumerate(plan.days) if d.date == RAINY)
    # The planner already keeps outdoor visits off the rainy day ...
    assert all(s.selected.features.indoor is not False for s in plan.days[rainy].slots)
    # ... so put the Eiffel Tower (outdoor, not otherwise in the plan) where the first visit was.
    si, first = next((i, s) for i, s in enumerate(plan.days[rainy].slots) if s.role == "activity")
    assert "eiffel_tower" not in {s.selected.option_ref for _, _, s in plan.slots()}
    edited = plan.with_slot(rainy, si, Slot(window=first.window, role="activity",
                                            choices=[venue_choice(rainy, facts.venue("eiffel_tower"))]))
    before = verify_plan(edited, intent, facts)
    [bad] = blocking(before)
    assert (bad.kind, bad.node_ref, bad.details["reason"]) == (
        ViolationKind.weather_unsuitable, f"d{rainy}-activity-eiffel_tower", "outdoor_in_bad_weather")

    result = repair(edited, RepairContext(inputs, intent, facts), before)
    assert result.ok
    [move] = moves_of(result)
    assert move.move_type in (MoveType.reorder_days, MoveType.replace_activity)
    assert move.node_ref == f"d{rainy}-activity-eiffel_tower"
    assert not [v for v in result.violations if v.kind is ViolationKind.weather_unsuitable]
    wet_day = result.plan.days[rainy]
    assert all(s.selected.features.indoor is not False for s in wet_day.slots)
    assert "eiffel_tower" not in {s.selected.option_ref for s in wet_day.slots}
    visits = [s.selected.option_ref for _, _, s in result.plan.slots() if s.role == "activity"]
    assert len(visits) == len(set(visits))  # no venue visited twice


# -- locked slots -------------------------------------------------------------------------------
def test_locked_slots_survive_a_budget_repair_untouched() -> None:
    locks = [EIFFEL_LOCK,
             {"day_offset": 0, "window": {"start": "16:00", "end": "17:00"}, "activity_id": "musee_orsay"},
             {"day_offset": 4, "window": {"start": "11:00", "end": "12:00"}, "activity_id": "musee_carnavalet"}]
    intent = paris_demo(budget_usd_cents=210000, locked_slots=locks)
    inputs = gather_inputs(intent)
    plan = planned(intent, inputs)
    pinned = locked_slots(plan)
    assert [(di, s.selected.option_ref, s.window.label()) for di, s in pinned] == [
        (0, "musee_orsay", "16:00-17:00"), (2, "eiffel_tower", "14:00-16:00"), (4, "musee_carnavalet", "11:00-12:00")]
    before = verify_plan(plan, intent, inputs.facts)
    assert ViolationKind.budget_exceeded in {v.kind for v in blocking(before)}

    result = repair(plan, RepairContext(inputs, intent, inputs.facts), before)
    assert result.ok
    assert MoveType.downgrade_hotel in {m.move_type for m in moves_of(result)}
    assert hotel_tier(result.plan, inputs.facts) is Tier.budget
    assert locked_slots(result.plan) == pinned  # same day, window, choices, verbatim
    locked_ids = {s.selected.choice_id for _, s in pinned}
    assert not locked_ids & {m.node_ref for m in moves_of(result)}
    assert [v for v in result.violations if v.reason == "locked_slot_missing"] == []


def test_no_move_touches_a_locked_slot() -> None:
    intent = paris_demo(budget_usd_cents=210000, locked_slots=[EIFFEL_LOCK])
    inputs = gather_inputs(intent, ToolOverrides(weather={RAINY: {"precip_prob": 0.8}}))
    ctx = RepairContext(inputs, intent, inputs.facts)
    plan = planned(intent, inputs)
    [(di, slot)] = locked_slots(plan)
    assert plan.days[di].date == RAINY  # the pinned outdoor visit sits on the rainy day
    weather = [v for v in verify_plan(plan, intent, inputs.facts) if v.kind is ViolationKind.weather_unsuitable]
    assert [(v.node_ref, v.blocking) for v in weather] == [(slot.selected.choice_id, True)]
    ref = slot.selected.choice_id
    assert reorder_days(plan, ctx, ref, "outdoor_in_bad_weather") is None
    assert replace_activity(plan, ctx, ref, "outdoor_in_bad_weather") is None
    assert replace_activity(plan, ctx, ref, "budget", cheaper=True) is None
    for moved in (swap_airport(plan, ctx, "budget"), downgrade_hotel(plan, ctx, "budget")):
        if moved is not None:
            assert locked_slots(moved[0]) == [(di, slot)]
    # The loop cannot fix a user's own pinned outdoor visit, and says so instead of moving it.
    result = repair(plan, RepairContext(inputs, intent, inputs.facts))
    assert locked_slots(result.plan) == [(di, slot)]
    assert not result.ok
    assert [v.node_ref for v in blocking(result.violations)] == [ref]


# -- limits and graceful failure ----------------------------------------------------------------
def test_unfixable_plan_stops_after_three_cycles_of_at_most_two_moves() -> None:
    intent = paris_demo(budget_usd_cents=50000)
    wet = date(2027, 6, 18)
    inputs = gather_inputs(intent, ToolOverrides(weather={wet: {"precip_prob": 0.9}}))
    facts = inputs.facts
    plan = planned(intent, inputs)

    def put(p: PlanV1, di: int, ref: str, venue_id: str, window=None) -> PlanV1:
        si = next(i for i, s in enumerate(p.days[di].slots) if s.selected.option_ref == ref)
        old = p.days[di].slots[si]
        return p.with_slot(di, si, Slot(window=window or old.window, role="activity",
                                        choices=[venue_choice(di, facts.venue(venue_id))]))

    visits = {di: [s for s in d.slots if s.role == "activity"] for di, d in enumerate(plan.days)}
    broken = put(plan, 0, visits[0][0].selected.option_ref, "louvre")  # a Tuesday: closed
    broken = put(broken, 3, visits[3][0].selected.option_ref, "eiffel_tower")  # outdoors in 90% rain
    # Pull a visit on day 2 forward to 5 minutes after the visit before it ends.
    slots = broken.days[2].slots
    i = next(i for i in range(len(slots) - 1) if slots[i].role == slots[i + 1].role == "activity")
    start = minutes_of(slots[i].window.end) + 5
    squeezed = TimeWindow.of_minutes(start, start + slots[i + 1].window.minutes)
    broken = put(broken, 2, slots[i + 1].selected.option_ref, slots[i + 1].selected.option_ref, squeezed)

    before = blocking(verify_plan(broken, intent, facts))
    kinds = {v.kind for v in before}
    assert len(before) >= 4
    assert {ViolationKind.budget_exceeded, ViolationKind.venue_closed, ViolationKind.weather_unsuitable,
            ViolationKind.timing_infeasible} <= kinds

    result = repair(broken, RepairContext(inputs, intent, facts))
    assert not result.ok
    assert len(result.diffs) == MAX_CYCLES
    assert sum(len(d.moves) for d in result.diffs) <= MAX_CYCLES * MAX_MOVES_PER_CYCLE == 6
    check_diff_bookkeeping(result, len(before))
    left = blocking(result.violations)
    assert ViolationKind.budget_exceeded in {v.kind for v in left}
    assert left[0].details["total_usd_cents"] > 50000
    assert isinstance(result.plan, PlanV1) and len(result.plan.days) == 5


def test_repair_is_deterministic() -> None:
    intent = make_intent("Paris", date(2027, 6, 15), 5, origin="EWR", budget=230000)
    inputs = gather_inputs(intent)
    branch = next(b for b in enumerate_branches(inputs) if b.label == "ORY/mid")
    plan = PlanBuilder(inputs).build(branch)
    a = repair(plan, RepairContext(inputs, intent, inputs.facts))
    b = repair(plan, RepairContext(inputs, intent, inputs.facts))
    assert a.plan == b.plan
    assert a.violations == b.violations
    strip = [[(m.move_type, m.node_ref, m.old_value, m.new_value) for m in d.moves] for d in a.diffs]
    assert strip == [[(m.move_type, m.node_ref, m.old_value, m.new_value) for m in d.moves] for d in b.diffs]


def test_a_clean_plan_needs_no_repair(paris_intent, paris_inputs) -> None:
    plan = planned(paris_intent, paris_inputs)
    result = repair(plan, RepairContext(paris_inputs, paris_intent, paris_inputs.facts))
    assert result.ok and result.diffs == [] and result.plan == plan
