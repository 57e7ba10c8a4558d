"""A round trip from home with no named route: where to turn, and which way round.

The loop goes out to a sizeable town about half the trip's comfortable driving away (the most
populous town in a ring around home, inside the trip's region and trust boundary) and comes back
another way: the corridor runs home → one side → the turnaround → the other side → home, each side
through a real town off the straight line (a coastal one first when there is one: "see the coast
one way"), as wide as the trip's days allow. The choice is deterministic and explainable, and the
same function re-derives the loop when a saved trip is verified.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pyproj import Geod

from engine.errors import InputError
from engine.geocode.trust import check_point, geodesic_miles
from engine.models.road_trip import DEFAULT_CORRIDOR_MILES

from .corridor import DIRECT_ROAD_FACTOR, DirectCorridor, geodesic_lonlats
from .plan import Place
from .resolve import region_name
from .scenery import coastal, needs_ferry

COMFORT_MILES_PER_DAY = 250.0  # a loop is a holiday, not a delivery run
CAP_SHARE = 0.75
ROAD_FACTOR = 1.3
AWAY_FROM_HOME_MILES = 16.0  # INV-DIR-03: no night or visit in the home town but the last
SIDE_SHARE = 0.35  # a side's town lies this share of the home–turnaround distance off the line
LOOP_REACH_SHARE = 0.75  # the turnaround of a loop is nearer than an out-and-back's: the sides need days too
MIN_SIDE_SHARE = 0.1  # narrower than this, the two ways would share the road: no loop
COAST_BONUS = 2.0  # in log10(population) units: a coastal town of 5,000 beats an inland one of 500,000
_GEOD = Geod(ellps="WGS84")


def comfortable_miles(days: float, cap: float) -> float:
    """Straight-line miles that ``days`` days of holiday driving cover under a ``cap``-mile day."""
    return days * min(cap * CAP_SHARE, COMFORT_MILES_PER_DAY) / ROAD_FACTOR


def loop_turnaround(origin: Place, region: str, geocoder, *, days: float, cap: float) -> Place:
    """The town the loop turns at, for ``days`` days out."""
    reach = comfortable_miles(days, cap)
    for inner, min_population in ((0.6, 50_000), (0.3, 10_000), (0.15, 2_000)):
        found = _ring(origin, region, geocoder, reach, inner, min_population)
        if found is not None:
            return found
    raise InputError("terminus", f"no town to turn around at within {reach:.0f} mi of {origin.label}; "
                                 "name one (e.g. 'Denver to Moab and back')")


def _ring(origin: Place, region: str, geocoder, reach: float, inner: float, min_population: int) -> Place | None:
    from .trip_ends import EUROPE
    towns = geocoder.nearby(origin.lat, origin.lon, radius_miles=reach, min_population=min_population, limit=400)
    for c in towns:  # largest first
        miles = geodesic_miles(origin.point, (c.lat, c.lon))
        home_region = (c.country == "US") if region == "us" else (c.country in EUROPE)
        if miles < max(reach * inner, AWAY_FROM_HOME_MILES * 2) or not home_region or check_point(c.lat, c.lon, region):
            continue
        if not needs_ferry(origin.point, (c.lat, c.lon)):  # no sea between home and the turnaround
            return _place(c)
    return None


def _place(c) -> Place:
    return Place(name=c.name, lat=c.lat, lon=c.lon, admin1=region_name(c), country=c.country, source="gazetteer")


class LoopCorridor(DirectCorridor):
    """Home → ``ways[0]`` → turnaround → ``ways[1]`` → home, on geodesics: a circuit (``is_loop``)
    that the planner drives once round, like a named loop route."""

    is_loop = True

    def __init__(self, home: Place, turn: Place, ways: tuple[Place, ...]) -> None:
        self.name = "loop"
        self.home, self.turn, self.ways = home, turn, ways
        stops = [home.point, *ways[:1], turn.point, *ways[1:], home.point]
        stops = [p.point if isinstance(p, Place) else p for p in stops]
        line: list[tuple[float, float]] = []
        for a, b in zip(stops, stops[1:]):
            line += geodesic_lonlats(a, b)[(1 if line else 0):]
        self._set_line(line)

    @property
    def origin(self) -> Place:
        return self.home

    def describe(self) -> str:
        if not self.ways:
            return f"out to {self.turn.label} and back the same way (no other road within the days)"
        via = " and back by ".join(w.label for w in self.ways) if len(self.ways) == 2 else self.ways[0].label
        return f"a loop out by {via}, turning at {self.turn.label}"


@dataclass(frozen=True)
class _Side:
    sign: int  # +1: right of the way from home to the turnaround, -1: left
    offset: float  # miles off the midpoint
    most: float  # straight-line miles home → side town → turnaround at most


def booked_via(intent, days: int) -> tuple[Place | None, bool]:
    """The traveller's booked motel as a place the loop must pass (issue 21), and whether on the
    way out (its night in the first half of the ``days`` that drive); (None, True) without one."""
    hotel = intent.bookings.hotel if getattr(intent, "bookings", None) else None
    if hotel is None or hotel.geo is None:
        return None, True
    via = Place(name=f"{hotel.name} (your booking)", lat=hotel.geo.lat, lon=hotel.geo.lon, source="user")
    return via, (hotel.checkin - intent.start_date).days < days / 2


def home_loop(origin: Place, region: str, geocoder, *, days: int, cap: float,
              turn: Place | None = None, via: Place | None = None, via_out: bool = True,
              width: float = DEFAULT_CORRIDOR_MILES) -> LoopCorridor:
    """The loop for a round trip of ``days`` days under a ``cap``-mile day (see the module doc);
    ``via``: a booked night it must pass — when the loop drawn misses it by more than ``width``
    miles, it goes round by it instead of its side town (on the way out when ``via_out``)."""
    loop = _loop(origin, region, geocoder, days=days, cap=cap, turn=turn)
    if via is None or loop.offset_miles(*via.point) <= width:
        return loop
    side = _side_of(origin, loop.turn, via.point)
    other = [w for w in loop.ways if _side_of(origin, loop.turn, w.point) != side][:1]
    return LoopCorridor(origin, loop.turn, tuple([via, *other] if via_out else [*other, via]))


def _loop(origin: Place, region: str, geocoder, *, days: int, cap: float, turn: Place | None) -> LoopCorridor:
    turn = turn or loop_turnaround(origin, region, geocoder, days=days / 2 * LOOP_REACH_SHARE, cap=cap)
    span = geodesic_miles(origin.point, turn.point)
    budget = comfortable_miles(days, cap)  # straight-line miles round the loop
    widest = math.sqrt(max(0.0, (budget / 4) ** 2 - (span / 2) ** 2))
    offset = min(SIDE_SHARE * span, widest)
    if offset < MIN_SIDE_SHARE * span:
        return LoopCorridor(origin, turn, ())
    sides = (_Side(s, offset, budget / 2) for s in (1, -1))
    ways = [w for w in (_side_town(origin, turn, region, geocoder, side, span) for side in sides) if w]
    ways.sort(key=lambda w: not coastal(w.lat, w.lon))  # the coast on the way out
    return LoopCorridor(origin, turn, tuple(ways))


def _side_town(origin: Place, turn: Place, region: str, geocoder, side: _Side, span: float) -> Place | None:
    """The best town near the point ``side.offset`` miles off the midpoint of home → turnaround:
    large, coastal preferred, on land in the trip's region, not near home or the turnaround."""
    az, _, dist = _GEOD.inv(origin.lon, origin.lat, turn.lon, turn.lat)
    mid_lon, mid_lat, _ = _GEOD.fwd(origin.lon, origin.lat, az, dist / 2)
    lon, lat, _ = _GEOD.fwd(mid_lon, mid_lat, az + 90 * side.sign, side.offset * 1609.344)
    radius = max(30.0, side.offset)
    scored = []
    for c in geocoder.nearby(lat, lon, radius_miles=radius, min_population=2_000, limit=60):
        p = (c.lat, c.lon)
        if check_point(c.lat, c.lon, region) or min(geodesic_miles(p, origin.point),
                                                    geodesic_miles(p, turn.point)) < span * 0.25:
            continue
        if _side_of(origin, turn, p) != side.sign or _off_line(origin, turn, p) < MIN_SIDE_SHARE * span:
            continue
        if geodesic_miles(origin.point, p) + geodesic_miles(p, turn.point) > side.most:
            continue
        score = math.log10(1 + (c.population or 0)) - geodesic_miles(p, (lat, lon)) / radius
        score += COAST_BONUS if coastal(c.lat, c.lon) else 0.0
        scored.append((-score, c.feature_id, c))
    for _, _, c in sorted(scored, key=lambda t: t[:2]):  # the best first; the sea is asked of few
        if not needs_ferry(origin.point, (c.lat, c.lon)) and not needs_ferry((c.lat, c.lon), turn.point):
            return _place(c)
    return None


def _side_of(origin: Place, turn: Place, p: tuple[float, float]) -> int:
    """+1 when ``p`` lies right of the way from home to the turnaround (seen from home), else -1."""
    az_turn = _GEOD.inv(origin.lon, origin.lat, turn.lon, turn.lat)[0]
    az_p = _GEOD.inv(origin.lon, origin.lat, p[1], p[0])[0]
    diff = (az_p - az_turn + 540) % 360 - 180
    return 1 if diff > 0 else -1


def _off_line(origin: Place, turn: Place, p: tuple[float, float]) -> float:
    """Miles from ``p`` to the straight line home → turnaround (a short corridor measures it)."""
    return DirectCorridor(origin.point, turn.point).offset_miles(*p)
