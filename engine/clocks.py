"""Wall clocks to true moments: what the itinerary's ``start``/``end`` and the calendar export use.

A wall time inside a spring-forward gap does not exist; like RFC 5545 §3.3.5 it is read with the
offset in force before the gap (02:30 becomes 03:30 summer time). A repeated autumn hour means its
first occurrence. Arithmetic is done in UTC (Python adds on the wall clock when the tzinfo is shared).

wall clocks to true moments (DST gaps read as RFC 5545 does), shared by the synthesizer, the road itinerary
and the calendar export
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from engine.models import TimeWindow


def wall_moment(day: date, at: time, zone: ZoneInfo) -> datetime:
    # The UTC round trip turns a non-existent local time into the real one it denotes.
    return datetime.combine(day, at, tzinfo=zone).astimezone(UTC).astimezone(zone)


def wall_span(day: date, window: TimeWindow, zone: ZoneInfo) -> tuple[datetime, datetime]:
    """The window's start and end on ``day`` in ``zone``; if a DST gap pushes the start past the
    end, the planned length is kept."""
    start, end = wall_moment(day, window.start, zone), wall_moment(day, window.end, zone)
    if end.astimezone(UTC) <= start.astimezone(UTC):
        end = (start.astimezone(UTC) + timedelta(minutes=window.minutes)).astimezone(zone)
    return start, end


def minutes_later(start: datetime, minutes: float, zone: ZoneInfo) -> datetime:
    """``minutes`` of elapsed time after ``start``, read on the clock of ``zone``."""
    return (start.astimezone(UTC) + timedelta(minutes=minutes)).astimezone(zone)
