"""Repair moves of a multi-city trip's chain (issue 33 §3), as pure functions on a
:class:`ChainDraft` (the stays and legs to plan, and when each estimated leg may leave): each
returns the changed draft and its :class:`Move`, or None when it does not apply. Booked legs and
booked hotels are facts and never moved; a stay keeps 1–6 nights (what the city planner plans).

- ``move_night``: a night from one stay to its neighbour (the budget: to the cheaper city);
- ``swap_leg_mode``: a leg by another mode (a late arrival: fly; the budget: the bus);
- ``shift_leg``: a leg leaving earlier or later (a missed connection, the last train);
- ``downgrade_stay_tier``: one stay's hotel a tier down (the budget).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, time, timedelta, timezone

from engine.canonical import digest
from engine.models import TIER_ORDER, Move, MoveType, MultiCityIntent, Provenance, Tier
from engine.models.multi_city import MAX_STAY_NIGHTS, LegRequest

EARLIEST_SHIFT = time(6, 0)  # no leg is moved to leave before this
LATEST_SHIFT = time(18, 0)  # nor after this


@dataclass(frozen=True)
class ChainDraft:
    """What the chain plans: the intent's stays and legs (as repair left them) and, per leg
    index, the earliest departure an estimated leg may take instead of the default."""

    intent: MultiCityIntent
    departures: dict[int, datetime] = field(default_factory=dict)


def _move(kind: MoveType, node: str, old: str, new: str, reason: str, detail: str = "") -> Move:
    return Move(move_type=kind, node_ref=node, old_value=old, new_value=new, reason=reason, detail=detail,
                provenance=Provenance(source="tool", tool="repair", call_ts=datetime.now(timezone.utc),
                                      response_digest=digest([kind.value, node, old, new]), data_source="computed"))


def _with_stays(draft: ChainDraft, stays: list) -> ChainDraft:
    data = draft.intent.model_dump()
    data["stays"] = [s.model_dump() for s in stays]
    return replace(draft, intent=MultiCityIntent.model_validate(data))


def move_night(draft: ChainDraft, k: int, to: int, reason: str) -> tuple[ChainDraft, Move] | None:
    """One night of stay ``k`` to its neighbour ``to`` (k ± 1); neither stay has a booked hotel."""
    stays = list(draft.intent.stays)
    if abs(to - k) != 1 or not 0 <= to < len(stays):
        return None
    a, b = stays[k], stays[to]
    if a.nights <= 1 or b.nights + 1 > MAX_STAY_NIGHTS or a.hotel is not None or b.hotel is not None:
        return None
    if draft.intent.prefs.locked_slots:
        return None  # a locked slot's day belongs to its city: moving a night would move it elsewhere
    stays[k] = a.model_copy(update={"nights": a.nights - 1})
    stays[to] = b.model_copy(update={"nights": b.nights + 1})
    return _with_stays(draft, stays), _move(MoveType.move_night, f"stay_{k}", f"{a.city} {a.nights} nights",
                                            f"{a.city} {a.nights - 1}, {b.city} {b.nights + 1} nights", reason)


def swap_leg_mode(draft: ChainDraft, i: int, mode: str, reason: str, *, was: str) -> tuple[ChainDraft, Move] | None:
    requests = draft.intent.leg_requests()
    if i >= len(requests) or requests[i].booked is not None or was == mode:
        return None
    requests[i] = LegRequest(mode=mode)
    data = draft.intent.model_dump()
    data["legs"] = [r.model_dump() for r in requests]
    # the new mode leaves at its own default time: an earlier departure found for the old one (a long
    # train moved to 06:00) would leave no room for the check-out before a flight
    departures = {k: v for k, v in draft.departures.items() if k != i}
    moved = replace(draft, intent=MultiCityIntent.model_validate(data), departures=departures)
    return moved, _move(MoveType.swap_leg_mode, f"leg_{i}", was, mode, reason)


def shift_leg(draft: ChainDraft, i: int, departure: datetime, by: timedelta, reason: str, *,
              booked: bool) -> tuple[ChainDraft, Move] | None:
    """Leg ``i`` (now leaving at ``departure``) leaving ``by`` later (or earlier), within the day's
    06:00–18:00; a booked leg is a fact."""
    if booked or not by:
        return None
    wanted = departure + by
    lo = datetime.combine(departure.date(), EARLIEST_SHIFT, departure.tzinfo)
    hi = datetime.combine(departure.date(), LATEST_SHIFT, departure.tzinfo)
    wanted = min(max(wanted, lo), hi)
    if wanted == departure:
        return None
    moved = replace(draft, departures={**draft.departures, i: wanted})
    return moved, _move(MoveType.shift_leg, f"leg_{i}", f"{departure:%H:%M}", f"{wanted:%H:%M}", reason)


def downgrade_stay_tier(draft: ChainDraft, k: int, current: Tier, reason: str) -> tuple[ChainDraft, Move] | None:
    """Stay ``k``'s hotel a tier below ``current`` (the tier it was planned at)."""
    stay = draft.intent.stays[k]
    at = TIER_ORDER.index(current)
    if stay.hotel is not None or at == 0:
        return None
    lower = TIER_ORDER[at - 1]
    stays = list(draft.intent.stays)
    stays[k] = stay.model_copy(update={"tier": lower})
    return _with_stays(draft, stays), _move(MoveType.downgrade_stay_tier, f"stay_{k}", current, lower, reason,
                                            detail=stay.city)


def chain_move_rationale(move: Move) -> str:
    """What a chain repair did, in the traveller's words."""
    why = {"budget": "to stay within the budget", "last_train": "to arrive before the last connections",
           "leg_buffer": "to reach the station with time to spare",
           "checkout_after_leaving": "to check out before leaving",
           "after_checkin_end": "to reach the hotel before check-in closes",
           "checkin_before_arrival": "to arrive before check-in"}.get(move.reason, move.reason.replace("_", " "))
    if move.move_type is MoveType.move_night:
        return f"Moved a night: {move.new_value} (was {move.old_value}), {why}."
    if move.move_type is MoveType.swap_leg_mode:
        return f"Leg {int(move.node_ref.split('_')[1]) + 1} by {move.new_value} instead of {move.old_value}, {why}."
    if move.move_type is MoveType.shift_leg:
        return f"Leg {int(move.node_ref.split('_')[1]) + 1} leaves at {move.new_value} instead of {move.old_value}, {why}."
    return f"{move.detail}: a {move.new_value} hotel instead of {move.old_value}, {why}."


@dataclass(frozen=True)
class StayFigures:
    """What the chain's moves read of one planned stay: its hotel tier and lodging cost per night."""

    tier: Tier
    nightly_cents: int


LATE = time(21, 30)  # a leg moved earlier arrives by then (the city planner reaches the hotel before midnight)


def propose_chain(v, legs: dict, draft: ChainDraft, stays: list[StayFigures]):
    """Candidate moves for one chain violation, in order; each a function of the draft."""
    reason = v.details.get("reason", v.kind.value)
    requests = draft.intent.leg_requests()
    if v.kind.value == "budget_exceeded":
        for k in sorted(range(len(stays)), key=lambda k: -stays[k].nightly_cents):
            yield lambda d, k=k: downgrade_stay_tier(d, k, stays[k].tier, "budget")
        for k in sorted(range(len(stays)), key=lambda k: -stays[k].nightly_cents):
            for to in sorted((k - 1, k + 1), key=lambda j: stays[j].nightly_cents if 0 <= j < len(stays) else 1 << 60):
                if 0 <= to < len(stays) and stays[to].nightly_cents < stays[k].nightly_cents:
                    yield lambda d, k=k, to=to: move_night(d, k, to, "budget")
        for leg in sorted(legs.values(), key=lambda leg: -leg.fare_usd_cents):
            if leg.mode in ("train", "flight") and leg.distance_km <= 700:
                yield lambda d, leg=leg: swap_leg_mode(d, leg.index, "bus", "budget", was=leg.mode)
        return
    leg = legs.get(v.node_ref)
    if leg is None:
        return
    booked = requests[leg.index].booked is not None if leg.index < len(requests) else True
    if reason in ("last_train", "after_checkin_end"):
        local = leg.arrival
        over = local - datetime.combine(leg.departure.astimezone(local.tzinfo).date(), LATE, local.tzinfo)
        step = timedelta(minutes=30 * -(-int(over.total_seconds() // 60) // 30))
        earliest = datetime.combine(leg.departure.date(), EARLIEST_SHIFT, leg.departure.tzinfo)
        if leg.departure - step >= earliest:  # leaving earlier is enough; else no morning train makes it: fly
            yield lambda d: shift_leg(d, leg.index, leg.departure, -step, reason, booked=booked)
        yield lambda d: swap_leg_mode(d, leg.index, "flight", reason, was=leg.mode)
    elif reason in ("leg_buffer", "checkout_after_leaving"):
        yield lambda d: shift_leg(d, leg.index, leg.departure, timedelta(hours=1), reason, booked=booked)
