"""TripTide-style figures of one re-plan from now (arXiv 2510.21329: preservation of intent,
responsiveness): how much of the plan still ahead was kept, and whether the disruption was
resolved with no blocking violation left."""

from __future__ import annotations

from dataclasses import dataclass

from engine.models import ItineraryV1, minutes_of

from .past import Moment
from .replan import Replanned

SKIPPED_ROLES = ("transfer", "omitted")


@dataclass(frozen=True)
class Scores:
    preservation: float  # share of the bookings still ahead at now kept on the same day and time
    kept: int
    ahead: int
    resolved: bool  # the change is reflected in the new plan (kind by kind: ``resolved``)
    responsive: bool  # resolved and no blocking violation left


def ahead_items(itinerary: ItineraryV1, at: Moment) -> set[tuple]:
    """(role, ref, day, start) of each visit, meal, flight and hotel desk from ``at`` on."""
    out = set()
    for di, day in enumerate(itinerary.days):
        for a in day.activities:
            if a.role in SKIPPED_ROLES or (not a.role and a.kind.value == "transit"):
                continue
            if di > at.day or (di == at.day and minutes_of(a.window.start) >= at.minute):
                out.add((a.role or a.kind.value, a.ref or a.name, di, a.window.start))
    return out


def score(before: ItineraryV1, result: Replanned) -> Scores:
    was, now = ahead_items(before, result.moment), ahead_items(result.itinerary, result.moment)
    kept = len(was & now)
    ok = resolved(result, before)
    return Scores(preservation=kept / len(was) if was else 1.0, kept=kept, ahead=len(was), resolved=ok,
                  responsive=ok and result.ok)


def resolved(result: Replanned, before: ItineraryV1) -> bool:
    """The disruption no longer stands in the new plan: a closed or skipped place is not visited
    on that day from now on, no outdoor visit is left in the rain, nothing unlocked is left of the
    day when done, the delayed flight lands (leaves) at its new time, the booking is in the plan."""
    d, at, itin = result.disruption, result.moment, result.itinerary
    later = [(di, a) for di, day in enumerate(itin.days) for a in day.activities
             if di > at.day or (di == at.day and minutes_of(a.window.start) >= at.minute)]
    if d.kind in ("closed", "skip"):
        days = {di for di, a in later if a.ref == result.target}
        return d.kind == "closed" and not (days & {_closed_day(result)}) or d.kind == "skip" and not days
    if d.kind == "rain_from":
        wet = int(result.target)
        return not any(di == at.day and a.kind.value == "attraction" and _outdoor(result, a.ref)
                       and minutes_of(a.window.end) > wet for di, a in later)
    if d.kind == "done_for_today":
        return not any(di == at.day and a.role in ("activity", "meal") and not a.locked for di, a in later)
    if d.kind == "late":  # the flight lands (leaves) that much later; a road day's night is reached later
        was = next((old for old, new in result.renamed.items() if new == result.target), result.target)
        return _moved_by(before, itin, result.target, d.minutes if result.plan is not None else None, was)
    if d.kind == "bookings":
        return any(a.ref == result.target and (a.locked or a.role == "departure") for _, a in later)
    return True  # at: the next visit is reached from the point (the timing verifier checks the legs)


def _moved_by(before: ItineraryV1, after: ItineraryV1, ref: str, minutes: int | None, was_ref: str = "") -> bool:
    """The activity ``ref`` (``was_ref`` before: a late flight kept as booked; a flight: by its
    city-side time, landing or leaving) is ``minutes`` later in ``after`` (None: at least as late)."""
    def when(itin: ItineraryV1, ref: str):
        for day in itin.days:
            for a in day.activities:
                if a.ref == ref:
                    return a.end if a.role == "arrival" else a.start
        return None
    was, now = when(before, was_ref or ref), when(after, ref)
    if was is None or now is None:
        return False
    shift = (now - was).total_seconds() / 60
    return shift >= 0 if minutes is None else shift == minutes


def _closed_day(result: Replanned) -> int:
    closed = next((x for x in result.done if " closed on " in x), "")
    for di, day in enumerate(result.itinerary.days):
        if closed.endswith(f"{day.date:%a %d %b}"):
            return di
    return result.moment.day


def _outdoor(result: Replanned, ref: str) -> bool:
    for _, _, slot in result.plan.slots():
        if slot.selected.option_ref == ref:
            return slot.selected.features.indoor is False
    return False


__all__ = ["Scores", "ahead_items", "resolved", "score"]
