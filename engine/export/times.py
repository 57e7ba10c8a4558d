"""An activity's times as the printed and shared exports write them (HTML, PDF, KML descriptions).

Each end is read on its own clock: a flight leaves on the clock of where it leaves and lands on the
clock of where it lands, as the app and the iCalendar file say. The day's window is not used when
the itinerary has the true ``start``/``end``: it is clipped to the day (a return landing after
midnight read 17:05–23:59) and read on the day's clock (an outbound leaving New York the evening
before read 02:35).

- both ends on the day, in the day's zone: ``"14:50–16:50"``
- both ends on the day, in one other zone: ``"10:57–11:57 MST"`` (a road trip's stop past a zone line)
- otherwise each end with its zone, and its date when it is not the day's:
  ``"Mon 14 Jun 20:35 EDT – 09:50 CEST"``, ``"17:05 CEST – 19:30 EDT"``
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from engine.models import Activity

from ._trip import day_zone, local_span

__all__ = ["activity_times", "day_zone"]

EN_DASH = "\u2013"
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def activity_times(day: date, activity: Activity, zone: ZoneInfo) -> str:
    """The activity's start and end as a traveller reads them (see the module's examples)."""
    start, end = local_span(day, activity, zone)
    on_day = start.date() == day and end.date() == day
    if on_day and _zone_key(start) == _zone_key(end):
        span = f"{_clock(start)}{EN_DASH}{_clock(end)}"
        return span if _zone_key(start) == zone.key else f"{span} {start.tzname()}"
    return f"{_moment(start, day)} {EN_DASH} {_moment(end, day)}"


def _zone_key(moment: datetime) -> str:
    return getattr(moment.tzinfo, "key", None) or moment.tzname() or ""


def _clock(moment: datetime) -> str:
    return f"{moment.hour:02d}:{moment.minute:02d}"


def _moment(moment: datetime, day: date) -> str:
    when = "" if moment.date() == day else \
        f"{_WEEKDAYS[moment.weekday()]} {moment.day} {_MONTHS[moment.month - 1]} "
    return f"{when}{_clock(moment)} {moment.tzname()}"
