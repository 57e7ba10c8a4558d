"""The traveller's own bookings (issue 21 §1): facts the plan is built around, never estimates.

A booked flight or hotel replaces the options the tools would offer: the planner takes it as it
is (``provenance.data_source = "user"``), repair never moves it, and a booking that contradicts
the trip (another city, other dates) is one clear input error naming both. ``paid`` bookings
are shown with their price but left out of what the budget still has to cover. Confirmation
codes are kept for the itinerary itself and masked everywhere else (``masked_code``).
"""

from __future__ import annotations

from datetime import date

from pydantic import AwareDatetime, Field, field_validator, model_validator

from .common import Geo, Value

MAX_BOOKED_FLIGHTS = 8
MAX_BOOKED_EVENTS = 20


def masked_code(code: str | None) -> str:
    """``"ABC123"`` → ``"AB••••"``: enough to tell bookings apart in a log, not to use one."""
    if not code:
        return ""
    return code[:2] + "•" * max(0, len(code) - 2)


class BookedFlight(Value):
    carrier: str = Field(min_length=1, max_length=80)  # "TAP Air Portugal" or the IATA code "TP"
    flight_number: str = Field(pattern=r"^[A-Z0-9]{2}\s?\d{1,4}[A-Z]?$")  # "TP 202", "TP202"
    origin: str = Field(pattern=r"^[A-Z]{3}$")
    dest: str = Field(pattern=r"^[A-Z]{3}$")
    departure: AwareDatetime  # with the origin's offset
    arrival: AwareDatetime  # with the destination's offset
    confirmation: str | None = Field(default=None, max_length=32)
    price_usd_cents: int | None = Field(default=None, ge=0)
    paid: bool = False
    source: str = Field(default="manual", pattern=r"^[a-z_]{2,16}$")  # manual | email | ics | pdf | text

    @field_validator("flight_number", mode="before")
    @classmethod
    def _upper(cls, v: str) -> str:
        return str(v).strip().upper()

    @model_validator(mode="after")
    def _order(self) -> "BookedFlight":
        if self.arrival <= self.departure:
            raise ValueError(f"flight {self.flight_number}: arrival must come after departure")
        if self.origin == self.dest:
            raise ValueError(f"flight {self.flight_number}: origin and destination are both {self.origin}")
        return self


class BookedHotel(Value):
    name: str = Field(min_length=1, max_length=200)
    address: str = Field(default="", max_length=300)
    geo: Geo | None = None  # from the booking, else geocoded before planning
    # where ``geo`` came from when the booking did not give it: "osm:node:123" (Nominatim's answer)
    # or "city" (the city's own list of places to stay); None = the booking or the traveller
    geo_source: str | None = Field(default=None, max_length=64, pattern=r"^(city|osm:(node|way|relation):\d{1,20})$")
    checkin: date
    checkout: date
    confirmation: str | None = Field(default=None, max_length=32)
    price_usd_cents: int | None = Field(default=None, ge=0)  # the whole stay
    paid: bool = False
    source: str = Field(default="manual", pattern=r"^[a-z_]{2,16}$")

    @model_validator(mode="after")
    def _nights(self) -> "BookedHotel":
        if self.checkout <= self.checkin:
            raise ValueError(f"hotel {self.name!r}: check-out must come after check-in")
        return self


class BookedEvent(Value):
    """A ticket for a time and a place (schema.org ``EventReservation``): a concert, a show, a
    timed entry. Planned as a locked visit at its time; its place is the booking's (``geo``), the
    city's venue of that name, or its address looked up before planning."""

    name: str = Field(min_length=1, max_length=200)
    venue: str = Field(default="", max_length=200)
    address: str = Field(default="", max_length=300)
    geo: Geo | None = None
    geo_source: str | None = Field(default=None, max_length=64, pattern=r"^(city|osm:(node|way|relation):\d{1,20})$")
    start: AwareDatetime  # with the venue's offset
    end: AwareDatetime | None = None  # None: visit_time.EVENT_MINUTES after the start
    confirmation: str | None = Field(default=None, max_length=32)
    price_usd_cents: int | None = Field(default=None, ge=0)  # the whole booking
    paid: bool = False
    source: str = Field(default="manual", pattern=r"^[a-z_]{2,16}$")

    @model_validator(mode="after")
    def _order(self) -> "BookedEvent":
        if self.end is not None and self.end <= self.start:
            raise ValueError(f"event {self.name!r}: the end must come after the start")
        return self


class Bookings(Value):
    flights: list[BookedFlight] = Field(default_factory=list, max_length=MAX_BOOKED_FLIGHTS)
    hotel: BookedHotel | None = None
    events: list[BookedEvent] = Field(default_factory=list, max_length=MAX_BOOKED_EVENTS)

    @property
    def empty(self) -> bool:
        return not self.flights and self.hotel is None and not self.events
