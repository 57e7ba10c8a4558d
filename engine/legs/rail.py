"""Trains between two cities without a timetable: each city's main station and the ride between them
from ``fixtures/legs/rail.json`` (issue 33 §2; sources in ``fixtures/legs/README.md``).

- The station: one the caller knows (the city's OpenStreetMap pack), else the table's main station
  for the city, else ``"<city> station"`` at the city's centre.
- The ride: a published running time where the table has the corridor (Lisboa–Porto 2 h 48 on the
  Alfa Pendular, Tokyo–Kyoto 2 h 15 on the Nozomi, Roma–Firenze 1 h 35 on the Frecciarossa); else
  rail kilometres (the straight line × the country's detour) at the country's average speed, its
  high-speed one when both stations are on its high-speed network. The country is the station's,
  or the nearest known station's within ``COUNTRY_RADIUS_KM``; unknown, a typical intercity average.
- Getting to and from the station: urban transit at ``URBAN_KMH`` over 1.3 × the straight line,
  plus ``ACCESS_MIN``; and ``BOARDING_MIN`` at the departure station.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.catalog import fixtures_dir
from engine.errors import FixtureError
from engine.geo import distance_km
from engine.models import Geo

COUNTRY_RADIUS_KM = 250.0
STATION_RADIUS_KM = 40.0  # a table's station farther than this from the city's centre is another city's
URBAN_KMH = 20.0
URBAN_DETOUR = 1.3
ACCESS_MIN = 10.0
BOARDING_MIN = 15.0


@dataclass(frozen=True)
class Station:
    name: str
    geo: Geo
    country: str = ""  # ISO 3166-1 alpha-2, "" unknown
    high_speed: bool = False
    known: bool = True  # False: "<city> station" at the city's centre, a guess


@dataclass(frozen=True)
class RailRide:
    from_station: Station
    to_station: Station
    km: float  # rail kilometres
    minutes: float  # on the train
    basis: str  # where the time comes from, in the traveller's words
    service: str = ""  # "Alfa Pendular"
    operator: str = ""


@dataclass(frozen=True)
class _Speeds:
    high_speed_kmh: float
    other_kmh: float
    detour: float


@lru_cache(maxsize=1)
def _table() -> dict[str, Any]:
    path = fixtures_dir() / "legs" / "rail.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise FixtureError(f"invalid or missing fixture file {path}: {exc}") from exc


def _key(city: str) -> str:
    return " ".join(city.split(",")[0].lower().split())


@lru_cache(maxsize=1)
def _stations() -> dict[str, Station]:
    out: dict[str, Station] = {}
    for key, row in _table()["stations"].items():
        station = Station(row["name"], Geo(lat=row["lat"], lon=row["lon"]), row["country"], row["high_speed"])
        for name in (key, *row.get("aliases", ())):
            out[_key(name)] = station
    return out


def known_station(city: str, centre: Geo | None = None) -> Station | None:
    """The table's main station of ``city`` (one within ``STATION_RADIUS_KM`` of ``centre`` if given)."""
    station = _stations().get(_key(city))
    if station is None or centre is None:
        return station
    near = distance_km(centre.lat, centre.lon, station.geo.lat, station.geo.lon) <= STATION_RADIUS_KM
    return station if near else None


def main_station(city: str, centre: Geo, hint: Station | None = None) -> Station:
    """The station a traveller leaves ``city`` from: ``hint`` (the caller's, e.g. from the city's
    OpenStreetMap pack), the table's, or ``"<city> station"`` at its centre."""
    table = known_station(city, centre)
    if hint is not None:
        if table is not None and not hint.country:
            return Station(hint.name, hint.geo, table.country, table.high_speed, hint.known)
        return hint
    if table is not None:
        return table
    return Station(f"{city.split(',')[0].strip()} station", centre, country_near(centre), False, known=False)


MAP_STATION_RADIUS_KM = 10.0
_MAIN_WORDS = re.compile(r"(?i)\b(hauptbahnhof|hbf|central|centraal|centrale|centrum|centralna|centralny|termini|"
                         r"main station|hlavní nádraží|glavni kolodvor|nádraží|gare|estació|estación|estação|"
                         r"stazione|station|bahnhof)\b")


def station_from_map(city: str, centre: Geo, stations: Iterable[tuple[str, Geo]]) -> Station | None:
    """The city's main station among the named stations of its OpenStreetMap pack (the map layer's
    ``railway=station`` nodes): the nearest to the centre within ``MAP_STATION_RADIUS_KM`` whose
    name says it is a main or railway station ("Hauptbahnhof", "Centraal", "Gare …") or is the
    city's own name; None when none does (the table's or ``"<city> station"`` then)."""
    own = _key(city)
    best: tuple[float, str, Geo] | None = None
    for name, geo in stations:
        km = distance_km(centre.lat, centre.lon, geo.lat, geo.lon)
        if km > MAP_STATION_RADIUS_KM or not (_MAIN_WORDS.search(name) or _key(name) == own):
            continue
        if best is None or km < best[0]:
            best = (km, name, geo)
    if best is None:
        return None
    return Station(best[1], best[2], country_near(centre), False, known=True)


def station_zone(name: str) -> str | None:
    """The time zone of a station named as a ticket prints it ("Lisboa Santa Apolónia", "Lisboa
    Oriente", "Roma Termini"): the table's station of that name, or of the city the name begins
    with; None when the table knows neither (the listed US stations are all on Eastern time)."""
    folded = " ".join(name.casefold().split())
    stations = _stations()
    country = next((s.country for s in stations.values() if s.name.casefold() == folded), "")
    if not country:
        country = next((s.country for key, s in sorted(stations.items(), key=lambda kv: -len(kv[0]))
                        if folded == key or folded.startswith(key + " ")), "")
    row = _table()["countries"].get(country)
    return row.get("tz") if row else None


def country_near(geo: Geo) -> str:
    """The country of the nearest station the table knows within ``COUNTRY_RADIUS_KM``, or ""."""
    best, best_km = "", COUNTRY_RADIUS_KM
    for station in set(_stations().values()):
        km = distance_km(geo.lat, geo.lon, station.geo.lat, station.geo.lon)
        if km < best_km:
            best, best_km = station.country, km
    return best


def _speeds(country: str) -> tuple[_Speeds, str]:
    row = _table()["countries"].get(country) or _table()["default_country"]
    return _Speeds(row["high_speed_kmh"], row["other_kmh"], row["detour"]), row["why"]


def _corridor(a: Station, b: Station) -> dict[str, Any] | None:
    """The published run between two of the table's stations, either way."""
    stations = _stations()
    for row in _table()["corridors"]:
        if {a, b} == {stations[row["from"]], stations[row["to"]]}:
            return row
    return None


def rail_ride(from_city: str, from_centre: Geo, to_city: str, to_centre: Geo, *,
              from_hint: Station | None = None, to_hint: Station | None = None) -> RailRide:
    start = main_station(from_city, from_centre, from_hint)
    end = main_station(to_city, to_centre, to_hint)
    straight = distance_km(start.geo.lat, start.geo.lon, end.geo.lat, end.geo.lon)
    country = start.country or end.country
    speeds, _ = _speeds(country)
    km = straight * speeds.detour
    table_a, table_b = known_station(from_city, from_centre), known_station(to_city, to_centre)
    corridor = _corridor(table_a, table_b) if table_a is not None and table_b is not None else None
    if corridor is not None:
        terminal = _terminal(corridor)
        if terminal is not None and to_hint is None and table_b == _stations()[corridor["to"]]:
            end = terminal  # the corridor's own terminal (Eurostar arrives at Gare du Nord, not Gare de Lyon)
        elif terminal is not None and from_hint is None and table_a == _stations()[corridor["to"]]:
            start = terminal
        return RailRide(start, end, round(km, 1), float(corridor["minutes"]),
                        f"{corridor['service']} in {_hm(corridor['minutes'])} as published", corridor["service"],
                        corridor["operator"])
    fast = start.high_speed and end.high_speed and start.country == end.country and start.country != ""
    kmh = speeds.high_speed_kmh if fast else speeds.other_kmh
    kind = "high-speed" if fast else "intercity"
    where = f"the {country} {kind} average of {kmh:.0f} km/h" if country else f"a typical {kmh:.0f} km/h"
    return RailRide(start, end, round(km, 1), km / kmh * 60, f"{km:.0f} rail km at {where}")


def _terminal(corridor: dict[str, Any]) -> Station | None:
    if not corridor.get("to_station"):
        return None
    return Station(corridor["to_station"], Geo(lat=corridor["to_lat"], lon=corridor["to_lon"]),
                   _stations()[corridor["to"]].country, True)


def transfer_minutes(centre: Geo, station: Station) -> float:
    """From a stay's centre to its station (or back) by city transit."""
    km = distance_km(centre.lat, centre.lon, station.geo.lat, station.geo.lon) * URBAN_DETOUR
    return ACCESS_MIN + km / URBAN_KMH * 60


def _hm(minutes: float) -> str:
    m = round(minutes)
    return f"{m // 60} h {m % 60:02d}"
