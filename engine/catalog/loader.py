"""Reads and validates the embedded fixture files, once per process."""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from engine.errors import FixtureError

from .schema import CityBase, RawAirport, RawCity, RawFlights, RawFX, RawWeather

M = TypeVar("M", bound=BaseModel)


def fixtures_dir() -> Path:
    """``TRIPWRIGHT_FIXTURES`` or the repository's ``fixtures/`` folder."""
    override = os.environ.get("TRIPWRIGHT_FIXTURES")
    return Path(override) if override else Path(__file__).resolve().parents[2] / "fixtures"


def read_model(path: Path, model: type[M]) -> M:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return model.model_validate(data)
    except FileNotFoundError as exc:
        raise FixtureError(f"missing fixture file {path}") from exc
    except (json.JSONDecodeError, ValidationError) as exc:
        raise FixtureError(f"invalid fixture file {path}: {exc}") from exc


class RawFixtures(BaseModel):
    cities: dict[str, CityBase]  # a fixture's RawCity; a pack's PackCity joins through Catalog.extended
    airports: dict[str, RawAirport]
    flights: RawFlights
    weather: RawWeather
    fx: RawFX


def _check_links(raw: RawFixtures) -> None:
    for city in raw.cities.values():
        for code in city.airports:
            if code not in raw.airports:
                raise FixtureError(f"{city.slug}: airport {code} missing from airports.json")
        if city.slug not in raw.weather.cities:
            raise FixtureError(f"{city.slug}: no weather climatology")
        if city.currency != "USD" and city.currency not in raw.fx.weekly:
            raise FixtureError(f"{city.slug}: no FX rates for {city.currency}")
    for f in raw.flights.flights:
        for code in (f.origin, f.dest):
            if code not in raw.airports:
                raise FixtureError(f"flight {f.flight_number}: airport {code} missing from airports.json")


@lru_cache(maxsize=4)
def load_raw(root: Path | None = None) -> RawFixtures:
    root = root or fixtures_dir()
    cities = {}
    for path in sorted((root / "cities").glob("*.json")):
        city = read_model(path, RawCity)
        cities[city.slug] = city
    airports_doc = json.loads((root / "airports.json").read_text(encoding="utf-8"))
    airports = {}
    for row in airports_doc["airports"]:
        try:
            a = RawAirport.model_validate(row)
        except ValidationError as exc:
            raise FixtureError(f"invalid airport {row!r}: {exc}") from exc
        airports[a.iata] = a
    raw = RawFixtures(
        cities=cities, airports=airports,
        flights=read_model(root / "flights.json", RawFlights),
        weather=read_model(root / "weather.json", RawWeather),
        fx=read_model(root / "fx.json", RawFX),
    )
    _check_links(raw)
    return raw
