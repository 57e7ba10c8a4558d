"""Hotel check-in/out windows (seed §18.2): nothing on the arrival day starts before check-in
opens; the checkout happens inside the checkout window, and nothing scheduled before it runs past
the window's close + 60 minutes."""

from __future__ import annotations

from engine.facts import TripFacts
from engine.models import IntentV1, Lodging, PlanV1, Violation, ViolationKind, minutes_of
from engine.schedule import LATE_CHECKIN_UNTIL, DaySchedule, late_checkin, plan_schedule

CHECKOUT_GRACE_MINUTES = 60
_SCHEDULED_ROLES = ("activity", "meal")


def verify_lodging_windows(plan: PlanV1, intent: IntentV1, facts: TripFacts) -> list[Violation]:
    out = []
    for day in plan_schedule(plan, facts):
        for i, slot in enumerate(day.slots):
            if slot.role not in ("checkin", "checkout"):
                continue
            lodging = facts.lodgings.get(day.choices[i].option_ref)
            if lodging and slot.role == "checkin":
                out += _late_checkin(day, lodging) if late_checkin(day.index, i, slot) else _checkin(day, i, lodging)
            if lodging and slot.role == "checkout":
                out += _checkout(day, i, lodging)
    return out


def _checkout(day: DaySchedule, i: int, lodging: Lodging) -> list[Violation]:
    """Checkout done by the window's close (leaving before the desk opens is an express checkout);
    anything before it ends by the close + 60 min. Sightseeing after checkout (bags stored) is fine."""
    out = []
    window = day.slots[i].window
    if window.end > lodging.checkout_window.end:
        out.append(_timing(day.choices[i].choice_id, "checkout_window",
                           f"checkout {window.label()} outside {lodging.checkout_window.label()}"))
    limit = minutes_of(lodging.checkout_window.end) + CHECKOUT_GRACE_MINUTES
    for other, choice in zip(day.slots, day.choices):
        before = other.window.start < window.start and other.role in _SCHEDULED_ROLES
        if before and minutes_of(other.window.end) > limit:
            out.append(_timing(choice.choice_id, "after_checkout",
                               f"{choice.label} ends after checkout closes + 60 min"))
    return out


def _checkin(day: DaySchedule, i: int, lodging: Lodging) -> list[Violation]:
    out = []
    window, opens = day.slots[i].window, lodging.checkin_window.start
    if not lodging.checkin_window.covers(window):
        out.append(_timing(day.choices[i].choice_id, "checkin_window",
                           f"check-in {window.label()} outside {lodging.checkin_window.label()}"))
    for other, choice in zip(day.slots, day.choices):
        start = other.window.start
        if other.role in _SCHEDULED_ROLES and start < opens:
            out.append(_timing(choice.choice_id, "before_checkin",
                               f"{choice.label} at {start:%H:%M} is before check-in opens at {opens:%H:%M}"))
    return out


def _late_checkin(day: DaySchedule, lodging: Lodging) -> list[Violation]:
    """A check-in after midnight ends the arrival day's night: the desk must take arrivals until
    midnight (the room is held from the night before) and the check-in start by 03:00."""
    window, desk = day.slots[0].window, lodging.checkin_window
    if minutes_of(desk.end) >= 23 * 60 + 59 and minutes_of(window.start) <= LATE_CHECKIN_UNTIL:
        return []
    return [_timing(day.choices[0].choice_id, "checkin_window",
                    f"check-in {window.label()} after midnight: {lodging.name} takes arrivals "
                    f"{desk.label()} and a late arrival must reach it by "
                    f"{LATE_CHECKIN_UNTIL // 60:02d}:{LATE_CHECKIN_UNTIL % 60:02d}")]


def _timing(node_ref: str, reason: str, message: str) -> Violation:
    return Violation(kind=ViolationKind.timing_infeasible, node_ref=node_ref, blocking=True,
                     details={"reason": reason, "message": message})
