"""A leg with real times where a timetable has them (issue 33 §2): the mode is chosen as offline
(``estimate.py``), then a train, bus or ferry is asked of the MOTIS transit router
(``engine.tools.motis``, ``TRIPWRIGHT_TRANSIT_URL``) through the executor — its cache, timeouts,
one retry and breaker. Found: the leg's departure, arrival, changes, stations, operator and line are
the timetable's (``source="router"``; the fare stays an estimate, said so). A drive is asked of the
OSRM road router (``engine.tools.osrm``, ``TRIPWRIGHT_ROUTING_URL``): its road kilometres, hours
and line (``source="routed"``). Not found, not configured, offline or failed: the estimate, its
``why`` saying which.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo

import structlog

from engine.errors import ToolError
from engine.models import PlannedLeg
from engine.net.network import NetworkState
from engine.tools.executor import ToolExecutor
from engine.models import Geo
from engine.tools.motis import TOOL, MotisRouter, TransitJourney, TransitPlanRequest, transit_base
from engine.tools.osrm import DrivingRoute, OsrmRouter, RouteRequest, routing_base
from engine.tools.provenance import stamp

from .estimate import (LegQuery, ModeOption, _fare_cents, _from_booking, _next_half_hour, check_asked, compared,
                       estimated_leg, hm, option, ranked, score)

log = structlog.get_logger("tripwright.legs")
ROUTED_MODES = ("train", "bus", "ferry")
SERVICE = "Transitous"  # the open router the base URL usually names; any MOTIS server answers alike
KM_PER_MILE = 1.609344
MAX_PATH_POINTS = 400  # a drawn road: every n-th point of the routed geometry, ends kept


def transit_router(network: NetworkState) -> MotisRouter | None:
    """The configured router, or None (unset, or the session is offline)."""
    base = transit_base()
    if base is None or network.offline():
        return None
    return MotisRouter(network, base)


def road_router(network: NetworkState) -> OsrmRouter | None:
    """The configured OSRM road router, or None (unset, or the session is offline)."""
    base = routing_base()
    if base is None or network.offline():
        return None
    return OsrmRouter(network, base)


async def plan_leg_online(q: LegQuery, executor: ToolExecutor, router: MotisRouter | None,
                          roads: OsrmRouter | None = None) -> PlannedLeg:
    """:func:`engine.legs.plan_leg` with the timetable's times where the router has them, and a
    drive's road from ``roads``."""
    if q.booked is not None:
        return _from_booking(q, q.booked)
    check_asked(q)
    options: list[ModeOption] = []
    if q.asked != "best":
        chosen, why = option(q, q.asked), f"{q.asked} as asked"
    else:
        options = ranked(q)
        chosen = options[0]
        why = compared(q, chosen, options[1] if len(options) > 1 else None)
    if chosen.mode == "drive" and roads is not None:
        return await _drive(q, chosen, why, executor, roads)
    if chosen.mode not in ROUTED_MODES:
        return estimated_leg(q, chosen, why)
    if router is None:
        return estimated_leg(q, chosen, f"{why}; no transit router configured or offline")
    request = TransitPlanRequest.of(chosen.from_geo, chosen.to_geo, q.earliest, chosen.mode)  # type: ignore[arg-type]
    try:
        journey, _ = await executor.call(TOOL, router.plan, request, result_type=TransitJourney)
    except ToolError as exc:
        log.info("transit_router_failed", leg=q.index, kind=exc.kind, reason=exc.reason)
        return estimated_leg(q, chosen, f"{why}; the transit router did not answer")
    if not journey.found:
        return estimated_leg(q, chosen, f"{why}; the transit router knows no {chosen.mode} at that time")
    leaves = journey.departure.astimezone(q.earliest.tzinfo)
    if leaves.date() != q.earliest.date():  # the leg's day is fixed by the stays around it
        return estimated_leg(q, chosen, f"{why}; the timetable has no {chosen.mode} left that day "
                                        f"(the next leaves {leaves:%a %H:%M})")
    timed = _as_timed(chosen, journey)
    better = next((o for o in options[1:] if o.mode != chosen.mode and score(o) < score(timed)), None)
    if better is not None:  # the timetable's ride is slower than estimated: the next choice wins
        why = f"{compared(q, better, timed)}: the timetable's {chosen.mode} takes {hm(timed.ride_h)}"
        if better.mode == "drive" and roads is not None:
            return await _drive(q, better, why, executor, roads)
        return estimated_leg(q, better, why)
    return routed_leg(q, chosen, why, journey, request)


def _as_timed(chosen: ModeOption, journey: TransitJourney) -> ModeOption:
    """``chosen`` with the timetable's time on board."""
    ride_h = (journey.arrival - journey.departure).total_seconds() / 3600
    return replace(chosen, ride_h=ride_h)


def routed_leg(q: LegQuery, chosen: ModeOption, why: str, journey: TransitJourney,
               request: TransitPlanRequest) -> PlannedLeg:
    first, last = journey.rides[0], journey.rides[-1]
    estimate = estimated_leg(q, chosen, why)  # for its fare: the router publishes none
    lines = " + ".join(dict.fromkeys(r.line for r in journey.rides if r.line))
    operators = ", ".join(dict.fromkeys(r.operator for r in journey.rides if r.operator))
    changes = "direct" if journey.changes == 0 else f"{journey.changes} change{'s' if journey.changes > 1 else ''}"
    depart, arrive = _local(first.departure, q.earliest.tzinfo), _local(last.arrival, ZoneInfo(q.to_tz))
    payload = {"request": request.model_dump(), "departure": first.departure.isoformat(),
               "arrival": last.arrival.isoformat(), "lines": lines, "changes": journey.changes}
    return PlannedLeg(index=q.index, from_city=q.from_city, to_city=q.to_city, mode=chosen.mode,
                      from_name=first.from_name, to_name=last.to_name, from_geo=first.from_geo, to_geo=last.to_geo,
                      departure=depart, arrival=arrive,
                      changes=journey.changes, distance_km=estimate.distance_km,
                      fare_usd_cents=estimate.fare_usd_cents, source="router", operator=operators[:80],
                      number=lines[:16],
                      why=f"{why}; times from the timetable ({SERVICE}: {lines or chosen.mode} {first.from_name} "
                          f"{depart:%H:%M} → {last.to_name} {arrive:%H:%M}, {changes}); fare estimated",
                      path=journey.path,
                      provenance=stamp(TOOL, payload, data_source="real"))


def _local(t: datetime, zone: tzinfo | None) -> datetime:
    return t.astimezone(zone)


async def _drive(q: LegQuery, chosen: ModeOption, why: str, executor: ToolExecutor, roads: OsrmRouter) -> PlannedLeg:
    ends = RouteRequest.through([(q.from_geo.lat, q.from_geo.lon), (q.to_geo.lat, q.to_geo.lon)])
    try:
        road, _ = await executor.call("routing", roads.route, ends, result_type=DrivingRoute)
    except ToolError as exc:
        log.info("leg_routing_failed", leg=q.index, kind=exc.kind, reason=exc.reason)
        return estimated_leg(q, chosen, f"{why}; the road router did not answer")
    if not road.found:
        return estimated_leg(q, chosen, f"{why}; the road router found no road ({road.reason})")
    km = road.miles * KM_PER_MILE
    depart = _next_half_hour(q.earliest)
    arrive = (depart + timedelta(hours=road.hours)).astimezone(ZoneInfo(q.to_tz)).replace(second=0, microsecond=0)
    step = max(1, len(road.geometry) // MAX_PATH_POINTS)
    points = list(road.geometry[::step])
    if road.geometry and points[-1] != road.geometry[-1]:
        points.append(road.geometry[-1])
    payload = {"request": ends.model_dump(), "miles": round(road.miles, 2), "hours": round(road.hours, 3)}
    return PlannedLeg(index=q.index, from_city=q.from_city, to_city=q.to_city, mode="drive",
                      from_name=chosen.from_name, to_name=chosen.to_name, from_geo=q.from_geo, to_geo=q.to_geo,
                      departure=depart, arrival=max(arrive, depart + timedelta(minutes=1)),
                      distance_km=round(km, 1), fare_usd_cents=_fare_cents("drive", km, q.travellers),
                      source="routed", why=f"{why}; road from the routing service: {km:.0f} km, "
                                           f"{road.hours:.1f} h at the wheel; cost estimated",
                      path=[Geo(lat=lat, lon=lon) for lat, lon in points],
                      provenance=stamp("routing", payload, data_source="real"))
