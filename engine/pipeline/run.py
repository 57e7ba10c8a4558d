"""The planning pipeline: intent → planner → selector → tool_executor → verifier ⇄ repair →
synthesizer → responder, with events, cancellation, checkpoints and node memoisation.

A ``PlanningSession`` keeps its tools and node memo across runs, so a re-plan after an edit
re-runs only the nodes whose inputs changed.
"""

from __future__ import annotations

import dataclasses
import time
import uuid
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Callable

import structlog

from engine.canonical import digest
from engine.catalog import default_catalog
from engine.catalog.catalog import Catalog
from engine.errors import InfeasiblePlan, ModelOutputError, PlanCancelled, TripwrightError
from engine.facts import TripFacts
from engine.notes.hints import NO_NOTES, NotesLookup
from engine.metrics import METRICS
from engine.models import (Decision, EventStatus, IntentV1, RoadTripIntent, ItineraryV1, PlanFailure, PlanV1, StreamEvent,
                           Violation, format_usd)
from engine.tools.executor import NETWORK_WAIT
from engine.tools.requests import FXRequest
from engine.tools.toolbox import ToolOverrides, Toolbox, build_toolbox
from engine.schedule import day_legs
from engine.verify import blocking

if TYPE_CHECKING:  # the city planner's modules load on its first run: a road trip never needs them
    from engine.planning.inputs import PlannerInputs
    from engine.repair import RepairResult

from .control import CancelToken, Checkpoints, NodeMemo
from .events import INFEASIBLE, EarlyEvent, EventCallback, EventEmitter, both
from .synthesizer import synthesize

PlanEdit = Callable[[PlanV1, TripFacts], PlanV1]
log = structlog.get_logger("tripwright.pipeline")

@dataclass
class PlanResult:
    run_id: str
    trace_id: str
    status: str  # completed | error | cancelled
    itinerary: ItineraryV1 | None
    failure: PlanFailure | None
    plan: PlanV1 | None
    events: list[StreamEvent]
    checkpoints: Checkpoints
    reuse: float
    inputs: PlannerInputs | None = None
    extra: dict = field(default_factory=dict)
    cost_usd: float = 0.0  # what the run's model calls cost (priced models only); the run row keeps it


class PlanningSession:
    def __init__(self, catalog: Catalog | None = None, *, today: date | None = None,
                 overrides: ToolOverrides | None = None, toolbox: Toolbox | None = None,
                 geocoder=None, notes: NotesLookup | None = None) -> None:
        self._geocoder = geocoder
        self.notes = notes or NO_NOTES  # destination notes for the synthesizer (NO_NOTES: none)
        self.catalog = catalog or default_catalog()
        self.today = today or date.today()
        self._overrides = overrides
        self._packs = None
        self.toolbox = toolbox or build_toolbox(self.catalog, today=self.today, overrides=overrides)
        self.memo = NodeMemo()
        self.last_facts: TripFacts | None = None
        self.last_intent: IntentV1 | RoadTripIntent | None = None  # a run of the same intent is a re-plan
        self.org_id: str | None = None  # who plans: set by the caller that signed in (log context)
        self.user_id: str | None = None
        self.early_events: list[EarlyEvent] = []  # model nodes run before the next plan (extraction, brief)
        self.heartbeat_s: float | None = 1.0  # a heartbeat event this often while a run goes (seed §8.2)
        self.event_tap: EventCallback | None = None  # sees every event of every run (the CLI's --events)

    def city_packs(self):
        """The OSM city packs (``engine.places.fetch.PackFetcher``) over this session's network
        and executor: the data dir's cache, else one Overpass query."""
        if self._packs is None:
            from engine.places.fetch import PackFetcher
            from engine.places.pack_store import PackStore
            self._packs = PackFetcher(PackStore(), self.toolbox.network, self.toolbox.executor)
        return self._packs

    def use_city_pack(self, pack) -> str:
        """Plan ``pack``'s city (an OSM city pack) from now on; the city's name in the catalog.
        The tools are rebuilt over the larger catalog; the executor (breakers, caches, stats)
        and the network state carry over."""
        from engine.places.catalog_link import catalog_with
        catalog, name = catalog_with(self.catalog, pack, today=self.today)
        if catalog is not self.catalog:
            self.catalog = catalog
            self.toolbox = build_toolbox(catalog, today=self.today, overrides=self._overrides,
                                         executor=self.toolbox.executor, network=self.toolbox.network)
        return name

    def take_early_events(self) -> list[EarlyEvent]:
        """The events of the nodes run before this plan; the next run's stream starts with them."""
        early, self.early_events = self.early_events, []
        return early

    async def plan(self, intent: IntentV1 | RoadTripIntent, *, on_event: EventCallback | None = None,
                   cancel: CancelToken | None = None, edits: list[PlanEdit] | None = None,
                   run_id: str | None = None, drafter=None) -> PlanResult:
        """Plan ``intent``; ``drafter`` (engine.llm.drafting.Drafter) lets a model propose the
        choices the builder then schedules (``plan --llm``); ``edits`` are user edits applied to the selected plan before it is
        verified and repaired (the map's drag/remove/retime actions and eval perturbations).
        ``run_id``: the id the store already gave this run (events and itinerary carry it)."""
        run_id = run_id or str(uuid.uuid4())
        trace_id = uuid.uuid4().hex
        # Every log line of the run carries these (seed §13.1); nodes bind ``node`` as they run.
        with structlog.contextvars.bound_contextvars(trace_id=trace_id, run_id=run_id, org_id=self.org_id,
                                                     user_id=self.user_id, node="intent_extractor"):
            if intent.mode == "road_trip":
                from .road_run import run_road_trip
                return await run_road_trip(self, intent, on_event, cancel or CancelToken(), run_id, trace_id,
                                           drafter=drafter)
            run = _Run(self, intent, on_event, cancel or CancelToken(), edits or [], run_id, trace_id)
            run.drafter = drafter
            waiting = NETWORK_WAIT.set(heartbeat_to(run.emitter))
            try:
                return await run.execute()
            finally:
                run.emitter.close()
                NETWORK_WAIT.reset(waiting)

    def geocoder(self):
        """The offline gazetteer by default (built once into the data dir); injectable."""
        if self._geocoder is None:
            from engine.geocode import default_gazetteer
            self._geocoder = default_gazetteer()
        return self._geocoder


def drafter_cost(drafter) -> float:
    """The model cost of a run so far: its drafter's client meter (extraction included when the
    same client extracted the intent)."""
    return drafter.client.meter.cost_usd if drafter is not None else 0.0


def logged_verification(violations: list[Violation]) -> list[Violation]:
    """Seed §13.1: one line per verification, with its counts."""
    log.info("verification", violations_count=len(violations), blocking_count=len(blocking(violations)))
    METRICS.verified(violations)
    return violations


def heartbeat_to(emitter: EventEmitter):
    """The executor's network-wait hook: the emitter's next heartbeats (one a second, seed §8.2)
    say which tool the run waits for."""
    def waiting(tool: str, started: bool) -> None:
        emitter.waiting(tool, started)
    return waiting


class _Run:
    def __init__(self, session: PlanningSession, intent: IntentV1, on_event, cancel: CancelToken,
                 edits: list[PlanEdit], run_id: str, trace_id: str) -> None:
        self.s = session
        self.edits = edits
        self.intent = intent
        self.cancel = cancel
        self.trace_id = trace_id
        self.run_id = run_id
        self.emitter = EventEmitter(self.trace_id, self.run_id, both(on_event, session.event_tap),
                                    session.take_early_events(),
                                    heartbeat_s=session.heartbeat_s)
        self.emitter.replan = bool(edits) or session.last_intent == intent
        session.last_intent = intent
        self.checkpoints = Checkpoints()
        self.decisions: list[Decision] = []
        self.inputs: PlannerInputs | None = None
        self.drafter = None
        self.choices = None  # the model's DraftChoices, when a drafter proposed some

    async def execute(self) -> PlanResult:
        self.s.memo.reset_counts()
        self.emitter.emit("intent_extractor", EventStatus.started, args_digest=digest(self.intent))
        try:
            itinerary, plan = await self._stages()
        except PlanCancelled:
            self.emitter.emit("responder", EventStatus.cancelled, note="cancelled by the user")
            return self._result("cancelled", None, None, None)
        except InfeasiblePlan as exc:
            failure = self._failure(exc)
            self.emitter.emit("responder", EventStatus.error, note=exc.message, reason=INFEASIBLE)
            self.emitter.emit("responder", EventStatus.done, progress=100)
            return self._result("error", None, failure, exc.best)
        except ModelOutputError as exc:  # invalid twice (seed 002 §5.5): the run stops, no itinerary
            self.emitter.emit("responder", EventStatus.error, note=f"{exc.reason}: {exc}", reason=exc.reason)
            self.emitter.emit("responder", EventStatus.done, progress=100)
            failure = PlanFailure(message=str(exc), reason=exc.reason, intent=self.intent, violations=[],
                                  attempts=[], trace_id=self.trace_id, run_id=self.run_id)
            return self._result("error", None, failure, None)
        except TripwrightError as exc:  # bad input found mid-run: close the stream, then report
            self.emitter.emit("responder", EventStatus.error, note=str(exc))
            self.emitter.emit("responder", EventStatus.done, progress=100)
            raise
        self.emitter.emit("responder", EventStatus.done, progress=100, note=f"run {self.run_id}")
        return self._result("completed", itinerary, None, plan)

    def _result(self, status, itinerary, failure, plan) -> PlanResult:
        return PlanResult(run_id=self.run_id, trace_id=self.trace_id, status=status, itinerary=itinerary,
                          failure=failure, plan=plan, events=self.emitter.events,
                          checkpoints=self.checkpoints, reuse=self.s.memo.reuse, inputs=self.inputs,
                          cost_usd=drafter_cost(self.drafter))

    async def _memo(self, node: str, key: str, fn):
        """Run ``fn`` (sync or async) unless the memo holds its output; returns (value, reused)."""
        self.cancel.raise_if_cancelled()
        found, value = self.s.memo.get(node, key)
        if not found:
            value = fn()
            if hasattr(value, "__await__"):
                value = await value
            self.s.memo.put(node, key, value)
        return value, found

    async def _node(self, node: str, key_obj, fn, progress: int, note=None):
        """One pipeline node under memo, cancellation and events (started → completed)."""
        self.cancel.raise_if_cancelled()
        with structlog.contextvars.bound_contextvars(node=node):
            return await self._node_run(node, key_obj, fn, progress, note)

    async def _node_run(self, node: str, key_obj, fn, progress: int, note):
        key = digest(key_obj)
        started = time.perf_counter()
        if node != "intent_extractor" and (node, key) not in self.s.memo.store:  # a memo hit just completes
            self.emitter.emit(node, EventStatus.started, args_digest=key, progress=progress)
        value, found = await self._memo(node, key, fn)
        ms = int((time.perf_counter() - started) * 1000)
        text = note(value) if callable(note) else note
        self.emitter.emit(node, EventStatus.completed, args_digest=key, duration_ms=ms, cache_hit=found,
                          note=text, progress=progress)
        return value

    async def _stages(self) -> tuple[ItineraryV1, PlanV1]:
        from engine.planning.selector import select
        from engine.repair import RepairContext, repair_and_fill
        from engine.verify import verify_plan
        from .booked_stage import locate_booked_hotel
        from .city_pack_stage import join_city_pack
        from .saved_places_stage import look_up_saved_places
        await join_city_pack(self)  # a city no fixture covers: its OSM pack, cached or fetched
        await locate_booked_hotel(self)  # a hotel booked by its address only: where it is
        await look_up_saved_places(self)  # saved places the city lacks: their OSM hours and kind
        intent = self.intent
        await self._node("intent_extractor", intent, lambda: intent, 5, note=f"{intent.city}, {intent.days} days")
        inputs, plans = await self._planner()
        best = await self._node("selector", ["select", digest(plans)], lambda: select(plans, intent, inputs.facts), 45,
                                note=lambda b: f"Selected {b[0].plan.branch} ({format_usd(b[0].cost_cents)})")
        chosen, scored = best
        if self.edits:
            chosen = dataclasses.replace(chosen, plan=self._apply_edits(chosen.plan, inputs))
        self._decide_selection(chosen, scored)
        plan_key = digest(chosen.plan)  # once: plans are the largest inputs to hash
        self.checkpoints.save("selector", plan_key, chosen.plan)
        await self._node("tool_executor", ["enrich", plan_key], lambda: self._enrich(chosen.plan, inputs), 55,
                         note=lambda n: f"{n} transfers timed; weather for {len(inputs.weather)} days")
        violations = await self._node("verifier", ["verify", plan_key, intent],
                                      lambda: logged_verification(verify_plan(chosen.plan, intent, inputs.facts)), 65,
                                      note=lambda v: f"{len(blocking(v))} blocking, {len(v) - len(blocking(v))} advisory")
        self.checkpoints.save("verifier", digest(violations), chosen.plan)
        fixed: RepairResult = await self._node(
            "repair", ["repair", plan_key, intent, digest(violations)],
            lambda: repair_and_fill(chosen.plan, RepairContext(inputs, intent, inputs.facts), violations), 80,
            note=lambda r: f"{len(r.diffs)} cycle(s), {sum(len(d.moves) for d in r.diffs)} move(s); "
                           f"{len(blocking(r.violations))} blocking left")
        METRICS.repaired(fixed.diffs, fixed.ok)
        if not fixed.ok:
            raise self._infeasible(fixed)
        fixed_key = plan_key if fixed.plan is chosen.plan else digest(fixed.plan)
        itinerary = await self._node("synthesizer", ["synth", fixed_key, intent, digest(fixed.violations),
                                                     self.s.notes.revision(self.intent.city)],
                                     lambda: self._synthesize(fixed, inputs), 95,
                                     note=lambda it: f"{len(it.citations)} citations")
        itinerary = itinerary.model_copy(update={"trace_id": self.trace_id, "run_id": self.run_id})
        self.checkpoints.save("responder", fixed_key, fixed.plan)
        return itinerary, fixed.plan

    async def _planner(self) -> tuple[PlannerInputs, list[PlanV1]]:
        """Planner node: fetch tool data (memoised apart: it depends on where and when, not on
        the budget or locked windows), then build ≤ 4 branches."""
        with structlog.contextvars.bound_contextvars(node="planner"):
            return await self._planner_run()

    async def _planner_run(self) -> tuple[PlannerInputs, list[PlanV1]]:
        from engine.planning.inputs import gather
        intent = self.intent
        started = time.perf_counter()
        plan_key = digest(["plan", intent])
        if ("planner", plan_key) not in self.s.memo.store:
            self.emitter.emit("planner", EventStatus.started, args_digest=plan_key, progress=15)
        tools_key = intent.model_copy(update={"budget_usd_cents": 1,
                                              "prefs": intent.prefs.model_copy(update={"locked_slots": []})})
        locked_ids = [lock.activity_id for lock in intent.prefs.locked_slots]
        inputs, reused = await self._memo("tools", digest(["gather", tools_key, locked_ids]),
                                          lambda: gather(intent, self.s.toolbox))
        if inputs.intent != intent:  # tool answers are shared; the plan follows this run's intent
            inputs = dataclasses.replace(inputs, intent=intent)
        self.inputs = inputs
        self._count_tool_calls(inputs)
        from .draft_stage import draft_stage
        self.choices = await draft_stage(self, inputs)
        if self.choices is not None:
            plan_key = digest(["plan", intent, repr(self.choices)])
        self.emitter.emit("planner", EventStatus.running, args_digest=plan_key, cache_hit=reused, progress=25,
                          note=f"{inputs.calls} tool results ({inputs.cache_hits if not reused else inputs.calls} cached)")
        plans, found = await self._memo("planner", plan_key, lambda: self._plan(inputs))
        self.checkpoints.save("planner", digest(plans), plans)
        self.emitter.emit("planner", EventStatus.completed, args_digest=plan_key, cache_hit=found, progress=35,
                          duration_ms=int((time.perf_counter() - started) * 1000),
                          note=f"Explored {len(plans)} route options: " + ", ".join(p.branch for p in plans))
        return inputs, plans

    def _apply_edits(self, plan: PlanV1, inputs: PlannerInputs) -> PlanV1:
        for edit in self.edits:
            plan = edit(plan, inputs.facts)
        self.emitter.emit("selector", EventStatus.running, progress=50,
                          note=f"applied {len(self.edits)} user edit(s)")
        return plan

    def _enrich(self, plan: PlanV1, inputs: PlannerInputs) -> int:  # time each transfer (transit, cached)
        return sum(len(day_legs(plan, di, inputs.facts)) for di in range(len(plan.days)))

    def _count_tool_calls(self, inputs: PlannerInputs) -> None:
        """Each tool call is a node: reused when the gather node or the tool cache answered it."""
        reused = inputs.calls if self.s.last_facts is inputs.facts else inputs.cache_hits
        self.s.memo.count(reused, inputs.calls - reused)
        self.s.last_facts = inputs.facts

    def _plan(self, inputs: PlannerInputs) -> list[PlanV1]:
        if self.choices is not None:
            from engine.planning.proposal import plans_from_proposal
            plans = plans_from_proposal(inputs, self.choices)
            for note in self.choices.notes:  # what the builder could not take from the proposal
                self.emitter.emit("planner", EventStatus.running, progress=30, note=note)
            return plans
        from engine.planning.branches import enumerate_branches
        from engine.planning.builder import PlanBuilder
        builder = PlanBuilder(inputs, day_memo=self.s.memo)
        return [builder.build(b) for b in enumerate_branches(inputs)]

    def _decide_selection(self, chosen, scored) -> None:
        METRICS.selected(chosen.plan.branch or "only", discarded=len(scored) - 1, fanout=len(scored))
        self.decisions = self._city_decisions() + [Decision(node="selector", selected=chosen.plan.branch,
                                   alternatives_considered=len(scored) - 1,
                                   rationale=f"score {chosen.score:.2f}, total {format_usd(chosen.cost_cents)}, "
                                             f"{chosen.travel_minutes} min in transit; other branches: "
                                             + ", ".join(f"{x.plan.branch} {x.score:.2f}" for x in scored[1:]))]

    def _city_decisions(self) -> list[Decision]:
        """A city read from OpenStreetMap says what was assumed of it (hours, prices)."""
        from engine.places.pack_city import PackCity, pack_decision
        raw = self.s.catalog.city(self.intent.city).raw
        return [pack_decision(raw)] if isinstance(raw, PackCity) else []

    def _synthesize(self, fixed: RepairResult, inputs: PlannerInputs) -> ItineraryV1:
        decisions = list(self.decisions)
        for diff in fixed.diffs:
            for m in diff.moves:
                decisions.append(Decision(node="repair", selected=m.new_value, alternatives_considered=1,
                                          rationale=f"cycle {diff.cycle}: {m.move_type.value} ({m.reason}) "
                                                    f"replaced {m.old_value}"))
        decisions += [Decision(node="repair", selected=m.new_value, alternatives_considered=1,
                               rationale="fills the time a removal freed") for m in fixed.filled]
        fx = self.s.toolbox.rate_now(FXRequest(from_currency=inputs.facts.currency, as_of=self.s.today))
        itinerary = synthesize(fixed.plan, self.intent, inputs.facts, decisions=decisions,
                               violations=fixed.violations, repairs=fixed.diffs, trace_id=self.trace_id,
                               run_id=self.run_id, degraded=[*inputs.degraded, *sorted(inputs.facts.omitted_tools)],
                               fx_provenance=fx.provenance,
                               notes=self.s.notes)
        return itinerary.model_copy(update={"planning_date": self.s.today})  # verify re-derives as-of this day

    def _infeasible(self, fixed: RepairResult) -> InfeasiblePlan:
        left = blocking(fixed.violations)
        budget = next((v for v in left if v.kind.value == "budget_exceeded"), None)
        if budget is not None:
            message = (f"Unable to meet budget constraint: the cheapest plan found costs "
                       f"{format_usd(budget.details['total_usd_cents'])}, over the "
                       f"{format_usd(budget.details['budget_usd_cents'])} budget after "
                       f"{sum(len(d.moves) for d in fixed.diffs)} repair moves")
        else:
            message = (f"Unable to produce a feasible plan: {len(left)} blocking violation(s) remain after "
                       f"{len(fixed.diffs)} repair cycle(s): " + "; ".join(v.details.get("message", v.reason) for v in left[:3]))
        return InfeasiblePlan(message, best=fixed.plan, violations=fixed.violations, attempts=fixed.diffs)

    def _failure(self, exc: InfeasiblePlan) -> PlanFailure:
        from engine.costs import plan_cost
        total = plan_cost(exc.best, self.inputs.facts).total if exc.best is not None and self.inputs else None
        return PlanFailure(message=exc.message, intent=self.intent, violations=exc.violations,
                           attempts=exc.attempts, best_total_usd_cents=total, trace_id=self.trace_id,
                           run_id=self.run_id)
