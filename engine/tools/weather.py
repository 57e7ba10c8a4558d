"""Weather: climatology fixtures labelled "typical weather" (the real Open-Meteo adapter comes later)."""

from __future__ import annotations

from datetime import date
from typing import Protocol

from engine.catalog.catalog import Catalog
from engine.geo import haversine_m
from engine.models import Geo, WeatherDay

from .provenance import stamp
from .requests import WeatherRequest


class WeatherTool(Protocol):
    def day(self, request: WeatherRequest) -> WeatherDay: ...


class FixtureWeather:
    """Monthly climatology of the nearest fixture city; ``overrides`` replace given dates."""

    name = "weather"

    def __init__(self, catalog: Catalog, overrides: dict[date, dict] | None = None) -> None:
        self._catalog = catalog
        self._overrides = overrides or {}

    def day(self, request: WeatherRequest) -> WeatherDay:
        slug = self._nearest_city(Geo(lat=request.lat, lon=request.lon))
        month = self._catalog.raw.weather.cities[slug][str(request.date.month)]
        values = month.model_dump() | self._overrides.get(request.date, {})
        payload = {"city": slug, "date": request.date.isoformat(), **values}
        override = request.date in self._overrides
        return WeatherDay(date=request.date, typical=not override, **values,
                          provenance=stamp("weather", payload, ref_id=slug,
                                           source_url=self._catalog.raw.weather.source_url))

    def _nearest_city(self, geo: Geo) -> str:
        cities = self._catalog.raw.cities.values()
        return min(cities, key=lambda c: haversine_m(c.center, geo)).slug
