"""IntentV1: what the traveller asked for (seed §3.1 + SPEC_DECISIONS §2.4 ``origin_airport``)."""

from __future__ import annotations

import re
from datetime import date
from typing import ClassVar, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, field_validator, model_validator

from .bookings import Bookings
from .common import Geo, TimeWindow, Value
from .place import Place
from .visit_time import Pace

MIN_CITY_DAYS = 2  # one night: a weekend is the commonest city trip (issue 31 §2, SPEC_DECISIONS §2.11: stays of
# 1–14 nights); the seed's 4–7 days stay the range of its evaluation scenarios
MAX_CITY_DAYS = 7
MAX_STAY_DAYS = 15  # a multi-city trip's stay of 1–14 nights (SPEC_DECISIONS §2.11), planned as a StayIntent
# Beyond any sane trip: a larger figure is a typo or an attack, never a budget to plan against.
MAX_BUDGET_USD_CENTS = 10_000_000 * 100
MAX_TRAVELLERS = 12
_IATA = re.compile(r"^[A-Z]{3}$")
_ACTIVITY_ID = re.compile(r"^[a-z0-9_]{1,64}$")


def _iata(code: str) -> str:
    code = code.strip().upper()
    if not _IATA.match(code):
        raise ValueError(f"{code!r} is not a 3-letter IATA airport code")
    return code


class DateWindow(Value):
    start: date
    end: date
    tz: str

    @field_validator("tz")
    @classmethod
    def _tz(cls, v: str) -> str:
        try:
            ZoneInfo(v)
        except (ZoneInfoNotFoundError, ValueError, OSError) as exc:  # "Europe" is a directory
            raise ValueError(f"unknown IANA timezone {v!r}") from exc
        return v

    @model_validator(mode="after")
    def _ordered(self) -> "DateWindow":
        if self.start > self.end:
            raise ValueError("end must not be before start")
        return self

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1


class LockedSlot(Value):
    day_offset: int = Field(ge=0)
    window: TimeWindow
    activity_id: str

    @field_validator("activity_id")
    @classmethod
    def _id(cls, v: str) -> str:
        if not _ACTIVITY_ID.match(v):
            raise ValueError("activity_id must be lowercase letters, digits and underscores")
        return v


MAX_MUST_SEE = 200
MAX_OSM_TAGS = 40
MAX_OSM_NAMES = 400  # a famous place is named in a few hundred languages at most


class OsmMatch(Value):
    """What intents written before issue 30 kept of a saved place OpenStreetMap knows: its element's
    stored row without a point. Still read (``engine.planning.must_see`` reads it as a
    :class:`Place` through the OSM reader), never written: a lookup now keeps the Place itself."""

    osm_type: Literal["node", "way", "relation"]
    osm_id: int = Field(gt=0)
    kind: Literal["sight", "food"]
    key: str = Field(min_length=1, max_length=64)
    category: str = Field(min_length=1, max_length=64)
    name: str = Field(min_length=1, max_length=255)
    tags: dict[str, str] = Field(default_factory=dict, max_length=MAX_OSM_TAGS)

    @field_validator("tags")
    @classmethod
    def _short(cls, v: dict[str, str]) -> dict[str, str]:
        return _short_tags(v)


def _short_tags(v: dict[str, str]) -> dict[str, str]:
    if any(len(k) > 64 or len(x) > 255 for k, x in v.items()):
        raise ValueError("OSM tags: keys up to 64 and values up to 255 characters")
    return v


class MustSee(Value):
    """A place the traveller saved (My Maps KML, Takeout GeoJSON, GPX, CSV): planned first when it
    fits, listed with the reason when it cannot be. ``venue_id``: the catalog venue it is (the same
    name within 150 m); None: a place of its own, with unknown hours."""

    name: str = Field(min_length=1, max_length=200)
    geo: Geo
    notes: str = Field(default="", max_length=1000)
    source: str = Field(default="user", pattern=r"^[a-z]{2,16}$")
    venue_id: str | None = Field(default=None, max_length=64)
    # a place of its own that OpenStreetMap knows (``engine.places.saved_lookup``): the Place read
    # from its element — hours, kind, link — kept in the intent so a re-plan, a re-derivation and
    # ``tripwright verify`` read the same facts (an :class:`OsmMatch` in intents written before)
    osm: Place | OsmMatch | None = None

    @field_validator("osm")
    @classmethod
    def _osm_short(cls, v: Place | OsmMatch | None) -> Place | OsmMatch | None:
        if isinstance(v, Place):
            if v.kind == "bed" or len(v.tags) > MAX_OSM_TAGS or len(v.names) > MAX_OSM_NAMES:
                raise ValueError(f"osm: a sight or a place to eat, with up to {MAX_OSM_TAGS} tags "
                                 f"and {MAX_OSM_NAMES} names")
            _short_tags({**v.tags, **v.names})
        return v

    @property
    def place_id(self) -> str:
        """The planner's id: the matched venue's, else one derived from the place itself."""
        if self.venue_id:
            return self.venue_id
        import hashlib
        key = f"{self.name}|{self.geo.lat:.6f}|{self.geo.lon:.6f}".encode()
        return f"user_{hashlib.sha256(key).hexdigest()[:12]}"


class Preferences(Value):
    kid_friendly: bool = False
    themes: list[str] = Field(default_factory=list)
    avoid_overnight: bool = False
    locked_slots: list[LockedSlot] = Field(default_factory=list)
    must_see: list[MustSee] = Field(default_factory=list, max_length=MAX_MUST_SEE)
    # how full the traveller wants a day (engine/models/visit_time.py: its sight time and visit lengths)
    pace: Pace = "balanced"

    @field_validator("themes")
    @classmethod
    def _themes(cls, v: list[str]) -> list[str]:
        out = []
        for theme in v:
            norm = theme.strip().lower().replace(" ", "_").replace("-", "_")
            if not re.fullmatch(r"[a-z_]{2,32}", norm):
                raise ValueError(f"theme {theme!r} must be a short lowercase word")
            if norm not in out:
                out.append(norm)
        return out


class IntentV1(Value):
    mode: Literal["city"] = "city"
    city: str = Field(min_length=1, max_length=80)
    date_window: DateWindow
    budget_usd_cents: int = Field(strict=True)  # strict: true, 1.0 or "4000" is no amount of cents
    airports: list[str] = Field(min_length=1, max_length=4)
    origin_airport: str
    prefs: Preferences = Field(default_factory=Preferences)
    bookings: Bookings | None = None  # the traveller's own flights and hotel: facts the plan is built around
    travellers: int = Field(default=1, ge=1, le=MAX_TRAVELLERS)  # SPEC_DECISIONS §2.9
    rooms: int | None = Field(default=None, ge=1, le=MAX_TRAVELLERS)  # None: one per two travellers

    min_days: ClassVar[int] = MIN_CITY_DAYS
    max_days: ClassVar[int] = MAX_CITY_DAYS
    length_text: ClassVar[str] = f"a city trip lasts {MIN_CITY_DAYS}-{MAX_CITY_DAYS} days"
    # once every table is eaten at, one from an earlier day again (a one-city trip plans as it did)
    tables_again: ClassVar[bool] = False

    @field_validator("budget_usd_cents")
    @classmethod
    def _budget(cls, v: int) -> int:
        if v <= 0:
            raise ValueError("budget must be greater than zero")
        if v > MAX_BUDGET_USD_CENTS:
            raise ValueError(f"budget must be at most {MAX_BUDGET_USD_CENTS} cents (10,000,000 USD), got {v}")
        return v

    @field_validator("airports")
    @classmethod
    def _airports(cls, v: list[str]) -> list[str]:
        codes = [_iata(c) for c in v]
        return list(dict.fromkeys(codes))

    @field_validator("origin_airport")
    @classmethod
    def _origin(cls, v: str) -> str:
        return _iata(v)

    @model_validator(mode="after")
    def _trip_shape(self) -> "IntentV1":
        days = self.date_window.days
        if not self.min_days <= days <= self.max_days:
            raise ValueError(f"date_window: {self.length_text}, got {days}")
        for i, slot in enumerate(self.prefs.locked_slots):
            if slot.day_offset >= days:
                raise ValueError(
                    f"prefs.locked_slots[{i}].day_offset {slot.day_offset} is outside the "
                    f"{days}-day trip (0-{days - 1})")
        if self.rooms is not None and self.rooms > self.travellers:
            raise ValueError(f"rooms: {self.rooms} rooms for {self.travellers} traveller(s)")
        if self.origin_airport in self.airports:
            raise ValueError("origin_airport: must differ from the destination airports")
        return self

    @property
    def days(self) -> int:
        return self.date_window.days


class StayIntent(IntentV1):
    """One stay of a multi-city trip as the one-city trip its city planner plans: the same fields
    and plan, the stay's own length (1–14 nights, SPEC_DECISIONS §2.11) in place of the one-city
    trip's published 2–7 days (§2.7). Only the multi-city run makes one."""

    max_days: ClassVar[int] = MAX_STAY_DAYS
    length_text: ClassVar[str] = f"a stay lasts 1-{MAX_STAY_DAYS - 1} nights"
    tables_again: ClassVar[bool] = True  # a long stay outlasts a fixture city's handful of tables
