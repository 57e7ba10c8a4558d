"""A road trip's run: intent → corridor (the trip's ends, its OpenStreetMap cells) → bookings →
planner (resolve places, anchors, stops; or a model's draft) → routes → verifier (seed 000
invariants) → synthesizer → responder. The stages and their shares of the progress bar are
declared once, in ``STAGES``; the skeleton (:mod:`.skeleton`) runs them under the same error
path, memo and event stream as a city trip's. The corridor's OpenStreetMap cells are fetched once
and handed to every planner of the run (``osm=``)."""

from __future__ import annotations

import asyncio
import time

import structlog

from engine.canonical import digest
from engine.errors import InfeasiblePlan
from engine.models import Citation, EventStatus, PlanFailure
from engine.roadtrip.invariants import verify_road_plan
from engine.roadtrip.itinerary import road_itinerary, validation_report
from engine.roadtrip.planner import RoadTripPlanner
from engine.tools.weather import weather_credit
from engine.verify import blocking

from .booked_stage import locate_road_booking
from .road_draft import drafted_road_plan
from .road_notes import with_road_notes
from .skeleton import Run, Stage, logged_verification

CORRIDOR_NODE = "corridor_sights"
MAX_ROUTING_ROUNDS = 3  # route, re-plan without unreachable nights / on real miles, route again


class RoadRun(Run):
    MEMO_SPACE = "road."

    def __init__(self, *args, **kw) -> None:
        super().__init__(*args, **kw)
        self.key = digest(self.intent)  # what later nodes are memoised on: grows with what the run learns
        self.degraded: list[str] = []
        self.planner: RoadTripPlanner | None = None  # the trip's ends and corridor, resolved once for the run
        self.points = None  # the corridor's outline (None: the trip's ends do not resolve)
        self.osm = None  # the corridor's OpenStreetMap cells, fetched once
        self.plan = None
        self.violations: list = []
        self.report = None

    # -- the stages ------------------------------------------------------------------------------
    async def _intent(self) -> None:
        intent = self.intent
        self.emitter.emit("intent_extractor", EventStatus.completed, args_digest=self.key, duration_ms=0,
                          cache_hit=False, note=f"{intent.origin} → {intent.terminus}, {intent.days} days")
        if intent.bookings is not None:  # a booking on no night of the trip: said before anything is fetched
            from engine.roadtrip.booked_night import check_road_bookings
            check_road_bookings(intent)

    async def _corridor(self) -> None:
        geocoder, self.degraded = await self._geocoder()
        self.planner = RoadTripPlanner(self.intent, geocoder)
        self.points = self.planner.outline()
        self.osm = await self._corridor_sights()

    async def _bookings(self) -> None:
        osm = self.osm
        if self.intent.bookings is not None:  # the traveller's booked motel, placed when it has no point
            placed = await locate_road_booking(self.s, self.intent, self.points, osm, self.emitter)
            self.key = self.key if placed is self.intent else digest([self.key, placed])
            self.intent = placed
        if osm is not None:  # the plan depends on which cells OpenStreetMap gave, and when
            self.key = digest([self.key, osm.digest, osm.offline, osm.failure])

    async def _plan(self) -> None:
        planner = self.planner.fork(self.intent, osm=self.osm)
        if self.drafter is None:
            self.plan = await self.node("planner", self.key, planner.plan,
                                        lambda p: f"{len(p.days)} overnight stops along {p.corridor.name}")
            return
        self.plan = await drafted_road_plan(self, planner, self.key)
        # later nodes are memoised by what was planned, not by the intent alone
        self.key = digest([self.key, [(d.anchor.name, [s.id for s in d.stops]) for d in self.plan.days]])

    async def _routes(self) -> None:
        self.plan, routing_degraded = await self._drive_routes(self.planner.fork(self.intent, osm=self.osm))
        self.degraded = [*self.degraded, *routing_degraded]
        if any(d.drive_source != "estimated" for d in self.plan.days):  # later nodes: memoised on what was routed
            self.key = digest({"intent": self.key,
                               "drives": [(d.anchor.name, d.drive_source, d.drive_miles) for d in self.plan.days]})
        self.checkpoints.save("planner", self.key, self.plan)

    async def _verify(self) -> None:
        plan = self.plan
        violations = await self.node("verifier", self.key, lambda: logged_verification(verify_road_plan(plan)),
                                     lambda v: f"{len(blocking(v))} blocking, {len(v) - len(blocking(v))} advisory")
        self.checkpoints.save("verifier", self.key, violations)
        self.violations = violations
        self.report = validation_report(plan, violations, self.intent)
        if blocking(violations):
            raise InfeasiblePlan("Unable to produce a road trip that keeps every invariant: "
                                 + "; ".join(v.details["message"] for v in blocking(violations)[:3]),
                                 best=plan, violations=violations)

    async def _write(self) -> None:
        plan, intent, session = self.plan, self.intent, self.s
        advisory = [v for v in self.violations if not v.blocking]
        rate = session.toolbox.rates_to_usd.get("EUR" if plan.region == "europe" else "USD", 1.0)
        itinerary = await self.node("synthesizer", self.key,
                                    lambda: road_itinerary(plan, intent, advisory, trace_id=self.trace_id,
                                                           run_id=self.run_id, rate_to_usd=rate),
                                    lambda it: f"{len(it.citations)} citations")
        self.itinerary = itinerary

    async def _weather_and_notes(self) -> None:
        """Weather at each night's stop and the destination notes: asked on every run (a forecast
        and the notes change between runs; the synthesizer's memo does not hold them)."""
        itinerary, plan, intent, session = self.itinerary, self.plan, self.intent, self.s
        with structlog.contextvars.bound_contextvars(node="synthesizer"):
            weather, weather_degraded = await self._stop_weather(itinerary)
            if session.notes.active:  # store reads, off the event loop
                itinerary = await asyncio.to_thread(with_road_notes, itinerary, plan, intent, session.notes)
        degraded = [*self.degraded, *(["weather"] if weather_degraded else [])]
        self.itinerary = itinerary.model_copy(update={
            "trace_id": self.trace_id, "run_id": self.run_id, "planning_date": session.today,
            "citations": [*itinerary.citations, *weather],
            "degraded_tools": sorted(set(itinerary.degraded_tools) | set(degraded))})
        self.checkpoints.save("responder", self.key, self.itinerary)

    STAGES = (Stage("intent", 2, _intent),
              Stage("corridor", lambda run: 3 if run.s.toolbox.network.offline() else 20, _corridor),
              Stage("bookings", 3, _bookings),
              Stage("planner", lambda run: 45 if run.drafter is not None else 25, _plan),  # a draft: a model call
              Stage("routes", 15, _routes), Stage("verify", 10, _verify),
              Stage("write", 15, _write), Stage("weather", 10, _weather_and_notes))

    # -- the outcome -----------------------------------------------------------------------------
    def completed_extra(self) -> dict:
        return {"report": self.report, "road_plan": self.plan}

    def failure(self, exc: InfeasiblePlan) -> PlanFailure:
        return PlanFailure(message=exc.message, intent=self.intent, violations=exc.violations, attempts=[],
                           trace_id=self.trace_id, run_id=self.run_id)

    def failure_extra(self, exc: InfeasiblePlan) -> dict:
        return {"report": validation_report(exc.best, exc.violations, self.intent)}

    # -- helpers ---------------------------------------------------------------------------------
    async def _geocoder(self):
        """The offline gazetteer, with Nominatim's answers (through the executor) for the places it
        does not know; ``["geocode"]`` as degraded when an online lookup was needed and failed."""
        session, intent = self.s, self.intent
        gazetteer = session.geocoder()
        if session.toolbox.network.offline():
            return gazetteer, []
        from engine.geocode.layered import LayeredGeocoder, prefetch
        from engine.geocode.nominatim import NominatimGeocoder
        from engine.net.network import user_agent
        online = await prefetch(gazetteer, [intent.origin, intent.terminus, *intent.stops], session.toolbox.executor,
                                NominatimGeocoder(user_agent()))
        layered = LayeredGeocoder(gazetteer, online) if online.by_query else gazetteer
        return layered, ["geocode"] if online.failed else []

    async def _corridor_sights(self):
        """The corridor's OpenStreetMap cells (issue 20), before the planner runs: cached ones read,
        missing ones fetched through the session's executor when online (at most six queries); None
        when the trip's ends do not resolve (the planner then says why). No OpenStreetMap data keeps
        the plan as it was without it (no degraded tool either): each day's note says why ("offline:
        sights limited to the shipped data", "OpenStreetMap unavailable (…)"), and so does this node's
        event when a fetch failed. Offline with nothing cached, the node says nothing."""
        from engine.places.corridor import ChunkStore, CorridorFetcher
        from engine.roadtrip.osm_stops import BAND_MILES
        if self.points is None:
            return None
        network, emitter = self.s.toolbox.network, self.emitter
        started = time.perf_counter()
        with structlog.contextvars.bound_contextvars(node=CORRIDOR_NODE):
            fetcher = CorridorFetcher(ChunkStore(), network, self.s.toolbox.executor)
            if not network.offline():
                emitter.emit(CORRIDOR_NODE, EventStatus.started, note="Sights and beds along the way")

            def said(text: str) -> None:
                emitter.emit(CORRIDOR_NODE, EventStatus.running, fraction=0.5, note=text)
            data = await fetcher.ensure(self.points, band_miles=BAND_MILES, progress=said, cancel=self.cancel)
        if data.cells or data.queries or data.failure:
            where = f"{len(data.cells)} of {len(data.wanted)} corridor cells ({data.cached} cached, {data.queries} queries)"
            why = f"; OpenStreetMap unavailable: {data.failure}" if data.failure else ""
            emitter.emit(CORRIDOR_NODE, EventStatus.completed, cache_hit=data.queries == 0,
                         duration_ms=int((time.perf_counter() - started) * 1000),
                         note=f"{len(data.sights)} sights and {len(data.beds)} places to stay from OpenStreetMap; "
                              f"{where}{why}")
        return data

    async def _drive_routes(self, planner: RoadTripPlanner):
        """Real road miles, hours and geometry per day from ``TRIPWRIGHT_ROUTING_URL`` (nothing to do
        when it is unset or the session is offline); nights no road reaches are planned again without
        them, and days the real roads put over the cap are planned again on the real road factor
        (``planner``'s forks: the same corridor)."""
        from engine.tools.osrm import OsrmRouter, routing_base
        session, plan, key, emitter = self.s, self.plan, self.key, self.emitter
        base = routing_base()
        if base is None or session.toolbox.network.offline():
            return plan, []
        from engine.roadtrip.driving import apply_routes, over_cap, road_pieces, route_days, unreachable_anchors
        router = OsrmRouter(session.toolbox.network, base)
        avoid, pieces = frozenset(), ()
        for attempt in range(MAX_ROUTING_ROUNDS):
            self.cancel.raise_if_cancelled()
            started = time.perf_counter()
            emitter.emit("tool_executor", EventStatus.started, args_digest=key,
                         fraction=attempt / MAX_ROUTING_ROUNDS)
            with structlog.contextvars.bound_contextvars(node="tool_executor"):
                routes, failed = await route_days(plan, session.toolbox.executor, router)
            bad, long_days = unreachable_anchors(plan, routes), over_cap(plan, routes)
            emitter.emit("tool_executor", EventStatus.completed, args_digest=key,
                         fraction=(attempt + 0.5) / MAX_ROUTING_ROUNDS,
                         duration_ms=int((time.perf_counter() - started) * 1000), cache_hit=False,
                         note=f"{sum(1 for r in routes if r is not None and r.found)} of {len(routes)} days routed"
                              + (f"; no road to {', '.join(p.label for p in bad)}" if bad else ""))
            if (not bad and not long_days) or attempt == MAX_ROUTING_ROUNDS - 1:
                return apply_routes(plan, routes), ["routing"] if failed else []
            avoid, pieces = avoid | {p.point for p in bad}, road_pieces(plan, routes) if long_days else pieces
            again = digest({"intent": key, "avoid": sorted(avoid), "pieces": [[round(v, 3) for v in p] for p in pieces]})
            replanner = planner.fork(avoid=avoid, road_pieces=pieces, osm=planner.osm)
            plan = await self.node("planner", again, replanner.plan,
                                   lambda p: f"re-planned on the real roads: {len(p.days)} overnight stops")
        raise AssertionError("unreachable")  # pragma: no cover

    async def _stop_weather(self, itinerary) -> tuple[list[Citation], bool]:
        """Weather at every overnight stop on its night, through the weather ladder (concurrently):
        forecast inside the horizon, typical weather beyond it; a claim per known day."""
        stops = [(day.date, day.anchor.geo, day.anchor.name) for day in itinerary.days if day.anchor is not None and day.anchor.geo is not None]
        answers = await asyncio.gather(*(self.s.toolbox.weather.for_place(geo, [when]) for when, geo, _ in stops))
        claims = []
        for (when, _, name), answer in zip(stops, answers):
            w = answer.days.get(when)
            if w is not None:
                label = "Typical weather" if w.typical else "Forecast"
                credit = weather_credit(w.provenance)
                claims.append(Citation(claim=f"{label} at {name} {when}: {w.precip_prob:.0%} chance of rain, "
                                             f"{w.temp_c_low:.0f}–{w.temp_c_high:.0f} °C{credit}", provenance=w.provenance))
        return claims, any(a.degraded for a in answers)
