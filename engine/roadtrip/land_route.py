"""A direct corridor that stays on land: "Tampa to New Orleans" drives round the Gulf, not across it.

The straight line between a trip's ends is the corridor when no named route is given. Where it
crosses open sea (:func:`.scenery.sea_crossing`), the corridor goes through towns instead: the
shortest chain of hops between sizeable towns around the two ends in which no hop crosses the sea
(A* over the gazetteer's towns, each hop checked against the coastline only when the search
reaches it). Deterministic, from the shipped gazetteer and coastline, so ``tripwright verify``
re-derives the same corridor.
"""

from __future__ import annotations

import heapq
from functools import lru_cache

from engine.geocode.trust import check_point, geodesic_miles

from .corridor import DirectCorridor, geodesic_lonlats
from .plan import Town
from .resolve import region_name
from .scenery import FERRY_MILES, any_land, crossing_shores, mainland_near, sea_crossing

MIN_POPULATION = 15_000
TOWNS = 300  # the largest towns around the trip: the search's nodes
HOP_MILES = 150.0  # the longest hop between two of them
COARSE_STEP_MILES = 6.0  # sampling of a hop for the sea


class ViaCorridor(DirectCorridor):
    """Geodesic pieces through ``stops`` ((lat, lon) each): the direct corridor bent round the sea
    (or a loop, :class:`.loop.LoopCorridor`)."""

    def __init__(self, stops: list[tuple[float, float]], name: str = "direct",
                 via: tuple[Town, ...] = ()) -> None:
        self.name, self.via = name, via
        line: list[tuple[float, float]] = []
        for a, b in zip(stops, stops[1:]):
            line += geodesic_lonlats(a, b)[(1 if line else 0):]
        self._set_line(line)


def land_corridor(origin: Town, terminus: Town, region: str, geocoder) -> DirectCorridor:
    """The direct corridor, bent through towns on land where the straight line crosses the sea
    (made once per run: :class:`.trip_ends.TripEnds` keeps it for the outline and every plan).
    A function of the two points, the region and the shipped gazetteer and coastline, so the
    process keeps the last few (like the named routes, a corridor is only read): a trip planned
    again — a re-plan in the app, ``verify`` — does not search round the Gulf again (~0.1 s)."""
    try:
        hash(geocoder)
    except TypeError:  # a geocoder that cannot be a key (unhashable): made afresh
        return _land_corridor.__wrapped__(origin.point, terminus.point, region, geocoder)
    return _land_corridor(origin.point, terminus.point, region, geocoder)


@lru_cache(maxsize=32)  # the geocoder itself is in the key: kept alive, never mistaken
def _land_corridor(a: tuple[float, float], b: tuple[float, float], region: str, geocoder) -> DirectCorridor:
    if sea_crossing(a, b, COARSE_STEP_MILES, any_land())[0] <= FERRY_MILES:
        return DirectCorridor(a, b)  # dry even counting every island: no landmass to build
    reach = geodesic_miles(a, b) / 69.0 + 4.0  # degrees round the trip the search may use
    land = mainland_near([a[0], b[0]], [a[1], b[1]], margin=reach)
    via = _around(a, b, region, geocoder, land)
    if not via:
        return DirectCorridor(a, b)
    return ViaCorridor([a, *(p.point for p in via), b], via=tuple(via))


def _dry(a, b, land) -> bool:
    return sea_crossing(a, b, COARSE_STEP_MILES, land)[0] <= FERRY_MILES


def _around(a: tuple[float, float], b: tuple[float, float], region: str, geocoder, land,
            depth: int = 3) -> list[Town]:
    """The towns of the shortest dry chain round each sea crossing from ``a`` to ``b`` ([] when
    the line is dry; a crossing with no chain round it is kept, and the plan's checks speak)."""
    if depth == 0 or _dry(a, b, land):
        return []
    shores = crossing_shores(a, b, COARSE_STEP_MILES, land)
    if shores is None:
        return []
    p, q = shores
    span = geodesic_miles(p, q)
    mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
    towns = [c for c in geocoder.nearby(mid[0], mid[1], radius_miles=span * 0.75 + 100,
                                        min_population=MIN_POPULATION, limit=TOWNS)
             if not check_point(c.lat, c.lon, region)]
    path = _shortest_dry([p, q, *((c.lat, c.lon) for c in towns)], land)
    if path is None or len(path) < 3:
        return []
    chain = [_place(towns[k - 2]) for k in path[1:-1]]
    return [*_around(a, chain[0].point, region, geocoder, land, depth - 1), *chain,
            *_around(chain[-1].point, b, region, geocoder, land, depth - 1)]


def _shortest_dry(points: list[tuple[float, float]], land) -> list[int] | None:
    """A* from node 0 to node 1 over hops ≤ :data:`HOP_MILES` that cross no sea."""
    goal = points[1]
    best = {0: 0.0}
    back: dict[int, int] = {}
    queue = [(geodesic_miles(points[0], goal), 0.0, 0)]
    done: set[int] = set()
    while queue:
        _, cost, i = heapq.heappop(queue)
        if i == 1:
            path = [1]
            while path[-1] != 0:
                path.append(back[path[-1]])
            return path[::-1]
        if i in done:
            continue
        done.add(i)
        for j, q in enumerate(points):
            if j in done or j == i:
                continue
            hop = geodesic_miles(points[i], q)
            if hop > HOP_MILES and not (j == 1 and hop <= HOP_MILES * 1.5):
                continue
            total = cost + hop
            if total < best.get(j, float("inf")) and _dry(points[i], q, land):
                best[j], back[j] = total, i
                heapq.heappush(queue, (total + geodesic_miles(q, goal), total, j))
    return None


def _place(c) -> Town:
    return Town(name=c.name, lat=c.lat, lon=c.lon, admin1=region_name(c), country=c.country, source="gazetteer")
