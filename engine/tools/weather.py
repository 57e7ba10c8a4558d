"""Weather: the degradation ladder of seed §12 over the real services and the climatology fixtures.

    inside the forecast horizon: OpenWeatherMap (8 days, only with a stored key) → Open-Meteo
                                 (16 days) → cache → fixture climatology → omitted
    beyond it ("typical"):       fixture climatology for fixture cities → Open-Meteo archive → omitted

Every day records the rung that served it in ``provenance.data_source`` (real / cache / fixture;
an omitted day is absent and the verifier treats it as unknown). A forecast day served by a lower
rung makes the run "degraded" (the banner). ``DISABLE_WEATHER_API=1`` skips the real rungs. The
fixture rung is asked per day for the month's climatology (plus the day's pinned values): that is
all its answer depends on, so its cache key holds nothing else.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from engine.catalog.catalog import Catalog
from engine.errors import ToolError
from engine.geo import haversine_m
from engine.models import Geo, Provenance, Value, WeatherDay

from .executor import ToolExecutor
from .open_meteo import within_horizon
from .openweathermap import within_horizon as owm_within_horizon
from .provenance import stamp
from .requests import ClimateRequest, WeatherRangeRequest, WeatherRequest
from .weather_series import WeatherSeries

FIXTURE_RADIUS_M = 60_000  # a place this close to a fixture city shares its climatology
CREDITS = {"open-meteo": " (weather data by Open-Meteo.com, CC BY 4.0)",
           "openweathermap": " (weather data by OpenWeather, openweathermap.org)"}


class WeatherTool(Protocol):
    def available(self) -> bool: ...

    async def forecast(self, request: WeatherRangeRequest) -> WeatherSeries: ...

    async def typical(self, request: WeatherRangeRequest) -> WeatherSeries: ...


class Climate(Value):
    """A month's climatology at a place (with a day's pinned values over it): the fixture's answer,
    the same for every day it covers."""

    values: dict[str, float]
    pinned: bool
    provenance: Provenance

    def on(self, day: date) -> WeatherDay:
        return WeatherDay(date=day, typical=not self.pinned, **self.values, provenance=self.provenance)


class KeyedForecast(Protocol):
    """A forecast service that needs the user's key (OpenWeatherMap One Call 3.0)."""

    def available(self) -> bool: ...

    async def forecast(self, request: WeatherRangeRequest) -> WeatherSeries: ...


class FixtureWeather:
    """Monthly climatology of the nearest fixture city; ``overrides`` replace given dates."""

    name = "weather"

    def __init__(self, catalog: Catalog, overrides: dict[date, dict] | None = None) -> None:
        self._catalog = catalog
        self.overrides = overrides or {}

    def request(self, geo: Geo, day: date) -> ClimateRequest:
        return ClimateRequest(lat=geo.lat, lon=geo.lon, month=day.month, pinned=self.overrides.get(day, {}))

    def climate(self, request: ClimateRequest) -> Climate:
        slug = self.nearest_city(Geo(lat=request.lat, lon=request.lon))[0]
        month = self._catalog.raw.weather.cities[slug][str(request.month)]
        values = month.model_dump() | request.pinned
        payload = {"city": slug, "month": request.month, **values}
        # No source_url: these are our climatology rows, not an answer from a weather service.
        return Climate(values=values, pinned=bool(request.pinned),
                       provenance=stamp("weather", payload, ref_id=f"climatology:{slug}"))

    def day(self, request: WeatherRequest) -> WeatherDay:
        geo = Geo(lat=request.lat, lon=request.lon)
        return self.climate(self.request(geo, request.date)).on(request.date)

    def covers(self, geo: Geo) -> bool:
        return self.nearest_city(geo)[1] <= FIXTURE_RADIUS_M

    def nearest_city(self, geo: Geo) -> tuple[str, float]:
        climates = self._catalog.raw.weather.cities  # only cities with climatology rows (not OSM packs)
        best = min((c for c in self._catalog.raw.cities.values() if c.slug in climates),
                   key=lambda c: haversine_m(c.center, geo))
        return best.slug, haversine_m(best.center, geo)


def weather_api_disabled() -> bool:
    return os.environ.get("DISABLE_WEATHER_API", "").strip().lower() in ("1", "true", "yes", "on")


@dataclass
class WeatherAnswer:
    days: dict[date, WeatherDay]
    degraded: bool  # a forecast-horizon day came from a lower rung, or a real rung asked failed
    calls: int = 0
    hits: int = 0


class WeatherLadder:
    def __init__(self, fixture: FixtureWeather, real: WeatherTool | None, executor: ToolExecutor,
                 today: date, keyed: KeyedForecast | None = None) -> None:
        self.fixture = fixture
        self.real = real
        self.keyed = keyed  # OpenWeatherMap, asked first when the user stored a key
        self._ex = executor
        self._today = today

    async def for_place(self, geo: Geo, dates: list[date]) -> WeatherAnswer:
        answer = WeatherAnswer({}, False)
        if not dates:
            return answer
        pinned = [d for d in dates if d in self.fixture.overrides]
        near = [d for d in dates if d not in pinned and within_horizon(d, self._today)]
        far = [d for d in dates if d not in pinned and d not in near]
        self._fixture_days(answer, geo, pinned)
        if _usable(self.keyed):
            keyed = [d for d in near if owm_within_horizon(d, self._today)]
            await self._ask(answer, geo, keyed, "openweathermap", self.keyed.forecast)
        if _usable(self.real):
            await self._ask(answer, geo, [d for d in near if d not in answer.days], "weather", self.real.forecast)
        answer.degraded = any(d not in answer.days for d in near)
        if self.fixture.covers(geo):
            self._fixture_days(answer, geo, [d for d in dates if d not in answer.days])
        elif _usable(self.real) and not await self._ask(answer, geo, far, "weather_archive", self.real.typical):
            answer.degraded = True  # the archive was asked and failed (offline: simply unknown)
        answer.days = dict(sorted(answer.days.items()))
        return answer

    def _fixture_days(self, answer: WeatherAnswer, geo: Geo, dates: list[date]) -> None:
        for day in dates:
            found = self._ex.call_sync("weather", self.fixture.climate, self.fixture.request(geo, day))
            answer.days[day] = found.on(day)
            answer.calls += 1
            answer.hits += found.provenance.cache_hit

    async def _ask(self, answer: WeatherAnswer, geo: Geo, dates: list[date], tool: str, fn) -> bool:
        """One call to a real service for ``dates``; False when it was asked and failed."""
        if not dates:
            return True
        request = WeatherRangeRequest(lat=round(geo.lat, 4), lon=round(geo.lon, 4), start=min(dates),
                                      end=max(dates))
        answer.calls += 1
        try:
            series, hit = await self._ex.call(tool, fn, request, result_type=WeatherSeries)
        except ToolError:
            return False  # the executor counted and logged it; the next rung answers
        answer.hits += hit
        wanted = set(dates)
        answer.days |= {d.date: d for d in series.days if d.date in wanted}
        return True


def _usable(rung) -> bool:
    return rung is not None and not weather_api_disabled() and rung.available()


def weather_credit(provenance: Provenance) -> str:
    """The attribution a real weather answer carries wherever it is shown."""
    return CREDITS.get(provenance.ref_id or "", "")
