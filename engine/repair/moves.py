"""The four repair moves (seed §7.1) as pure functions: (plan, ...) -> (new plan, Move) or None.

Locked slots are never touched. Each move returns a new, valid PlanV1.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from engine.canonical import digest
from engine.facts import TripFacts
from engine.models import (TIER_ORDER, ChoiceKind, IntentV1, Move, MoveType, PlanV1, Provenance, Slot,
                           ViolationKind)
from engine.costs import venue_cost
from engine.planning.builder import venue_choice
from engine.planning.inputs import PlannerInputs
from engine.verify.weather import is_bad_weather

from .retime import fit_window


@dataclass(frozen=True)
class RepairContext:
    inputs: PlannerInputs
    intent: IntentV1
    facts: TripFacts


def _prov(payload) -> Provenance:
    return Provenance(source="tool", tool="repair", call_ts=datetime.now(timezone.utc),
                      response_digest=digest(payload), data_source="computed")


def _move(kind: MoveType, node: str, old: str, new: str, reason: str, *, detail: str = "") -> Move:
    return Move(move_type=kind, node_ref=node, old_value=old, new_value=new, reason=reason, detail=detail,
                provenance=_prov([kind.value, node, old, new]))


# -- 1. swap airport / flight ------------------------------------------------------------------
def swap_airport(plan: PlanV1, ctx: RepairContext, reason: str) -> tuple[PlanV1, Move] | None:
    """Cheapest acceptable outbound+return pair through any allowed airport."""
    cur = {s.role: (di, si, s) for di, si, s in plan.slots() if s.role in ("arrival", "departure")}
    if len(cur) < 2 or any(s.locked for _, _, s in cur.values()):
        return None
    old_out = ctx.facts.flights[cur["arrival"][2].selected.option_ref]
    old_back = ctx.facts.flights[cur["departure"][2].selected.option_ref]
    pairs = []
    for airport in ctx.intent.airports:
        outs = [f for f in ctx.inputs.flights if f.direction == "outbound" and f.dest == airport]
        backs = [f for f in ctx.inputs.flights if f.direction == "return" and f.origin == airport]
        if ctx.intent.prefs.avoid_overnight:
            outs, backs = [f for f in outs if not f.overnight], [f for f in backs if not f.overnight]
        if outs and backs:
            o, b = min(outs, key=_price_key), min(backs, key=_price_key)
            pairs.append((o.price_usd_cents + b.price_usd_cents, airport, o, b))
    old_total = old_out.price_usd_cents + old_back.price_usd_cents
    better = [p for p in sorted(pairs, key=lambda p: (p[0], p[1]))
              if p[0] < old_total or (reason == "overnight_flight" and (p[2], p[3]) != (old_out, old_back))]
    if not better:
        return None
    _, airport, out, back = better[0]
    new = _replace_flights(plan, ctx, cur, out, back)
    if new is None:
        return None
    old_label = f"{old_out.dest} {old_out.flight_number}/{old_back.flight_number}"
    return new, _move(MoveType.swap_airport, cur["arrival"][2].selected.choice_id, old_label,
                      f"{airport} {out.flight_number}/{back.flight_number}", reason)


def _price_key(f):
    return (f.price_usd_cents, f.overnight, f.flight_id)


def _replace_flights(plan: PlanV1, ctx: RepairContext, cur, out, back) -> PlanV1 | None:
    from .rebuild import reframe
    return reframe(plan, ctx, outbound=out, back=back)


# -- 2. downgrade hotel ------------------------------------------------------------------------
def downgrade_hotel(plan: PlanV1, ctx: RepairContext, reason: str) -> tuple[PlanV1, Move] | None:
    checkin = next(((di, si, s) for di, si, s in plan.slots() if s.role == "checkin"), None)
    if checkin is None:
        return None
    hotel = ctx.facts.lodgings[checkin[2].selected.option_ref]
    rank = TIER_ORDER.index(hotel.tier)
    if rank == 0:
        return None
    lower = TIER_ORDER[rank - 1]
    options = [h for h in ctx.inputs.lodgings if h.tier is lower]
    from .rebuild import reframe
    best = None  # (clashes, hotel, plan): the first hotel of the tier that fits the frame best
    for option in options:
        new = reframe(plan, ctx, hotel=option)
        if new is None:
            continue
        clashes = _frame_clashes(new, ctx)
        if best is None or clashes < best[0]:
            best = (clashes, option, new)
        if clashes == 0:
            break
    if best is None:
        return None
    _, option, new = best
    return new, _move(MoveType.downgrade_hotel, checkin[2].selected.choice_id, hotel.tier.value,
                      lower.value, reason, detail=f"{hotel.name} → {option.name}")


def _frame_clashes(plan: PlanV1, ctx: RepairContext) -> int:
    """Blocking violations other than the budget: a hotel whose check-in hours leave no time to
    reach a locked visit on the arrival day would trade one violation for another."""
    from engine.verify import verify_plan
    return sum(1 for v in verify_plan(plan, ctx.intent, ctx.facts)
               if v.blocking and v.kind is not ViolationKind.budget_exceeded)


# -- 3. reorder days ---------------------------------------------------------------------------
def reorder_days(plan: PlanV1, ctx: RepairContext, node_ref: str, reason: str) -> tuple[PlanV1, Move] | None:
    """Swap a bad visit with a visit on another day when both then fit."""
    pos = plan.find(node_ref)
    if pos is None:
        return None
    di, si = pos
    slot = plan.days[di].slots[si]
    if slot.locked or slot.selected.kind is not ChoiceKind.attraction:
        return None
    before = None
    for dj, sj, other in plan.slots():
        if dj == di or other.locked or other.selected.kind is not ChoiceKind.attraction:
            continue
        swapped = _swap(plan, (di, si), (dj, sj), ctx)
        if swapped is not None:
            before = _blocking(plan, ctx) if before is None else before
            if _blocking(swapped, ctx) >= before:  # a trade that only moves the trouble (no time around it there)
                continue
            return swapped, _move(MoveType.reorder_days, node_ref, f"day {di + 1}: {slot.selected.label}",
                                  f"day {dj + 1}: {slot.selected.label} ⇄ {other.selected.label}", reason)
    if slot.placed:  # the traveller's choice: it takes a planner-chosen visit's place on another day
        return _take_a_place(plan, (di, si), ctx, node_ref, reason)
    return None


def _blocking(plan: PlanV1, ctx: RepairContext) -> int:
    from engine.verify import verify_plan
    return sum(1 for v in verify_plan(plan, ctx.intent, ctx.facts) if v.blocking)


def _take_a_place(plan: PlanV1, pos: tuple[int, int], ctx: RepairContext, node_ref: str,
                  reason: str) -> tuple[PlanV1, Move] | None:
    """A visit the traveller placed that cannot stay (closed that day, …) and trades with no visit:
    it takes the place of a visit the planner chose on another day, which gives way."""
    di, si = pos
    slot = plan.days[di].slots[si]
    venue = ctx.facts.venue(slot.selected.option_ref)
    if venue is None:
        return None
    for dj, sj, other in plan.slots():
        if dj == di or other.locked or other.placed or other.selected.kind is not ChoiceKind.attraction:
            continue
        taken = _place(plan, (dj, sj), venue, ctx)
        if taken is not None:
            moved = plan.with_slot(dj, sj, taken.model_copy(update={"placed": True})).with_slot(di, si, None)
            return moved, _move(MoveType.reorder_days, node_ref, f"day {di + 1}: {slot.selected.label}",
                                f"day {dj + 1}: {slot.selected.label} in place of {other.selected.label}", reason)
    return None


def _swap(plan: PlanV1, a: tuple[int, int], b: tuple[int, int], ctx: RepairContext) -> PlanV1 | None:
    sa, sb = plan.days[a[0]].slots[a[1]], plan.days[b[0]].slots[b[1]]
    va, vb = ctx.facts.venue(sa.selected.option_ref), ctx.facts.venue(sb.selected.option_ref)
    if va is None or vb is None:
        return None
    new_a = _place(plan, a, vb, ctx)
    new_b = _place(plan, b, va, ctx)
    if new_a is None or new_b is None:
        return None
    # each visit keeps the traveller's mark ("placed") wherever it goes
    new_a, new_b = new_a.model_copy(update={"placed": sb.placed}), new_b.model_copy(update={"placed": sa.placed})
    return plan.with_slot(*a, new_a).with_slot(*b, new_b)


def _acceptable(venue, day, ctx: RepairContext) -> bool:
    if venue.indoor is False and is_bad_weather(ctx.facts.weather.get(day)):
        return False
    return not (ctx.intent.prefs.kid_friendly and venue.kid_friendly is False)


def _place(plan: PlanV1, pos: tuple[int, int], venue, ctx: RepairContext) -> Slot | None:
    di, si = pos
    day = plan.days[di]
    if not _acceptable(venue, day.date, ctx):
        return None
    old = day.slots[si]
    choice = venue_choice(di, venue, old.selected.kind, ctx.intent.travellers, old.role)
    probe = Slot(window=old.window, role=old.role, choices=[choice])
    window = fit_window(plan.with_slot(di, si, probe), di, si, probe, venue, ctx.facts,
                        ctx.intent.prefs.kid_friendly)
    if window is None:
        return None
    rest = [c for c in day.slots[si].choices if c.option_ref != venue.id]
    return Slot(window=window, role=old.role, choices=[choice, *rest][:4])


# -- 4. replace activity -----------------------------------------------------------------------
def replace_activity(plan: PlanV1, ctx: RepairContext, node_ref: str, reason: str,
                     cheaper: bool = False, keep_placed: bool = False) -> tuple[PlanV1, Move] | None:
    """Retime the same venue; else the next-best venue that fits; else drop the visit."""
    pos = plan.find(node_ref)
    if pos is None:
        return None
    di, si = pos
    slot = plan.days[di].slots[si]
    if slot.locked or slot.selected.kind not in (ChoiceKind.attraction, ChoiceKind.meal):
        return None
    venue = ctx.facts.venue(slot.selected.option_ref)
    if not cheaper and venue is not None:
        placed = _place_same(plan, (di, si), venue, ctx)
        if placed is not None:
            return plan.with_slot(di, si, placed), _move(
                MoveType.replace_activity, node_ref, f"{slot.selected.label} {slot.window.label()}",
                f"{slot.selected.label} {placed.window.label()}", reason)
    if slot.placed and not cheaper and venue is not None:  # the traveller's choice: make room before changing it
        roomier = _make_room(plan, (di, si), venue, ctx)
        if roomier is not None:
            gave_way, room = roomier
            return room, _move(MoveType.replace_activity, node_ref, gave_way,
                               f"(free time) to keep {slot.selected.label}", reason)
    if slot.placed and keep_placed:  # the traveller's own choice: not swapped or dropped for a warning
        return None
    for alt in _alternatives(plan, slot, ctx, cheaper):
        placed = _place(plan, (di, si), alt, ctx)
        if placed is not None:
            return plan.with_slot(di, si, placed), _move(
                MoveType.replace_activity, node_ref, slot.selected.label,
                f"{alt.name} {placed.window.label()}", reason)
    if slot.selected.kind is ChoiceKind.meal or cheaper:
        return None
    return plan.with_slot(di, si, None), _move(MoveType.replace_activity, node_ref, slot.selected.label,
                                              "(free time)", reason)


def _make_room(plan: PlanV1, pos, venue, ctx: RepairContext) -> tuple[str, PlanV1] | None:
    """A visit the traveller placed (moved or chose, ``Slot.placed``) that does not fit: the
    nearest visit of its day the planner chose (unlocked, unplaced) gives way, and the placed one
    takes the time it needs. Returns (the label of the visit that gave way, the plan), or None."""
    di, si = pos
    slot = plan.days[di].slots[si]
    others = sorted((abs(_start(o) - _start(slot)), j) for j, o in enumerate(plan.days[di].slots)
                    if j != si and o.role == "activity" and not o.locked and not o.placed)
    for _gap, j in others:
        gone = plan.days[di].slots[j]
        without = plan.with_slot(di, j, None)
        at = without.find(slot.selected.choice_id)
        if at is None:
            continue
        placed = _place_same(without, at, venue, ctx)
        if placed is not None:
            return gone.selected.label, without.with_slot(at[0], at[1], placed)
    return None


def _start(slot: Slot) -> int:
    return slot.window.start.hour * 60 + slot.window.start.minute


def _place_same(plan: PlanV1, pos, venue, ctx: RepairContext) -> Slot | None:
    di, si = pos
    slot = plan.days[di].slots[si]
    if not _acceptable(venue, plan.days[di].date, ctx) and slot.selected.kind is ChoiceKind.attraction:
        return None
    window = fit_window(plan, di, si, slot, venue, ctx.facts, ctx.intent.prefs.kid_friendly)
    if window is None or window == slot.window:
        return None
    return slot.model_copy(update={"window": window})


def _alternatives(plan: PlanV1, slot: Slot, ctx: RepairContext, cheaper: bool):
    used = {s.selected.option_ref for _, _, s in plan.slots()} | {r.ref for r in plan.removed}  # never one taken out
    pool = ctx.inputs.restaurants if slot.selected.kind is ChoiceKind.meal else ctx.inputs.attractions
    ranked = [ctx.facts.venue(c.option_ref) for c in slot.choices[1:]] + list(pool)
    seen, out = set(), []
    for v in ranked:
        if v is None or v.id in used or v.id in seen:
            continue
        if cheaper and venue_cost(v, ctx.intent.travellers) >= slot.selected.features.cost_usd_cents:
            continue
        seen.add(v.id)
        out.append(v)
    if cheaper:
        out.sort(key=lambda v: (v.est_price_usd_cents, v.id))
    return out


WHY = {"budget": "to keep within the budget", "last_train": "to be back before the last train",
       "closed_day": "it is closed that day", "closed_every_day": "it is never open",
       "outside_hours": "it would be closed at that time", "gap_too_short": "there was not enough time to get there",
       "outdoor_in_bad_weather": "rain is likely that day", "uncertain_weather": "the weather is uncertain that day",
       "overnight_flight": "to avoid an overnight flight", "late_night": "it ended too late at night",
       "before_checkin": "it came before the hotel's check-in", "after_checkout": "it came after the check-out",
       "too_far": "it was too far", "not_kid_friendly": "it does not suit children", "did_not_fit": "it did not fit",
       "hours_unknown": "its opening hours are not published", "locked_slot_missing": "a locked visit was missing"}


def move_rationale(move: Move) -> str:
    """What a repair did, as a traveller reads it (issue 32 §5): "Moved Eiffel Tower from day 4
    to day 1, swapping with Musée Carnavalet: rain is likely that day." — not
    "cycle 1: reorder_days (outdoor_in_bad_weather) replaced day 4: Eiffel Tower"."""
    reason, detail = move.reason, move.detail
    why = WHY.get(reason, reason.replace("_", " "))
    old, new = move.old_value, move.new_value
    if move.move_type is MoveType.downgrade_hotel and " → " in detail:
        before, after = detail.split(" → ", 1)
        tier = {"mid": "mid-range"}.get(old, old)
        return f"Chose the {new} hotel, {after}, over {before} ({tier}): {why}."
    if move.move_type is MoveType.swap_airport:
        return f"Flew via {new} instead of {old}: {why}."
    if move.move_type is MoveType.reorder_days and old.startswith("day ") and new.startswith("day "):
        from_day, name = old.split(": ", 1)
        to_day, rest = new.split(": ", 1)
        how = rest.removeprefix(name)
        how = (f", swapping with {how.removeprefix(' ⇄ ')}" if how.startswith(" ⇄ ")
               else f",{how.removeprefix(' ')}" if how else "")
        return f"Moved {name} from {from_day} to {to_day}{how}: {why}."
    if new == "(free time)":
        return f"Left out {old}: {why}."
    if new.startswith("(free time) to keep "):
        return f"Left out {old} to keep {new.removeprefix('(free time) to keep ')}: {why}."
    name = old.rsplit(" ", 1)[0] if " " in old else old
    if new.startswith(name + " "):
        return f"Moved {name} to {new.removeprefix(name + ' ')}: {why}."
    return f"Replaced {old} with {new}: {why}."
