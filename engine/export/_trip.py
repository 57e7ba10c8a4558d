"""What both calendar formats need from a trip: its zone, its title and activity times."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from engine.models import Activity, DayItinerary, ItineraryV1

# Characters XML 1.0 forbids (C0 controls but tab/newline, lone surrogates, U+FFFE/U+FFFF). gpxpy
# would write them verbatim and produce a file no reader accepts; calendar apps choke on them too.
_NOT_XML_CHAR = re.compile("[^\t\n\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def trip_zone(itin: ItineraryV1) -> ZoneInfo:
    """The trip's zone: a city's, or a road trip's first day's."""
    if itin.intent.mode == "city":
        return ZoneInfo(itin.intent.date_window.tz)
    return ZoneInfo(next((d.tz for d in itin.days if d.tz), "UTC"))


def day_zone(itin: ItineraryV1, day: DayItinerary) -> ZoneInfo:
    """A road trip crosses zones: each day carries its own."""
    return ZoneInfo(day.tz) if day.tz else trip_zone(itin)


def trip_dates(itin: ItineraryV1) -> tuple[date, date]:
    if itin.intent.mode == "city":
        return itin.intent.date_window.start, itin.intent.date_window.end
    return itin.days[0].date, itin.days[-1].date


def trip_title(itin: ItineraryV1) -> str:
    first, last = trip_dates(itin)
    dates = f"{first.isoformat()} – {last.isoformat()}"
    where = itin.intent.city if itin.intent.mode == "city" else f"{itin.intent.origin} → {itin.intent.terminus}"
    return plain_text(f"{where}, {dates}")


def plain_text(text: str) -> str:
    """``text`` minus unwritable characters, with line ends as ``\\n`` (what XML reads back)."""
    return _NOT_XML_CHAR.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


def as_utc(moment: datetime) -> datetime:
    """UTC for an aware datetime; a naive one is taken as UTC already (the models store UTC)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def local_span(day: date, activity: Activity, zone: ZoneInfo) -> tuple[datetime, datetime]:
    """The activity's start and end as aware datetimes in ``zone``, normalised across DST changes.

    A wall time inside a spring-forward gap does not exist; like RFC 5545 §3.3.5 we read it with
    the offset in force before the gap (02:30 becomes 03:30 summer time). A repeated autumn hour
    means its first occurrence. If the gap pushes the start past the end, the planned length is kept.
    """
    start = _wall_clock(day, activity.window.start, zone)
    end = _wall_clock(day, activity.window.end, zone)
    # Compare and add in UTC: Python does both on the wall clock when the tzinfo is shared.
    if end.astimezone(UTC) <= start.astimezone(UTC):
        end = (start.astimezone(UTC) + timedelta(minutes=activity.window.minutes)).astimezone(zone)
    return start, end


def _wall_clock(day: date, at: time, zone: ZoneInfo) -> datetime:
    # The UTC round trip turns a non-existent local time into the real one it denotes.
    return datetime.combine(day, at, tzinfo=zone).astimezone(UTC).astimezone(zone)
