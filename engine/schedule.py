"""Reading a plan as a day-by-day schedule: where each slot is and the legs between them.

``plan_schedule`` reads a plan once into flat per-day lists (``DaySchedule``) that costs, the
planner and all seven verifier families share; verifying thousands of candidate plans is
dominated by Python overhead, so nothing is derived twice.

Conventions the planner writes and verifiers/repair read (docs/ARCHITECTURE.md):
day 0 holds the ``arrival`` flight and the hotel ``checkin`` (the stay's whole lodging cost sits on
that choice) — or, when the flight lands too late to reach the hotel by midnight, day 0 ends with the
arrival and day 1 opens with a *late check-in* (the ride from the airport crosses midnight and is day
0's ``overnight`` leg; the night before is booked and held); the last day holds the ``checkout`` and the ``departure`` flight; ``activity`` and
``meal`` slots sit in between. A flight choice's geo is its airport in the city.

reading a plan as a schedule, once: `plan_schedule(plan, facts)` gives each day's slots, selected choices,
venues, pair legs, clock gaps (one DST check a day), labelled legs and the leg home, shared by the seven
verifier families, costs, the selector and the synthesizer (memoised per plan, ≤ 16 plans so entries die
young; day legs memoised by the day's route, so retimed plans share them)
"""

from __future__ import annotations

from datetime import date, datetime, time
from functools import lru_cache
from typing import NamedTuple
from zoneinfo import ZoneInfo

from engine.facts import TripFacts
from engine.models import Attraction, Choice, ChoiceKind, Geo, PlanV1, Slot, TransitLeg


def local_dt(day: date, t: time, tz: str) -> datetime:
    return datetime.combine(day, t, ZoneInfo(tz))


@lru_cache(maxsize=4096)
def steady_offset(day: date, tz: str) -> bool:
    """True when the zone's UTC offset is the same all day (no DST change on this date)."""
    zone = ZoneInfo(tz)
    return datetime.combine(day, time(0), zone).utcoffset() == datetime.combine(day, time(23, 59), zone).utcoffset()


def elapsed_minutes(day: date, start: time, end: time, tz: str) -> float:
    """Real minutes between two local times of one day; correct across DST changes (UTC math)."""
    if steady_offset(day, tz):
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
    return _airport(slot.choices[0], facts)


def _airport(choice: Choice, facts: TripFacts) -> str | None:
    """The city's airport a flight choice lands at or leaves from."""
    flight = facts.flights.get(choice.option_ref)
    if flight is None:
        return None
    return flight.dest if flight.direction == "outbound" else flight.origin


_FLIGHT = ChoiceKind.flight  # read once: looking an enum member up on its class is slow on a per-pair path


def pair_leg(a: Slot, b: Slot, day: date, facts: TripFacts) -> TransitLeg | None:
    """The transfer between two consecutive slots, or None when either has no place."""
    return choice_leg(a.choices[0], b.choices[0], day, facts)


def choice_leg(a: Choice, b: Choice, day: date, facts: TripFacts) -> TransitLeg | None:
    """The transfer between two consecutive selected choices, or None when either has no place."""
    if a.geo is None or b.geo is None:
        return None
    if a.kind is _FLIGHT:
        code = _airport(a, facts)
        return facts.airport_leg(code, b.geo, day) if code else None
    if b.kind is _FLIGHT:
        code = _airport(b, facts)
        return facts.airport_leg(code, a.geo, day) if code else None
    return facts.leg(a.geo, b.geo, day)


# A few plans' worth: enough for the verifier families and costs of one plan, and for repair's
# candidates. Kept small so entries die before the garbage collector promotes them: thousands of
# promoted entries trigger full collections, which cost ~0.5 s each when a caller holds many
# plans in memory (the 10,000-plan verify benchmark).
MEMO_LIMIT = 16
DAY_LEGS_LIMIT = 256  # distinct day routes remembered (a repair loop visits a few dozen)
_VISITS = (ChoiceKind.attraction, ChoiceKind.meal)


class DaySchedule(NamedTuple):
    """One day read once into flat lists: slot i of the day is index i of each per-slot list,
    and pair i (slot i → slot i + 1) index i of each per-pair list."""

    index: int
    date: date
    slots: list[Slot]
    choices: list[Choice]  # each slot's selected option, choices[0]
    venues: list[Attraction | None]  # the venue behind an attraction or meal choice, when known
    pairs: list[TransitLeg | None]  # slot i → slot i + 1, None when either has no place
    gaps: list[float]  # real minutes (elapsed_minutes) from the end of slot i to the start of i + 1
    legs: list[tuple[str, TransitLeg]]  # hotel → first slot, slot → slot, last slot → hotel
    home: TransitLeg | None  # the evening leg back to the hotel, if the day ends away from it
    overnight: TransitLeg | None  # the ride from the arrival to the next day's late check-in, if any


LATE_CHECKIN_UNTIL = 3 * 60  # a check-in that opens a later day by 03:00 ends the arrival's night


def late_checkin(di: int, i: int, slot: Slot) -> bool:
    """A check-in that opens a day after the first: the traveller landed too late to reach the
    hotel by midnight (the arrival day ends at the arrival)."""
    return di > 0 and i == 0 and slot.role == "checkin"


def minutes_between(a_day: date, a: time, b_day: date, b: time, tz: str) -> float:
    """Real minutes from ``a`` on ``a_day`` to ``b`` on ``b_day`` (across midnight and DST)."""
    zone = ZoneInfo(tz)
    return (datetime.combine(b_day, b, zone) - datetime.combine(a_day, a, zone)).total_seconds() / 60


def plan_schedule(plan: PlanV1, facts: TripFacts) -> tuple[DaySchedule, ...]:
    """Every day's schedule, memoised per plan in ``facts.schedule_memo`` (keyed by id(plan),
    with the plan kept in the entry so its id cannot be reused while the entry exists)."""
    memo = facts.schedule_memo
    hit = memo.get(id(plan))
    if hit is not None and hit[0] is plan:
        return hit[1]
    hotel = hotel_geo(plan)
    days = tuple(_day_schedule(plan, di, facts, hotel) for di in range(len(plan.days)))
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[id(plan)] = (plan, days)
    return days


def pair_legs(plan: PlanV1, di: int, facts: TripFacts) -> list[TransitLeg | None]:
    """The transfer between each consecutive pair of slots of day ``di`` (memoised)."""
    return plan_schedule(plan, facts)[di].pairs


def day_legs(plan: PlanV1, di: int, facts: TripFacts) -> list[tuple[str, TransitLeg]]:
    """Every leg of day ``di``: hotel → first slot, slot → slot, last slot → hotel (memoised)."""
    return plan_schedule(plan, facts)[di].legs


def return_leg(plan: PlanV1, di: int, facts: TripFacts) -> TransitLeg | None:
    """The evening leg back to the hotel, if the day ends away from it."""
    return plan_schedule(plan, facts)[di].home


def _day_schedule(plan: PlanV1, di: int, facts: TripFacts, hotel: Geo | None) -> DaySchedule:
    """One pass over the day's consecutive slots gives each pair's leg, its label and the gap."""
    day = plan.days[di]
    slots, when = day.slots, day.date
    choices = [s.choices[0] for s in slots]
    venues = [facts.venues.get(c.option_ref) if c.kind in _VISITS else None for c in choices]
    steady = steady_offset(when, facts.tz)  # elapsed_minutes' DST check, once for the day
    gaps: list[float] = []
    for a, b in zip(slots, slots[1:]):  # each slot and the next
        end, start = a.window.end, b.window.start
        gaps.append((start.hour - end.hour) * 60 + (start.minute - end.minute) if steady
                    else elapsed_minutes(when, end, start, facts.tz))
    starts_at_hotel = di > 0 and bool(slots) and slots[0].role not in ("checkout", "checkin")
    ends_at_hotel = bool(slots) and slots[-1].role in ("activity", "meal") and di < len(plan.days) - 1
    later = plan.days[di + 1].slots if di + 1 < len(plan.days) else []
    late = later[0].choices[0] if slots and slots[-1].role == "arrival" and later \
        and late_checkin(di + 1, 0, later[0]) else None
    pairs, legs, home, overnight = _day_legs(when, choices, starts_at_hotel, ends_at_hotel, hotel, facts, late)
    return DaySchedule(di, when, slots, choices, venues, pairs, gaps, legs, home, overnight)


def _day_legs(when: date, choices: list[Choice], starts_at_hotel: bool, ends_at_hotel: bool,
              hotel: Geo | None, facts: TripFacts, late: Choice | None) -> tuple[list, list, TransitLeg | None, TransitLeg | None]:
    """(pairs, labelled legs, leg home, the ride to a late check-in) of a day: they depend on where the day goes, not on when,
    so plans that differ only in times (retimes, repair candidates, the verify benchmark's
    variants) share them through ``facts.day_legs_memo``. The lists are shared: read them only."""
    key = (when, starts_at_hotel, ends_at_hotel, (hotel.lat, hotel.lon) if hotel else None,
           tuple((c.choice_id, c.option_ref, c.geo.lat, c.geo.lon) if c.geo else (c.choice_id, c.option_ref)
                 for c in choices), late.choice_id if late else None)
    memo = facts.day_legs_memo
    hit = memo.get(key)
    if hit is not None:
        return hit
    pairs: list[TransitLeg | None] = []
    legs: list[tuple[str, TransitLeg]] = []
    for ca, cb in zip(choices, choices[1:]):
        leg = choice_leg(ca, cb, when, facts)
        pairs.append(leg)
        if leg is not None:
            legs.append((ca.choice_id + ">" + cb.choice_id, leg))
    _add_hotel_legs(legs, choices, when, starts_at_hotel, ends_at_hotel, facts, hotel)
    home = legs[-1][1] if legs and legs[-1][0].endswith(">hotel") else None
    overnight = choice_leg(choices[-1], late, when, facts) if late is not None else None
    if overnight is not None:
        legs.append((choices[-1].choice_id + ">" + late.choice_id, overnight))
    if len(memo) >= DAY_LEGS_LIMIT:
        memo.clear()
    memo[key] = hit = (pairs, legs, home, overnight)
    return hit


def _add_hotel_legs(legs: list[tuple[str, TransitLeg]], choices: list[Choice], when: date, starts_at_hotel: bool,
                    ends_at_hotel: bool, facts: TripFacts, hotel: Geo | None) -> None:
    """The morning leg from the hotel (first) and the evening leg back (last), when the day has them."""
    if not choices or not hotel:
        return
    first, last = choices[0], choices[-1]
    if starts_at_hotel and first.geo and first.kind is not ChoiceKind.flight:
        legs.insert(0, ("hotel>" + first.choice_id, facts.leg(hotel, first.geo, when)))
    if ends_at_hotel and last.geo:
        legs.append((last.choice_id + ">hotel", facts.leg(last.geo, hotel, when)))
