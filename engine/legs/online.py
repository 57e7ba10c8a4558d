"""A leg with real times where a timetable has them (issue 33 §2): the mode is chosen as offline
(``estimate.py``), then a train, bus or ferry is asked of the MOTIS transit router
(``engine.tools.motis``, ``TRIPWRIGHT_TRANSIT_URL``) through the executor — its cache, timeouts,
one retry and breaker. Found: the leg's departure, arrival, changes, stations, operator and line are
the timetable's (``source="router"``; the fare stays an estimate, said so). Not found, not
configured, offline or failed: the estimate, its ``why`` saying which.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from zoneinfo import ZoneInfo

import structlog

from engine.errors import ToolError
from engine.models import PlannedLeg
from engine.net.network import NetworkState
from engine.tools.executor import ToolExecutor
from engine.tools.motis import TOOL, MotisRouter, TransitJourney, TransitPlanRequest, transit_base
from engine.tools.provenance import stamp

from .estimate import LegQuery, ModeOption, _from_booking, check_asked, choose, estimated_leg, option

log = structlog.get_logger("tripwright.legs")
ROUTED_MODES = ("train", "bus", "ferry")
SERVICE = "Transitous"  # the open router the base URL usually names; any MOTIS server answers alike


def transit_router(network: NetworkState) -> MotisRouter | None:
    """The configured router, or None (unset, or the session is offline)."""
    base = transit_base()
    if base is None or network.offline():
        return None
    return MotisRouter(network, base)


async def plan_leg_online(q: LegQuery, executor: ToolExecutor, router: MotisRouter | None) -> PlannedLeg:
    """:func:`engine.legs.plan_leg` with the timetable's times where the router has them."""
    if q.booked is not None:
        return _from_booking(q, q.booked)
    check_asked(q)
    if q.asked != "best":
        chosen, why = option(q, q.asked), f"{q.asked} as asked"
    else:
        chosen, why = choose(q)
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
    return routed_leg(q, chosen, why, journey, request)


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
