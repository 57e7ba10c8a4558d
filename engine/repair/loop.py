"""Bounded repair loop (seed §7.2): ≤ 2 moves per cycle, ≤ 3 cycles, locked slots immutable."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.costs import plan_cost
from engine.models import Move, MoveType, PlanV1, RepairDiff, Violation, ViolationKind
from engine.planning.selector import travel_minutes
from engine.verify import blocking, verify_plan

from .moves import RepairContext, downgrade_hotel, reorder_days, replace_activity, swap_airport

MAX_MOVES_PER_CYCLE = 2
MAX_CYCLES = 3


@dataclass(frozen=True)
class RepairResult:
    plan: PlanV1
    violations: list[Violation]
    diffs: list[RepairDiff]
    filled: list[Move] = field(default_factory=list)  # places put in a removal's free time (fill.py)

    @property
    def ok(self) -> bool:
        return not blocking(self.violations)


def propose(plan: PlanV1, v: Violation, ctx: RepairContext):
    """Moves for one violation, in the seed's priority order; the first that applies wins."""
    reason = v.reason
    if v.kind is ViolationKind.budget_exceeded:
        yield lambda p: swap_airport(p, ctx, "budget")
        yield lambda p: downgrade_hotel(p, ctx, "budget")
        for _, _, slot in sorted(plan.slots(), key=lambda t: -t[2].selected.features.cost_usd_cents):
            if slot.selected.features.cost_usd_cents > 0 and slot.selected.kind.value == "attraction":
                yield (lambda ref: lambda p: replace_activity(p, ctx, ref, "budget", cheaper=True))(
                    slot.selected.choice_id)
        return
    if reason == "overnight_flight":
        yield lambda p: swap_airport(p, ctx, reason)
        return
    if v.kind in (ViolationKind.venue_closed, ViolationKind.weather_unsuitable):
        yield lambda p: reorder_days(p, ctx, v.node_ref, reason)
    after = v.details.get("after")
    found = plan.find(v.node_ref)
    if after and found is not None and plan.days[found[0]].slots[found[1]].placed:
        # the traveller put this one here: the other side of the gap gives way first
        yield lambda p: replace_activity(p, ctx, after, reason)
        after = None
    yield lambda p: replace_activity(p, ctx, v.node_ref, reason, keep_placed=not v.blocking)
    if after:  # the earlier slot of a too-short gap may be the movable one
        yield lambda p: replace_activity(p, ctx, after, reason)


def repair(plan: PlanV1, ctx: RepairContext, violations: list[Violation] | None = None) -> RepairResult:
    violations = violations if violations is not None else verify_plan(plan, ctx.intent, ctx.facts)
    diffs: list[RepairDiff] = []
    for cycle in range(1, MAX_CYCLES + 1):
        todo = blocking(violations)
        if not todo:
            break
        before_cost = plan_cost(plan, ctx.facts).total
        before_travel = travel_minutes(plan, ctx.facts)
        plan, moves = _cycle(plan, todo, ctx)
        after = verify_plan(plan, ctx.intent, ctx.facts)
        diffs.append(RepairDiff(cycle=cycle, moves=moves,
                                delta_usd_cents=plan_cost(plan, ctx.facts).total - before_cost,
                                delta_minutes=travel_minutes(plan, ctx.facts) - before_travel,
                                violations_before=len(todo), violations_after=len(blocking(after))))
        violations = after
        if not moves:
            break
    return RepairResult(plan=plan, violations=violations, diffs=diffs)


def _cycle(plan: PlanV1, todo: list[Violation], ctx: RepairContext) -> tuple[PlanV1, list[Move]]:
    moves: list[Move] = []
    for v in sorted(todo, key=_priority):
        if len(moves) >= MAX_MOVES_PER_CYCLE:
            break
        if v.node_ref != "trip" and v.node_ref.startswith("d") and plan.find(v.node_ref) is None:
            continue  # an earlier move this cycle already replaced it
        for attempt in propose(plan, v, ctx):
            if len(moves) >= MAX_MOVES_PER_CYCLE:
                break
            result = attempt(plan)
            if result is None:
                continue
            plan, move = result
            moves.append(move)
            if not _still_over_budget(v, plan, ctx):
                break
    return plan, moves


def _still_over_budget(v: Violation, plan: PlanV1, ctx: RepairContext) -> bool:
    """A budget gap may need several savings in one cycle; other violations need one fix."""
    return v.kind is ViolationKind.budget_exceeded and plan_cost(plan, ctx.facts).total > ctx.intent.budget_usd_cents


def _priority(v: Violation) -> tuple[int, str]:
    order = {ViolationKind.budget_exceeded: 0, ViolationKind.pref_violated: 1, ViolationKind.venue_closed: 2,
             ViolationKind.weather_unsuitable: 3, ViolationKind.timing_infeasible: 4}
    return order.get(v.kind, 5), v.node_ref


__all__ = ["MAX_CYCLES", "MAX_MOVES_PER_CYCLE", "MoveType", "RepairContext", "RepairResult", "repair"]
