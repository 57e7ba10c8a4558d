"""Reading a plan as a day-by-day schedule: where each slot is and the legs between them.

Conventions the planner writes and verifiers/repair read (docs/ARCHITECTURE.md):
day 0 holds the ``arrival`` flight and the hotel ``checkin`` (the stay's whole lodging cost sits on
that choice); the last day holds the ``checkout`` and the ``departure`` flight; ``activity`` and
``meal`` slots sit in between. A flight choice's geo is its airport in the city.
"""

from __future__ import annotations

from datetime import date, datetime, time
from functools import lru_cache
from zoneinfo import ZoneInfo

from engine.facts import TripFacts
from engine.models import ChoiceKind, Geo, PlanV1, Slot, TransitLeg


def local_dt(day: date, t: time, tz: str) -> datetime:
    return datetime.combine(day, t, ZoneInfo(tz))


@lru_cache(maxsize=4096)
def _steady_offset(day: date, tz: str) -> bool:
    """True when the zone's UTC offset is the same all day (no DST change on this date)."""
    zone = ZoneInfo(tz)
    return datetime.combine(day, time(0), zone).utcoffset() == datetime.combine(day, time(23, 59), zone).utcoffset()


def elapsed_minutes(day: date, start: time, end: time, tz: str) -> float:
    """Real minutes between two local times of one day; correct across DST changes (UTC math)."""
    if _steady_offset(day, tz):
        return (end.hour - start.hour) * 60 + (end.minute - start.minute)
    zone = ZoneInfo(tz)
    a = datetime.combine(day, start, zone).astimezone(ZoneInfo("UTC"))
    b = datetime.combine(day, end, zone).astimezone(ZoneInfo("UTC"))
    return (b - a).total_seconds() / 60


def hotel_geo(plan: PlanV1) -> Geo | None:
    """Where the traveller sleeps: the check-in slot's place (on day 1, so found early)."""
    for day in plan.days:
        for slot in day.slots:
            if slot.role == "checkin":
                return slot.choices[0].geo
    return None


def airport_code(slot: Slot, facts: TripFacts) -> str | None:
    flight = facts.flights.get(slot.selected.option_ref)
    if flight is None:
        return None
    return flight.dest if flight.direction == "outbound" else flight.origin


def pair_leg(a: Slot, b: Slot, day: date, facts: TripFacts) -> TransitLeg | None:
    """The transfer between two consecutive slots, or None when either has no place."""
    ca, cb = a.choices[0], b.choices[0]
    if ca.geo is None or cb.geo is None:
        return None
    if ca.kind is ChoiceKind.flight:
        code = airport_code(a, facts)
        return facts.airport_leg(code, cb.geo, day) if code else None
    if cb.kind is ChoiceKind.flight:
        code = airport_code(b, facts)
        return facts.airport_leg(code, ca.geo, day) if code else None
    return facts.leg(ca.geo, cb.geo, day)


MEMO_LIMIT = 512  # one plan under verification and repair; small keeps GC cheap


def pair_legs(plan: PlanV1, di: int, facts: TripFacts) -> list[TransitLeg | None]:
    """The transfer between each consecutive pair of slots of day ``di`` (memoised)."""
    day = plan.days[di]
    key = ("pairs", id(day))
    hit = facts.schedule_memo.get(key)
    if hit is not None and hit[0] is day:
        return hit[1]
    legs = [pair_leg(a, b, day.date, facts) for a, b in zip(day.slots, day.slots[1:])]
    if len(facts.schedule_memo) >= MEMO_LIMIT:
        facts.schedule_memo.clear()
    facts.schedule_memo[key] = (day, legs)
    return legs


def day_legs(plan: PlanV1, di: int, facts: TripFacts) -> list[tuple[str, TransitLeg]]:
    """Every leg of day ``di``: hotel → first slot, slot → slot, last slot → hotel (memoised)."""
    day = plan.days[di]
    hotel = hotel_geo(plan)
    key = (id(day), di, len(plan.days), (hotel.lat, hotel.lon) if hotel else None)  # Geo hashing is slow
    hit = facts.schedule_memo.get(key)
    if hit is not None and hit[0] is day:
        return hit[1]
    legs = _day_legs(plan, di, facts, hotel)
    if len(facts.schedule_memo) >= MEMO_LIMIT:
        facts.schedule_memo.clear()
    facts.schedule_memo[key] = (day, legs)
    return legs


def _day_legs(plan: PlanV1, di: int, facts: TripFacts, hotel: Geo | None) -> list[tuple[str, TransitLeg]]:
    day = plan.days[di]
    slots = day.slots
    legs: list[tuple[str, TransitLeg]] = []
    if not slots:
        return legs
    choices = [s.choices[0] for s in slots]  # the selected options
    first, last = choices[0], choices[-1]
    starts_at_hotel = di > 0 and slots[0].role != "checkout"
    if hotel and starts_at_hotel and first.geo and first.kind is not ChoiceKind.flight:
        legs.append(("hotel>" + first.choice_id, facts.leg(hotel, first.geo, day.date)))
    for a, b, leg in zip(choices, choices[1:], pair_legs(plan, di, facts)):
        if leg is not None:
            legs.append((a.choice_id + ">" + b.choice_id, leg))
    ends_at_hotel = slots[-1].role in ("activity", "meal") and di < len(plan.days) - 1
    if hotel and ends_at_hotel and last.geo:
        legs.append((last.choice_id + ">hotel", facts.leg(last.geo, hotel, day.date)))
    return legs


def return_leg(plan: PlanV1, di: int, facts: TripFacts) -> TransitLeg | None:
    """The evening leg back to the hotel, if the day ends away from it."""
    for label, leg in reversed(day_legs(plan, di, facts)):
        return leg if label.endswith(">hotel") else None
    return None
