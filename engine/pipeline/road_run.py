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
from engine.roadtrip.planner import plan_road_trip
from engine.verify import blocking

from .control import CancelToken, Checkpoints
from engine.tools.executor import NETWORK_WAIT

from .events import INFEASIBLE, EventEmitter


async def run_road_trip(session, intent: RoadTripIntent, on_event, cancel: CancelToken, run_id: str,
                        trace_id: str | None = None, drafter=None):
    """``drafter``: an ``engine.llm.road_drafting.RoadDrafter`` proposing nights and stops."""
    from .run import drafter_cost, heartbeat_to

    trace_id = trace_id or uuid.uuid4().hex
    emitter = EventEmitter(trace_id, run_id, on_event)
    waiting = NETWORK_WAIT.set(heartbeat_to(emitter))
    try:
        result = await _run_road_trip(session, intent, emitter, cancel, run_id, trace_id, drafter)
        result.cost_usd = drafter_cost(drafter)
        return result
    finally:
        NETWORK_WAIT.reset(waiting)


async def _run_road_trip(session, intent: RoadTripIntent, emitter: EventEmitter, cancel: CancelToken, run_id: str,
                         trace_id: str, drafter=None):
    from .run import PlanResult
    checkpoints = Checkpoints()
    session.memo.reset_counts()
    key = digest(intent)
    emitter.emit("intent_extractor", EventStatus.started, args_digest=key)
    emitter.emit("intent_extractor", EventStatus.completed, args_digest=key, duration_ms=0, cache_hit=False,
                 note=f"{intent.origin} → {intent.terminus}, {intent.days} days", progress=5)
    try:
        geocoder, degraded = await _geocoder(session, intent)
        if drafter is None:
            plan = await _node(session, emitter, cancel, "planner", key, lambda: plan_road_trip(intent, geocoder),
                               30, lambda p: f"{len(p.days)} overnight stops along {p.corridor.name}")
        else:
            from .road_draft import drafted_road_plan
            plan = await drafted_road_plan(session, emitter, cancel, intent, geocoder, drafter, key, checkpoints)
            # later nodes are memoised by what was planned, not by the intent alone
            key = digest([key, [(d.anchor.name, [s.id for s in d.stops]) for d in plan.days]])
        checkpoints.save("planner", key, plan)
        violations = await _node(session, emitter, cancel, "verifier", key, lambda: verify_road_plan(plan), 70,
                                 lambda v: f"{len(blocking(v))} blocking, {len(v) - len(blocking(v))} advisory")
        checkpoints.save("verifier", key, violations)
        report = validation_report(plan, violations, intent)
        if blocking(violations):
            raise InfeasiblePlan(f"Unable to produce a road trip that keeps every invariant: "
                                 + "; ".join(v.details["message"] for v in blocking(violations)[:3]),
                                 best=plan, violations=violations)
        rate = session.toolbox.rates_to_usd.get("EUR" if plan.region == "europe" else "USD", 1.0)
        itinerary = await _node(session, emitter, cancel, "synthesizer", key,
                                lambda: road_itinerary(plan, intent, [v for v in violations if not v.blocking],
                                                       trace_id=trace_id, run_id=run_id, rate_to_usd=rate), 95,
                                lambda it: f"{len(it.citations)} citations")
        with structlog.contextvars.bound_contextvars(node="synthesizer"):
            weather, weather_degraded = await _stop_weather(session, itinerary)
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
            credit = " (weather data by Open-Meteo.com, CC BY 4.0)" if w.provenance.ref_id == "open-meteo" else ""
            claims.append(Citation(claim=f"{label} at {name} {when}: {w.precip_prob:.0%} chance of rain, "
                                         f"{w.temp_c_low:.0f}–{w.temp_c_high:.0f} °C{credit}", provenance=w.provenance))
    return claims, any(a.degraded for a in answers)


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
