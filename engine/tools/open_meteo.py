"""Open-Meteo (no key; CC BY 4.0): the daily forecast inside its 16-day horizon, and the historical
archive for "typical weather" (the same calendar days over recent years) beyond it.

Documented JSON (https://open-meteo.com/en/docs): ``daily.time`` and one list per requested variable;
errors are ``{"error": true, "reason": "..."}``. We use httpx + pydantic on that JSON: the official
client (openmeteo-requests) speaks FlatBuffers over its own session and would bypass our executor.
"""

from __future__ import annotations

import os
from collections import defaultdict
from datetime import date, timedelta
from statistics import mean

from pydantic import BaseModel

from engine.errors import ToolResponseError
from engine.models import WeatherDay
from engine.models.physical import Celsius, Latitude, Longitude, Percent, PrecipMm, WindKmh
from engine.net.network import NetworkState, validated

from .provenance import stamp
from .requests import WeatherRangeRequest
from .weather_series import WeatherSeries

DEFAULT_FORECAST_BASE = "https://api.open-meteo.com"
DEFAULT_ARCHIVE_BASE = "https://archive-api.open-meteo.com"
ATTRIBUTION = "Weather data by Open-Meteo.com (CC BY 4.0)"
ATTRIBUTION_URL = "https://open-meteo.com/"
HORIZON_DAYS = 16
ARCHIVE_YEARS = 3
FORECAST_VARS = ("precipitation_probability_max", "wind_speed_10m_max", "temperature_2m_max",
                 "temperature_2m_min")
ARCHIVE_VARS = ("precipitation_sum", "wind_speed_10m_max", "temperature_2m_max", "temperature_2m_min")
WET_DAY_MM = 1.0  # a day with ≥1 mm counts as a rainy day (the WMO convention)


class _Daily(BaseModel):
    """Every value inside its physical range (``engine/models/physical.py``): NaN, 1e308 or −400 °C
    is the service's fault, a ``ToolResponseError``, and the ladder's next rung answers."""

    time: list[date]
    precipitation_probability_max: list[Percent | None] | None = None
    precipitation_sum: list[PrecipMm | None] | None = None
    wind_speed_10m_max: list[WindKmh | None]
    temperature_2m_max: list[Celsius | None]
    temperature_2m_min: list[Celsius | None]


class _Answer(BaseModel):
    latitude: Latitude
    longitude: Longitude
    daily: _Daily


def forecast_base() -> str:
    return os.environ.get("TRIPWRIGHT_OPEN_METEO_URL", "").rstrip("/") or DEFAULT_FORECAST_BASE


def archive_base() -> str:
    """A configured base serves both endpoints (a mirror or a test server)."""
    return os.environ.get("TRIPWRIGHT_OPEN_METEO_URL", "").rstrip("/") or DEFAULT_ARCHIVE_BASE


def within_horizon(day: date, today: date) -> bool:
    return today <= day < today + timedelta(days=HORIZON_DAYS)


class OpenMeteoWeather:
    """``forecast`` and ``typical`` are coroutines: the executor times, retries and caches them."""

    name = "weather"

    def __init__(self, network: NetworkState) -> None:
        self._net = network

    @property
    def cache_variant(self) -> str:
        """Answers are the service's: another base URL (a mirror, a test server) is another cache."""
        return forecast_base()

    def available(self) -> bool:
        """False offline: the ladder then skips this rung without an attempt (or an error)."""
        return not self._net.offline()

    async def forecast(self, request: WeatherRangeRequest) -> WeatherSeries:
        params = _params(request, FORECAST_VARS) | {"start_date": request.start.isoformat(),
                                                     "end_date": request.end.isoformat()}
        body = await self._net.get_json("weather", f"{forecast_base()}/v1/forecast", params)
        daily = validated("weather", _Answer, body).daily
        days = []
        for i, day in enumerate(daily.time):
            values = _values(daily, i, daily.precipitation_probability_max, scale=0.01)
            if values is not None and request.start <= day <= request.end:
                days.append(_weather_day(day, values, request, typical=False))
        return WeatherSeries(days=days)

    async def typical(self, request: WeatherRangeRequest) -> WeatherSeries:
        """Each asked day: the mean of the same calendar day over the last ``ARCHIVE_YEARS`` years;
        precipitation probability = the share of those days that were wet."""
        samples: dict[tuple[int, int], list[tuple[float, float, float, float]]] = defaultdict(list)
        for back in range(1, ARCHIVE_YEARS + 1):
            start, end = _years_back(request.start, back), _years_back(request.end, back)
            params = _params(request, ARCHIVE_VARS) | {"start_date": start.isoformat(), "end_date": end.isoformat()}
            body = await self._net.get_json("weather", f"{archive_base()}/v1/archive", params)
            daily = validated("weather", _Answer, body).daily
            for i, day in enumerate(daily.time):
                values = _values(daily, i, daily.precipitation_sum, scale=None)
                if values is not None:
                    samples[(day.month, day.day)].append(values)
        days = []
        for offset in range((request.end - request.start).days + 1):
            day = request.start + timedelta(days=offset)
            rows = samples.get((day.month, day.day))
            if rows:
                values = (round(sum(r[0] >= WET_DAY_MM for r in rows) / len(rows), 2),
                          *(round(mean(r[k] for r in rows), 1) for k in (1, 2, 3)))
                days.append(_weather_day(day, values, request, typical=True))
        return WeatherSeries(days=days)


def _params(request: WeatherRangeRequest, variables: tuple[str, ...]) -> dict[str, str]:
    return {"latitude": f"{request.lat:.4f}", "longitude": f"{request.lon:.4f}", "daily": ",".join(variables),
            "timezone": "auto", "wind_speed_unit": "kmh"}


def _values(daily: _Daily, i: int, precip: list[float | None] | None, *, scale: float | None):
    """(precip, wind, high, low) for row ``i``, or None when any is missing (that day falls to the
    next rung of the ladder)."""
    try:
        row = (precip[i] if precip else None, daily.wind_speed_10m_max[i],
               daily.temperature_2m_max[i], daily.temperature_2m_min[i])
    except IndexError as exc:
        raise ToolResponseError("weather", "daily lists of different lengths") from exc
    if any(v is None for v in row):
        return None
    if row[3] > row[2]:
        raise ToolResponseError("weather", f"a day's low {row[3]:g} °C above its high {row[2]:g} °C")
    first = min(max(row[0] * scale, 0.0), 1.0) if scale else row[0]
    return (first, max(row[1], 0.0), row[2], row[3])


def _weather_day(day: date, values, request: WeatherRangeRequest, *, typical: bool) -> WeatherDay:
    precip, wind, high, low = values
    return WeatherDay(date=day, precip_prob=precip, wind_kmh=wind, temp_c_high=high, temp_c_low=low,
                      typical=typical,
                      provenance=stamp("weather", {"day": day.isoformat(), "values": list(values),
                                                   "lat": request.lat, "lon": request.lon},
                                       data_source="real", ref_id="open-meteo", source_url=ATTRIBUTION_URL))


def _years_back(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year - years)
    except ValueError:  # 29 February
        return day.replace(year=day.year - years, day=28)
