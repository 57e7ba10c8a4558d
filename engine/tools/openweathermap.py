"""OpenWeatherMap One Call API 3.0 (the seed's weather service), used when the user stored a key:
the daily forecast for today and the next 7 days. Outside that horizon, without a key, or when it
fails, the ladder asks Open-Meteo, then the fixtures (``weather.py``).

Key: ``OPENWEATHERMAP_API_KEY`` in the environment, else the keyring entry ``openweathermap``
(``engine.settings.OPENWEATHERMAP_KEY_NAME``). It goes only into the request's ``appid`` parameter —
never into the cache key (``cache_variant`` names the service, not the key), an answer or an error
message; log lines carrying URLs are redacted (``appid=***``).

Documented JSON (https://openweathermap.org/api/one-call-3): ``timezone_offset`` (seconds) and
``daily[]`` with ``dt`` (unix, about local noon), ``temp.min``/``temp.max`` (°C with
``units=metric``), ``wind_speed`` (m/s) and ``pop`` (0–1). Errors: ``{"cod": 401, "message": ...}``.
"""

from __future__ import annotations

import os
from datetime import date, datetime, timedelta, timezone

from pydantic import BaseModel, Field, model_validator

from engine.errors import ToolResponseError
from engine.models import WeatherDay

from engine.models.physical import Celsius, Latitude, Longitude, Probability, WindMs
from engine.net.network import NetworkState, validated

from .provenance import stamp
from .requests import WeatherRangeRequest
from .weather_series import WeatherSeries

TOOL = "openweathermap"
DEFAULT_BASE = "https://api.openweathermap.org"
ATTRIBUTION_URL = "https://openweathermap.org/"
HORIZON_DAYS = 8  # today and the next 7 days
KEY_ENV = "OPENWEATHERMAP_API_KEY"
BASE_ENV = "TRIPWRIGHT_OPENWEATHERMAP_URL"
EXCLUDE = "current,minutely,hourly,alerts"


class _Temp(BaseModel):
    min: Celsius
    max: Celsius

    @model_validator(mode="after")
    def _ordered(self) -> "_Temp":
        if self.min > self.max:
            raise ValueError("the day's minimum is above its maximum")
        return self


class _Day(BaseModel):
    """Every value inside its physical range (``engine/models/physical.py``)."""

    dt: int = Field(ge=0, le=32503680000)  # up to the year 3000
    temp: _Temp
    wind_speed: WindMs
    pop: Probability


class _Answer(BaseModel):
    lat: Latitude
    lon: Longitude
    timezone_offset: int = Field(default=0, ge=-86400, le=86400)
    daily: list[_Day]


def base_url() -> str:
    return os.environ.get(BASE_ENV, "").rstrip("/") or DEFAULT_BASE


def within_horizon(day: date, today: date) -> bool:
    return today <= day < today + timedelta(days=HORIZON_DAYS)


def stored_key() -> str | None:
    """The environment's key, else the keyring's (None when neither holds one)."""
    key = os.environ.get(KEY_ENV, "").strip()
    if key:
        return key
    from engine.settings import OPENWEATHERMAP_KEY_NAME
    from engine.store.secret_store import SecretStore
    return (SecretStore().get(OPENWEATHERMAP_KEY_NAME) or "").strip() or None


class OpenWeatherMapWeather:
    """``forecast`` is a coroutine the executor times, retries, breaks and caches (tool
    ``openweathermap``: its own breaker, so its failures never close the Open-Meteo rung)."""

    name = TOOL

    def __init__(self, network: NetworkState, key_source=stored_key) -> None:
        self._net = network
        self._key_source = key_source

    @property
    def cache_variant(self) -> str:
        return f"openweathermap@{base_url()}"  # the service, never the key

    def available(self) -> bool:
        """A key is stored and the network may be tried."""
        return not self._net.offline() and bool(self._key_source())

    async def forecast(self, request: WeatherRangeRequest) -> WeatherSeries:
        key = self._key_source()
        if not key:
            raise ToolResponseError(TOOL, "no API key stored")
        params = {"lat": f"{request.lat:.4f}", "lon": f"{request.lon:.4f}", "exclude": EXCLUDE,
                  "units": "metric", "appid": key}
        body = await self._net.get_json(TOOL, f"{base_url()}/data/3.0/onecall", params)
        answer = validated(TOOL, _Answer, body)
        offset = timedelta(seconds=answer.timezone_offset)
        days = []
        for row in answer.daily:
            day = (datetime.fromtimestamp(row.dt, timezone.utc) + offset).date()
            if request.start <= day <= request.end:
                days.append(_weather_day(day, row, request))
        return WeatherSeries(days=days)


def _weather_day(day: date, row: _Day, request: WeatherRangeRequest) -> WeatherDay:
    wind_kmh = round(row.wind_speed * 3.6, 1)
    values = [row.pop, wind_kmh, row.temp.max, row.temp.min]
    return WeatherDay(date=day, precip_prob=row.pop, wind_kmh=wind_kmh, temp_c_high=row.temp.max,
                      temp_c_low=row.temp.min, typical=False,
                      provenance=stamp("weather", {"day": day.isoformat(), "values": values,
                                                   "lat": request.lat, "lon": request.lon},
                                       data_source="real", ref_id=TOOL, source_url=ATTRIBUTION_URL))
