"""A road day's timeline moved by whole minutes: an activity later or earlier (its true moments and
its window on its own clock), and a visit taken out with the drives around it joined and what
follows brought forward (``road.py``: a late start, a skipped or closed stop; ``road_night.py``:
tomorrow's stops behind a night moved on)."""

from __future__ import annotations

from datetime import timedelta

from engine.models import Activity, TimeWindow


def later(a: Activity, minutes: int) -> Activity:
    shift = timedelta(minutes=minutes)
    start = min(a.window.start.hour * 60 + a.window.start.minute + minutes, 24 * 60 - 2)
    end = max(start + 1, min(a.window.end.hour * 60 + a.window.end.minute + minutes, 24 * 60 - 1))
    return a.model_copy(update={"start": a.start + shift, "end": a.end + shift,
                                "window": TimeWindow.of_minutes(start, end)})


def earlier(a: Activity, minutes: int) -> Activity:
    return later(a, -minutes) if minutes else a


def without(acts: list[Activity], i: int) -> list[Activity]:
    """The visit ``i`` taken out: the drive to it and the drive on from it become one drive (as
    long as both), and what follows comes forward by the visit's length."""
    gone = acts[i]
    before = i - 1 if i > 0 and acts[i - 1].role == "transfer" else None
    after = i + 1 if i + 1 < len(acts) and acts[i + 1].role == "transfer" else None
    out = list(acts)
    freed = int((gone.end - gone.start).total_seconds() // 60)
    if before is not None and after is not None:
        first, second = acts[before], acts[after]
        joined_min = int((first.end - first.start + second.end - second.start).total_seconds() // 60)
        joined = second.model_copy(update={"start": first.start, "end": first.start + timedelta(minutes=joined_min),
                                           "window": TimeWindow.of_minutes(
                                               first.window.start.hour * 60 + first.window.start.minute,
                                               min(first.window.start.hour * 60 + first.window.start.minute
                                                   + joined_min, 24 * 60 - 1))})
        out[before] = joined
        del out[after]
    del out[i]
    start = before if before is not None else i
    return [earlier(a, freed) if n > start else a for n, a in enumerate(out)]


__all__ = ["earlier", "later", "without"]
