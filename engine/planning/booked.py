"""The traveller's own bookings as the planner's only options (issue 21 §1).

A booked outbound flight replaces every outbound option, a booked return every return option, a
booked hotel every hotel: branches, the selector and repair then have nothing else to choose, so
a booking is never moved. Each becomes a tool-shaped value with ``data_source="user"`` and its
``booking`` state (``paid``: shown, not counted; ``unpriced``: no price given, not counted and
said so; ``priced``: counted as given, for the whole booking). A booking that contradicts the
trip — another city's airport, another day — is one ``InputError`` naming both.
"""

from __future__ import annotations

import re
from datetime import time
from zoneinfo import ZoneInfo

from engine.errors import InputError
from engine.geo import haversine_m
from engine.models import FlightOption, IntentV1, Lodging, TimeWindow, Tier
from engine.models.bookings import BookedFlight, BookedHotel
from engine.tools.flights import is_overnight
from engine.tools.provenance import stamp

CHECKIN = TimeWindow(start=time(15, 0), end=time(23, 59))
CHECKOUT = TimeWindow(start=time(7, 0), end=time(11, 0))
HOTEL_REACH_KM = 64.0  # a booked hotel farther than this (40 miles) from the city's centre is another place's


def state_of(price: int | None, paid: bool) -> str:
    return "paid" if paid else "unpriced" if price is None else "priced"


def booked_flights(intent: IntentV1, city, zone_of) -> list[FlightOption]:
    """The booked flights of the trip: an outbound landing at one of the city's airports on the
    first day, a return leaving one on the last. ``zone_of(code)`` gives an airport's zone."""
    out = []
    for i, f in enumerate(intent.bookings.flights if intent.bookings else []):
        field = f"bookings.flights[{i}]"
        if f.dest in city.airports:
            _check_day(field, f, f.arrival, zone_of(f.dest), intent.date_window.start, "lands", city.name)
            out.append(_option(f, "outbound", zone_of))
        elif f.origin in city.airports:
            _check_day(field, f, f.departure, zone_of(f.origin), intent.date_window.end, "leaves", city.name)
            out.append(_option(f, "return", zone_of))
        else:
            raise InputError(field, f"{f.flight_number} {f.origin}→{f.dest} neither lands at nor leaves "
                                    f"{city.name}'s airports ({', '.join(city.airports)})")
    directions = [o.direction for o in out]
    if len(set(directions)) != len(directions):
        raise InputError("bookings.flights", "two booked flights for the same direction; keep the one you fly")
    return out


def _check_day(field: str, f: BookedFlight, moment, zone: str, want, verb: str, city: str) -> None:
    day = moment.astimezone(ZoneInfo(zone)).date()
    if day != want:
        raise InputError(field, f"{f.flight_number} {verb} {city} on {day}, but the trip's "
                                f"{'first' if verb == 'lands' else 'last'} day is {want}")


def booked_option(f: BookedFlight, direction: str, zone_of) -> FlightOption:
    """``f`` as the planner's flight option (also a multi-city trip's booked flight home from its
    first city, engine/multicity/home.py)."""
    return _option(f, direction, zone_of)


def _option(f: BookedFlight, direction: str, zone_of) -> FlightOption:
    number = re.sub(r"\s+", "", f.flight_number)
    flight_id = f"booked-{number.lower()}-{f.departure:%Y%m%d}"
    booking = state_of(f.price_usd_cents, f.paid)
    return FlightOption(
        flight_id=flight_id, carrier=f.carrier, flight_number=f.flight_number, origin=f.origin, dest=f.dest,
        direction=direction, departure=f.departure, arrival=f.arrival,
        duration_seconds=int((f.arrival - f.departure).total_seconds()), price_usd_cents=f.price_usd_cents or 0,
        fare_tier="mid", overnight=is_overnight(f.departure, f.arrival, (zone_of(f.origin), zone_of(f.dest))),
        booking=booking, provenance=stamp("bookings", {"flight": flight_id, "source": f.source, "state": booking},
                                          data_source="user", ref_id=flight_id))


def booked_lodging(intent: IntentV1, city, *, placed: bool = True) -> Lodging | None:
    """The booked hotel as the plan's lodging; ``placed=False``: its dates checked only (a hotel
    booked by its address is placed by the run, ``engine.pipeline.booked_stage``)."""
    hotel = intent.bookings.hotel if intent.bookings else None
    if hotel is None:
        return None
    window = intent.date_window
    if (hotel.checkin, hotel.checkout) != (window.start, window.end):
        raise InputError("bookings.hotel", f"{hotel.name} is booked {hotel.checkin} to {hotel.checkout}, "
                                           f"but the trip runs {window.start} to {window.end}")
    if hotel.geo is not None:
        _check_place(hotel, city)
    if not placed:
        return None
    if hotel.geo is None:
        raise InputError("bookings.hotel.geo", f"where {hotel.name} is: give its coordinates (the booking "
                                               "has only an address)")
    return _lodging(hotel, (window.end - window.start).days)


def _check_place(hotel: BookedHotel, city) -> None:
    """A hotel booked in another city (a Rome hotel on a Paris trip): one line naming both."""
    km = haversine_m(hotel.geo, city.center) / 1000
    if km > HOTEL_REACH_KM:
        where = hotel.address or f"{hotel.geo.lat:.4f}, {hotel.geo.lon:.4f}"
        raise InputError("bookings.hotel", f"{hotel.name} ({where}) is {km:,.0f} km from {city.name}, "
                                           f"but the trip is to {city.name}; book a hotel there or plan that city")


def _lodging(hotel: BookedHotel, nights: int) -> Lodging:
    slug = re.sub(r"[^a-z0-9]+", "_", hotel.name.lower()).strip("_")[:40] or "hotel"
    lodging_id = f"booked_{slug}"
    booking = state_of(hotel.price_usd_cents, hotel.paid)
    per_night = max(1, (hotel.price_usd_cents or 0) // max(1, nights))
    return Lodging(lodging_id=lodging_id, name=hotel.name, geo=hotel.geo, checkin_window=CHECKIN, address=hotel.address or None,
                   checkout_window=CHECKOUT, price_per_night_usd_cents=per_night, tier=Tier.mid, kid_friendly=True,
                   booking=booking, provenance=stamp("bookings", {"hotel": lodging_id, "source": hotel.source,
                                                                 "state": booking, "geo": hotel.geo_source},
                                                    data_source="user", ref_id=lodging_id,
                                                    source_url=osm_url(hotel.geo_source)))


def osm_url(feature: str | None) -> str | None:
    """The OpenStreetMap page of a position Nominatim gave ("osm:node:123"), else None."""
    if not feature or not feature.startswith("osm:"):
        return None
    _, kind, number = feature.split(":")
    return f"https://www.openstreetmap.org/{kind}/{number}"
