"""Multi-city trips (issue 33): ordered stays joined by legs, one trip verified and repaired as a chain.

A trip of stays ``[A (3 nights), B (2 nights)]`` from ``start_date`` lasts ``3 + 2 + 1`` days: day 1 the
outbound flight lands in A, the day A's nights end is also the day the leg to B runs (check-out, transfer,
the leg, transfer, check-in), and the last day the flight home leaves from the last stay (or from the first:
``return_from="first"`` adds one more leg back to it). A one-city trip stays an :class:`IntentV1`.

The planned legs are :class:`PlannedLeg` (in ``ItineraryV1.legs``): each says where its times came from —
a transit router, a booking, a routed drive, or an estimate — and why its mode was chosen.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import AwareDatetime, Field, field_validator, model_validator

from .bookings import BookedHotel, Bookings
from .common import Geo, Provenance, Tier, Value
from .intent import MAX_BUDGET_USD_CENTS, MAX_STAY_DAYS, MAX_TRAVELLERS, Preferences, _iata

MIN_STAY_NIGHTS = 1
MAX_STAY_NIGHTS = MAX_STAY_DAYS - 1  # 14: SPEC_DECISIONS §2.11
MIN_STAYS = 2
MAX_STAYS = 8
MAX_TRIP_DAYS = 30

LegMode = Literal["train", "flight", "bus", "drive", "ferry"]
AskedMode = Literal["best", "train", "flight", "bus", "drive", "ferry"]
LegSource = Literal["router", "booked", "routed", "estimated"]


def _city(v: str) -> str:
    v = " ".join(v.split())
    if not v:
        raise ValueError("must name a city")
    if any(c in v for c in "<>{}") or any(ord(c) < 32 for c in v):
        raise ValueError(f"{v!r} contains markup or control characters; give a plain city name")
    return v


class Stay(Value):
    """One city of the trip and how long the traveller sleeps there."""

    city: str = Field(min_length=1, max_length=80)
    nights: int = Field(ge=MIN_STAY_NIGHTS, le=MAX_STAY_NIGHTS)
    tier: Tier | None = None  # the hotel tier asked for here; None: the trip's budget decides
    hotel: BookedHotel | None = None  # a booked hotel in this city: its dates must be this stay's
    airports: list[str] = Field(default_factory=list, max_length=4)  # known airports; [] = the planner finds them

    _city = field_validator("city")(lambda v: _city(v))

    @field_validator("airports")
    @classmethod
    def _airports(cls, v: list[str]) -> list[str]:
        return list(dict.fromkeys(_iata(c) for c in v))


class BookedLeg(Value):
    """A ticket between two stays (schema.org ``TrainReservation``/``BusReservation``/``FlightReservation``):
    its times and price are facts the chain is planned around."""

    mode: Literal["train", "bus", "flight", "ferry"]
    operator: str = Field(default="", max_length=80)  # "Comboios de Portugal", "TAP Air Portugal"
    number: str = Field(default="", max_length=16)  # "AP 121", "TP 1944"
    from_name: str = Field(min_length=1, max_length=120)  # station or airport as ticketed
    to_name: str = Field(min_length=1, max_length=120)
    departure: AwareDatetime  # with the departure's offset
    arrival: AwareDatetime  # with the arrival's offset
    confirmation: str | None = Field(default=None, max_length=32)
    price_usd_cents: int | None = Field(default=None, ge=0)
    paid: bool = False
    source: str = Field(default="manual", pattern=r"^[a-z_]{2,16}$")  # manual | email | ics | pdf | text

    @model_validator(mode="after")
    def _order(self) -> "BookedLeg":
        if self.arrival <= self.departure:
            raise ValueError(f"{self.mode} {self.number or self.from_name}: arrival must come after departure")
        return self


class LegRequest(Value):
    """How the traveller wants to get from one stay to the next: a mode, or "best" (the planner
    picks what a traveller would and says why), or a booked ticket (which fixes the mode)."""

    mode: AskedMode = "best"
    booked: BookedLeg | None = None

    @model_validator(mode="after")
    def _booked_mode(self) -> "LegRequest":
        if self.booked is not None and self.mode not in ("best", self.booked.mode):
            raise ValueError(f"leg: asked for {self.mode} but the booked ticket is a {self.booked.mode}")
        return self


class MultiCityIntent(Value):
    mode: Literal["multi_city"] = "multi_city"
    start_date: date  # the day the outbound flight lands in the first stay
    tz: str | None = None  # unused by the planner (each stay has its city's zone); kept for forms
    stays: list[Stay] = Field(min_length=MIN_STAYS, max_length=MAX_STAYS)
    # legs[i] joins stays[i] → stays[i+1]; with return_from="first" one more joins the last stay → stays[0].
    # [] means "best" for each.
    legs: list[LegRequest] = Field(default_factory=list, max_length=MAX_STAYS)
    origin_airport: str
    return_from: Literal["last", "first"] = "last"  # "last": open-jaw home from the last city
    budget_usd_cents: int = Field(strict=True)
    prefs: Preferences = Field(default_factory=Preferences)  # locked_slots' day_offset counts from start_date
    bookings: Bookings | None = None  # the outbound and return flights (and events) as facts
    travellers: int = Field(default=1, ge=1, le=MAX_TRAVELLERS)
    rooms: int | None = Field(default=None, ge=1, le=MAX_TRAVELLERS)

    @field_validator("origin_airport")
    @classmethod
    def _origin(cls, v: str) -> str:
        return _iata(v)

    @field_validator("budget_usd_cents")
    @classmethod
    def _budget(cls, v: int) -> int:
        if not 0 < v <= MAX_BUDGET_USD_CENTS:
            raise ValueError(f"budget must be greater than zero and at most {MAX_BUDGET_USD_CENTS} cents")
        return v

    @field_validator("stays")
    @classmethod
    def _trip_length(cls, v: list[Stay]) -> list[Stay]:
        days = sum(s.nights for s in v) + 1
        if days > MAX_TRIP_DAYS:
            raise ValueError(f"a trip lasts at most {MAX_TRIP_DAYS} days, these nights make {days}")
        return v

    @model_validator(mode="after")
    def _chain(self) -> "MultiCityIntent":
        needed = len(self.stays) - 1 + (1 if self.return_from == "first" else 0)
        if self.legs and len(self.legs) != needed:
            raise ValueError(f"legs: {len(self.stays)} stays need {needed} leg(s), got {len(self.legs)}")
        for i, slot in enumerate(self.prefs.locked_slots):
            if slot.day_offset >= self.days:
                raise ValueError(f"prefs.locked_slots[{i}].day_offset {slot.day_offset} is outside the "
                                 f"{self.days}-day trip (0-{self.days - 1})")
        for i, stay in enumerate(self.stays):
            first = self.stay_first_day(i)
            if stay.hotel is not None and (stay.hotel.checkin, stay.hotel.checkout) != (
                    first, date.fromordinal(first.toordinal() + stay.nights)):
                raise ValueError(f"stays[{i}].hotel: booked {stay.hotel.checkin}–{stay.hotel.checkout}, "
                                 f"but the stay in {stay.city} is {first} for {stay.nights} night(s)")
        if self.rooms is not None and self.rooms > self.travellers:
            raise ValueError(f"rooms: {self.rooms} rooms for {self.travellers} traveller(s)")
        return self

    @property
    def nights(self) -> int:
        return sum(s.nights for s in self.stays)

    @property
    def days(self) -> int:
        return self.nights + 1

    @property
    def end_date(self) -> date:
        return date.fromordinal(self.start_date.toordinal() + self.nights)

    def stay_first_day(self, index: int) -> date:
        """The day the traveller arrives in ``stays[index]`` (the previous stay's last day)."""
        return date.fromordinal(self.start_date.toordinal() + sum(s.nights for s in self.stays[:index]))

    def leg_requests(self) -> list[LegRequest]:
        """One request per leg, "best" where the intent gave none."""
        needed = len(self.stays) - 1 + (1 if self.return_from == "first" else 0)
        return list(self.legs) if self.legs else [LegRequest() for _ in range(needed)]


class PlannedLeg(Value):
    """A planned leg between two stays: its times, mode, price and where each came from."""

    index: int = Field(ge=0)  # legs[index] of the intent
    from_city: str
    to_city: str
    mode: LegMode
    from_name: str  # "Lisboa Santa Apolónia", "LIS"
    to_name: str
    from_geo: Geo | None = None
    to_geo: Geo | None = None
    departure: AwareDatetime
    arrival: AwareDatetime
    changes: int = Field(default=0, ge=0)
    distance_km: float = Field(ge=0)
    fare_usd_cents: int = Field(ge=0)  # for all travellers
    source: LegSource = "estimated"
    operator: str = ""
    number: str = ""
    confirmation: str | None = None
    why: str = ""  # the mode decision in the traveller's words ("2 h 50 by train beats 4 h door to door by air")
    path: list[Geo] = Field(default_factory=list)  # the drawn line; [] = a straight line between the ends
    provenance: Provenance | None = None

    @model_validator(mode="after")
    def _order(self) -> "PlannedLeg":
        if self.arrival <= self.departure:
            raise ValueError(f"leg {self.index}: arrival must come after departure")
        return self
