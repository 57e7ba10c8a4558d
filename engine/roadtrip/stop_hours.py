"""A route stop's own opening hours on the day's timeline (issue 32 §3: Lou Mitchell's, a diner that
closes at 15:00, was planned at 17:00). A curated point of interest may carry its published hours
(``RoutePOI.opening_hours``, OpenStreetMap syntax): the visit then fits inside one of that day's
windows, waiting for the opening, and a stop it cannot fit is left out of the day. A meal place
without published hours says so and is shown at low confidence — never planned as if known."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from engine.geocode.zones import zone_at
from engine.models.dated_hours import dated_hours

Windows = tuple[tuple[int, int], ...]
UNKNOWN_TEXT = "Opening hours unknown: check before going."


def day_windows(rule: str, on: date, at: tuple[float, float], day_from: tuple[float, float]) -> Windows:
    """``rule``'s windows on ``on`` in minutes of the day's clock (the zone of ``day_from``, where the
    day's timeline starts); the stop's own clock is its place's zone (``at``). Empty: closed all day."""
    spans = dated_hours(rule).day(on).spans
    shift = _minutes_ahead(zone_at(*at), zone_at(*day_from), on)
    return tuple((t0.hour * 60 + t0.minute - shift, t1.hour * 60 + t1.minute - shift) for t0, t1 in spans)


def hours_text(windows: Windows, on: date) -> str:
    if not windows:
        return f"Closed on {on:%a %d %b %Y} (published hours)."
    said = ", ".join(f"{a // 60:02d}:{a % 60:02d}–{b // 60:02d}:{b % 60:02d}" for a, b in windows)
    return f"Open {said} on {on:%a %d %b %Y} (published hours)."


def wait_for_opening(windows: Windows | None, opens_min: int, start: int, minutes: int) -> int:
    """Minutes a visit reached at ``start`` waits: for the first window it still fits in when the
    hours are known, else for ``opens_min``."""
    if windows:
        for a, b in windows:
            if max(start, a) + minutes <= b:
                return max(0, a - start)
    return max(0, opens_min - start)


def open_then(windows: Windows | None, start: int, end: int) -> bool:
    """Whether a visit from ``start`` to ``end`` is inside the place's hours (always, when unknown)."""
    return windows is None or any(a <= start and end <= b for a, b in windows)


def _minutes_ahead(here: str, there: str, on: date) -> int:
    if here == there:
        return 0
    noon = datetime(on.year, on.month, on.day, 12)
    ahead = noon.replace(tzinfo=ZoneInfo(here)).utcoffset() - noon.replace(tzinfo=ZoneInfo(there)).utcoffset()
    return int(ahead.total_seconds() // 60)


def closed_visit(rule: str, start: datetime, end: datetime, at: tuple[float, float]) -> str | None:
    """Why a visit from ``start`` to ``end`` (aware) misses the place's published hours, or None
    when it is inside them (``tripwright verify`` holds a saved itinerary to them)."""
    zone = ZoneInfo(zone_at(*at))
    local_start, local_end = start.astimezone(zone), end.astimezone(zone)
    spans = dated_hours(rule).day(local_start.date()).spans
    if any(t0 <= local_start.time() and local_end.time() <= t1 and local_end.date() == local_start.date()
           for t0, t1 in spans):
        return None
    said = ", ".join(f"{t0:%H:%M}–{t1:%H:%M}" for t0, t1 in spans) or "closed all day"
    return (f"planned {local_start:%H:%M}–{local_end:%H:%M} on {local_start:%a %d %b %Y}, "
            f"when its published hours are {said}")
