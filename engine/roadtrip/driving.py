"""Real driving routes on a planned road trip (issue 12 §2).

Each day is routed start → en-route stops → overnight anchor through the executor (a day's
request is its rounded waypoints, cached forever). What comes back decides three things:

- a day the service cannot route (``NoRoute``/``NoSegment``), or whose anchor it can reach only by
  moving it more than :data:`SNAP_LIMIT_MILES` (a point in a lake, on an island), has an anchor that
  is not reachable by road: the planner is asked again without it (:func:`unreachable_anchors`);
- a routed day over the daily cap: the planner is asked again measuring each stretch of corridor
  by the road miles routing found on it (:func:`road_pieces`, :mod:`.road_measure`);
- otherwise the routed miles, hours and geometry replace the estimate (:func:`apply_routes`), the
  day's events are re-timed on the real hours, and the day says ``drive_source="routed"``.

A day the service could not answer (down, slow, garbage) keeps its estimate; the run lists
``routing`` among its degraded tools.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from engine.errors import ToolError
from engine.geocode.trust import geodesic_miles
from engine.tools.osrm import DrivingRoute, RouteRequest

from .day_stops import schedule_stops
from .plan import RoadDay, RoadPlan, Town

SNAP_LIMIT_MILES = 5.0  # an anchor the road network reaches only this far away is not on a road
CAP_SLACK_MILES = 0.5


def day_waypoints(day: RoadDay) -> list[tuple[float, float]]:
    on_way = sorted((s for s in day.stops if s.en_route), key=lambda s: abs(s.progress_miles - day.start_progress))
    return [day.start.point, *((s.lat, s.lon) for s in on_way), day.anchor.point]


async def route_days(plan: RoadPlan, executor, router) -> tuple[list[DrivingRoute | None], bool]:
    """Every day's route (None where the service did not answer) and whether any failed."""
    async def one(day: RoadDay) -> DrivingRoute | None:
        if day.exemption == "rest":
            return None  # no drive to route
        try:
            found, _ = await executor.call("routing", router.route, RouteRequest.through(day_waypoints(day)),
                                           result_type=DrivingRoute)
            return found
        except ToolError:
            return None

    routes = list(await asyncio.gather(*(one(d) for d in plan.days)))
    return routes, any(r is None for r, d in zip(routes, plan.days) if d.exemption != "rest")


def _unreachable(route: DrivingRoute | None) -> bool:
    if route is None:
        return False  # no answer says nothing about the road
    return not route.found or (bool(route.snap_miles) and route.snap_miles[-1] > SNAP_LIMIT_MILES)


def unreachable_anchors(plan: RoadPlan, routes: list[DrivingRoute | None]) -> list[Town]:
    """Overnight anchors the planner chose that no road reaches (fixed points are not its to drop)."""
    fixed = {plan.origin.point, plan.terminus.point}
    return [d.anchor for d, r in zip(plan.days, routes)
            if _unreachable(r) and d.anchor.point not in fixed and d.anchor.source != "user"]


def over_cap(plan: RoadPlan, routes: list[DrivingRoute | None]) -> bool:
    return any(r is not None and r.found and r.miles > plan.max_daily_miles + CAP_SLACK_MILES for r in routes)


def road_pieces(plan: RoadPlan, routes: list[DrivingRoute | None]) -> tuple[tuple[float, float, float], ...]:
    """Per routed day: (corridor progress from, to, road miles per corridor mile) for
    :class:`.road_measure.RoadMeasure`."""
    out = []
    for day, route in zip(plan.days, routes):
        along = abs(day.anchor_progress - day.start_progress)
        if route is not None and route.found and along >= 1.0:
            out.append((day.start_progress, day.anchor_progress, route.miles / along))
    return tuple(out)


def apply_routes(plan: RoadPlan, routes: list[DrivingRoute | None]) -> RoadPlan:
    days = tuple(_routed_day(d, r) for d, r in zip(plan.days, routes))
    return replace(plan, days=days)


def _routed_day(day: RoadDay, route: DrivingRoute | None) -> RoadDay:
    if route is None:
        return day
    if _unreachable(route):
        return replace(day, drive_source="unroutable")
    total_min = route.hours * 60
    points = day_waypoints(day)
    crow = sum(geodesic_miles(a, b) for a, b in zip(points, points[1:]))

    def minutes(a: float, a_pt, b: float, b_pt) -> int:
        """The routed time shared over the day's legs by their straight-line lengths: the road
        goes through each stop, so no leg is faster than the day."""
        share = geodesic_miles(a_pt, b_pt) / crow if crow > 0 else 1.0
        return int(round(total_min * share))

    stops, depart, arrive = schedule_stops(list(day.stops), day.start_progress, day.anchor_progress, minutes,
                                           start_pt=day.start.point, anchor_pt=day.anchor.point,
                                           drive_total_min=int(round(total_min)))
    return replace(day, drive_miles=round(route.miles, 1), drive_hours=round(route.hours, 2), stops=tuple(stops),
                   depart_min=depart, arrive_min=arrive, drive_source="routed", path=route.geometry)
