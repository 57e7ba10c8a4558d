"""Typed tool results (seed §3.3). Every result carries its Provenance."""

from __future__ import annotations

from datetime import date, datetime, time
from functools import cached_property
from typing import Literal

from pydantic import Field, field_validator, model_validator

from .common import Geo, Provenance, Tier, TimeWindow, TransitMode, Value, VenueType
from .dated_hours import RULE_ERRORS, DatedHours, dated_hours
from .physical import Celsius, Probability, WindKmh
from .place import Place

FareTier = Literal["budget", "mid", "premium"]
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def _utc(v: datetime) -> datetime:
    if v.tzinfo is None or v.utcoffset() is None:
        raise ValueError("datetime must be timezone-aware (UTC)")
    return v


class FlightOption(Value):
    flight_id: str
    carrier: str
    flight_number: str
    origin: str
    dest: str
    direction: Literal["outbound", "return"]
    departure: datetime
    arrival: datetime
    duration_seconds: int = Field(gt=0)
    price_usd_cents: int = Field(ge=0)
    fare_tier: FareTier
    overnight: bool
    provenance: Provenance
    booking: str | None = None  # the traveller's own booking: "paid", "unpriced" or "priced" (the fare as given)

    _aware_dep = field_validator("departure", "arrival")(_utc)

    @model_validator(mode="after")
    def _ordered(self) -> "FlightOption":
        if self.arrival <= self.departure:
            raise ValueError("arrival must be after departure")
        return self


class Lodging(Value):
    lodging_id: str
    name: str
    geo: Geo
    checkin_window: TimeWindow
    checkout_window: TimeWindow
    price_per_night_usd_cents: int = Field(gt=0)
    tier: Tier
    kid_friendly: bool
    provenance: Provenance
    price_estimated: bool = False  # no published price: estimated by tier and the country's price level
    booking: str | None = None  # the traveller's own booking: "paid", "unpriced" or "priced"
    address: str | None = None  # its street address, when the data has one
    names: dict[str, str] = Field(default_factory=dict)  # language → name (OSM's name:xx), for the traveller's

    def place(self) -> Place:
        """The bed as a :class:`Place` (a fixture's, OpenStreetMap's or the traveller's booking)."""
        return Place(ref=self.lodging_id, kind="bed", name=self.name, lat=self.geo.lat, lon=self.geo.lon,
                     price=None if self.booking == "unpriced" else self.price_per_night_usd_cents / 100,
                     price_estimated=self.price_estimated,
                     kid_friendly=self.kid_friendly, data_source=self.provenance.data_source,
                     source_url=self.provenance.source_url or "", names=dict(self.names))


class Attraction(Value):
    """A venue whose opening hours are an OSM ``opening_hours`` rule evaluated by local date
    (``country`` selects the public-holiday calendar for ``PH``); ``blackout_dates`` are closures
    on top of the rule (a strike, a tool's own knowledge)."""

    id: str
    name: str
    venue_type: VenueType
    indoor: bool | None
    kid_friendly: bool | None
    themes: list[str] = Field(default_factory=list)
    opening_hours: str
    country: str | None = Field(default=None, pattern=r"^[A-Z]{2}$")
    blackout_dates: list[date] = Field(default_factory=list)
    location: Geo
    est_price_usd_cents: int = Field(default=0, ge=0)
    duration_minutes: int = Field(ge=15, le=600)
    tz: str
    provenance: Provenance
    hours_known: bool = True  # False: nobody published hours; ``opening_hours`` is a cautious assumption
    price_estimated: bool = False
    address: str | None = None  # its street address, when the data has one (OSM's addr:* tags)
    names: dict[str, str] = Field(default_factory=dict)  # language → name (OSM's name:xx), for the traveller's

    @model_validator(mode="after")
    def _rule(self) -> "Attraction":
        try:
            self.hours  # noqa: B018 — parsed once per distinct rule and country, shared by every copy
        except RULE_ERRORS as exc:
            raise ValueError(f"opening_hours {self.opening_hours!r}: {str(exc).splitlines()[0]}") from None
        return self

    def model_copy(self, *, update=None, deep: bool = False) -> "Attraction":
        """A copy never keeps the original's cached hours or closures: an update may change them."""
        copied = super().model_copy(update=update, deep=deep)
        if update:
            for cached in ("hours", "_closed_on"):
                copied.__dict__.pop(cached, None)
        return copied

    def place(self) -> Place:
        """The venue (a restaurant too: the dining tool's) as a :class:`Place`: its hours only when
        someone published them."""
        return Place(ref=self.id, kind="food" if self.provenance.tool == "dining" else "sight", name=self.name,
                     lat=self.location.lat, lon=self.location.lon,
                     hours=self.opening_hours if self.hours_known else None, price=self.est_price_usd_cents / 100,
                     price_estimated=self.price_estimated, indoor=self.indoor, kid_friendly=self.kid_friendly,
                     venue_type=VenueType(self.venue_type).value, themes=tuple(self.themes),
                     minutes=self.duration_minutes, names=dict(self.names),
                     data_source=self.provenance.data_source, source_url=self.provenance.source_url or "")

    @cached_property
    def hours(self) -> DatedHours:
        return dated_hours(self.opening_hours, self.country)

    @cached_property
    def _closed_on(self) -> frozenset[date]:
        return frozenset(self.blackout_dates)

    def windows_on(self, day: date) -> tuple[TimeWindow, ...]:
        """Opening windows on a date: none on blackout dates, else what the rule says that day."""
        if day in self._closed_on:
            return ()
        return self.hours.windows_on(day)

    def closed_reason(self, day: date) -> str:
        """For a date without windows: ``blackout_date``, ``closed_day`` or ``closed_season``."""
        return "blackout_date" if day in self._closed_on else self.hours.closed_reason(day)

    def note_on(self, day: date) -> str:
        """The rule's comment for a date ('free admission', 'market holiday'), '' when none."""
        return "" if day in self._closed_on else self.hours.day(day).note

    def is_open(self, day: date, window: TimeWindow) -> bool:
        """Some window of that date covers ``window`` (the verifier's hot path: memo lookups only)."""
        return day not in self._closed_on and self.hours.covers(day, window.start, window.end)


class WeatherDay(Value):
    date: date
    precip_prob: Probability
    wind_kmh: WindKmh
    temp_c_high: Celsius
    temp_c_low: Celsius
    typical: bool = False  # climatology ("typical weather"), not a forecast
    provenance: Provenance


class TransitLeg(Value):
    mode: TransitMode
    from_geo: Geo
    to_geo: Geo
    distance_m: int = Field(ge=0)
    duration_seconds: int = Field(ge=0)
    cost_usd_cents: int = Field(default=0, ge=0)
    last_departure: time | None = None
    provenance: Provenance


class FXRate(Value):
    from_currency: str
    to_currency: str = "USD"
    rate: float = Field(gt=0)
    as_of: date
    provenance: Provenance
