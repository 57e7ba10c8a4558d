"""Last-train cutoff (seed §18.4): when the way home is by metro, the day's last activity must
end by last_departure − transit duration − transit buffer."""

from __future__ import annotations

from engine.facts import TripFacts
from engine.models import IntentV1, PlanV1, TransitMode, Violation, ViolationKind, minutes_of
from engine.schedule import DaySchedule, plan_schedule

EARLY_MORNING = 5 * 60  # a cutoff before 05:00 belongs to the night before


def cutoff_minutes(last_metro: int, leg_minutes: float, buffer: int) -> float:
    return last_metro - leg_minutes - buffer


def verify_last_train(plan: PlanV1, intent: IntentV1, facts: TripFacts) -> list[Violation]:
    out = []
    for day in plan_schedule(plan, facts):
        leg = day.home
        if leg is None or leg.mode is not TransitMode.metro:
            continue
        end = minutes_of(day.slots[-1].window.end)
        end += 24 * 60 if end < EARLY_MORNING else 0
        cutoff = cutoff_minutes(facts.last_metro_minutes(day.date), leg.duration_seconds / 60,
                                plan.assumptions.transit_buffer_minutes)
        if end > cutoff:
            out.append(_missed(day, int(cutoff) % (24 * 60)))
    return out


def _missed(day: DaySchedule, leave_by: int) -> Violation:
    last, clock = day.choices[-1], f"{leave_by // 60:02d}:{leave_by % 60:02d}"
    return Violation(kind=ViolationKind.timing_infeasible, node_ref=last.choice_id, blocking=True, details={
        "reason": "last_train", "leave_by": clock, "date": day.date.isoformat(),
        "message": f"{last.label} ends {day.slots[-1].window.end:%H:%M}; the last metro home means leaving by {clock}"})
