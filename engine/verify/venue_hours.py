"""Venue hours (seed §6.3, §18.3): some opening window must cover the slot; closures and
blackout dates mean closed. Applies to attractions and restaurants alike."""

from __future__ import annotations

from engine.facts import TripFacts
from engine.models import ChoiceKind, IntentV1, PlanV1, Violation, ViolationKind


WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_VISITS = (ChoiceKind.attraction, ChoiceKind.meal)


def verify_venue_hours(plan: PlanV1, intent: IntentV1, facts: TripFacts) -> list[Violation]:
    out = []
    for day in plan.days:
        for slot in day.slots:
            choice = slot.choices[0]
            if choice.kind not in _VISITS:
                continue
            venue = facts.venue(choice.option_ref)
            if venue is None or venue.is_open(day.date, slot.window):
                continue
            out.append(_closed(venue, day.date, slot.window, choice.choice_id))
    return out


def _closed(venue, day, window, node_ref: str) -> Violation:
    windows = venue.windows_on(day)
    reason = ("blackout_date" if day in venue.blackout_dates
              else "closed_day" if not windows else "outside_hours")
    hours = ", ".join(w.label() for w in windows) or "closed"
    weekday, iso = WEEKDAY_NAMES[day.weekday()], day.isoformat()
    # Built from trusted values on a hot path (verifying thousands of plans): no re-validation.
    return Violation.model_construct(kind=ViolationKind.venue_closed, node_ref=node_ref, blocking=True, details={
        "reason": reason, "date": iso, "weekday": weekday, "hours": hours,
        "message": f"{venue.name} on {weekday} {iso} {window.label()}: {hours}"})
