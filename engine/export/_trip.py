"""What both calendar formats need from a trip: its zone, its title and activity times."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

from engine.clocks import wall_span
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
    return plain_text(f"{trip_where(itin)}, {dates}")


def trip_where(itin: ItineraryV1) -> str:
    """"Paris", "Los Angeles → Chicago" or, for several stays, "Lisbon → Porto"."""
    intent = itin.intent
    if intent.mode == "city":
        return intent.city
    if intent.mode == "multi_city":
        return " → ".join(s.city for s in intent.stays)
    return f"{intent.origin} → {intent.terminus}"


def day_city(itin: ItineraryV1, day: DayItinerary) -> str:
    """The city a day is spent in (a multi-city day: its stay's), "" for a road trip's."""
    if itin.intent.mode == "city":
        return itin.intent.city
    if itin.intent.mode == "multi_city" and day.stay is not None:
        return itin.intent.stays[day.stay].city
    return ""


def plain_text(text: str) -> str:
    """``text`` minus unwritable characters, with line ends as ``\\n`` (what XML reads back)."""
    return _NOT_XML_CHAR.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


def as_utc(moment: datetime) -> datetime:
    """UTC for an aware datetime; a naive one is taken as UTC already (the models store UTC)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def local_span(day: date, activity: Activity, zone: ZoneInfo) -> tuple[datetime, datetime]:
    """The activity's true start and end as aware datetimes, each in the zone where it happens.

    Itineraries carry ``start``/``end`` (a flight across midnight, a road-trip stop in another
    zone); older ones only the day's ``window``, read in ``zone`` (see ``engine.clocks``).
    """
    if activity.start is not None and activity.end is not None:
        return (activity.start.astimezone(ZoneInfo(activity.start_tz) if activity.start_tz else UTC),
                activity.end.astimezone(ZoneInfo(activity.end_tz) if activity.end_tz else UTC))
    return wall_span(day, activity.window, zone)


def activity_zones(itin: ItineraryV1) -> list[str]:
    """Every zone an event is written in, the days' first."""
    zones = dict.fromkeys(day_zone(itin, d).key for d in itin.days)
    for day in itin.days:
        for act in day.activities:
            zones.update(dict.fromkeys(z for z in (act.start_tz, act.end_tz) if z))
    return list(zones) or [trip_zone(itin).key]


def leg_points(leg) -> list[tuple[float, float]]:
    """A multi-city leg's line: its drawn path, else the straight line between its ends."""
    if leg.path:
        return [(g.lat, g.lon) for g in leg.path]
    return [(g.lat, g.lon) for g in (leg.from_geo, leg.to_geo) if g is not None]


def leg_label(leg) -> str:
    return plain_text(f"Leg {leg.index + 1} – {leg.from_name} → {leg.to_name} ({leg.mode})")
