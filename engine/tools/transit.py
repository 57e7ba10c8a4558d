"""In-city transit: haversine distance and mode speeds (seed §4.1 Transit), fares from fixtures."""

from __future__ import annotations

from datetime import date, time
from typing import Protocol

from engine.catalog.catalog import Catalog, City
from engine.geo import haversine_m
from engine.models import Geo, TransitLeg, TransitMode

from .cache_variant import rates_variant
from .provenance import stamp, usd_cents
from .requests import AirportTransferRequest, TransitRequest

SPEED_KMH = {TransitMode.walk: 5.0, TransitMode.metro: 30.0, TransitMode.bus: 20.0, TransitMode.taxi: 25.0}
ROUTE_FACTOR = {TransitMode.walk: 1.2, TransitMode.metro: 1.25, TransitMode.bus: 1.35, TransitMode.taxi: 1.3}
ACCESS_MINUTES = {TransitMode.walk: 0, TransitMode.metro: 8, TransitMode.bus: 8, TransitMode.taxi: 4}
WALK_MAX_M = 1_200
AIRPORT_RAIL_KMH = 45.0
AIRPORT_ACCESS_MINUTES = 20


class TransitTool(Protocol):
    def leg(self, request: TransitRequest) -> TransitLeg: ...

    def airport_leg(self, city: str, airport: str, hotel: Geo, day: date) -> TransitLeg: ...

    def airport_leg_of(self, request: AirportTransferRequest) -> TransitLeg: ...


def leg_minutes(mode: TransitMode, distance_m: float) -> int:
    road_km = distance_m * ROUTE_FACTOR[mode] / 1000
    return int(round(road_km / SPEED_KMH[mode] * 60)) + ACCESS_MINUTES[mode]


def pick_mode(distance_m: float, prefs: list[TransitMode]) -> TransitMode:
    if distance_m <= WALK_MAX_M and TransitMode.walk in prefs:
        return TransitMode.walk
    for mode in (TransitMode.metro, TransitMode.bus, TransitMode.taxi):
        if mode in prefs:
            return mode
    return TransitMode.taxi


def clock_of(minutes: int) -> time:
    minutes %= 24 * 60
    return time(minutes // 60, minutes % 60)


class FixtureTransit:
    """Computed legs (seed §4.1: "cache by rounded coords", TTL ∞). Callers go through the
    executor (``engine.planning.inputs.build_facts``): its cache, breaker, stats and
    ``SIMULATE_TOOL_TIMEOUT`` as every tool's; the key is the canonical request."""

    name = "transit"
    # The computation's memo, shared by every instance in the process (a leg depends only on its
    # key): a new session's executor starts with an empty cache, and ~700 legs a plan are worth
    # not recomputing. Calls still go through the executor — counted, timed, breakable, simulated.
    _memo: dict[tuple, TransitLeg] = {}
    MEMO_LIMIT = 100_000

    def __init__(self, catalog: Catalog, rates_to_usd: dict[str, float]) -> None:
        self._catalog = catalog
        self._rates = rates_to_usd
        self.cache_variant = rates_variant(rates_to_usd)  # prices are converted with these rates
        self._cities: dict[str, City] = {}

    def leg(self, request: TransitRequest) -> TransitLeg:
        city = self._city(request.city)
        key = (city.slug, request.from_geo.lat, request.from_geo.lon, request.to_geo.lat, request.to_geo.lon,
               request.day.weekday(), tuple(request.mode_prefs), self._rates.get(city.currency, 1.0))
        leg = self._memo.get(key)
        if leg is None:
            if len(self._memo) >= self.MEMO_LIMIT:
                self._memo.clear()
            leg = self._memo[key] = self._compute(city, request)
        return leg

    def airport_leg_of(self, request: AirportTransferRequest) -> TransitLeg:
        """``airport_leg`` as a one-argument call (the executor's shape)."""
        return self.airport_leg(request.city, request.airport, request.hotel, request.day)

    def _city(self, name: str) -> City:
        city = self._cities.get(name)
        if city is None:
            city = self._cities[name] = self._catalog.city(name)
        return city

    def _compute(self, city: City, request: TransitRequest) -> TransitLeg:
        distance = haversine_m(request.from_geo, request.to_geo)
        mode = pick_mode(distance, list(request.mode_prefs))
        fare = self._fare(city, mode, distance)
        last = clock_of(city.last_metro_minutes(request.day)) if mode is TransitMode.metro else None
        payload = f"{mode.value}|{int(distance)}|{fare}"
        return TransitLeg.model_construct(mode=mode, from_geo=request.from_geo, to_geo=request.to_geo,
                          distance_m=int(distance), duration_seconds=leg_minutes(mode, distance) * 60,
                          cost_usd_cents=usd_cents(fare, self._rates.get(city.currency, 1.0)),
                          last_departure=last,
                          provenance=stamp("transit", payload, data_source=_fares_source(city),
                                           source_url=city.raw.transit.source_url or None))

    def _fare(self, city: City, mode: TransitMode, distance_m: float) -> float:
        t = city.raw.transit
        if mode is TransitMode.metro:
            return t.metro_fare
        if mode is TransitMode.bus:
            return t.bus_fare
        if mode is TransitMode.taxi:
            return round(t.taxi_base + t.taxi_per_km * distance_m * ROUTE_FACTOR[mode] / 1000, 2)
        return 0.0

    def airport_leg(self, city_name: str, airport: str, hotel: Geo, day: date) -> TransitLeg:
        city = self._catalog.city(city_name)
        ap = self._catalog.airport(airport)
        distance = haversine_m(ap.geo, hotel)
        minutes = int(round(distance * 1.25 / 1000 / AIRPORT_RAIL_KMH * 60)) + AIRPORT_ACCESS_MINUTES
        fare = city.raw.transit.airport_transfer.get(airport, city.raw.transit.metro_fare * 4)
        payload = {"airport": airport, "distance_m": int(distance), "fare": fare}
        return TransitLeg(mode=TransitMode.metro, from_geo=ap.geo, to_geo=hotel, distance_m=int(distance),
                          duration_seconds=minutes * 60,
                          cost_usd_cents=usd_cents(fare, self._rates.get(city.currency, 1.0)),
                          provenance=stamp("transit", payload, data_source=_fares_source(city), ref_id=airport,
                                           source_url=city.raw.transit.source_url or None))


def _fares_source(city: City) -> str:
    """A computed leg; its fare is estimated where the city has no published fare table."""
    return "estimated" if city.raw.transit.estimated else "computed"


def omitted_leg(from_geo: Geo, to_geo: Geo) -> TransitLeg:
    """The transit ladder's last rung (seed §12.1, "omit transit notes"): the tool failed, so the
    planner keeps a cautious time (a taxi's, or a walk's when close) to schedule with, no fare and no
    last train; its provenance is ``omitted``, so the synthesizer states nothing about it."""
    distance = haversine_m(from_geo, to_geo)
    mode = TransitMode.walk if distance <= WALK_MAX_M else TransitMode.taxi
    return TransitLeg.model_construct(mode=mode, from_geo=from_geo, to_geo=to_geo, distance_m=int(distance),
                                      duration_seconds=leg_minutes(mode, distance) * 60, cost_usd_cents=0,
                                      last_departure=None,
                                      provenance=stamp("transit", f"omitted|{int(distance)}", data_source="omitted"))
