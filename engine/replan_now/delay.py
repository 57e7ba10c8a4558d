"""A delayed flight kept as a fact of the trip: the flight at its new times becomes the trip's
booked flight for that direction (``intent.bookings.flights``, ``source="delay"``), the way a
booked flight is kept (``engine/planning/booked.py``). The saved version then carries the delay in
its intent, so ``tripwright verify`` (``engine/verify_saved.py``), a later re-plan from now, a
revision and the Today view all re-derive the flight at the time it really flies, not the
catalog's schedule.

A catalog flight so kept costs what it cost (its fare for every traveller, ``priced``: counted
once for the whole booking); a flight the traveller booked keeps its code, price and paid state,
only its times move. An estimated flight (no timetable: "Estimated flight JFK → LIS, 21:30") has no
time to be late against: the traveller imports the real flight instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from zoneinfo import ZoneInfo

from pydantic import ValidationError

from engine.costs import flight_cost
from engine.errors import InputError
from engine.models import FlightOption, IntentV1
from engine.models.bookings import BookedFlight, Bookings

SOURCE = "delay"  # a booking's ``source``: kept because it was late, not imported from a confirmation


@dataclass(frozen=True)
class Delayed:
    """The intent with the flight at its new times, and that flight as the planner's option."""

    intent: IntentV1
    option: FlightOption


def delayed_flight(intent: IntentV1, flight: FlightOption, minutes: int, city, zone_of, *,
                   field: str) -> Delayed:
    """``flight`` ``minutes`` later, as the trip's booked flight; ``zone_of(code)``: an airport's zone."""
    from engine.planning.booked import booked_flights

    shift = timedelta(minutes=minutes)
    have = intent.bookings or Bookings()
    mine = next((f for f in have.flights if _same(f, flight)), None)
    if mine is not None:
        later = mine.model_copy(update={"departure": mine.departure + shift, "arrival": mine.arrival + shift})
    else:
        try:
            leaves = (flight.departure + shift).astimezone(ZoneInfo(zone_of(flight.origin)))  # on each airport's clock
            lands = (flight.arrival + shift).astimezone(ZoneInfo(zone_of(flight.dest)))
            later = BookedFlight(carrier=flight.carrier, flight_number=flight.flight_number, origin=flight.origin,
                                 dest=flight.dest, departure=leaves, arrival=lands,
                                 price_usd_cents=flight_cost(flight, intent.travellers), source=SOURCE)
        except ValidationError:
            raise InputError(field, f"{flight.flight_number} is an estimate (no timetable to be late against): "
                                    "import your real flight with 'tripwright bookings import'") from None
    flights = [later if f is mine else f for f in have.flights] + ([] if mine is not None else [later])
    bookings = Bookings(flights=sorted(flights, key=lambda f: f.departure), hotel=have.hotel, events=have.events)
    data = intent.model_dump()
    data["bookings"] = bookings.model_dump()
    new = type(intent).model_validate(data)
    options = booked_flights(new, city, zone_of)  # checked as a booking is: its day, its airports
    option = next(o for o in options if o.direction == flight.direction)
    return Delayed(new, option)


def _same(booked: BookedFlight, flight: FlightOption) -> bool:
    return (flight.booking is not None and _number(booked.flight_number) == _number(flight.flight_number)
            and booked.departure == flight.departure)


def _number(text: str) -> str:
    return re.sub(r"\s+", "", text)


__all__ = ["SOURCE", "Delayed", "delayed_flight"]
