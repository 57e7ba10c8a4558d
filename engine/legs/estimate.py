"""A leg estimated when no router or booking gives it, and the mode a traveller would take.

Per mode, the time on board and the time at the ends (getting to, waiting at and out of the station,
port or airport), door to door from one stay's centre to the next's:

- train: each city's main station and the ride between them (``rail.py``: a published running
  time where known, else the country's rail speed), the transfers to and from the stations by city
  transit, and a quarter of an hour to board;
- flight: timed and priced as the planner's other estimated flights (``engine.tools.estimated_flights``:
  great-circle km at cruise speed plus taxi, climb and descent; a fare by distance band) between the
  stays' airports when the caller names them — with the transfers to and from them at airport-rail
  speed, ``FLIGHT_BUFFER_H`` for check-in, security and boarding and ``FLIGHT_OUT_H`` out of the
  plane — else between the cities with ``FLIGHT_ENDS_H`` of airports;
- bus, drive (hire car collected and returned), ferry: a detour over the straight line at an
  average speed, with their own time at the ends.

No train, bus or car crosses a sea (``water.py``): Barcelona → Palma flies or sails. Every leg made
here says ``source="estimated"`` and its ``why`` says what the times rest on.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from engine.errors import InputError
from engine.geo import distance_km
from engine.models import BookedLeg, Geo, PlannedLeg
from engine.models.multi_city import AskedMode, LegMode
from engine.tools.estimated_flights import budget_fare_usd, flight_minutes
from engine.tools.transit import AIRPORT_ACCESS_MINUTES, AIRPORT_RAIL_KMH

from .rail import BOARDING_MIN, Station, rail_ride, transfer_minutes
from .water import land_of, sea_between


@dataclass(frozen=True)
class ModeFigures:
    detour: float  # way on the ground ÷ straight line
    kmh: float  # average speed including stops
    overhead_h: float  # time at the ends (both), door to door
    fixed_usd: float  # per traveller (per car for drives)
    usd_per_km: float
    min_km: float  # shorter than this, nobody takes it when free to choose
    max_km: float  # longer than this, nobody takes it (without a router saying otherwise)


# Coarse inter-city averages (coaches on motorways ~70 km/h, driving ~80 km/h, ferries ~30 km/h).
# Trains' times are rail.py's and flights' estimated_flights.py's: their rows here give the distances
# people take them over (and the train's fare).
FIGURES: dict[LegMode, ModeFigures] = {
    "train": ModeFigures(1.2, 110.0, 0.75, 5.0, 0.12, 0.0, 1000.0),
    "bus": ModeFigures(1.25, 70.0, 0.5, 3.0, 0.06, 0.0, 700.0),
    "drive": ModeFigures(1.3, 80.0, 0.5, 0.0, 0.25, 0.0, 900.0),
    "flight": ModeFigures(1.0, 750.0, 3.0, 60.0, 0.10, 250.0, 20000.0),
    "ferry": ModeFigures(1.1, 30.0, 1.0, 20.0, 0.15, 0.0, 600.0),
}
FLIGHT_ENDS_H = FIGURES["flight"].overhead_h  # airports unknown: both transfers, check-in, security, out
FLIGHT_BUFFER_H = 1.5  # at the departure airport before the flight leaves
FLIGHT_OUT_H = 0.25  # off the plane and out of the arrival airport
FLIGHT_MIN_KM = 100.0  # no airline flies two places of one land closer than this
FLIGHT_MIN_SEA_KM = 50.0  # nor across a strait narrower than this (a boat goes)
TRAIN_PREFERENCE_H = 0.5  # a traveller takes a train up to half an hour slower door to door than the best
BEST_CANDIDATES: tuple[LegMode, ...] = ("train", "flight", "bus", "drive", "ferry")
GROUND: frozenset[LegMode] = frozenset({"train", "bus", "drive"})


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
    from_station: Station | None = None  # the city's main station when the caller knows it (its OSM pack)
    to_station: Station | None = None
    from_airport: str = ""  # IATA code, when the stay names one
    to_airport: str = ""


@dataclass(frozen=True)
class ModeOption:
    """One way to make the leg, door to door."""

    mode: LegMode
    ride_h: float  # on board
    ends_h: float  # stations, ports, airports and the transfers to and from them
    km: float
    from_name: str
    to_name: str
    from_geo: Geo
    to_geo: Geo
    basis: str  # what the ride's time rests on
    operator: str = ""

    @property
    def door_h(self) -> float:
        return self.ride_h + self.ends_h


def straight_km(q: LegQuery) -> float:
    return distance_km(q.from_geo.lat, q.from_geo.lon, q.to_geo.lat, q.to_geo.lon)


def _next_half_hour(t: datetime) -> datetime:
    t = t.replace(second=0, microsecond=0)
    extra = (30 - t.minute % 30) % 30
    return t + timedelta(minutes=extra)


def hm(hours: float) -> str:
    m = round(hours * 60)
    return f"{m // 60} h {m % 60:02d}"


def _city(name: str) -> str:
    return name.split(",")[0].strip()


def option(q: LegQuery, mode: LegMode) -> ModeOption:
    """``mode`` for this pair, door to door (whether it is possible is :func:`impossible`'s)."""
    straight = straight_km(q)
    if mode == "train":
        ride = rail_ride(q.from_city, q.from_geo, q.to_city, q.to_geo, from_hint=q.from_station, to_hint=q.to_station)
        ends = (transfer_minutes(q.from_geo, ride.from_station) + BOARDING_MIN
                + transfer_minutes(q.to_geo, ride.to_station)) / 60
        return ModeOption("train", ride.minutes / 60, ends, ride.km, ride.from_station.name, ride.to_station.name,
                          ride.from_station.geo, ride.to_station.geo, ride.basis, ride.operator)
    if mode == "flight":
        return _flight(q, straight)
    f = FIGURES[mode]
    km = straight * f.detour
    ride_h = km / f.kmh
    if mode == "drive":
        names, basis = (_city(q.from_city), _city(q.to_city)), f"{km:.0f} road km at {f.kmh:.0f} km/h"
    else:
        where = "bus station" if mode == "bus" else "port"
        names = (f"{_city(q.from_city)} {where}", f"{_city(q.to_city)} {where}")
        basis = f"{km:.0f} km at {f.kmh:.0f} km/h"
    return ModeOption(mode, ride_h, f.overhead_h, km, names[0], names[1], q.from_geo, q.to_geo, basis)


def _airport(code: str) -> Geo | None:
    from engine.catalog.airports import airport_info  # the table loads once (~1 s): only when a code is given
    info = airport_info(code) if code else None
    return Geo(lat=info.lat, lon=info.lon) if info is not None else None


def _to_airport_h(centre: Geo, airport: Geo) -> float:
    km = distance_km(centre.lat, centre.lon, airport.lat, airport.lon) * 1.25
    return (km / AIRPORT_RAIL_KMH * 60 + AIRPORT_ACCESS_MINUTES) / 60


def _flight(q: LegQuery, straight: float) -> ModeOption:
    names = (q.from_airport or f"{_city(q.from_city)} airport", q.to_airport or f"{_city(q.to_city)} airport")
    start, end = _airport(q.from_airport), _airport(q.to_airport)
    if start is None or end is None:
        ride_h = flight_minutes(straight) / 60
        return ModeOption("flight", ride_h, FLIGHT_ENDS_H, straight, names[0], names[1], q.from_geo, q.to_geo,
                          f"{straight:.0f} km in the air")
    km = distance_km(start.lat, start.lon, end.lat, end.lon)
    ends = _to_airport_h(q.from_geo, start) + FLIGHT_BUFFER_H + FLIGHT_OUT_H + _to_airport_h(q.to_geo, end)
    return ModeOption("flight", flight_minutes(km) / 60, ends, km, names[0], names[1], start, end,
                      f"{km:.0f} km in the air")


def impossible(q: LegQuery, mode: LegMode) -> str | None:
    """Why nobody can make this leg by ``mode``, in the traveller's words, or None."""
    a, b = _city(q.from_city), _city(q.to_city)
    land_a, land_b = land_of(q.from_geo), land_of(q.to_geo)
    across = sea_between(q.from_geo, q.to_geo)
    island = land_b if land_b.group != "continent" else land_a
    if across and mode in GROUND:
        kind = {"train": "no train runs", "bus": "no bus runs", "drive": "no road goes"}[mode]
        return f"{kind} from {a} to {b}: {island.name} is across the sea; fly or take the ferry"
    # A ferry between two places of one land is not refused (Naples → Amalfi sails along the coast;
    # the islands table knows no coastline), only never picked for the traveller (``choose``).
    if mode == "ferry" and across and straight_km(q) > FIGURES["ferry"].max_km:
        return f"no ferry goes from {a} to {b}: {straight_km(q):.0f} km of open sea; fly"
    if mode == "train" and not (land_a.rail and land_b.rail):
        bare = land_a if not land_a.rail else land_b
        return f"no train runs from {a} to {b}: {bare.name} has no railway"
    if mode == "flight" and straight_km(q) < (FLIGHT_MIN_KM if not across else FLIGHT_MIN_SEA_KM):
        return f"no flight goes from {a} to {b}: they are {straight_km(q):.0f} km apart"
    return None


def check_asked(q: LegQuery) -> None:
    """An asked mode that cannot make the leg is the traveller's input to fix (one line, exit 2)."""
    if q.asked != "best":
        why = impossible(q, q.asked)
        if why is not None:
            raise InputError(f"legs[{q.index}].mode", why)


def _fare_cents(mode: LegMode, km: float, travellers: int) -> int:
    if mode == "flight":
        return round(budget_fare_usd(km) * 100) * travellers
    f = FIGURES[mode]
    payers = 1 if mode == "drive" else travellers
    return round((f.fixed_usd + f.usd_per_km * km) * 100) * payers


def _from_booking(q: LegQuery, b: BookedLeg) -> PlannedLeg:
    return PlannedLeg(index=q.index, from_city=q.from_city, to_city=q.to_city, mode=b.mode,
                      from_name=b.from_name, to_name=b.to_name, from_geo=q.from_geo, to_geo=q.to_geo,
                      departure=b.departure, arrival=b.arrival, distance_km=round(straight_km(q), 1),
                      fare_usd_cents=b.price_usd_cents or 0, source="booked", operator=b.operator,
                      number=b.number, confirmation=b.confirmation, why="booked")


def estimated_leg(q: LegQuery, chosen: ModeOption, why: str) -> PlannedLeg:
    depart = _next_half_hour(q.earliest)
    arrive = (depart + timedelta(hours=chosen.ride_h)).astimezone(ZoneInfo(q.to_tz))
    return PlannedLeg(index=q.index, from_city=q.from_city, to_city=q.to_city, mode=chosen.mode,
                      from_name=chosen.from_name, to_name=chosen.to_name, from_geo=chosen.from_geo,
                      to_geo=chosen.to_geo, departure=depart, arrival=arrive.replace(second=0, microsecond=0),
                      distance_km=round(chosen.km, 1), fare_usd_cents=_fare_cents(chosen.mode, chosen.km, q.travellers),
                      source="estimated", operator=chosen.operator, why=f"{why}; times estimated ({chosen.basis})")


def _describe(o: ModeOption) -> str:
    if o.mode == "flight":
        return f"{hm(o.door_h)} by flight ({hm(o.ride_h)} in the air, {hm(o.ends_h)} of airports and transfers)"
    if o.mode == "train":
        return f"{hm(o.door_h)} door to door by train"
    return f"{hm(o.door_h)} by {o.mode}"


def score(o: ModeOption) -> float:
    """Lower is what a traveller prefers: hours door to door, a train's credited ``TRAIN_PREFERENCE_H``."""
    return round(o.door_h - (TRAIN_PREFERENCE_H if o.mode == "train" else 0.0), 2)


def ranked(q: LegQuery) -> list[ModeOption]:
    """The modes that can make the leg and that people take over its distance, best first."""
    straight = straight_km(q)
    across = sea_between(q.from_geo, q.to_geo)
    usable = [m for m in BEST_CANDIDATES if impossible(q, m) is None and (m != "ferry" or across)
              and (FIGURES[m].min_km <= straight or (m == "flight" and across)) and straight <= FIGURES[m].max_km]
    if not usable:  # nothing usual: the mode that can (a long ferry, a very long drive …)
        usable = [m for m in BEST_CANDIDATES if impossible(q, m) is None and (m != "ferry" or across)] or ["flight"]
    return sorted((option(q, m) for m in usable), key=lambda o: (score(o), FIGURES[o.mode].usd_per_km))


def compared(q: LegQuery, pick: ModeOption, other: ModeOption | None) -> str:
    """Why ``pick`` over ``other``, in the traveller's words."""
    sea = ""
    if sea_between(q.from_geo, q.to_geo):
        island = land_of(q.to_geo) if land_of(q.to_geo).group != "continent" else land_of(q.from_geo)
        sea = f" ({island.name} is across the sea: no train or road)"
    if other is None:
        return f"{pick.mode} is the only way over {straight_km(q):.0f} km{sea}"
    if pick.door_h <= other.door_h:
        return f"{_describe(pick)} beats {_describe(other)}{sea}"
    return (f"{_describe(pick)} rather than {_describe(other)}: {hm(pick.door_h - other.door_h)} more, "
            f"but no check-in or security, centre to centre{sea}")


def choose(q: LegQuery) -> tuple[ModeOption, str]:
    """The mode a traveller would pick, and why in their words: the quickest door to door (a train
    may be up to ``TRAIN_PREFERENCE_H`` slower — no check-in, centre to centre), among the modes
    that can make the leg and that people take over its distance."""
    options = ranked(q)
    return options[0], compared(q, options[0], options[1] if len(options) > 1 else None)


def plan_leg(q: LegQuery) -> PlannedLeg:
    """The leg from a booking, else estimated: the asked mode (``InputError`` when it cannot make
    the leg) or the one a traveller would pick."""
    if q.booked is not None:
        return _from_booking(q, q.booked)
    check_asked(q)
    if q.asked != "best":
        return estimated_leg(q, option(q, q.asked), f"{q.asked} as asked")
    chosen, why = choose(q)
    return estimated_leg(q, chosen, why)
