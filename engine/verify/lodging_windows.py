"""Hotel check-in/out windows (seed §18.2): nothing on the arrival day starts before check-in
opens; the checkout happens inside the checkout window, and nothing scheduled before it runs past
the window's close + 60 minutes."""

from __future__ import annotations

from engine.facts import TripFacts
from engine.models import IntentV1, PlanV1, Violation, ViolationKind, minutes_of

CHECKOUT_GRACE_MINUTES = 60


def verify_lodging_windows(plan: PlanV1, intent: IntentV1, facts: TripFacts) -> list[Violation]:
    out = []
    for di, si, slot in plan.slots():
        lodging = facts.lodgings.get(slot.selected.option_ref)
        if slot.role == "checkin" and lodging:
            out += _checkin(plan, di, slot, lodging)
        if slot.role == "checkout" and lodging:
            out += _checkout(plan.days[di].slots, slot, lodging)
    return out


def _checkout(slots, slot, lodging) -> list[Violation]:
    """Checkout done by the window's close (leaving before the desk opens is an express checkout);
    anything before it ends by the close + 60 min. Sightseeing after checkout (bags stored) is fine."""
    out = []
    if slot.window.end > lodging.checkout_window.end:
        out.append(_timing(slot.selected.choice_id, "checkout_window",
                           f"checkout {slot.window.label()} outside {lodging.checkout_window.label()}"))
    limit = minutes_of(lodging.checkout_window.end) + CHECKOUT_GRACE_MINUTES
    for other in slots:
        if other.window.start < slot.window.start and other.role in ("activity", "meal") \
                and minutes_of(other.window.end) > limit:
            out.append(_timing(other.selected.choice_id, "after_checkout",
                               f"{other.selected.label} ends after checkout closes + 60 min"))
    return out


def _checkin(plan: PlanV1, di: int, slot, lodging) -> list[Violation]:
    out = []
    opens = lodging.checkin_window.start
    if not lodging.checkin_window.covers(slot.window):
        out.append(_timing(slot.selected.choice_id, "checkin_window",
                           f"check-in {slot.window.label()} outside {lodging.checkin_window.label()}"))
    for other in plan.days[di].slots:
        if other.role in ("activity", "meal") and other.window.start < opens:
            out.append(_timing(other.selected.choice_id, "before_checkin",
                               f"{other.selected.label} at {other.window.start:%H:%M} is before "
                               f"check-in opens at {opens:%H:%M}"))
    return out


def _timing(node_ref: str, reason: str, message: str) -> Violation:
    return Violation(kind=ViolationKind.timing_infeasible, node_ref=node_ref, blocking=True,
                     details={"reason": reason, "message": message})
