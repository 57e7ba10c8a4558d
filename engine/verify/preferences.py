"""Preferences (seed §6.5, §18.5): kid-friendly evenings and venues, no red-eyes when asked,
and locked slots present verbatim."""

from __future__ import annotations

from datetime import time

from engine.facts import TripFacts
from engine.models import ChoiceKind, IntentV1, PlanV1, Violation, ViolationKind
from engine.schedule import plan_schedule

KID_LATEST_END = time(20, 0)
_SCHEDULED = (ChoiceKind.attraction, ChoiceKind.meal)  # flights and hotel desks are not chosen hours


def verify_preferences(plan: PlanV1, intent: IntentV1, facts: TripFacts) -> list[Violation]:
    return _kid_rules(plan, intent, facts) + _overnight(plan, intent, facts) + _locked(plan, intent)


def _pref(node_ref: str, reason: str, blocking: bool, message: str, **details) -> Violation:
    return Violation(kind=ViolationKind.pref_violated, node_ref=node_ref, blocking=blocking,
                     details={"reason": reason, "message": message, **details})


def _kid_rules(plan: PlanV1, intent: IntentV1, facts: TripFacts) -> list[Violation]:
    if not intent.prefs.kid_friendly:
        return []
    out = []
    for day in plan_schedule(plan, facts):
        for slot, choice, venue in zip(day.slots, day.choices, day.venues):
            if choice.kind not in _SCHEDULED:
                continue
            if slot.window.end > KID_LATEST_END:
                out.append(_pref(choice.choice_id, "late_night", True,
                                 f"{choice.label} ends {slot.window.end:%H:%M}, after 20:00 with kids"))
            if venue is not None and venue.kid_friendly is False:
                out.append(_pref(choice.choice_id, "not_kid_friendly", False,
                                 f"{venue.name} is not listed as kid-friendly"))
    return out


def _overnight(plan: PlanV1, intent: IntentV1, facts: TripFacts) -> list[Violation]:
    if not intent.prefs.avoid_overnight:
        return []
    out = []
    for day in plan_schedule(plan, facts):
        for choice in day.choices:
            flight = facts.flights.get(choice.option_ref) if choice.kind is ChoiceKind.flight else None
            if flight is not None and flight.overnight:
                out.append(_pref(choice.choice_id, "overnight_flight", True,
                                 f"{flight.flight_number} is a red-eye and overnight flights were excluded"))
    return out


def _locked(plan: PlanV1, intent: IntentV1) -> list[Violation]:
    out = []
    for i, lock in enumerate(intent.prefs.locked_slots):
        if lock.day_offset >= len(plan.days):
            continue
        day = plan.days[lock.day_offset]
        if not any(s.locked and s.selected.option_ref == lock.activity_id and s.window == lock.window
                   for s in day.slots):
            out.append(_pref(f"day:{lock.day_offset}", "locked_slot_missing", True,
                             f"locked {lock.activity_id} {lock.window.label()} is not in the plan",
                             lock_index=i))
    return out
