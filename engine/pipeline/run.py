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
from typing import Callable

from engine.canonical import digest
from engine.catalog import default_catalog
from engine.catalog.catalog import Catalog
from engine.errors import InfeasiblePlan, PlanCancelled, TripwrightError
from engine.facts import TripFacts
from engine.models import (Decision, EventStatus, IntentV1, ItineraryV1, PlanFailure, PlanV1, StreamEvent,
                           Violation, format_usd)
from engine.planning.branches import enumerate_branches
from engine.planning.builder import PlanBuilder
from engine.planning.inputs import PlannerInputs, gather
from engine.planning.selector import select
from engine.repair import RepairContext, RepairResult, repair
from engine.tools.requests import FXRequest
from engine.tools.toolbox import ToolOverrides, Toolbox, build_toolbox
from engine.verify import blocking, verify_plan

from .control import CancelToken, Checkpoints, NodeMemo
from .events import EventCallback, EventEmitter
from .synthesizer import synthesize

PlanEdit = Callable[[PlanV1, TripFacts], PlanV1]

NODES = ("intent_extractor", "planner", "selector", "tool_executor", "verifier", "repair",
         "synthesizer", "responder")


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


class PlanningSession:
    def __init__(self, catalog: Catalog | None = None, *, today: date | None = None,
                 overrides: ToolOverrides | None = None, toolbox: Toolbox | None = None) -> None:
        self.catalog = catalog or default_catalog()
        self.today = today or date.today()
        self.toolbox = toolbox or build_toolbox(self.catalog, today=self.today, overrides=overrides)
        self.memo = NodeMemo()
        self.last_inputs: PlannerInputs | None = None

    async def plan(self, intent: IntentV1, *, on_event: EventCallback | None = None,
                   cancel: CancelToken | None = None, edits: list[PlanEdit] | None = None) -> PlanResult:
        """Plan ``intent``; ``edits`` are user edits applied to the selected plan before it is
        verified and repaired (the map's drag/remove/retime actions and eval perturbations)."""
        run = _Run(self, intent, on_event, cancel or CancelToken(), edits or [])
        return await run.execute()


class _Run:
    def __init__(self, session: PlanningSession, intent: IntentV1, on_event, cancel: CancelToken,
                 edits: list[PlanEdit]) -> None:
        self.s = session
        self.edits = edits
        self.intent = intent
        self.cancel = cancel
        self.trace_id = uuid.uuid4().hex
        self.run_id = str(uuid.uuid4())
        self.emitter = EventEmitter(self.trace_id, self.run_id, on_event)
        self.checkpoints = Checkpoints()
        self.decisions: list[Decision] = []
        self.inputs: PlannerInputs | None = None

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
            self.emitter.emit("responder", EventStatus.error, note=exc.message)
            self.emitter.emit("responder", EventStatus.done, progress=100)
            return self._result("error", None, failure, exc.best)
        self.emitter.emit("responder", EventStatus.done, progress=100, note=f"run {self.run_id}")
        return self._result("completed", itinerary, None, plan)

    def _result(self, status, itinerary, failure, plan) -> PlanResult:
        return PlanResult(run_id=self.run_id, trace_id=self.trace_id, status=status, itinerary=itinerary,
                          failure=failure, plan=plan, events=self.emitter.events,
                          checkpoints=self.checkpoints, reuse=self.s.memo.reuse, inputs=self.inputs)

    async def _node(self, node: str, key_obj, fn, progress: int, note=None):
        """Run one node under memo, cancellation and events; ``fn`` may be sync or async."""
        self.cancel.raise_if_cancelled()
        key = digest(key_obj)
        found, value = self.s.memo.get(node, key)
        started = time.perf_counter()
        if not found:
            if node != "intent_extractor":
                self.emitter.emit(node, EventStatus.started, args_digest=key, progress=progress)
            value = fn()
            if hasattr(value, "__await__"):
                value = await value
            self.s.memo.put(node, key, value)
        ms = int((time.perf_counter() - started) * 1000)
        text = note(value) if callable(note) else note
        self.emitter.emit(node, EventStatus.completed, args_digest=key, duration_ms=ms, cache_hit=found,
                          note=text, progress=progress)
        return value

    async def _stages(self) -> tuple[ItineraryV1, PlanV1]:
        s, intent = self.s, self.intent
        await self._node("intent_extractor", intent, lambda: intent, 5, note=f"{intent.city}, {intent.days} days")
        # Tool answers depend on where and when, not on the budget or the locked windows.
        tools_key = intent.model_copy(update={"budget_usd_cents": 1,
                                              "prefs": intent.prefs.model_copy(update={"locked_slots": []})})
        inputs = await self._node("tool_executor", ["gather", tools_key, [l.activity_id for l in intent.prefs.locked_slots]],
                                  lambda: gather(intent, s.toolbox), 25,
                                  note=lambda i: f"{i.calls} tool calls, {i.cache_hits} cached")
        self.inputs = inputs
        self._count_tool_calls(inputs)
        plans = await self._node("planner", ["plan", intent], lambda: self._plan(inputs), 45,
                                 note=lambda p: f"Explored {len(p)} route options: " + ", ".join(x.branch for x in p))
        self.checkpoints.save("planner", digest(plans), plans)
        best = await self._node("selector", ["select", digest(plans)], lambda: select(plans, intent, inputs.facts), 55,
                                note=lambda b: f"Selected {b[0].plan.branch} ({format_usd(b[0].cost_cents)})")
        chosen, scored = best
        if self.edits:
            edited = chosen.plan
            for edit in self.edits:
                edited = edit(edited, inputs.facts)
            chosen = dataclasses.replace(chosen, plan=edited)
        self._decide_selection(chosen, scored)
        self.checkpoints.save("selector", digest(chosen.plan), chosen.plan)
        violations = await self._node("verifier", ["verify", digest(chosen.plan), intent],
                                      lambda: verify_plan(chosen.plan, intent, inputs.facts), 65,
                                      note=lambda v: f"{len(blocking(v))} blocking, {len(v) - len(blocking(v))} advisory")
        self.checkpoints.save("verifier", digest(violations), chosen.plan)
        fixed: RepairResult = await self._node(
            "repair", ["repair", digest(chosen.plan), intent, digest(violations)],
            lambda: repair(chosen.plan, RepairContext(inputs, intent, inputs.facts), violations), 80,
            note=lambda r: f"{len(r.diffs)} cycle(s), {sum(len(d.moves) for d in r.diffs)} move(s); "
                           f"{len(blocking(r.violations))} blocking left")
        if not fixed.ok:
            raise self._infeasible(fixed)
        itinerary = await self._node("synthesizer", ["synth", digest(fixed.plan), intent, digest(fixed.violations)],
                                     lambda: self._synthesize(fixed, inputs), 95,
                                     note=lambda it: f"{len(it.citations)} citations")
        itinerary = itinerary.model_copy(update={"trace_id": self.trace_id, "run_id": self.run_id})
        self.checkpoints.save("responder", digest(fixed.plan), fixed.plan)
        return itinerary, fixed.plan

    def _count_tool_calls(self, inputs: PlannerInputs) -> None:
        """Each tool call is a node: reused when the gather node or the tool cache answered it."""
        reused = inputs.calls if self.s.last_inputs is inputs else inputs.cache_hits
        self.s.memo.count(reused, inputs.calls - reused)
        self.s.last_inputs = inputs

    def _plan(self, inputs: PlannerInputs) -> list[PlanV1]:
        builder = PlanBuilder(inputs, day_memo=self.s.memo)
        return [builder.build(b) for b in enumerate_branches(inputs)]

    def _decide_selection(self, chosen, scored) -> None:
        self.decisions = [Decision(node="selector", selected=chosen.plan.branch,
                                   alternatives_considered=len(scored) - 1,
                                   rationale=f"score {chosen.score:.2f}, total {format_usd(chosen.cost_cents)}, "
                                             f"{chosen.travel_minutes} min in transit; other branches: "
                                             + ", ".join(f"{x.plan.branch} {x.score:.2f}" for x in scored[1:]))]

    def _synthesize(self, fixed: RepairResult, inputs: PlannerInputs) -> ItineraryV1:
        decisions = list(self.decisions)
        for diff in fixed.diffs:
            for m in diff.moves:
                decisions.append(Decision(node="repair", selected=m.new_value, alternatives_considered=1,
                                          rationale=f"cycle {diff.cycle}: {m.move_type.value} ({m.reason}) "
                                                    f"replaced {m.old_value}"))
        fx = self.s.toolbox.fx.rate(FXRequest(from_currency=inputs.facts.currency, as_of=self.s.today))
        return synthesize(fixed.plan, self.intent, inputs.facts, decisions=decisions,
                          violations=fixed.violations, repairs=fixed.diffs, trace_id=self.trace_id,
                          run_id=self.run_id, degraded=list(self.s.toolbox.degraded), fx_provenance=fx.provenance)

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
