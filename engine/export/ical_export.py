"""ItineraryV1 as an iCalendar file: one VEVENT per activity at its true start and end, each in the
zone where it happens (a flight departs on its origin's clock and lands on its destination's).

The calendar is the traveller's own: a booked flight's and the booked hotel's events say their
confirmation code ("Confirmation QX7K2M", from ``itinerary.intent.bookings``). Transfers shorter
than ``SHORT_TRANSFER`` (a 3-minute walk between two sights) are no appointment and are left out
unless asked for (``transfers=True``). LOCATION is the place's name (an airport by its code), never
coordinates: those are in GEO."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, datetime, timedelta

from icalendar import Calendar, Event, vText

from engine.models import DayItinerary, Activity, ItineraryV1

from ._bookings import confirmation_of
from ._trip import activity_zones, as_utc, day_city, day_zone, local_span, plain_text, trip_dates, trip_title
from .text import traveller_text
from ._vtimezone import build_vtimezone

PRODID = "-//Tripwright//EN"
SHORT_TRANSFER = timedelta(minutes=30)
_ROUTE = re.compile(r"\b([A-Z]{3})\s*→\s*([A-Z]{3})\b")
_COORDINATES = re.compile(r"^\s*[-+]?\d{1,3}(?:\.\d+)?°?\s*[NS]?\s*[,;/ ]\s*[-+]?\d{1,3}(?:\.\d+)?°?\s*[EW]?\s*$")


def itinerary_to_ics(itin: ItineraryV1, *, transfers: bool = False) -> bytes:
    """The calendar; ``transfers``: also the transfers shorter than ``SHORT_TRANSFER``."""
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("x-wr-calname", trip_title(itin))
    if itin.attributions:  # whose data the places are (OpenStreetMap, ODbL)
        cal.add("x-wr-caldesc", "; ".join(itin.attributions))
    stamp = as_utc(itin.created_at)
    occurrences: Counter[str] = Counter()
    for day in itin.days:
        zone = day_zone(itin, day)
        for act in day.activities:
            if act.role == "omitted":  # a tool outage's marker (seed §12.1), not something to attend
                continue
            if not transfers and _short_transfer(day.date, act, zone):
                continue
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


def _short_transfer(day: date, act: Activity, zone) -> bool:
    if act.role != "transfer":
        return False
    start, end = local_span(day, act, zone)
    return end - start < SHORT_TRANSFER


class _Text(vText):
    """A TEXT value escaped as RFC 5545 §3.3.11 says. icalendar's own escaping first turns a
    literal backslash-N into a line break (its legacy reading of ``\\N``), so a label holding
    those two characters would come back as two lines."""

    def to_ical(self) -> bytes:
        text = str(self).replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
        return text.replace("\r\n", "\n").replace("\n", "\\n").encode(self.encoding)


def _event(itin: ItineraryV1, day: DayItinerary, act: Activity, stamp: datetime, uid: str) -> Event:
    start, end = local_span(day.date, act, day_zone(itin, day))
    event = Event()
    event.add("uid", uid)
    event.add("dtstamp", stamp)
    event.add("dtstart", start)
    event.add("dtend", end)
    event.add("summary", _Text(plain_text(act.shown_name)))
    code = confirmation_of(itin, act)
    description = "\n".join(t for t in (f"Confirmation {code}" if code else "", traveller_text(act.notes)) if t)
    if description:
        event.add("description", _Text(plain_text(description)))
    if act.geo is not None:
        where = _leg_stations(itin, act) if act.role == "leg" else _location(act, day_city(itin, day))
        if where:
            event.add("location", _Text(plain_text(where)))
        event.add("geo", (act.geo.lat, act.geo.lon))
    event.add("categories", [act.kind.value])
    return event


def _leg_stations(itin: ItineraryV1, act: Activity) -> str:
    """A multi-city trip's leg: where it leaves from and arrives ("Lisboa Santa Apolónia → Porto Campanhã")."""
    leg = next((leg for leg in itin.legs if f"leg_{leg.index}" == act.ref), None)
    return f"{leg.from_name} → {leg.to_name}" if leg is not None else act.shown_name


def _location(act: Activity, city: str = "") -> str:
    """Where the event's GEO is, by name: a flight's is the city's airport ("CDG airport": the
    arrival's destination, the departure's origin), anything else the place's own name with its
    street address when the data has one, else with the trip's city ("Musée du Louvre, Paris")."""
    if act.kind.value == "flight":
        route = _ROUTE.search(act.name)
        if route is None:
            return ""
        return f"{route.group(2) if act.role == 'arrival' else route.group(1)} airport"
    name = act.shown_name.strip()
    if _COORDINATES.match(name):
        return ""  # a place named by its coordinates: GEO says it
    parts = [name, act.address.strip()] if act.address and act.address.strip() else [name]
    if city and not any(city.casefold() in p.casefold() for p in parts):
        parts.append(city)  # "Mosteiro dos Jerónimos, Praça do Império, Lisbon"
    return ", ".join(parts)


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
