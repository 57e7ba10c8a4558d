"""Venue hours (seed §6.3, §18.3): some opening window must cover the slot; closures and
blackout dates mean closed. Applies to attractions and restaurants alike."""

from __future__ import annotations

from engine.facts import TripFacts
from engine.models import ChoiceKind, IntentV1, PlanV1, Violation, ViolationKind


def verify_venue_hours(plan: PlanV1, intent: IntentV1, facts: TripFacts) -> list[Violation]:
    out = []
    for day in plan.days:
        for slot in day.slots:
            choice = slot.selected
            if choice.kind not in (ChoiceKind.attraction, ChoiceKind.meal):
                continue
            venue = facts.venue(choice.option_ref)
            if venue is None or venue.is_open(day.date, slot.window):
                continue
            windows = venue.windows_on(day.date)
            reason = ("blackout_date" if day.date in venue.blackout_dates
                      else "closed_day" if not windows else "outside_hours")
            hours = ", ".join(w.label() for w in windows) or "closed"
            out.append(Violation(kind=ViolationKind.venue_closed, node_ref=choice.choice_id, blocking=True,
                                 details={"reason": reason, "date": day.date.isoformat(),
                                          "weekday": day.date.strftime("%A"), "hours": hours,
                                          "message": f"{venue.name} on {day.date:%A %Y-%m-%d} "
                                                     f"{slot.window.label()}: {hours}"}))
    return out
