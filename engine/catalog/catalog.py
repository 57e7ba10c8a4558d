"""The fixture catalog as engine values: cities, venues, hotels, restaurants, airports."""

from __future__ import annotations

from datetime import date, time
from functools import cached_property, lru_cache

from engine.errors import InputError, UnknownCityError
from engine.models import Geo, TimeWindow
from engine.models.tool_results import WEEKDAYS

from .airports import airport_info, to_raw_airport
from .loader import RawFixtures, load_raw
from .city_places import CityPlace, places_of
from .schema import CityBase


def parse_window(text: str) -> TimeWindow:
    start, end = text.split("-")
    return TimeWindow(start=_clock(start), end=_clock(end))


def _clock(text: str) -> time:
    hh, mm = (int(p) for p in text.split(":"))
    return time(23, 59) if hh >= 24 else time(hh, mm)


def minutes_past_midnight(text: str) -> int:
    """'25:30' → 1530 (after midnight service counts past 24:00)."""
    hh, mm = (int(p) for p in text.split(":"))
    return hh * 60 + mm


class City:
    """One city of the catalog (a fixture's or an OpenStreetMap pack's): what it says of itself in
    ``raw``, its places as the planner reads them (``sights``, ``eateries``, ``beds``: ``CityPlace``,
    read once, on first use) with id indexes."""

    def __init__(self, raw: CityBase) -> None:
        self.raw = raw
        self._last_metro = tuple(minutes_past_midnight(raw.transit.metro_last_departure[d]) for d in WEEKDAYS)

    @cached_property
    def _places(self) -> tuple[list[CityPlace], list[CityPlace], list[CityPlace]]:
        return places_of(self.raw)

    @property
    def sights(self) -> list[CityPlace]:
        return self._places[0]

    @property
    def eateries(self) -> list[CityPlace]:
        return self._places[1]

    @property
    def beds(self) -> list[CityPlace]:
        return self._places[2]

    @cached_property
    def _by_id(self) -> tuple[dict[str, CityPlace], dict[str, CityPlace], dict[str, CityPlace]]:
        return tuple({p.id: p for p in rows} for rows in self._places)  # type: ignore[return-value]

    @property
    def name(self) -> str:
        return self.raw.city

    @property
    def slug(self) -> str:
        return self.raw.slug

    @property
    def tz(self) -> str:
        return self.raw.tz

    @property
    def currency(self) -> str:
        return self.raw.currency

    @property
    def center(self) -> Geo:
        return self.raw.center

    @property
    def airports(self) -> list[str]:
        return list(self.raw.airports)

    def venue(self, venue_id: str) -> CityPlace | None:
        return self._by_id[0].get(venue_id)

    def hotel(self, hotel_id: str) -> CityPlace | None:
        return self._by_id[2].get(hotel_id)

    def restaurant(self, rid: str) -> CityPlace | None:
        return self._by_id[1].get(rid)

    def last_metro_minutes(self, day: date) -> int:
        """Last metro departure as minutes after the day's midnight (may exceed 24:00)."""
        return self._last_metro[day.weekday()]


class Catalog:
    """Read-only access to the embedded fixtures, loaded and validated once."""

    def __init__(self, raw: RawFixtures, known: dict[str, City] | None = None) -> None:
        self.raw = raw
        known = known or {}
        self._cities = {slug: known[slug] if slug in known and known[slug].raw is c else City(c)
                        for slug, c in raw.cities.items()}
        self._by_alias = {}
        for city in self._cities.values():
            for alias in [city.name, city.slug, *city.raw.aliases]:
                self._by_alias[_norm(alias)] = city

    def city_names(self) -> list[str]:
        return sorted(c.name for c in self._cities.values())

    def city_aliases(self) -> dict[str, list[str]]:
        return {c.name: [c.name.lower(), c.slug.replace("_", " "), *c.raw.aliases]
                for c in self._cities.values()}

    def city(self, name: str) -> City:
        city = self._by_alias.get(_norm(name))
        if city is None:
            raise UnknownCityError(name, self.city_names())
        return city

    def airport(self, code: str):
        airport = self.known_airport(code)
        if airport is None:
            raise InputError("airport", f"unknown airport {code!r}")
        return airport

    def known_airport(self, code: str):
        """A fixture or pack airport, else any airport with scheduled service (OurAirports)."""
        found = self.raw.airports.get(code.upper())
        if found is None and len(code) == 3 and code.isalpha():
            info = airport_info(code)
            found = to_raw_airport(info) if info is not None else None
        return found

    def extended(self, cities: list, airports: dict) -> "Catalog":
        """This catalog plus cities built elsewhere (OSM packs) and their airports; the fixtures'
        own links were checked at load, a pack city's at its build."""
        raw = self.raw.model_copy(update={"cities": {**self.raw.cities, **{c.slug: c for c in cities}},
                                          "airports": {**airports, **self.raw.airports}})
        return Catalog(raw, self._cities)  # the cities it has keep their places, read once

    def has_city(self, name: str) -> bool:
        return _norm(name) in self._by_alias

    def airport_names(self) -> dict[str, str]:
        return {code: f"{a.city} {a.name}" for code, a in self.raw.airports.items()}


def _norm(text: str) -> str:
    return " ".join(text.lower().replace(",", " ").split())


@lru_cache(maxsize=1)
def default_catalog() -> Catalog:
    return Catalog(load_raw())
