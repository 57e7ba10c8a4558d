"""Shared value types: geography, local time windows, provenance, money and enums."""

from __future__ import annotations

from datetime import datetime, time
from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, field_validator, model_validator


class Value(BaseModel):
    """Base for immutable contract values: unknown fields and enum variants are rejected."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_enum_values=False, defer_build=True)


class Geo(Value):
    lat: float
    lon: float

    @field_validator("lat")
    @classmethod
    def _lat(cls, v: float) -> float:
        if not -90.0 <= v <= 90.0:
            raise ValueError("latitude must be within [-90, 90]")
        return round(v, 6)

    @field_validator("lon")
    @classmethod
    def _lon(cls, v: float) -> float:
        if not -180.0 <= v <= 180.0:
            raise ValueError("longitude must be within [-180, 180]")
        return round(v, 6)


class TimeWindow(Value):
    """A local-time window within one day (``end`` strictly after ``start``)."""

    start: time
    end: time

    @model_validator(mode="after")
    def _ordered(self) -> "TimeWindow":
        if self.end <= self.start:
            raise ValueError(f"window end {self.end:%H:%M} must be after start {self.start:%H:%M}")
        return self

    @property
    def minutes(self) -> int:
        return minutes_of(self.end) - minutes_of(self.start)

    def covers(self, other: "TimeWindow") -> bool:
        return self.start <= other.start and other.end <= self.end

    def overlaps(self, other: "TimeWindow") -> bool:
        return self.start < other.end and other.start < self.end

    def label(self) -> str:
        return f"{self.start:%H:%M}-{self.end:%H:%M}"

    @classmethod
    def of_minutes(cls, start_min: int, end_min: int) -> "TimeWindow":
        return cls(start=time_of(start_min), end=time_of(end_min))


def minutes_of(t: time) -> int:
    """Minutes since local midnight."""
    return t.hour * 60 + t.minute


def time_of(minutes: int) -> time:
    """Local time for minutes since midnight, clamped to the day (23:59 at most)."""
    minutes = max(0, min(minutes, 23 * 60 + 59))
    return time(minutes // 60, minutes % 60)


class ChoiceKind(str, Enum):
    flight = "flight"
    lodging = "lodging"
    attraction = "attraction"
    transit = "transit"
    meal = "meal"


class Tier(str, Enum):
    budget = "budget"
    mid = "mid"
    luxury = "luxury"

    @property
    def rank(self) -> int:
        return TIER_ORDER.index(self)


TIER_ORDER = [Tier.budget, Tier.mid, Tier.luxury]


class TransitMode(str, Enum):
    walk = "walk"
    metro = "metro"
    bus = "bus"
    taxi = "taxi"


class VenueType(str, Enum):
    museum = "museum"
    park = "park"
    temple = "temple"
    landmark = "landmark"
    market = "market"
    other = "other"


DataSource = Literal["real", "cache", "fixture", "computed", "user", "omitted", "osm", "estimated"]


class Provenance(Value):
    """Where a fact came from (seed §3.4 + §3.7: tool, call_ts, cache_hit, response_digest)."""

    source: Literal["tool", "rag", "user"] = "tool"
    tool: str
    call_ts: datetime
    cache_hit: bool = False
    response_digest: str
    ref_id: str | None = None
    source_url: str | None = None
    data_source: DataSource = "fixture"

    @field_validator("call_ts")
    @classmethod
    def _aware(cls, v: datetime) -> datetime:
        if v.tzinfo is None:
            raise ValueError("call_ts must be timezone-aware (UTC)")
        return v


def iso_currency(v: str) -> str:
    if len(v) != 3 or not v.isalpha():
        raise ValueError("currency must be a 3-letter ISO 4217 code")
    return v.upper()


class Money(Value):
    amount_cents: int
    currency: str = "USD"

    _iso = field_validator("currency")(lambda v: iso_currency(v))


def format_usd(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}${cents // 100:,}.{cents % 100:02d}"


CURRENCY_SIGNS = {"EUR": "€", "GBP": "£", "JPY": "¥", "USD": "$"}  # written before the amount; others after it
WHOLE_UNITS = frozenset({"JPY", "KRW", "VND", "IDR", "HUF", "CLP", "ISK", "TWD"})  # no minor unit in use


def format_local(amount: float, currency: str, *, whole: bool = False) -> str:
    """An amount in a local currency as a traveller reads a price: "€12", "€8.50", "¥500", "90 MXN"
    (``whole``: to the unit, as an estimate is said)."""
    whole = whole or currency in WHOLE_UNITS or amount >= 20 or abs(amount - round(amount)) < 0.005
    text = f"{round(amount):,}" if whole else f"{amount:,.2f}"
    sign = CURRENCY_SIGNS.get(currency)
    return f"{sign}{text}" if sign else f"{text} {currency}"


def format_price(usd_cents: int, currency: str = "USD", rate_to_usd: float = 1.0, *, estimated: bool = False) -> str:
    """A USD price, in the local currency first when it is not USD: "€12 (≈ $12.96)" (an estimate to
    the local unit: "€11 (≈ $13.20)")."""
    if currency == "USD" or rate_to_usd <= 0:
        return format_usd(usd_cents)
    local = format_local(usd_cents / 100 / rate_to_usd, currency, whole=estimated)
    return f"{local} (≈ {format_usd(usd_cents)})"


UNION_TAGS = frozenset({"city", "road_trip", "multi_city"})  # discriminator values pydantic puts in error paths


def field_path(loc: tuple) -> str:
    """A validation error's location as the user's field path ("intent.budget_usd_cents"),
    without the union tag pydantic inserts after a discriminated field."""
    parts = [str(p) for i, p in enumerate(loc) if not (i > 0 and p in UNION_TAGS and loc[i - 1] == "intent")]
    return ".".join(parts)
