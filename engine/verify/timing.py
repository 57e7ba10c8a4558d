"""Timing and buffers between consecutive slots (seed §6.2), DST-correct (seed §6.6).

Required gap between two slots = the transfer time plus a buffer: 120 min before a departure
flight (airport buffer), 30 min after an arrival (deplaning), 20 min after a museum, else 15.
"""

from __future__ import annotations

from engine.facts import TripFacts
from engine.models import ChoiceKind, IntentV1, PlanV1, Slot, Violation, ViolationKind, VenueType
from engine.schedule import elapsed_minutes, pair_legs

DEPLANE_MINUTES = 30


def required_gap(a: Slot, b: Slot, plan: PlanV1, facts: TripFacts, travel_min: float) -> float:
    assumptions = plan.assumptions
    if b.role == "departure":
        return assumptions.airport_buffer_minutes + travel_min
    if a.role == "arrival":
        return DEPLANE_MINUTES + travel_min
    venue = facts.venue(a.selected.option_ref) if a.selected.kind is ChoiceKind.attraction else None
    if venue is not None and venue.venue_type is VenueType.museum:
        return assumptions.museum_buffer_minutes + travel_min
    return assumptions.transit_buffer_minutes + travel_min


def verify_timing(plan: PlanV1, intent: IntentV1, facts: TripFacts) -> list[Violation]:
    out = []
    for di, day in enumerate(plan.days):
        for (a, b), leg in zip(zip(day.slots, day.slots[1:]), pair_legs(plan, di, facts)):
            travel = leg.duration_seconds / 60 if leg else 0.0
            need = required_gap(a, b, plan, facts, travel)
            gap = elapsed_minutes(day.date, a.window.end, b.window.start, facts.tz)
            if gap + 1e-9 < need:
                out.append(Violation(kind=ViolationKind.timing_infeasible, node_ref=b.selected.choice_id,
                                     blocking=True, details={
                    "reason": "gap_too_short", "gap_minutes": round(gap), "required": round(need),
                    "after": a.selected.choice_id, "date": day.date.isoformat(),
                    "message": f"only {round(gap)} min between {a.selected.label} and "
                               f"{b.selected.label}; {round(need)} needed"}))
    return out
