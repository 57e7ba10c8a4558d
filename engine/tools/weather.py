"""Weather: the degradation ladder of seed §12 over the real Open-Meteo adapter and the climatology
fixtures.

    inside the 16-day horizon:  forecast (real) → cache → fixture climatology → omitted
    beyond it ("typical"):      fixture climatology for fixture cities → Open-Meteo archive → omitted

Every day records the rung that served it in ``provenance.data_source`` (real / cache / fixture;
an omitted day is absent and the verifier treats it as unknown). A forecast day served by a lower
rung makes the run "degraded" (the banner). ``DISABLE_WEATHER_API=1`` skips the real rung.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Protocol

from engine.catalog.catalog import Catalog
from engine.errors import ToolError
from engine.geo import haversine_m
from engine.models import Geo, WeatherDay

from .executor import ToolExecutor
from .open_meteo import OpenMeteoWeather, within_horizon
from .provenance import stamp
from .requests import WeatherRangeRequest, WeatherRequest
from .weather_series import WeatherSeries

FIXTURE_RADIUS_M = 60_000  # a place this close to a fixture city shares its climatology


class WeatherTool(Protocol):
    def available(self) -> bool: ...

    async def forecast(self, request: WeatherRangeRequest) -> WeatherSeries: ...

    async def typical(self, request: WeatherRangeRequest) -> WeatherSeries: ...


class FixtureWeather:
    """Monthly climatology of the nearest fixture city; ``overrides`` replace given dates."""

    name = "weather"

    def __init__(self, catalog: Catalog, overrides: dict[date, dict] | None = None) -> None:
        self._catalog = catalog
        self.overrides = overrides or {}

    def day(self, request: WeatherRequest) -> WeatherDay:
        slug = self.nearest_city(Geo(lat=request.lat, lon=request.lon))[0]
        month = self._catalog.raw.weather.cities[slug][str(request.date.month)]
        values = month.model_dump() | self.overrides.get(request.date, {})
        payload = {"city": slug, "date": request.date.isoformat(), **values}
        override = request.date in self.overrides
        # No source_url: these are our climatology rows, not an answer from a weather service.
        return WeatherDay(date=request.date, typical=not override, **values,
                          provenance=stamp("weather", payload, ref_id=f"climatology:{slug}"))

    def covers(self, geo: Geo) -> bool:
        return self.nearest_city(geo)[1] <= FIXTURE_RADIUS_M

    def nearest_city(self, geo: Geo) -> tuple[str, float]:
        best = min(self._catalog.raw.cities.values(), key=lambda c: haversine_m(c.center, geo))
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
                 today: date) -> None:
        self.fixture = fixture
        self.real = real
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
        await self._real(answer, geo, near, typical=False)
        answer.degraded = any(d not in answer.days for d in near)
        if self.fixture.covers(geo):
            self._fixture_days(answer, geo, [d for d in dates if d not in answer.days])
        elif not await self._real(answer, geo, far, typical=True):
            answer.degraded = True  # the archive was asked and failed (offline: simply unknown)
        answer.days = dict(sorted(answer.days.items()))
        return answer

    def _fixture_days(self, answer: WeatherAnswer, geo: Geo, dates: list[date]) -> None:
        for day in dates:
            found = self._ex.call_sync("weather", self.fixture.day,
                                       WeatherRequest(lat=geo.lat, lon=geo.lon, date=day))
            answer.days[day] = found
            answer.calls += 1
            answer.hits += found.provenance.cache_hit

    async def _real(self, answer: WeatherAnswer, geo: Geo, dates: list[date], *, typical: bool) -> bool:
        """False when the real rung was asked and failed."""
        if not dates or self.real is None or weather_api_disabled() or not self.real.available():
            return True
        request = WeatherRangeRequest(lat=round(geo.lat, 4), lon=round(geo.lon, 4), start=min(dates),
                                      end=max(dates))
        tool, fn = ("weather_archive", self.real.typical) if typical else ("weather", self.real.forecast)
        answer.calls += 1
        try:
            series, hit = await self._ex.call(tool, fn, request, result_type=WeatherSeries)
        except ToolError:
            return False  # the executor counted and logged it; the next rung answers
        answer.hits += hit
        wanted = set(dates)
        answer.days |= {d.date: d for d in series.days if d.date in wanted}
        return True


def trip_days(start: date, count: int) -> list[date]:
    return [start + timedelta(days=i) for i in range(count)]
