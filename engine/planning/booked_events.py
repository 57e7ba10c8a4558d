"""The traveller's booked events (a concert, a show, a timed entry: schema.org ``EventReservation``)
as locked visits at their time (issue 21 §1).

Each event is a place of its own (``booked_event_<name>_<start>``, ``data_source="user"``) open only
for its performance — an ``opening_hours`` rule naming that date — so the hours verifier checks the
slot like any other, and it is never offered as a sight on another day. Its slot is locked (repair
and edits never move it), priced as booked (per traveller in the choice; ``paid`` or unpriced:
not counted). An event outside the trip's days, or with no place the plan can reach, is one
``InputError`` naming the booking.
"""

from __future__ import annotations

import re
from datetime import date, time, timedelta
from zoneinfo import ZoneInfo

from engine.errors import InputError
from engine.models import Attraction, IntentV1, Slot, TimeWindow, VenueType
from engine.models.bookings import BookedEvent
from engine.tools.provenance import stamp
from engine.models.visit_time import EVENT_MINUTES

from .booked import osm_url, state_of

EVENT_PREFIX = "booked_event_"


def event_id(e: BookedEvent) -> str:
    slug = re.sub(r"[^a-z0-9]+", "_", e.name.lower()).strip("_")[:32] or "event"
    return f"{EVENT_PREFIX}{slug}_{e.start:%Y%m%d%H%M}"


def local_span(e: BookedEvent, tz: str) -> tuple[date, TimeWindow]:
    """The event's day and window on the city's clock (one running past midnight ends at 23:59)."""
    zone = ZoneInfo(tz)
    start = e.start.astimezone(zone)
    end = (e.end or e.start + timedelta(minutes=EVENT_MINUTES)).astimezone(zone)
    last = end.time().replace(second=0, microsecond=0) if end.date() == start.date() else time(23, 59)
    return start.date(), TimeWindow(start=start.time().replace(second=0, microsecond=0), end=last)


def booked_event_venues(intent: IntentV1, city, travellers: int) -> list[Attraction]:
    """Each booked event as its own place, checked against the trip's days."""
    out = []
    for i, e in enumerate(intent.bookings.events if intent.bookings else []):
        field = f"bookings.events[{i}]"
        day, window = local_span(e, city.tz)
        if not intent.date_window.start <= day <= intent.date_window.end:
            raise InputError(field, f"{e.name} is on {day}, but the trip runs {intent.date_window.start} to "
                                    f"{intent.date_window.end}")
        if e.geo is None:
            raise InputError(f"{field}.geo", f"where {e.name} is: give its coordinates (the booking names "
                                             f"{e.venue or e.address or 'no place'})")
        out.append(_venue(e, day, window, city, travellers))
    return out


def _venue(e: BookedEvent, day: date, window: TimeWindow, city, travellers: int) -> Attraction:
    vid = event_id(e)
    booking = state_of(e.price_usd_cents, e.paid)
    per_person = 0 if booking != "priced" else -(-e.price_usd_cents // max(1, travellers))
    minutes = max(15, (window.end.hour * 60 + window.end.minute) - (window.start.hour * 60 + window.start.minute))
    rule = f"{day.year} {day:%b} {day.day:02d} {window.start:%H:%M}-{window.end:%H:%M}"
    return Attraction(id=vid, name=event_name(e), venue_type=VenueType.other,
                      indoor=None, kid_friendly=None, themes=["culture"], opening_hours=rule,
                      country=city.raw.country, location=e.geo, est_price_usd_cents=per_person,
                      duration_minutes=minutes, tz=city.tz, hours_known=True, price_estimated=False,
                      address=e.address or None,
                      provenance=stamp("bookings", {"event": vid, "source": e.source, "state": booking,
                                                    "geo": e.geo_source},
                                       data_source="user", ref_id=vid, source_url=osm_url(e.geo_source)))


def event_name(e) -> str:
    """What the itinerary calls a ticket: "Giselle at Palais Garnier" — the venue once, not again
    when the ticket's own name already says it."""
    if not e.venue or e.venue.casefold() in e.name.casefold():
        return e.name
    return f"{e.name} at {e.venue}"


def event_slots(intent: IntentV1, venue_of, dates: list[date], tz: str, make_choice) -> list[tuple[int, Slot]]:
    """(day index, locked slot) of each booked event; ``venue_of(id)`` finds its place (the trip's
    facts), ``make_choice(di, venue)`` builds its choice."""
    out = []
    for e in intent.bookings.events if intent.bookings else []:
        day, window = local_span(e, tz)
        di = (day - dates[0]).days
        out.append((di, Slot(window=window, role="activity", locked=True,
                             choices=[make_choice(di, venue_of(event_id(e)))])))
    return out
