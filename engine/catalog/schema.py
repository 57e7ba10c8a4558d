"""The on-disk format of the embedded fixtures (``fixtures/``), validated once at load.

Human-friendly on purpose: prices in the local currency's major units; venue and restaurant hours
as one OpenStreetMap ``opening_hours`` rule (``"Mo,We-Su 09:00-18:00; Tu off; Dec 25 off"``; see
https://wiki.openstreetmap.org/wiki/Key:opening_hours), which can say what a weekly table cannot:
the last Sunday of a month (``Su[-1]``), public holidays of the city's country (``PH off``),
seasons (``Nov-Mar off``), a renovation (``2022 Apr 01-2026 Mar 30 off``); ``unknown`` counts as
closed. Every rule is parsed here, once, at load. ``catalog.py`` turns rows into engine models.

Provenance per venue, restaurant and transit block: ``source_url``, ``verified_on`` and ``note``.
``verified_on`` is the date the row's facts (hours, price, fares) were last checked against a
source: for rows re-checked for issue 9 it is that day, and ``note`` says against what; every other
row carries the fixture's own date (2026-11-23, when the data was compiled), which is not a
promise that anyone re-checked it since. ``price`` is what the traveller pays: where the price
depends on residency and the intent cannot say (IntentV1 has no residency), it is the higher
non-EU price and ``note`` gives the others.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine.models import Geo, Tier, VenueType
from engine.models.dated_hours import RULE_ERRORS, dated_hours
from engine.models.tool_results import FareTier, WEEKDAYS

_RANGE = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-4]):([0-5]\d)$")
_CLOCK = re.compile(r"^([0-2]\d):([0-5]\d)$")  # may exceed 24:00 for after-midnight service
_ID = re.compile(r"^[a-z0-9_]{2,64}$")


class Raw(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def check_range(v: str) -> str:
    m = _RANGE.match(v)
    if not m:
        raise ValueError(f"{v!r} is not 'HH:MM-HH:MM'")
    if (int(m[3]), int(m[4])) <= (int(m[1]), int(m[2])):
        raise ValueError(f"{v!r} ends before it starts (split past-midnight hours at 24:00)")
    return v


def check_clock(v: str) -> str:
    if not _CLOCK.match(v) or int(v[:2]) > 29:
        raise ValueError(f"{v!r} is not 'HH:MM' (values past 24:00 mean after midnight)")
    return v


class RawAirport(Raw):
    iata: str = Field(pattern=r"^[A-Z]{3}$")
    name: str
    city: str
    tz: str
    geo: Geo
    # What a traveller can fly there (fixtures/README.md "Airports"): long-haul routes, short-haul
    # ones, or regional ones; None where no source says.
    service: Literal["long_haul", "short_haul", "regional"] | None = None


class RawVenue(Raw):
    id: str = Field(pattern=_ID.pattern)
    name: str
    venue_type: VenueType
    indoor: bool | None
    kid_friendly: bool | None
    themes: list[str] = Field(min_length=1)
    geo: Geo
    opening_hours: str = Field(min_length=1)
    price: float = Field(ge=0)
    duration_minutes: int = Field(ge=30, le=480)
    source_url: str
    verified_on: date
    note: str | None = None
    hours_known: bool = True  # False: no hours were published (OSM packs); the rule is an assumption
    data_source: Literal["fixture", "osm"] = "fixture"
    price_estimated: bool = False
    address: str | None = None
    names: dict[str, str] = Field(default_factory=dict)  # language → name (OSM's name:xx)


class RawRestaurant(Raw):
    id: str = Field(pattern=_ID.pattern)
    name: str
    geo: Geo
    meals: list[Literal["lunch", "dinner"]] = Field(min_length=1)
    kid_friendly: bool
    price_per_person: float = Field(gt=0)
    opening_hours: str = Field(min_length=1)
    cuisine: str
    source_url: str
    verified_on: date
    note: str | None = None
    hours_known: bool = True
    data_source: Literal["fixture", "osm"] = "fixture"
    price_estimated: bool = False
    address: str | None = None
    names: dict[str, str] = Field(default_factory=dict)  # language → name (OSM's name:xx)


class RawHotel(Raw):
    id: str = Field(pattern=_ID.pattern)
    name: str
    tier: Tier
    geo: Geo
    checkin: str
    checkout: str
    price_per_night: float = Field(gt=0)
    kid_friendly: bool
    source_url: str
    data_source: Literal["fixture", "osm"] = "fixture"
    price_estimated: bool = False
    address: str | None = None
    names: dict[str, str] = Field(default_factory=dict)  # language → name (OSM's name:xx)

    _windows = field_validator("checkin", "checkout")(lambda v: check_range(v))


class RawTransit(Raw):
    metro_last_departure: dict[str, str]  # weekday -> "HH:MM" (e.g. "25:30" = 01:30 next day)
    metro_fare: float = Field(gt=0)
    bus_fare: float = Field(gt=0)
    taxi_base: float = Field(ge=0)
    taxi_per_km: float = Field(gt=0)
    airport_transfer: dict[str, float]  # IATA -> typical one-way fare by train/shuttle, local units
    source_url: str
    verified_on: date
    note: str | None = None
    estimated: bool = False  # fares from a price level, not a published fare table (OSM packs)

    @field_validator("metro_last_departure")
    @classmethod
    def _last(cls, v: dict[str, str]) -> dict[str, str]:
        if set(v) != set(WEEKDAYS):
            raise ValueError(f"metro_last_departure must list every weekday {WEEKDAYS}")
        for t in v.values():
            check_clock(t)
        return v


class CityBase(Raw):
    """What every city says of itself, a fixture's or a pack's; its places are the subclass's."""

    city: str
    slug: str = Field(pattern=_ID.pattern)
    aliases: list[str] = Field(default_factory=list)
    country: str = Field(pattern=r"^[A-Z]{2}$")
    tz: str
    currency: str = Field(pattern=r"^[A-Z]{3}$")
    center: Geo
    airports: list[str] = Field(min_length=1)
    daily_spend: float = Field(gt=0)  # meals and incidentals per traveller per day, local units
    transit: RawTransit


class RawCity(CityBase):
    """A fixture city's file: its places as rows (``city_places`` reads them into ``CityPlace``)."""

    venues: list[RawVenue] = Field(min_length=30)
    restaurants: list[RawRestaurant] = Field(default_factory=list)
    hotels: list[RawHotel] = Field(min_length=10)

    @model_validator(mode="after")
    def _coverage(self) -> "RawCity":
        ids = [v.id for v in self.venues] + [r.id for r in self.restaurants] + [h.id for h in self.hotels]
        dupes = {i for i in ids if ids.count(i) > 1}
        if dupes:
            raise ValueError(f"duplicate ids: {sorted(dupes)}")
        for row in [*self.venues, *self.restaurants]:
            try:
                dated_hours(row.opening_hours, self.country)  # parsed once; Attraction reuses it
            except RULE_ERRORS as exc:
                raise ValueError(f"{row.id}: opening_hours {row.opening_hours!r}: "
                                 f"{str(exc).splitlines()[0]}") from None
        tiers = {h.tier for h in self.hotels}
        if tiers != set(Tier):
            raise ValueError(f"hotels must cover every tier, have {sorted(t.value for t in tiers)}")
        return self


class RawFlight(Raw):
    origin: str = Field(pattern=r"^[A-Z]{3}$")
    dest: str = Field(pattern=r"^[A-Z]{3}$")
    carrier: str
    flight_number: str
    depart: str  # local time at origin, "HH:MM"
    duration_minutes: int = Field(ge=30, le=1200)
    fare_tier: FareTier
    price: float = Field(gt=0)  # USD, one way, typical for the month factor 1.0
    days: list[Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]] | Literal["daily"] = "daily"

    _depart = field_validator("depart")(lambda v: check_clock(v))


class RawFlights(Raw):
    month_factors: dict[str, float]  # "1".."12" -> multiplier on price
    flights: list[RawFlight]

    @field_validator("month_factors")
    @classmethod
    def _months(cls, v: dict[str, float]) -> dict[str, float]:
        if set(v) != {str(m) for m in range(1, 13)}:
            raise ValueError("month_factors must have keys '1'..'12'")
        return v


class RawClimate(Raw):
    precip_prob: float = Field(ge=0, le=1)
    wind_kmh: float = Field(ge=0)
    temp_c_high: float
    temp_c_low: float


class RawWeather(Raw):
    source_url: str
    cities: dict[str, dict[str, RawClimate]]  # slug -> month "1".."12" -> climatology

    @field_validator("cities")
    @classmethod
    def _months(cls, v: dict[str, dict[str, RawClimate]]) -> dict[str, dict[str, RawClimate]]:
        for slug, months in v.items():
            if set(months) != {str(m) for m in range(1, 13)}:
                raise ValueError(f"weather for {slug} must have months '1'..'12'")
        return v


class RawFX(Raw):
    source_url: str
    weekly: dict[str, list[tuple[date, float]]]  # currency -> [(monday, USD per unit)], ascending

    @field_validator("weekly")
    @classmethod
    def _ascending(cls, v: dict[str, list[tuple[date, float]]]) -> dict[str, list[tuple[date, float]]]:
        for cur, rows in v.items():
            if len(rows) < 2 or any(b[0] <= a[0] for a, b in zip(rows, rows[1:])):
                raise ValueError(f"fx {cur}: need ≥2 weekly rows in ascending date order")
        return v
