"""Filling the time a removal freed (issue 22 §2.7): after repair, each day the traveller took a
visit or meal out of (``PlanV1.removed``) gets another place of the city in its free time, as the
day builder would have chosen — a sight while the day has less sight time than the traveller's
pace gives a day (``DAY_VISIT_BUDGET``), lunch or dinner when the day has none at meal time.

A place is inserted only when it is open then, reached from the slot before and in time for the
one after (``fit_window``: the same transfers and buffers the verifiers check), within the
budget, not one the traveller removed, and the whole plan still verifies with no blocking
violation. Existing slots (locked ones above all) never move. Candidates are tried in a fixed
order, so the same plan is filled the same way; at most ``MAX_TRIES`` verifications a day.
"""

from __future__ import annotations

from dataclasses import replace

from engine.costs import plan_cost
from engine.models import Attraction, ChoiceKind, DayPlan, Move, MoveType, PlanV1, Slot, TimeWindow, minutes_of
from engine.planning.builder import DAY_START, venue_choice
from engine.models.visit_time import DAY_VISIT_BUDGET, SIGHTS_END
from engine.planning.day_builder import DAY_END, MEAL_MINUTES, MEAL_STARTS
from engine.verify import blocking, verify_plan

from .loop import RepairResult, repair
from .moves import RepairContext, _acceptable, _move
from .retime import fit_inserted

MIN_GAP = 45  # minutes: less free time than this is room for the walk, not for a place
SIGHT_MINUTES = 60  # a typical sight's length: how many the day's free sight time asks for
MAX_TRIES = 12  # verifications per day: the fill stays bounded whatever the city's size
REASON = "free_time_filled"


def repair_and_fill(plan: PlanV1, ctx: RepairContext, violations=None) -> RepairResult:
    """Repair, then (when the repaired plan has no blocking violation) fill the removals' days."""
    fixed = repair(plan, ctx, violations)
    if not fixed.ok or not fixed.plan.removed:
        return fixed
    filled, moves = fill_removed_days(fixed.plan, ctx)
    if not moves:
        return fixed
    return replace(fixed, plan=filled, violations=verify_plan(filled, ctx.intent, ctx.facts), filled=moves)


def fill_removed_days(plan: PlanV1, ctx: RepairContext) -> tuple[PlanV1, list[Move]]:
    """``plan`` with each removal's day filled as far as it goes, and a move per added place."""
    moves: list[Move] = []
    for di in sorted({r.day for r in plan.removed if r.day < len(plan.days)}):
        tries = [MAX_TRIES]
        for role in _wanted(plan, di, ctx):
            found = _insert(plan, di, role, ctx, tries)
            if found is None:
                continue
            plan, slot = found
            moves.append(_move(MoveType.replace_activity, slot.selected.choice_id, "(free time)",
                               f"{slot.selected.label} {slot.window.label()}", REASON))
    return plan, moves


def _wanted(plan: PlanV1, di: int, ctx: RepairContext) -> list[str]:
    """What the day lacks against what the day builder gives a day: visits, then the meals."""
    slots = plan.days[di].slots
    if not any(s.role in ("activity", "meal") for s in slots) and any(s.role in ("arrival", "departure")
                                                                     for s in slots):
        return []  # a travel-only day (late arrival, early flight): nothing was planned there
    spent = sum(s.window.minutes for s in slots if s.role == "activity")
    left = DAY_VISIT_BUDGET[ctx.intent.prefs.pace] - spent
    out = ["activity"] * max(0, -(-left // SIGHT_MINUTES))  # a sight per hour of sight time left
    for meal, (first, last) in MEAL_STARTS.items():
        if not any(s.role == "meal" and first <= minutes_of(s.window.start) <= last for s in slots):
            out.append(meal)
    return out


def _insert(plan: PlanV1, di: int, role: str, ctx: RepairContext, tries: list[int]):
    """(plan, the slot added) for the first candidate that fits a gap of day ``di``, or None: a
    place at its full length first, one shortened (as repair may) only when none fits whole."""
    kid = ctx.intent.prefs.kid_friendly
    for whole in (True, False):
        for at, (lo, hi) in _gaps(plan, di, kid):
            for venue in _candidates(plan, di, role, ctx, at):
                if tries[0] <= 0:
                    return None
                slot = _fit(plan, di, at, lo, hi, venue, role, ctx)
                if slot is None or (whole and slot.window.minutes < _length(venue, role)):
                    continue
                if role == "activity" and minutes_of(slot.window.end) > SIGHTS_END[ctx.intent.prefs.pace]:
                    continue  # sights end when the traveller's pace ends them, as the day builder's do
                day = plan.days[di]
                new = plan.model_copy(update={"days": [*plan.days[:di], DayPlan(date=day.date, slots=[*day.slots, slot]),
                                                       *plan.days[di + 1:]]})
                if plan_cost(new, ctx.facts).total > ctx.intent.budget_usd_cents:
                    continue
                tries[0] -= 1
                if not blocking(verify_plan(new, ctx.intent, ctx.facts)):
                    return new, slot
    return None


def _length(venue: Attraction, role: str) -> int:
    return venue.duration_minutes if role == "activity" else MEAL_MINUTES[role]


def _gaps(plan: PlanV1, di: int, kid: bool):
    """(insert position, (free from, free until)) of the day's free stretches, earliest first."""
    slots = plan.days[di].slots
    edges = [DAY_START, *[m for s in slots for m in (minutes_of(s.window.start), minutes_of(s.window.end))],
             DAY_END[kid]]
    for at in range(len(slots) + 1):
        lo, hi = max(DAY_START, edges[2 * at]), min(DAY_END[kid], edges[2 * at + 1])
        if hi - lo >= MIN_GAP:
            yield at, (lo, hi)


def _candidates(plan: PlanV1, di: int, role: str, ctx: RepairContext, at: int) -> list[Attraction]:
    """The city's places for ``role`` not in the plan nor removed, acceptable that day (weather,
    kids): sights by theme and the planner's rank, tables nearest the slot before first."""
    taken = {s.selected.option_ref for _, _, s in plan.slots()} | {r.ref for r in plan.removed}
    day = plan.days[di]
    if role == "activity":
        themes = set(ctx.intent.prefs.themes)
        pool = [v for v in ctx.inputs.attractions if v.id not in taken and _acceptable(v, day.date, ctx)]
        rank = {v.id: i for i, v in enumerate(ctx.inputs.attractions)}
        return sorted(pool, key=lambda v: (-len(themes & set(v.themes)), rank[v.id]))
    here = day.slots[at - 1].selected.geo if at > 0 else None
    pool = [v for v in ctx.inputs.restaurants if v.id not in taken]
    if here is None:
        return pool
    return sorted(pool, key=lambda v: (ctx.facts.leg(here, v.location, day.date).duration_seconds, v.id))


def _fit(plan: PlanV1, di: int, at: int, lo: int, hi: int, venue: Attraction, role: str,
         ctx: RepairContext) -> Slot | None:
    """The venue's slot in the gap at ``at`` (its window chosen by ``fit_window``), or None."""
    meal = role != "activity"
    length = _length(venue, role)
    start = max(lo, MEAL_STARTS[role][0]) if meal else lo
    if start + min(length, MIN_GAP) > hi:
        return None
    kind = ChoiceKind.meal if meal else ChoiceKind.attraction
    choice = venue_choice(di, venue, kind, ctx.intent.travellers, "meal" if meal else "activity")
    probe = Slot(window=TimeWindow.of_minutes(start, min(start + length, 24 * 60 - 1)),
                 role="meal" if meal else "activity", choices=[choice])
    window = fit_inserted(plan, di, at, probe, venue, ctx.facts, ctx.intent.prefs.kid_friendly, DAY_START)
    if window is None:
        return None
    if meal and not MEAL_STARTS[role][0] <= minutes_of(window.start) <= MEAL_STARTS[role][1]:
        return None
    return probe.model_copy(update={"window": window})
