"""Timing and buffers between consecutive slots (seed §6.2), DST-correct (seed §6.6).

Required gap between two slots = the transfer time plus a buffer: 120 min before a departure
flight (airport buffer), 30 min after an arrival (deplaning), 20 min after a museum, else 15.
"""

from __future__ import annotations

from engine.facts import TripFacts
from engine.models import (Assumptions, Attraction, ChoiceKind, IntentV1, PlanV1, Slot, Violation, ViolationKind,
                           VenueType)
from engine.schedule import DaySchedule, minutes_between, plan_schedule

DEPLANE_MINUTES = 30


def buffer_minutes(before: str, after: str, venue_before: Attraction | None, assumptions: Assumptions) -> int:
    """The buffer between a slot with role ``before`` (at ``venue_before``, an attraction's venue)
    and the next slot with role ``after``: the one rule for verifying and for retiming a slot."""
    if after == "departure":
        return assumptions.airport_buffer_minutes
    if before == "arrival":
        return DEPLANE_MINUTES
    if venue_before is not None and venue_before.venue_type is VenueType.museum:
        return assumptions.museum_buffer_minutes
    return assumptions.transit_buffer_minutes


def required_gap(a: Slot, b: Slot, plan: PlanV1, facts: TripFacts, travel_min: float) -> float:
    venue = facts.venue(a.selected.option_ref) if a.selected.kind is ChoiceKind.attraction else None
    return buffer_minutes(a.role, b.role, venue, plan.assumptions) + travel_min


def verify_timing(plan: PlanV1, intent: IntentV1, facts: TripFacts) -> list[Violation]:
    out = []
    assumptions = plan.assumptions
    for day in plan_schedule(plan, facts):
        slots = day.slots
        consecutive = zip(slots, slots[1:], day.choices, day.venues, day.pairs, day.gaps)  # slot i → i + 1
        for i, (a, b, choice, venue, leg, gap) in enumerate(consecutive):
            travel = leg.duration_seconds / 60 if leg else 0.0
            venue_before = venue if choice.kind is ChoiceKind.attraction else None  # meals: no museum buffer
            need = buffer_minutes(a.role, b.role, venue_before, assumptions) + travel
            if gap + 1e-9 < need:
                out.append(_too_short(day, i, gap, need))
    return out + _across_midnight(plan, facts)


def _across_midnight(plan: PlanV1, facts: TripFacts) -> list[Violation]:
    """A late landing's ride to the hotel: the arrival (a day's last slot) to the next day's
    check-in, checked like any other pair with the real minutes between them."""
    out = []
    days = plan_schedule(plan, facts)
    for day, after in zip(days, days[1:]):
        if day.overnight is None:
            continue
        a, b = day.slots[-1], after.slots[0]
        gap = minutes_between(day.date, a.window.end, after.date, b.window.start, facts.tz)
        need = buffer_minutes(a.role, b.role, None, plan.assumptions) + day.overnight.duration_seconds / 60
        if gap + 1e-9 < need:
            out.append(Violation(kind=ViolationKind.timing_infeasible, node_ref=after.choices[0].choice_id,
                                 blocking=True, details={
                                     "reason": "gap_too_short", "gap_minutes": round(gap), "required": round(need),
                                     "after": day.choices[-1].choice_id, "date": after.date.isoformat(),
                                     "message": f"only {round(gap)} min between {day.choices[-1].label} and "
                                                f"{after.choices[0].label} (after midnight); {round(need)} needed"}))
    return out


def _too_short(day: DaySchedule, i: int, gap: float, need: float) -> Violation:
    a, b = day.choices[i], day.choices[i + 1]
    return Violation(kind=ViolationKind.timing_infeasible, node_ref=b.choice_id, blocking=True, details={
        "reason": "gap_too_short", "gap_minutes": round(gap), "required": round(need),
        "after": a.choice_id, "date": day.date.isoformat(),
        "message": f"only {round(gap)} min between {a.label} and {b.label}; {round(need)} needed"})
