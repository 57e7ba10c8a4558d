"""Tool request contracts (seed §4.1). Their canonical JSON is the cache key."""

from __future__ import annotations

from datetime import date

from pydantic import Field

from engine.models import DateWindow, Geo, Tier, TransitMode, Value


class FlightRequest(Value):
    origin: str
    dest: str
    date_window: DateWindow
    avoid_overnight: bool = False


class LodgingRequest(Value):
    city: str
    checkin: date
    checkout: date
    tier_prefs: list[Tier]
    kid_friendly: bool = False


MAX_ATTRACTIONS = 20  # the sights a trip of up to a week is planned from
WEEK_DAYS = 7


class AttractionsRequest(Value):
    city: str
    themes: list[str] = Field(default_factory=list)
    kid_friendly: bool = False
    # how many sights: a week's by default; a longer stay (up to 14 nights) asks for as many a day
    # (written only when not the default, so a week's request and its cache key are as they were)
    count: int = Field(default=MAX_ATTRACTIONS, ge=1, exclude_if=lambda n: n == MAX_ATTRACTIONS)

    @classmethod
    def count_for(cls, days: int) -> int:
        """A week's sights for a trip of up to a week, as many a day for a longer one."""
        return max(MAX_ATTRACTIONS, -(-MAX_ATTRACTIONS * days // WEEK_DAYS))


class VenueRequest(Value):
    """One venue by id (a locked slot naming a venue the theme search did not return)."""

    city: str
    venue_id: str


class DiningRequest(Value):
    city: str
    kid_friendly: bool = False


class TransitRequest(Value):
    city: str
    from_geo: Geo
    to_geo: Geo
    day: date
    mode_prefs: list[TransitMode] = Field(default_factory=lambda: [TransitMode.walk, TransitMode.metro])

    def cache_text(self) -> str:  # the executor's key (engine.tools.executor.cache_key): hot, in-memory only
        return self.model_dump_json()

    def memo_key(self) -> tuple:
        """The request as a tuple, for a computation's cache (``engine.tools.computed``): every
        field, as its JSON would tell them apart (a ``Geo`` is rounded to 6 decimals)."""
        return ("leg", self.city, self.from_geo.lat, self.from_geo.lon, self.to_geo.lat, self.to_geo.lon, self.day,
                tuple(self.mode_prefs))


class AirportTransferRequest(Value):
    city: str
    airport: str
    hotel: Geo
    day: date

    def cache_text(self) -> str:
        return self.model_dump_json()

    def memo_key(self) -> tuple:
        return ("airport", self.city, self.airport, self.hotel.lat, self.hotel.lon, self.day)


class FXRequest(Value):
    from_currency: str
    to_currency: str = "USD"
    as_of: date


class WeatherRequest(Value):
    lat: float
    lon: float
    date: date


class ClimateRequest(Value):
    """The fixture rung's question: a place's climatology for a month plus the values a scenario pins
    for one day. The answer depends on nothing else, so every June day in Paris shares one entry."""

    lat: float
    lon: float
    month: int = Field(ge=1, le=12)
    pinned: dict[str, float] = Field(default_factory=dict)


class WeatherRangeRequest(Value):
    """One call per place for the whole trip (not one per day)."""

    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)
    start: date
    end: date
