"""A leg estimated from distance when no router or booking gives it: per mode, the way on the ground
(a detour factor over the straight line), an average speed including stops, the time at each end that a
traveller spends getting in and out (stations, airports), and a fare per kilometre. The figures are
coarse on purpose and every leg made here says ``source="estimated"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from engine.geo import distance_km
from engine.models import BookedLeg, Geo, PlannedLeg
from engine.models.multi_city import AskedMode, LegMode


@dataclass(frozen=True)
class ModeFigures:
    detour: float  # way on the ground ÷ straight line
    kmh: float  # average speed including stops
    overhead_h: float  # getting to, waiting at and out of the station or airport (both ends)
    fixed_usd: float  # per traveller (per car for drives)
    usd_per_km: float
    min_km: float  # shorter than this, nobody takes it
    max_km: float  # longer than this, nobody takes it (without a router saying otherwise)


# Coarse European/Japanese inter-city averages (long-distance rail ~100–200 km/h with stops, coaches on
# motorways ~70 km/h, driving ~80 km/h, jets ~750 km/h block speed plus taxi and climb).
FIGURES: dict[LegMode, ModeFigures] = {
    "train": ModeFigures(1.2, 110.0, 0.75, 5.0, 0.12, 0.0, 1000.0),
    "bus": ModeFigures(1.25, 70.0, 0.5, 3.0, 0.06, 0.0, 700.0),
    "drive": ModeFigures(1.3, 80.0, 0.0, 0.0, 0.25, 0.0, 900.0),
    "flight": ModeFigures(1.0, 750.0, 3.0, 60.0, 0.10, 250.0, 20000.0),
    "ferry": ModeFigures(1.1, 30.0, 1.0, 20.0, 0.15, 0.0, 600.0),
}
FLIGHT_TAXI_CLIMB_H = 0.6
BEST_CANDIDATES: tuple[LegMode, ...] = ("train", "flight", "bus", "drive")


@dataclass(frozen=True)
class LegQuery:
    index: int
    from_city: str
    to_city: str
    from_geo: Geo
    to_geo: Geo
    to_tz: str
    earliest: datetime  # aware: the earliest departure the day allows (after check-out and the transfer)
    asked: AskedMode = "best"
    travellers: int = 1
    booked: BookedLeg | None = None


def _straight_km(q: LegQuery) -> float:
    return distance_km(q.from_geo.lat, q.from_geo.lon, q.to_geo.lat, q.to_geo.lon)


def _next_half_hour(t: datetime) -> datetime:
    t = t.replace(second=0, microsecond=0)
    extra = (30 - t.minute % 30) % 30
    return t + timedelta(minutes=extra)


def _ride_hours(mode: LegMode, km: float) -> float:
    hours = km / FIGURES[mode].kmh
    return hours + FLIGHT_TAXI_CLIMB_H if mode == "flight" else hours


def door_to_door_hours(mode: LegMode, straight_km: float) -> float:
    f = FIGURES[mode]
    return _ride_hours(mode, straight_km * f.detour) + f.overhead_h


def _fare_cents(mode: LegMode, km: float, travellers: int) -> int:
    f = FIGURES[mode]
    payers = 1 if mode == "drive" else travellers
    return round((f.fixed_usd + f.usd_per_km * km) * 100) * payers


def _from_booking(q: LegQuery, b: BookedLeg, straight: float) -> PlannedLeg:
    return PlannedLeg(index=q.index, from_city=q.from_city, to_city=q.to_city, mode=b.mode,
                      from_name=b.from_name, to_name=b.to_name, from_geo=q.from_geo, to_geo=q.to_geo,
                      departure=b.departure, arrival=b.arrival, distance_km=round(straight, 1),
                      fare_usd_cents=b.price_usd_cents or 0, source="booked", operator=b.operator,
                      number=b.number, confirmation=b.confirmation, why="booked")


def _estimated(q: LegQuery, mode: LegMode, straight: float, why: str) -> PlannedLeg:
    f = FIGURES[mode]
    km = straight * f.detour
    depart = _next_half_hour(q.earliest)
    arrive = (depart + timedelta(hours=_ride_hours(mode, km))).astimezone(ZoneInfo(q.to_tz))
    return PlannedLeg(index=q.index, from_city=q.from_city, to_city=q.to_city, mode=mode,
                      from_name=q.from_city, to_name=q.to_city, from_geo=q.from_geo, to_geo=q.to_geo,
                      departure=depart, arrival=arrive.replace(second=0, microsecond=0),
                      distance_km=round(km, 1), fare_usd_cents=_fare_cents(mode, km, q.travellers),
                      source="estimated", why=why)


def _hm(hours: float) -> str:
    m = round(hours * 60)
    return f"{m // 60} h {m % 60:02d}"


def best_mode(straight_km: float) -> tuple[LegMode, str]:
    """The mode a traveller would pick on distance alone, and why in their words."""
    usable = [m for m in BEST_CANDIDATES if FIGURES[m].min_km <= straight_km <= FIGURES[m].max_km]
    ranked = sorted(usable, key=lambda m: (round(door_to_door_hours(m, straight_km), 1), FIGURES[m].usd_per_km))
    pick = ranked[0]
    if len(ranked) == 1:
        return pick, f"{pick} is the only way over {straight_km:.0f} km"
    other = ranked[1]
    return pick, (f"{_hm(door_to_door_hours(pick, straight_km))} door to door by {pick} beats "
                  f"{_hm(door_to_door_hours(other, straight_km))} by {other}")


def plan_leg(q: LegQuery) -> PlannedLeg:
    straight = _straight_km(q)
    if q.booked is not None:
        return _from_booking(q, q.booked, straight)
    if q.asked != "best":
        return _estimated(q, q.asked, straight, f"{q.asked} as asked")
    mode, why = best_mode(straight)
    return _estimated(q, mode, straight, why)
