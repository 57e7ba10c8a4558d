"""The cursor of one day being filled, and where its free stretch ends (shared by the day builder
and the order pass, ``day_order``)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date

from engine.models import Geo, Slot


@dataclass
class DayState:
    """Mutable cursor while a day is filled; ``used`` is shared across the whole trip."""

    di: int
    day: date
    cursor: int
    geo: Geo
    prev_museum: bool
    used: set[str]
    visits: int = 0
    visit_minutes: int = 0  # of sights planned this day: the pace's budget bounds it
    travel: int = 0  # minutes of transfers planned this day
    metres: float = 0.0  # the day's route so far, as the crow flies (the order's cost)
    had_lunch: bool = False
    had_dinner: bool = False
    lunch_at: str | None = None  # today's lunch table: never today's dinner too
    slots: list[Slot] = field(default_factory=list)


@dataclass(frozen=True)
class Limit:
    """Where the free interval ends: a fixed slot at ``end`` in ``geo`` (None = back to the hotel)."""

    end: int
    geo: Geo | None
    airport: str | None = None  # the fixed slot is a departure flight from this airport


def snapshot(s: DayState) -> DayState:
    """A copy of ``s`` whose slots and used places can change without touching ``s``."""
    return replace(s, slots=list(s.slots), used=set(s.used))


def restore(s: DayState, other: DayState) -> None:
    """``s`` takes ``other``'s state in place (``used`` is the trip's shared set: changed in place too)."""
    for name in ("cursor", "geo", "prev_museum", "visits", "visit_minutes", "travel", "metres", "had_lunch",
                 "had_dinner", "lunch_at"):
        setattr(s, name, getattr(other, name))
    s.slots[:] = other.slots
    s.used.clear()
    s.used.update(other.used)
