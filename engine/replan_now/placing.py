"""Small placement steps a re-plan from now is made of, each over the repair's own tools
(``engine/repair/``: ``fit_window``/``fit_inserted``, ``replace_activity``; the verifiers judge
every trial): which planned slot a place names, the near same-theme places that could stand in
for one, a visit put in a later day's free time, a visit moved on or dropped, a day's later
slots pushed back behind a delay."""

from __future__ import annotations

import dataclasses

from engine.errors import InputError
from engine.geo import haversine_m
from engine.models import ChoiceKind, DayPlan, PlanV1, Slot, TimeWindow, minutes_of
from engine.models.visit_time import SIGHTS_END
from engine.planning.builder import venue_choice
from engine.planning.day_builder import DAY_END
from engine.repair import RepairContext
from engine.repair.moves import replace_activity
from engine.repair.retime import fit_inserted
from engine.schedule import pair_leg
from engine.verify import blocking, verify_plan
from engine.verify.timing import required_gap

from .past import Moment, ahead

VISITS = ("activity", "meal")
MAX_TRIALS = 12  # verifications spent looking for another day for one visit
NEAR_KM = 3.0  # a stand-in this close counts as near whatever its themes
FAR_KM = 8.0  # none further: a day trip out of town is not a stand-in for a visit in it


def find_ahead(plan: PlanV1, at: Moment, place: str, *, field: str) -> tuple[int, int, Slot]:
    """The first visit or meal from ``at`` on that ``place`` names (its name, any part of it,
    case-insensitive, or its ref); an ``InputError`` listing what is planned when none does."""
    want = place.casefold().strip()
    visits = [(di, si, s) for di, si, s in ahead(plan, at) if s.role in VISITS]
    for exact in (True, False):
        for di, si, s in visits:
            name = s.selected.label.casefold()
            if (name == want or s.selected.option_ref == place) if exact else want in name:
                return di, si, s
    names = ", ".join(dict.fromkeys(s.selected.label for _, _, s in visits)) or "nothing"
    raise InputError(field, f"no visit to {place!r} from {at.label()} on; planned from then: {names}")


def stand_ins(venue, slot: Slot, ctx: RepairContext, plan: PlanV1) -> list:
    """Places that could take ``slot``'s place: the same kind (sight or table), not in the plan
    nor taken out of it, within ``FAR_KM``, sharing a theme or near (≤ ``NEAR_KM``): near and of the
    same theme first, then of the same theme, then only near; nearest first in each."""
    meal = slot.selected.kind is ChoiceKind.meal
    pool = ctx.inputs.restaurants if meal else ctx.inputs.attractions
    taken = {s.selected.option_ref for _, _, s in plan.slots()} | {r.ref for r in plan.removed}
    themes = set(slot.selected.features.themes) - {"food"}
    here = slot.selected.geo

    def metres(v) -> float:
        return haversine_m(here, v.location) if here is not None else 0.0

    fitting = [v for v in pool if v.id not in taken and v.id != venue.id and metres(v) <= FAR_KM * 1000
               and (meal or themes & set(v.themes) or metres(v) <= NEAR_KM * 1000)]
    def rank(v) -> tuple:
        shared = meal or bool(themes & set(v.themes))
        near = metres(v) <= NEAR_KM * 1000
        return (0 if shared and near else 1 if shared else 2, round(metres(v) / 500), -len(themes & set(v.themes)), v.id)
    return sorted(fitting, key=rank)


def replace_near(plan: PlanV1, ctx: RepairContext, di: int, si: int, reason: str):
    """``replace_activity`` offered the slot's near same-theme stand-ins (the move's own order
    otherwise: same place retimed, then the alternatives, then free time). (plan, Move) or None."""
    slot = plan.days[di].slots[si]
    venue = ctx.facts.venue(slot.selected.option_ref)
    if venue is None:
        return None
    ranked = stand_ins(venue, slot, ctx, plan)
    pool = {"restaurants": ranked} if slot.selected.kind is ChoiceKind.meal else {"attractions": ranked}
    near = RepairContext(dataclasses.replace(ctx.inputs, **pool), ctx.intent, ctx.facts)
    bare = plan.with_slot(di, si, slot.model_copy(update={"choices": [slot.selected]}))
    return replace_activity(bare, near, slot.selected.choice_id, reason)


def insert_later(plan: PlanV1, venue, slot: Slot, after_day: int, ctx: RepairContext,
                 verify_facts=None) -> tuple[PlanV1, Slot] | None:
    """``venue`` put in the free time of the first day after ``after_day`` where it fits (open,
    reached and left in time, no new blocking violation); (plan, its new slot) or None."""
    facts = verify_facts or ctx.facts
    kid, pace = ctx.intent.prefs.kid_friendly, ctx.intent.prefs.pace
    before = len(blocking(verify_plan(plan, ctx.intent, facts)))
    trials = MAX_TRIALS
    for dj in range(after_day + 1, len(plan.days)):
        day = plan.days[dj]
        if not any(s.role in VISITS for s in day.slots):
            continue  # a travel-only day
        choice = venue_choice(dj, venue, slot.selected.kind, ctx.intent.travellers, slot.role)
        for at in range(len(day.slots) + 1):
            start = minutes_of(day.slots[at - 1].window.end) if at else 9 * 60 + 30
            length = min(venue.duration_minutes, slot.window.minutes) if slot.role == "activity" else slot.window.minutes
            if start + length >= DAY_END[kid]:
                continue
            probe = Slot(window=TimeWindow.of_minutes(start, start + length), role=slot.role, choices=[choice])
            window = fit_inserted(plan, dj, at, probe, venue, ctx.facts, kid)
            if window is None or (slot.role == "activity" and minutes_of(window.end) > SIGHTS_END[pace]):
                continue
            if trials <= 0:
                return None
            trials -= 1
            placed = probe.model_copy(update={"window": window, "placed": slot.placed})
            new = with_day(plan, dj, [*day.slots[:at], placed, *day.slots[at:]])
            if len(blocking(verify_plan(new, ctx.intent, facts))) <= before:
                return new, placed
    return None


def move_on_or_drop(plan: PlanV1, choice_id: str, ctx: RepairContext, after_day: int,
                    verify_facts=None) -> tuple[PlanV1, str]:
    """The visit ``choice_id`` taken out of its day and put on a later one when it fits there
    (a meal is only dropped); (plan, "moved" | "dropped")."""
    found = plan.find(choice_id)
    if found is None:
        return plan, "dropped"
    di, si = found
    slot = plan.days[di].slots[si]
    without = plan.with_slot(di, si, None)
    venue = ctx.facts.venue(slot.selected.option_ref)
    if venue is not None and slot.role == "activity":
        moved = insert_later(without, venue, slot, after_day, ctx, verify_facts)
        if moved is not None:
            return moved[0], "moved"
    return without, "dropped"


def settle_day(plan: PlanV1, ctx: RepairContext, di: int, facts) -> PlanV1:
    """Visits of day ``di`` a change left in blocking trouble move to a later day or are dropped."""
    for _ in range(len(plan.days[di].slots)):
        trouble = [v.node_ref for v in blocking(verify_plan(plan, ctx.intent, facts))
                   if (found := plan.find(v.node_ref)) is not None and found[0] == di
                   and not plan.days[di].slots[found[1]].locked and plan.days[di].slots[found[1]].role in VISITS]
        if not trouble:
            break
        plan, _how = move_on_or_drop(plan, trouble[0], ctx, di, facts)
    return plan


def push_back(plan: PlanV1, di: int, si: int, facts, moved: Slot | None = None) -> tuple[PlanV1, list[str]]:
    """Day ``di``'s slots after ``si`` pushed later, each just as far as the one before it now
    needs (its transfer and buffer), keeping their lengths; a locked slot is not moved (repair
    settles what then clashes with it) and a visit pushed past the day's end is left out. Returns
    the plan and the ids of the visits left out. ``moved``: slot ``si`` at its new time."""
    day = plan.days[di]
    slots = [*day.slots[:si], moved or day.slots[si]]
    dropped: list[str] = []
    rest = list(day.slots[si + 1:])
    while rest:
        slot = rest.pop(0)
        prev = slots[-1]
        leg = pair_leg(prev, slot, day.date, facts)
        gap = required_gap(prev, slot, plan, facts, leg.duration_seconds / 60 if leg else 0)
        earliest = -(-(minutes_of(prev.window.end) + int(gap + 0.999)) // 5) * 5
        if minutes_of(slot.window.start) >= earliest or slot.locked or slot.role not in (*VISITS, "checkin"):
            slots += [slot, *rest]
            break
        end = earliest + slot.window.minutes
        if end > 24 * 60 - 1 and slot.role in VISITS:
            dropped.append(slot.selected.choice_id)
            continue
        slots.append(slot.model_copy(update={"window": TimeWindow.of_minutes(min(earliest, 24 * 60 - 2),
                                                                            min(end, 24 * 60 - 1))}))
    return with_day(plan, di, _unclashed(slots, dropped)), dropped


def _unclashed(slots: list[Slot], dropped: list[str]) -> list[Slot]:
    """``slots`` without the visits a pushed slot now overlaps (a locked one held its place)."""
    out: list[Slot] = []
    for slot in slots:
        clash = next((o for o in out if o.window.overlaps(slot.window)), None)
        if clash is None:
            out.append(slot)
            continue
        loser = clash if not clash.locked and clash.role in VISITS else slot
        dropped.append(loser.selected.choice_id)
        if loser is clash:
            out.remove(clash)
            out.append(slot)
    return sorted(out, key=lambda s: minutes_of(s.window.start))


def with_day(plan: PlanV1, di: int, slots: list[Slot]) -> PlanV1:
    day = plan.days[di]
    return plan.model_copy(update={"days": [*plan.days[:di], DayPlan(date=day.date, slots=slots),
                                            *plan.days[di + 1:]]})


__all__ = ["find_ahead", "insert_later", "move_on_or_drop", "push_back", "replace_near", "settle_day", "stand_ins",
           "with_day"]
