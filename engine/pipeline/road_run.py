"""The road-trip pipeline: intent → planner (resolve places, anchors, stops) → verifier (seed 000
invariants) → synthesizer → responder, with the same events, memo and cancellation as city trips."""

from __future__ import annotations

import asyncio
import time
import uuid

import structlog

from engine.canonical import digest
from engine.errors import InfeasiblePlan, ModelOutputError, PlanCancelled, TripwrightError
from engine.models import Citation, EventStatus, PlanFailure, RoadTripIntent
from engine.roadtrip.invariants import verify_road_plan
from engine.roadtrip.itinerary import road_itinerary, validation_report
from engine.roadtrip.osm_stops import CORRIDOR_DATA
from engine.roadtrip.planner import RoadTripPlanner
from engine.verify import blocking

from .control import CancelToken, Checkpoints
from engine.tools.executor import NETWORK_WAIT
from engine.tools.weather import weather_credit

from .events import INFEASIBLE, EventEmitter, both
from .road_notes import with_road_notes


async def run_road_trip(session, intent: RoadTripIntent, on_event, cancel: CancelToken, run_id: str,
                        trace_id: str | None = None, drafter=None):
    """``drafter``: an ``engine.llm.road_drafting.RoadDrafter`` proposing nights and stops."""
    from .run import drafter_cost, heartbeat_to

    trace_id = trace_id or uuid.uuid4().hex
    emitter = EventEmitter(trace_id, run_id, both(on_event, getattr(session, "event_tap", None)),
                           session.take_early_events(),
                           heartbeat_s=getattr(session, "heartbeat_s", 1.0))
    emitter.replan = getattr(session, "last_intent", None) == intent
    session.last_intent = intent
    waiting = NETWORK_WAIT.set(heartbeat_to(emitter))
    corridor_data = CORRIDOR_DATA.set(None)  # the run's own OpenStreetMap cells, set once fetched
    try:
        result = await _run_road_trip(session, intent, emitter, cancel, run_id, trace_id, drafter)
        result.cost_usd = drafter_cost(drafter)
        return result
    finally:
        emitter.close()
        CORRIDOR_DATA.reset(corridor_data)
        NETWORK_WAIT.reset(waiting)


async def _run_road_trip(session, intent: RoadTripIntent, emitter: EventEmitter, cancel: CancelToken, run_id: str,
                         trace_id: str, drafter=None):
    from .run import PlanResult, logged_verification
    checkpoints = Checkpoints()
    session.memo.reset_counts()
    key = digest(intent)
    emitter.emit("intent_extractor", EventStatus.started, args_digest=key)
    emitter.emit("intent_extractor", EventStatus.completed, args_digest=key, duration_ms=0, cache_hit=False,
                 note=f"{intent.origin} → {intent.terminus}, {intent.days} days", progress=5)
    try:
        if intent.bookings is not None:  # a booking on no night of the trip: said before anything is fetched
            from engine.roadtrip.booked_night import check_road_bookings
            check_road_bookings(intent)
        geocoder, degraded = await _geocoder(session, intent)
        planner = RoadTripPlanner(intent, geocoder)  # the trip's ends and corridor, resolved once for the run
        points = planner.outline()
        osm = await _corridor_sights(session, points, emitter, cancel)
        if intent.bookings is not None:  # the traveller's booked motel, placed when it has no point
            from .booked_stage import locate_road_booking
            placed = await locate_road_booking(session, intent, points, osm, emitter)
            key, intent = (key if placed is intent else digest([key, placed])), placed
        if osm is not None:  # the plan depends on which cells OpenStreetMap gave, and when
            key = digest([key, osm.digest, osm.offline, osm.failure])
            CORRIDOR_DATA.set(osm)
        if drafter is None:
            plan = await _node(session, emitter, cancel, "planner", key,
                               lambda: planner.fork(intent, osm=osm).plan(),
                               30, lambda p: f"{len(p.days)} overnight stops along {p.corridor.name}")
        else:
            from .road_draft import drafted_road_plan
            plan = await drafted_road_plan(session, emitter, cancel, planner.fork(intent, osm=osm), drafter, key,
                                           checkpoints)
            # later nodes are memoised by what was planned, not by the intent alone
            key = digest([key, [(d.anchor.name, [s.id for s in d.stops]) for d in plan.days]])
        plan, routing_degraded = await _drive_routes(session, planner.fork(intent, osm=osm), plan, emitter, cancel,
                                                     key)
        degraded = [*degraded, *routing_degraded]
        if any(d.drive_source != "estimated" for d in plan.days):  # later nodes are memoised on what was routed
            key = digest({"intent": key, "drives": [(d.anchor.name, d.drive_source, d.drive_miles) for d in plan.days]})
        checkpoints.save("planner", key, plan)
        violations = await _node(session, emitter, cancel, "verifier", key,
                                 lambda: logged_verification(verify_road_plan(plan)), 70,
                                 lambda v: f"{len(blocking(v))} blocking, {len(v) - len(blocking(v))} advisory")
        checkpoints.save("verifier", key, violations)
        report = validation_report(plan, violations, intent)
        if blocking(violations):
            raise InfeasiblePlan("Unable to produce a road trip that keeps every invariant: "
                                 + "; ".join(v.details["message"] for v in blocking(violations)[:3]),
                                 best=plan, violations=violations)
        rate = session.toolbox.rates_to_usd.get("EUR" if plan.region == "europe" else "USD", 1.0)
        itinerary = await _node(session, emitter, cancel, "synthesizer", key,
                                lambda: road_itinerary(plan, intent, [v for v in violations if not v.blocking],
                                                       trace_id=trace_id, run_id=run_id, rate_to_usd=rate), 95,
                                lambda it: f"{len(it.citations)} citations")
        with structlog.contextvars.bound_contextvars(node="synthesizer"):
            weather, weather_degraded = await _stop_weather(session, itinerary)
            if session.notes.active:  # store reads, off the event loop
                itinerary = await asyncio.to_thread(with_road_notes, itinerary, plan, intent, session.notes)
        degraded = [*degraded, *(["weather"] if weather_degraded else [])]
        itinerary = itinerary.model_copy(update={"trace_id": trace_id, "run_id": run_id, "planning_date": session.today,
                                                 "citations": [*itinerary.citations, *weather],
                                                 "degraded_tools": sorted(set(itinerary.degraded_tools) | set(degraded))})
        checkpoints.save("responder", key, itinerary)
    except PlanCancelled:
        emitter.emit("responder", EventStatus.cancelled, note="cancelled by the user")
        return PlanResult(run_id, trace_id, "cancelled", None, None, None, emitter.events, checkpoints, session.memo.reuse)
    except InfeasiblePlan as exc:
        failure = PlanFailure(message=exc.message, intent=intent, violations=exc.violations, attempts=[],
                              trace_id=trace_id, run_id=run_id)
        emitter.emit("responder", EventStatus.error, note=exc.message, reason=INFEASIBLE)
        emitter.emit("responder", EventStatus.done, progress=100)
        result = PlanResult(run_id, trace_id, "error", None, failure, None, emitter.events, checkpoints, session.memo.reuse)
        result.extra["report"] = validation_report(exc.best, exc.violations, intent)
        return result
    except ModelOutputError as exc:  # the model's answer was invalid twice (seed 002 §5.5): no itinerary
        emitter.emit("responder", EventStatus.error, note=f"{exc.reason}: {exc}", reason=exc.reason)
        emitter.emit("responder", EventStatus.done, progress=100)
        failure = PlanFailure(message=str(exc), reason=exc.reason, intent=intent, violations=[], attempts=[],
                              trace_id=trace_id, run_id=run_id)
        return PlanResult(run_id, trace_id, "error", None, failure, None, emitter.events, checkpoints, session.memo.reuse)
    except TripwrightError as exc:
        emitter.emit("responder", EventStatus.error, note=str(exc))
        emitter.emit("responder", EventStatus.done, progress=100)
        raise
    emitter.emit("responder", EventStatus.done, progress=100, note=f"run {run_id}")
    result = PlanResult(run_id, trace_id, "completed", itinerary, None, None, emitter.events, checkpoints,
                        session.memo.reuse)
    result.extra.update(report=report, road_plan=plan)
    return result


async def _stop_weather(session, itinerary) -> tuple[list[Citation], bool]:
    """Weather at every overnight stop on its night, through the weather ladder (concurrently):
    forecast inside the horizon, typical weather beyond it; a claim per known day."""
    stops = [(day.date, day.anchor.geo, day.anchor.name) for day in itinerary.days if day.anchor is not None and day.anchor.geo is not None]
    answers = await asyncio.gather(*(session.toolbox.weather.for_place(geo, [when]) for when, geo, _ in stops))
    claims = []
    for (when, _, name), answer in zip(stops, answers):
        w = answer.days.get(when)
        if w is not None:
            label = "Typical weather" if w.typical else "Forecast"
            credit = weather_credit(w.provenance)
            claims.append(Citation(claim=f"{label} at {name} {when}: {w.precip_prob:.0%} chance of rain, "
                                         f"{w.temp_c_low:.0f}–{w.temp_c_high:.0f} °C{credit}", provenance=w.provenance))
    return claims, any(a.degraded for a in answers)


MAX_ROUTING_ROUNDS = 3  # route, re-plan without unreachable nights / on real miles, route again


async def _drive_routes(session, planner: RoadTripPlanner, plan, emitter: EventEmitter, cancel: CancelToken,
                        key: str):
    """Real road miles, hours and geometry per day from ``TRIPWRIGHT_ROUTING_URL`` (nothing to do
    when it is unset or the session is offline); nights no road reaches are planned again without
    them, and days the real roads put over the cap are planned again on the real road factor
    (``planner``'s forks: the same corridor)."""
    from engine.tools.osrm import OsrmRouter, routing_base
    base = routing_base()
    if base is None or session.toolbox.network.offline():
        return plan, []
    from engine.roadtrip.driving import apply_routes, over_cap, road_pieces, route_days, unreachable_anchors
    router = OsrmRouter(session.toolbox.network, base)
    avoid, pieces = frozenset(), ()
    for attempt in range(MAX_ROUTING_ROUNDS):
        cancel.raise_if_cancelled()
        started = time.perf_counter()
        emitter.emit("tool_executor", EventStatus.started, args_digest=key, progress=40)
        with structlog.contextvars.bound_contextvars(node="tool_executor"):
            routes, failed = await route_days(plan, session.toolbox.executor, router)
        bad, long_days = unreachable_anchors(plan, routes), over_cap(plan, routes)
        emitter.emit("tool_executor", EventStatus.completed, args_digest=key, progress=45,
                     duration_ms=int((time.perf_counter() - started) * 1000), cache_hit=False,
                     note=f"{sum(1 for r in routes if r is not None and r.found)} of {len(routes)} days routed"
                          + (f"; no road to {', '.join(p.label for p in bad)}" if bad else ""))
        if (not bad and not long_days) or attempt == MAX_ROUTING_ROUNDS - 1:
            return apply_routes(plan, routes), ["routing"] if failed else []
        avoid, pieces = avoid | {p.point for p in bad}, road_pieces(plan, routes) if long_days else pieces
        again = digest({"intent": key, "avoid": sorted(avoid), "pieces": [[round(v, 3) for v in p] for p in pieces]})
        plan = await _node(session, emitter, cancel, "planner", again,
                           lambda: planner.fork(avoid=avoid, road_pieces=pieces, osm=planner.osm).plan(), 30,  # noqa: B023 — awaited here
                           lambda p: f"re-planned on the real roads: {len(p.days)} overnight stops")
    raise AssertionError("unreachable")  # pragma: no cover


CORRIDOR_NODE = "corridor_sights"


async def _corridor_sights(session, points, emitter: EventEmitter, cancel: CancelToken):
    """The corridor's OpenStreetMap cells (issue 20), before the planner runs: cached ones read,
    missing ones fetched through the session's executor when online (at most six queries); None
    when the trip's ends do not resolve (the planner then says why). No OpenStreetMap data keeps
    the plan as it was without it (no degraded tool either): each day's note says why ("offline:
    sights limited to the shipped data", "OpenStreetMap unavailable (…)"), and so does this node's
    event when a fetch failed. Offline with nothing cached, the node says nothing."""
    from engine.places.corridor import ChunkStore, CorridorFetcher
    from engine.roadtrip.osm_stops import BAND_MILES
    if points is None:
        return None
    network = session.toolbox.network
    started = time.perf_counter()
    with structlog.contextvars.bound_contextvars(node=CORRIDOR_NODE):
        fetcher = CorridorFetcher(ChunkStore(), network, session.toolbox.executor)
        if not network.offline():
            emitter.emit(CORRIDOR_NODE, EventStatus.started, progress=8, note="Sights and beds along the way")

        def said(text: str) -> None:
            emitter.emit(CORRIDOR_NODE, EventStatus.running, progress=9, note=text)
        data = await fetcher.ensure(points, band_miles=BAND_MILES, progress=said, cancel=cancel)
    if data.cells or data.queries or data.failure:
        where = f"{len(data.cells)} of {len(data.wanted)} corridor cells ({data.cached} cached, {data.queries} queries)"
        why = f"; OpenStreetMap unavailable: {data.failure}" if data.failure else ""
        emitter.emit(CORRIDOR_NODE, EventStatus.completed, progress=10, cache_hit=data.queries == 0,
                     duration_ms=int((time.perf_counter() - started) * 1000),
                     note=f"{len(data.sights)} sights and {len(data.beds)} places to stay from OpenStreetMap; "
                          f"{where}{why}")
    return data


async def _geocoder(session, intent: RoadTripIntent):
    """The offline gazetteer, with Nominatim's answers (through the executor) for the places it
    does not know; ``["geocode"]`` as degraded when an online lookup was needed and failed."""
    gazetteer = session.geocoder()
    if session.toolbox.network.offline():
        return gazetteer, []
    from engine.geocode.layered import LayeredGeocoder, prefetch
    from engine.geocode.nominatim import NominatimGeocoder
    from engine.tools.network import user_agent
    online = await prefetch(gazetteer, [intent.origin, intent.terminus, *intent.stops], session.toolbox.executor,
                            NominatimGeocoder(user_agent()))
    layered = LayeredGeocoder(gazetteer, online) if online.by_query else gazetteer
    return layered, ["geocode"] if online.failed else []


async def _node(session, emitter: EventEmitter, cancel: CancelToken, node: str, key: str, fn, progress: int, note):
    cancel.raise_if_cancelled()
    with structlog.contextvars.bound_contextvars(node=node):
        return await _node_run(session, emitter, node, key, fn, progress, note)


async def _node_run(session, emitter: EventEmitter, node: str, key: str, fn, progress: int, note):
    started = time.perf_counter()
    found, value = session.memo.get(f"road.{node}", key)
    if not found:
        emitter.emit(node, EventStatus.started, args_digest=key, progress=progress)
        value = fn()
        session.memo.put(f"road.{node}", key, value)
    emitter.emit(node, EventStatus.completed, args_digest=key, duration_ms=int((time.perf_counter() - started) * 1000),
                 cache_hit=found, note=note(value), progress=progress)
    return value
