"""ItineraryV1 as an iCalendar file: one VEVENT per activity at its true start and end, each in the
zone where it happens (a flight departs on its origin's clock and lands on its destination's)."""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime

from icalendar import Calendar, Event

from engine.models import DayItinerary, Activity, ItineraryV1

from ._trip import activity_zones, as_utc, day_zone, local_span, plain_text, trip_dates, trip_title
from ._vtimezone import build_vtimezone

PRODID = "-//Tripwright//EN"


def itinerary_to_ics(itin: ItineraryV1) -> bytes:
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("x-wr-calname", trip_title(itin))
    if itin.attributions:  # whose data the places are (OpenStreetMap, ODbL)
        cal.add("x-wr-caldesc", "; ".join(itin.attributions))
    stamp = as_utc(itin.created_at)
    occurrences: Counter[str] = Counter()
    for day in itin.days:
        for act in day.activities:
            occurrences[act.id] += 1
            uid = _uid(itin.itinerary_id, act.id, occurrences[act.id])
            cal.add_component(_event(itin, day, act, stamp, uid))
    _add_timezone(cal, itin)
    return cal.to_ical()


def _uid(itinerary_id: str, activity_id: str, occurrence: int) -> str:
    """``{itinerary_id}-{activity.id}@tripwright``, suffixed only when an activity id repeats.

    Calendar apps treat equal UIDs as one event and would silently drop the later ones.
    """
    suffix = "" if occurrence == 1 else f"-{occurrence}"
    return f"{itinerary_id}-{activity_id}{suffix}@tripwright"


def _event(itin: ItineraryV1, day: DayItinerary, act: Activity, stamp: datetime, uid: str) -> Event:
    start, end = local_span(day.date, act, day_zone(itin, day))
    event = Event()
    event.add("uid", uid)
    event.add("dtstamp", stamp)
    event.add("dtstart", start)
    event.add("dtend", end)
    event.add("summary", plain_text(act.name))
    if act.notes:
        event.add("description", plain_text(act.notes))
    if act.geo is not None:
        event.add("location", f"{act.geo.lat:.6f}, {act.geo.lon:.6f}")
        event.add("geo", (act.geo.lat, act.geo.lon))
    event.add("categories", [act.kind.value])
    return event


def _add_timezone(cal: Calendar, itin: ItineraryV1) -> None:
    """A VTIMEZONE covering the trip's calendar years, so clients need not know the IANA name."""
    start, end = trip_dates(itin)
    first, last = date(start.year, 1, 1), date(end.year + 1, 1, 1)
    if hasattr(cal, "add_missing_timezones"):
        cal.add_missing_timezones(first_date=first, last_date=last)
    else:
        # VTIMEZONEs must come before the components that reference them.
        for key in reversed(activity_zones(itin)):
            cal.subcomponents.insert(0, build_vtimezone(key, first, last))
