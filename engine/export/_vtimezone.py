"""A VTIMEZONE built from zoneinfo, for icalendar versions without ``add_missing_timezones``."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from icalendar import Timezone, TimezoneDaylight, TimezoneStandard

_DAY = timedelta(days=1)
_MINUTE = timedelta(minutes=1)


def build_vtimezone(tzid: str, first: date, last: date) -> Timezone:
    """Observances of ``tzid`` in force from ``first`` up to ``last`` (RFC 5545 §3.6.5)."""
    zone = ZoneInfo(tzid)
    vtz = Timezone()
    vtz.add("tzid", tzid)
    begin = datetime.combine(first, time(), tzinfo=UTC)
    initial = begin.astimezone(zone)
    vtz.add_component(_observance(initial, initial.utcoffset()))
    for before, after in _transitions(zone, begin, datetime.combine(last, time(), tzinfo=UTC)):
        vtz.add_component(_observance(after.astimezone(zone), before.astimezone(zone).utcoffset()))
    return vtz


def _rules(zone: ZoneInfo, moment: datetime) -> tuple:
    local = moment.astimezone(zone)
    return local.utcoffset(), local.dst(), local.tzname()


def _transitions(zone: ZoneInfo, begin: datetime,
                 end: datetime) -> Iterator[tuple[datetime, datetime]]:
    """(last instant before, first instant after) each change, found by day then to the minute."""
    day = begin
    while day < end:
        nxt = min(day + _DAY, end)
        if _rules(zone, day) != _rules(zone, nxt):
            lo, hi = day, nxt
            while hi - lo > _MINUTE:
                mid = lo + (hi - lo) / 2
                lo, hi = (lo, mid) if _rules(zone, lo) != _rules(zone, mid) else (mid, hi)
            yield lo, hi
        day = nxt


def _observance(local: datetime,
                offset_from: timedelta | None) -> TimezoneStandard | TimezoneDaylight:
    observance = TimezoneDaylight() if local.dst() else TimezoneStandard()
    # DTSTART is the onset as read on the clock being left behind, i.e. in TZOFFSETFROM.
    onset = local.astimezone(UTC).replace(tzinfo=None) + (offset_from or timedelta())
    observance.add("dtstart", onset)
    observance.add("tzoffsetfrom", offset_from)
    observance.add("tzoffsetto", local.utcoffset())
    observance.add("tzname", local.tzname())
    return observance
