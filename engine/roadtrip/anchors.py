"""Choosing a stretch's overnight anchors globally: a shortest path over candidate towns.

The days of a stretch (between two fixed points) are a path start → anchor₁ → … → end of exactly
``days`` hops. Each hop must move forward along the corridor by at most the daily cap, never come
back towards the origin (INV-DIR-01) nor away from the terminus (INV-DIR-02, one-way trips), and
costs its squared deviation from the even day length; interpolated points (no town there) and
staying put cost extra, so they are chosen only when nothing else fits. A dynamic programme over
(day, node) finds the cheapest such path — balanced days instead of a greedy walk whose last day
absorbs whatever the earlier ones left (the "day 8 drives 548 mi" failure).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.geo import haversine_rad as haversine

from .detours import DETOUR_FACTOR
from .plan import Town

INTERPOLATED_COST = 4.0  # an overnight point with no town: only when no town fits
STAY_COST = 1.5  # a second night in the same town
POPULATION_BONUS = 0.004  # per decade of population: prefer places with beds and sights
DIRECTION_SLACK_MILES = 1.0
FILL_SPACING_MILES = 20.0  # interpolated candidates every this many corridor miles


@dataclass(frozen=True)
class Node:
    place: Town
    progress: float
    road: float  # road miles from the corridor's start (:class:`.road_measure.RoadMeasure`)
    from_origin: float  # geodesic miles from the trip's origin
    to_end: float  # geodesic miles to the trip's terminus
    population: int = 0
    interpolated: bool = False
    extra_cost: float = 0.0  # e.g. a town already slept in on the way out of a round trip
    on_corridor: tuple[float, float] | None = None  # the place's projection (detours, :mod:`.detours`)
    spur: float = 0.0  # road miles out to a booked place off the corridor (each way): counted in full


@dataclass(frozen=True)
class Stretch:
    start: Node
    end: Node
    days: int
    cap_road: float  # the daily cap in road miles
    factor: float
    directed: bool  # outbound: enforce INV-DIR-01/02 between consecutive nights
    one_way: bool


def choose_anchors(stretch: Stretch, candidates: list[Node]) -> list[Node] | None:
    """The ``days - 1`` intermediate nights (the last night is ``stretch.end``), or None when no
    path keeps every hop under the cap."""
    if stretch.days == 1:
        return []
    nodes = [stretch.start, *candidates, stretch.end]
    drive = _drive(stretch, nodes)  # the same for the directed search and the undirected fallback
    for directed in ((True, False) if stretch.directed else (False,)):
        path = _shortest(stretch, nodes, directed, drive)
        if path is not None:
            return [nodes[i] for i in path[1:-1]]
    return None


def _shortest(stretch: Stretch, nodes: list[Node], directed: bool, drive: np.ndarray) -> list[int] | None:
    weights = _weights(stretch, nodes, directed, drive)
    n = len(nodes)
    cost = np.full(n, np.inf)
    cost[0] = 0.0
    back = []
    for _ in range(stretch.days):
        total = cost[:, None] + weights
        arg = np.argmin(total, axis=0)
        cost = total[arg, np.arange(n)]
        back.append(arg)
    if not np.isfinite(cost[-1]):
        return None
    path = [n - 1]
    for arg in reversed(back):
        path.append(int(arg[path[-1]]))
    return path[::-1]


def _detours(nodes: list[Node], hops: np.ndarray) -> np.ndarray:
    """[i, j]: road miles that leaving the corridor for node i's and node j's places adds to the
    hop between them (:func:`.detours.detour_miles`), for the pairs ``hops`` marks (0 elsewhere):
    every pair of a thousand candidates was two million great circles per search."""
    at = np.radians([n.place.point for n in nodes])
    on = np.radians([n.on_corridor or n.place.point for n in nodes])
    i, j = np.nonzero(hops)
    real = haversine(at[i, 0], at[i, 1], at[j, 0], at[j, 1])
    along = haversine(on[i, 0], on[i, 1], on[j, 0], on[j, 1])
    out = np.zeros(hops.shape)
    out[i, j] = np.maximum(0.0, DETOUR_FACTOR * (real - along))
    return out


def _step(stretch: Stretch, nodes: list[Node]) -> np.ndarray:
    """[i, j]: corridor road miles from node i to node j (forward positive)."""
    sign = 1.0 if stretch.end.road >= stretch.start.road else -1.0
    p = np.array([node.road for node in nodes]) * sign
    return p[None, :] - p[:, None]


def _drive(stretch: Stretch, nodes: list[Node]) -> np.ndarray:
    """[i, j]: the road miles of the hop from node i to node j, with the miles off the corridor at
    both ends (a booked place off it is driven out to and back). Only a forward hop within the cap
    can be taken, and a hop's drive is at least its step, so the detours are counted for those
    alone; any other pair keeps a drive above the cap or a step ≤ 0 and stays refused."""
    step = _step(stretch, nodes)
    spur = np.array([node.spur for node in nodes])
    hops = (step > 0) & (step <= stretch.cap_road + 1e-6)
    return step + np.maximum(_detours(nodes, hops), spur[:, None] + spur[None, :])


def _weights(stretch: Stretch, nodes: list[Node], directed: bool, drive: np.ndarray) -> np.ndarray:
    step = _step(stretch, nodes)
    target = max(1.0, abs(stretch.end.road - stretch.start.road) / stretch.days)
    w = ((drive - target) / target) ** 2
    ok = (step > 0) & (drive <= stretch.cap_road + 1e-6)
    if directed:
        dist = np.array([node.from_origin for node in nodes])
        ok &= dist[None, :] + DIRECTION_SLACK_MILES >= dist[:, None]
        if stretch.one_way:
            to_end = np.array([node.to_end for node in nodes])
            ok &= to_end[None, :] <= to_end[:, None] + DIRECTION_SLACK_MILES
    node_cost = np.array([(INTERPOLATED_COST if node.interpolated else 0.0) + node.extra_cost
                          - POPULATION_BONUS * math.log10(1 + node.population) for node in nodes])
    w = w + node_cost[None, :]
    stay = np.diag([not node.interpolated for node in nodes])
    stay[0, 0] = False  # never a second night at home
    w[stay] = STAY_COST + 1.0  # a day without driving is also one full target short
    ok |= stay
    w[~ok] = np.inf
    w[:, 0] = np.inf
    return w
