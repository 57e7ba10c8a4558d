"""Venue hours (seed §6.3, §18.3): some opening window *of that date* must cover the slot (the
venue's ``opening_hours`` rule evaluated by date: holidays, a month's last Sunday, seasons, extra
blackout dates). Applies to attractions and restaurants alike."""

from __future__ import annotations

from engine.facts import TripFacts
from engine.models import IntentV1, PlanV1, Violation, ViolationKind
from engine.schedule import plan_schedule

from .labels import hours_label, window_label

WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def verify_venue_hours(plan: PlanV1, intent: IntentV1, facts: TripFacts) -> list[Violation]:
    out = []
    for day in plan_schedule(plan, facts):
        for slot, choice, venue in zip(day.slots, day.choices, day.venues):  # venues: of visits only
            if venue is None or venue.is_open(day.date, slot.window):
                continue
            out.append(_closed(venue, day.date, slot.window, choice.choice_id))
    return out


def _closed(venue, day, window, node_ref: str) -> Violation:
    windows = venue.windows_on(day)
    reason = venue.closed_reason(day) if not windows else "outside_hours"
    hours, note = hours_label(windows), venue.note_on(day)
    weekday, iso = WEEKDAY_NAMES[day.weekday()], day.isoformat()
    said = f"{hours} ({note})" if note else hours
    return Violation(kind=ViolationKind.venue_closed, node_ref=node_ref, blocking=True, details={
        "reason": reason, "date": iso, "weekday": weekday, "hours": hours,
        "message": f"{venue.name} on {weekday} {iso} {window_label(window)}: {said}"})
