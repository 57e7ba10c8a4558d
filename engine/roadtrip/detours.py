"""The miles a day drives off its corridor (issue 20 §3): from last night's town onto it, out to
each stop beside it, and off it to tonight's town.

Offline these follow the seed's estimate — straight-line miles × 1.3 — applied to what leaving
the corridor adds: the straight legs through the day's real points (start, stops on the way,
anchor) minus the same legs through their projections onto the corridor. A town a few miles off
the middle of a long drive adds almost nothing (the road factor already pays for a winding road);
a night in Phoenix off Route 66 adds what getting there costs. The planner (daily cap, hours,
shares between fixed stops, overnight choice) and ``tripwright verify`` use this one formula, so
the validation report and the 400-mile cap are true. A routed day (:mod:`.driving`) drives
through its stops, so its miles need no estimate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import permutations

import numpy as np

from engine.geo import haversine_rad as haversine

DETOUR_FACTOR = 1.3  # seed INV-PACE-02: straight-line miles × 1.3 ≈ road miles

Point = tuple[float, float]


def _legs(points: Sequence[Point]) -> float:
    if len(points) < 2:
        return 0.0
    a = np.radians(np.asarray(points, dtype=float))
    return float(haversine(a[:-1, 0], a[:-1, 1], a[1:, 0], a[1:, 1]).sum())


def detour_miles(corridor, points: Sequence[Point]) -> float:
    """Road miles that driving through ``points`` adds to driving through their projections: the
    sum of each leg's own detour (:func:`leg_detour_miles`), so the day's miles are its legs' miles
    and the timeline (:func:`.day_stops.schedule_stops`) drives every one of them."""
    return sum(leg_detour_miles(corridor, a, b) for a, b in zip(points, points[1:]))


def leg_detour_miles(corridor, a: Point, b: Point) -> float:
    """Road miles that one leg, ``a`` to ``b``, adds to driving between their projections onto the
    corridor: a stop 20 mi off the road is 20-odd mi away however near it lies along the road."""
    pa = corridor.point_at(corridor.progress_miles(*a))
    pb = corridor.point_at(corridor.progress_miles(*b))
    return max(0.0, DETOUR_FACTOR * (_legs([a, b]) - _legs([pa, pb])))


def day_points(start: Point, stops, anchor: Point, start_progress: float) -> list[Point]:
    """Start, the stops on the way in driving order, anchor."""
    on_way = driving_order(stops, start_progress, start, anchor)
    return [start, *((s.lat, s.lon) for s in on_way), anchor]


EXACT_ORDER = 7  # up to this many stops on the way, every order is tried


def driving_order(stops, start_progress: float, start: Point, anchor: Point) -> list:
    """The day's stops on the way in the order they are driven: the shortest straight-line path
    from ``start`` through them to ``anchor`` (exact up to :data:`EXACT_ORDER` stops; ties, and
    longer days, by how far along the corridor each lies). Progress alone cannot order stops
    beyond the corridor's end — a national park past the terminus town — which all project to it."""
    on_way = sorted((s for s in stops if s.en_route), key=lambda s: abs(s.progress_miles - start_progress))
    if not 2 <= len(on_way) <= EXACT_ORDER:
        return on_way
    best, best_miles = on_way, _legs([start, *((s.lat, s.lon) for s in on_way), anchor]) - 1e-9
    for order in permutations(on_way):
        miles = _legs([start, *((s.lat, s.lon) for s in order), anchor])
        if miles < best_miles:
            best, best_miles = list(order), miles - 1e-9
    return best


@dataclass(frozen=True)
class DetourRoom:
    """What the daily cap leaves a day's stops once the drive itself is counted: a stop is taken
    only when going through it (from last night's town ``a`` to tonight's ``b``, straight legs
    × 1.3) adds at most half of it, so two stops on the way keep the day under the cap."""

    a: Point
    b: Point
    miles: float
    start_progress: float = 0.0
    corridor: object = None  # when given, :meth:`fits` counts each leg's detour (:func:`detour_miles`)

    @cached_property
    def _ends(self) -> tuple[float, float, float, float, float]:
        """The ends in radians and the straight a→b distance, computed once per day."""
        (alat, alon), (blat, blon) = np.radians(self.a), np.radians(self.b)
        return alat, alon, blat, blon, float(haversine(alat, alon, blat, blon))

    def extra(self, lat, lon):
        """Road miles a stop at ``lat``/``lon`` (floats or numpy arrays, degrees) adds to the day."""
        alat, alon, blat, blon, direct = self._ends
        slat, slon = np.radians(lat), np.radians(lon)
        return DETOUR_FACTOR * (haversine(alat, alon, slat, slon) + haversine(slat, slon, blat, blon) - direct)

    def allows(self, lat, lon):
        return self.extra(lat, lon) <= max(0.0, self.miles) / 2

    def fits(self, stops) -> bool:
        """The day's stops together (in driving order) keep within the room: two on opposite
        sides of the road cost more than each alone."""
        points = day_points(self.a, stops, self.b, self.start_progress)
        if self.corridor is not None:  # the day's miles as the planner counts them, less its ends' own
            extra = detour_miles(self.corridor, points) - detour_miles(self.corridor, [self.a, self.b])
            return extra <= max(0.0, self.miles) + 0.05
        return DETOUR_FACTOR * (_legs(points) - self._ends[4]) <= max(0.0, self.miles) + 0.05


def day_path(corridor, day) -> list[Point]:
    """The day's drawn route, estimated: from last night's town onto the corridor, along it with a
    spur out to each stop off it, and off it to tonight's town — so the markers sit on the line."""
    points: list[Point] = [day.start.point]  # verify re-derives the day from its real ends
    at = day.start_progress
    spurs = sorted((s for s in day.stops if s.en_route and s.offset_miles > 0.5),
                   key=lambda s: abs(s.progress_miles - day.start_progress))
    for s in spurs:
        points += corridor.path(at, s.progress_miles)
        points.append((s.lat, s.lon))
        at = s.progress_miles
    points += corridor.path(at, day.anchor_progress)
    points.append(day.anchor.point)
    return [p for k, p in enumerate(points) if k == 0 or _apart(p, points[k - 1])]


def _apart(a: Point, b: Point) -> bool:
    return abs(a[0] - b[0]) > 1e-6 or abs(a[1] - b[1]) > 1e-6
