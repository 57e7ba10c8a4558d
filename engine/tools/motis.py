"""Timetabled trains, coaches and ferries between two cities from a MOTIS public-transit router
(issue 33 §2): Transitous (https://transitous.org, open GTFS feeds, no key) or any MOTIS 2 server.

- Base URL from ``TRIPWRIGHT_TRANSIT_URL`` (SPEC_DECISIONS §3); unset means no router at all (legs
  stay estimated). A base ending in its API version (``…/api/v1``; later MOTIS releases number
  their plan endpoint higher, with the same itinerary fields) is asked at ``{base}/plan``. The request is MOTIS's documented ``GET {base}/api/v1/plan`` (motis-project/motis
  ``openapi.yaml``): ``fromPlace``/``toPlace`` as ``lat,lon``, ``time`` (ISO 8601, sent in UTC),
  ``arriveBy=false``, ``transitModes`` (``RAIL`` for trains — it stands for every long-distance,
  high-speed, night and regional rail mode —, ``COACH,BUS`` for buses, ``FERRY``), and a first and
  last walk of up to 45 minutes so a city's centre reaches its station.
- The answer's ``itineraries[]`` carry ``startTime``/``endTime`` (UTC, ``Z``), ``transfers`` and
  ``legs[]`` (``mode``, ``from``/``to`` places with ``name``, ``lat``, ``lon``, ``startTime``/``endTime``,
  ``agencyName``, ``routeShortName``, ``headsign``, ``intermediateStops``). The journey kept is the
  one of the asked modes that arrives first among those leaving at or after the asked time (ties:
  fewer changes). None such is an answer (``found=False``), cached like any other; 5xx / 429 are
  outages (retried once by the executor, then its breaker), anything malformed a
  ``ToolResponseError``; a dead network is marked down by :class:`NetworkState` and not waited on again.
- Fares are not in MOTIS's answer: the leg's price stays an estimate, labelled so.
"""

from __future__ import annotations

import os
import re
from datetime import datetime, timedelta, timezone
from typing import Any, Literal

from pydantic import AwareDatetime, Field, ValidationError

from engine.errors import ToolResponseError
from engine.models.common import Geo, Value
from engine.net.network import NetworkState, json_body

TOOL = "transit_router"
COORD_DECIMALS = 4
TIME_STEP_MIN = 5  # asked times are rounded down to this, so near-identical asks share a cache entry
FIRST_LAST_WALK_S = 45 * 60
PLAN_PATH = "/api/v1/plan"
_VERSIONED = re.compile(r"/api/v\d+$")

RouterMode = Literal["train", "bus", "ferry"]
TRANSIT_MODES: dict[RouterMode, str] = {"train": "RAIL", "bus": "COACH,BUS", "ferry": "FERRY"}
# MOTIS leg modes that count as each of ours (the answer names the precise one)
RIDE_MODES: dict[RouterMode, frozenset[str]] = {
    "train": frozenset({"RAIL", "HIGHSPEED_RAIL", "LONG_DISTANCE", "NIGHT_RAIL", "REGIONAL_FAST_RAIL",
                        "REGIONAL_RAIL", "SUBURBAN", "METRO", "SUBWAY", "TRAM"}),
    "bus": frozenset({"BUS", "COACH", "METRO", "SUBWAY", "TRAM"}),
    "ferry": frozenset({"FERRY", "BUS", "METRO", "SUBWAY", "TRAM", "RAIL", "REGIONAL_RAIL", "SUBURBAN"}),
}
# The main ride must be of the asked kind (a "train" journey of two trams is not a train journey)
MAIN_MODES: dict[RouterMode, frozenset[str]] = {
    "train": frozenset({"RAIL", "HIGHSPEED_RAIL", "LONG_DISTANCE", "NIGHT_RAIL", "REGIONAL_FAST_RAIL",
                        "REGIONAL_RAIL", "SUBURBAN"}),
    "bus": frozenset({"BUS", "COACH"}),
    "ferry": frozenset({"FERRY"}),
}
STREET_MODES = frozenset({"WALK", "BIKE", "CAR", "CAR_PARKING", "RENTAL", "ODM", "FLEX"})


def transit_base() -> str | None:
    """The MOTIS base URL, or None when no transit router is configured."""
    return os.environ.get("TRIPWRIGHT_TRANSIT_URL", "").strip().rstrip("/") or None


class TransitPlanRequest(Value):
    """One asked journey: rounded ends, a UTC departure time rounded down, the kind of ride."""

    from_lat: float
    from_lon: float
    to_lat: float
    to_lon: float
    depart_utc: str  # "2027-05-13T08:00:00Z"
    mode: RouterMode

    @classmethod
    def of(cls, from_geo: Geo, to_geo: Geo, earliest: datetime, mode: RouterMode) -> "TransitPlanRequest":
        t = earliest.astimezone(timezone.utc).replace(second=0, microsecond=0)
        t -= timedelta(minutes=t.minute % TIME_STEP_MIN)
        return cls(from_lat=round(from_geo.lat, COORD_DECIMALS), from_lon=round(from_geo.lon, COORD_DECIMALS),
                   to_lat=round(to_geo.lat, COORD_DECIMALS), to_lon=round(to_geo.lon, COORD_DECIMALS),
                   depart_utc=t.strftime("%Y-%m-%dT%H:%M:%SZ"), mode=mode)

    @property
    def earliest(self) -> datetime:
        return datetime.strptime(self.depart_utc, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


class TransitRide(Value):
    """One vehicle of a journey: a train, a coach, a ferry (walks between them are not rides)."""

    mode: str  # MOTIS's: HIGHSPEED_RAIL, LONG_DISTANCE, COACH, FERRY …
    from_name: str
    to_name: str
    from_geo: Geo
    to_geo: Geo
    departure: AwareDatetime
    arrival: AwareDatetime
    operator: str = ""
    line: str = ""  # "AP 121", "Nozomi 21", "FR 9519"
    headsign: str = ""
    stops: tuple[Geo, ...] = ()  # the intermediate stops, in order (the drawn line)


class TransitJourney(Value):
    """The router's best journey of the asked kind, or ``found=False`` when it knows none."""

    found: bool
    rides: tuple[TransitRide, ...] = ()
    changes: int = Field(default=0, ge=0)
    door_departure: AwareDatetime | None = None  # the whole itinerary, walks included
    door_arrival: AwareDatetime | None = None

    @property
    def departure(self) -> datetime:
        return self.rides[0].departure

    @property
    def arrival(self) -> datetime:
        return self.rides[-1].arrival

    @property
    def path(self) -> list[Geo]:
        points: list[Geo] = []
        for ride in self.rides:
            points.extend([ride.from_geo, *ride.stops, ride.to_geo])
        return points


class MotisRouter:
    name = TOOL

    def __init__(self, network: NetworkState, base: str) -> None:
        self._net = network
        self._base = base
        self.cache_variant = base  # another server may answer otherwise

    async def plan(self, request: TransitPlanRequest) -> TransitJourney:
        params = {"fromPlace": f"{request.from_lat},{request.from_lon}",
                  "toPlace": f"{request.to_lat},{request.to_lon}",
                  "time": request.depart_utc, "arriveBy": "false",
                  "transitModes": TRANSIT_MODES[request.mode],
                  "maxPreTransitTime": str(FIRST_LAST_WALK_S), "maxPostTransitTime": str(FIRST_LAST_WALK_S)}
        url = f"{self._base}/plan" if _VERSIONED.search(self._base) else f"{self._base}{PLAN_PATH}"
        body = json_body(TOOL, await self._net.get(TOOL, url, params))
        return parse_plan(body, request)


def parse_plan(body: Any, request: TransitPlanRequest) -> TransitJourney:
    """MOTIS's documented plan answer → the best :class:`TransitJourney` of ``request.mode``."""
    if not isinstance(body, dict) or not isinstance(body.get("itineraries"), list):
        raise ToolResponseError(TOOL, "the transit answer has no itineraries list")
    journeys = []
    for i, itinerary in enumerate(body["itineraries"]):
        try:
            journey = _journey(itinerary, request.mode)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, ValidationError) as exc:
            raise ToolResponseError(TOOL, f"itineraries[{i}] is not a usable journey ({type(exc).__name__})") from exc
        if journey is not None and journey.departure >= request.earliest:
            journeys.append(journey)
    if not journeys:
        return TransitJourney(found=False)
    return min(journeys, key=lambda j: (j.arrival, j.changes, -j.departure.timestamp()))


def _time(value: Any) -> datetime:
    t = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    if t.tzinfo is None:
        raise ValueError("a time without its offset")
    return t


def _geo(place: dict) -> Geo:
    return Geo(lat=float(place["lat"]), lon=float(place["lon"]))


def _line(leg: dict) -> str:
    for key in ("displayName", "routeShortName", "tripShortName", "routeLongName"):
        value = leg.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()[:16]
    return ""


def _journey(itinerary: dict, mode: RouterMode) -> TransitJourney | None:
    rides = []
    for leg in itinerary["legs"]:
        kind = str(leg["mode"]).upper()
        if kind in STREET_MODES:
            continue
        if kind not in RIDE_MODES[mode]:
            return None  # a journey that needs another kind of vehicle than the one asked
        start, end = leg["from"], leg["to"]
        rides.append(TransitRide(
            mode=kind, from_name=str(start["name"])[:120], to_name=str(end["name"])[:120],
            from_geo=_geo(start), to_geo=_geo(end), departure=_time(leg["startTime"]),
            arrival=_time(leg["endTime"]), operator=str(leg.get("agencyName") or "")[:80], line=_line(leg),
            headsign=str(leg.get("headsign") or "")[:80],
            stops=tuple(_geo(s) for s in leg.get("intermediateStops") or ())))
    if not any(r.mode in MAIN_MODES[mode] for r in rides):
        return None
    changes = itinerary.get("transfers")
    changes = int(changes) if isinstance(changes, int) and changes >= 0 else max(0, len(rides) - 1)
    return TransitJourney(found=True, rides=tuple(rides), changes=changes,
                          door_departure=_time(itinerary["startTime"]), door_arrival=_time(itinerary["endTime"]))
