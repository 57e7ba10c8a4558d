"""What is past at ``now`` on a saved plan: the moment inside the trip (day index and minute on
the trip's clock) and the slots a re-plan may no longer touch.

A slot is *past at now* when its day is before now's or it starts before now's minute the same
day (a visit under way holds too: the traveller is there). Freezing locks those slots for the
bounded repair moves, which never touch a locked slot; thawing gives back the locks the
traveller had. (``engine/trip_today.py`` says what is now and next for the Today view; this is
only the re-plan's line between the fixed past and the rest.)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

from engine.errors import InputError
from engine.models import PlanV1, Slot, minutes_of


@dataclass(frozen=True)
class Moment:
    """``now`` on the trip's clock: the day of the plan (0-based) and the minute of that day."""

    day: int
    minute: int
    date: date
    local: datetime

    def label(self) -> str:
        return f"{self.local:%a %d %b %H:%M}"


def moment_in_trip(now: datetime, plan: PlanV1, tz: str, *, field: str = "now") -> Moment:
    """``now`` (naive: already on the trip's clock) placed in the trip; an ``InputError`` when
    the trip is not under way then."""
    zone = ZoneInfo(tz)
    local = now.replace(tzinfo=zone) if now.tzinfo is None else now.astimezone(zone)
    dates = [d.date for d in plan.days]
    if not dates or not dates[0] <= local.date() <= dates[-1]:
        span = f"{dates[0]} to {dates[-1]}" if dates else "no days"
        raise InputError(field, f"{local:%Y-%m-%d %H:%M} is not during the trip ({span}, {tz}): "
                                "a re-plan from now is for a trip under way")
    return Moment(day=dates.index(local.date()), minute=local.hour * 60 + local.minute, date=local.date(),
                  local=local)


def is_past(day: int, slot: Slot, at: Moment) -> bool:
    """The slot started before ``at`` (or is on an earlier day)."""
    return day < at.day or (day == at.day and minutes_of(slot.window.start) < at.minute)


def ahead(plan: PlanV1, at: Moment):
    """(day, slot index, slot) of every slot from ``at`` on, in plan order."""
    return [(di, si, s) for di, si, s in plan.slots() if not is_past(di, s, at)]


def freeze_past(plan: PlanV1, at: Moment) -> tuple[PlanV1, frozenset[str]]:
    """``plan`` with every slot past at ``at`` locked, and the ids of those locked here."""
    frozen = []
    for di, si, slot in list(plan.slots()):
        if is_past(di, slot, at) and not slot.locked:
            plan = plan.with_slot(di, si, slot.model_copy(update={"locked": True}))
            frozen.append(slot.selected.choice_id)
    return plan, frozenset(frozen)


def thaw(plan: PlanV1, frozen: frozenset[str]) -> PlanV1:
    """The locks ``freeze_past`` added taken off again."""
    for di, si, slot in list(plan.slots()):
        if slot.selected.choice_id in frozen and slot.locked:
            plan = plan.with_slot(di, si, slot.model_copy(update={"locked": False}))
    return plan


__all__ = ["Moment", "ahead", "freeze_past", "is_past", "moment_in_trip", "thaw"]
