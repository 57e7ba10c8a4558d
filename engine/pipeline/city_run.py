"""A city trip's run: its pack, bookings and saved places first, then intent → planner (tools,
a model's draft, branches) → selector → tool_executor → verifier ⇄ repair → synthesizer →
responder. The stages and their shares of the progress bar are declared once, in ``STAGES``;
the skeleton (:mod:`.skeleton`) runs them under one error path, memo and event stream.
"""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING, Callable

import structlog

from engine.canonical import digest
from engine.errors import InfeasiblePlan
from engine.facts import TripFacts
from engine.metrics import METRICS
from engine.models import Decision, EventStatus, FXRate, PlanFailure, PlanV1, format_usd
from engine.verify import blocking

from .booked_stage import locate_booked_hotel
from .city_pack_stage import join_city_pack
from .draft_stage import draft_stage
from .saved_places_stage import look_up_saved_places
from .skeleton import Run, Stage, logged_verification
from .synthesizer import synthesize

if TYPE_CHECKING:  # the city planner's modules load on its first run: a road trip never needs them
    from engine.planning.inputs import PlannerInputs
    from engine.repair import RepairResult

PlanEdit = Callable[[PlanV1, TripFacts], PlanV1]


class CityRun(Run):
    def __init__(self, *args, edits: list[PlanEdit], **kw) -> None:
        super().__init__(*args, replan=bool(edits), **kw)
        self.edits = edits
        self.decisions: list[Decision] = []
        self.choices = None  # the model's DraftChoices, when a drafter proposed some
        self.fx: FXRate | None = None  # the trip's currency in USD: looked up once, when the city is known
        self.plan_key = ""  # what the planner's (then the chosen plan's) nodes are memoised on
        self.tools_reused = False  # the tool answers came from the memo
        self.plans: list[PlanV1] = []
        self.removed: frozenset[str] = frozenset()  # sights the traveller's edits took out of the plan
        self.chosen = None
        self.violations = []
        self.fixed: RepairResult | None = None
        self.planner_started = 0.0

    # -- the stages ------------------------------------------------------------------------------
    # The intent is final once these three have run: each returns it completed, the run keeps it.
    async def _pack(self) -> None:  # a city no fixture covers: its OSM pack, cached or fetched
        self.intent = await join_city_pack(self)

    async def _bookings(self) -> None:  # a hotel booked by its address only: where it is
        self.intent = await locate_booked_hotel(self)

    async def _saved_places(self) -> None:  # saved places the city lacks: their OSM hours and kind
        self.intent = await look_up_saved_places(self)

    async def _intent(self) -> None:
        intent = self.intent
        await self.node("intent_extractor", digest(intent), lambda: intent, f"{intent.city}, {intent.days} days",
                        announce=False)

    async def _tools(self) -> None:
        """The planner's tool answers (memoised apart: they depend on where and when, not on the
        budget or locked windows)."""
        from engine.planning.inputs import gather
        intent = self.intent
        self.planner_started = time.perf_counter()
        self.plan_key = digest(["plan", intent])
        with structlog.contextvars.bound_contextvars(node="planner"):
            if ("planner", self.plan_key) not in self.s.memo.store:
                self.emitter.emit("planner", EventStatus.started, args_digest=self.plan_key)
            tools_key = intent.model_copy(update={"budget_usd_cents": 1,
                                                  "prefs": intent.prefs.model_copy(update={"locked_slots": []})})
            locked_ids = [lock.activity_id for lock in intent.prefs.locked_slots]
            inputs, self.tools_reused = await self.memo("tools", digest(["gather", tools_key, locked_ids]),
                                                        lambda: gather(intent, self.s.toolbox))
        if inputs.intent != intent:  # tool answers are shared; the plan follows this run's intent
            inputs = dataclasses.replace(inputs, intent=intent)
        self.inputs = inputs
        self._count_tool_calls(inputs)

    async def _draft(self) -> None:
        with structlog.contextvars.bound_contextvars(node="planner"):
            self.choices = await draft_stage(self, self.inputs)
        if self.choices is not None:
            self.plan_key = digest(["plan", self.intent, repr(self.choices)])

    async def _branches(self) -> None:
        """≤ 4 branches built on the tool answers (or the model's proposal)."""
        inputs, reused = self.inputs, self.tools_reused
        with structlog.contextvars.bound_contextvars(node="planner"):
            self.emitter.emit("planner", EventStatus.running, args_digest=self.plan_key, cache_hit=reused,
                              note=f"{inputs.calls} tool results "
                                   f"({inputs.cache_hits if not reused else inputs.calls} cached)")
            plans, found = await self.memo("planner", self.plan_key, lambda: self._plan(inputs))
            self.checkpoints.save("planner", digest(plans), plans)
            self.emitter.emit("planner", EventStatus.completed, args_digest=self.plan_key, cache_hit=found,
                              duration_ms=int((time.perf_counter() - self.planner_started) * 1000),
                              note=f"Explored {len(plans)} route options: " + ", ".join(p.branch for p in plans))
        self.plans = plans

    async def _select(self) -> None:
        from engine.planning.famous import famous_ids
        from engine.planning.selector import select
        plans, intent, inputs = self.plans, self.intent, self.inputs
        chosen, scored = await self.node("selector", digest(["select", digest(plans)]),
                                         lambda: select(plans, intent, inputs.facts, famous_ids(inputs.city)),
                                         lambda b: f"Selected {b[0].plan.branch} ({format_usd(b[0].cost_cents)})")
        if self.edits:
            from engine.planning.famous import visited
            before = visited(chosen.plan)
            chosen = dataclasses.replace(chosen, plan=self._apply_edits(chosen.plan, inputs))
            self.removed = frozenset(before - visited(chosen.plan))  # what the traveller took out
        self._decide_selection(chosen, scored, inputs.facts)
        self.chosen = chosen
        self.plan_key = digest(chosen.plan)  # once: plans are the largest inputs to hash
        self.checkpoints.save("selector", self.plan_key, chosen.plan)

    async def _enrich(self) -> None:  # time each transfer (transit, cached)
        from engine.schedule import day_legs
        plan, facts = self.chosen.plan, self.inputs.facts
        await self.node("tool_executor", digest(["enrich", self.plan_key]),
                        lambda: sum(len(day_legs(plan, di, facts)) for di in range(len(plan.days))),
                        lambda n: f"{n} transfers timed; weather for {len(self.inputs.weather)} days")

    async def _verify(self) -> None:
        from engine.verify import verify_plan
        plan, intent, facts = self.chosen.plan, self.intent, self.inputs.facts
        self.violations = await self.node(
            "verifier", digest(["verify", self.plan_key, intent]),
            lambda: logged_verification(verify_plan(plan, intent, facts)),
            lambda v: f"{len(blocking(v))} blocking, {len(v) - len(blocking(v))} advisory")
        self.checkpoints.save("verifier", digest(self.violations), plan)

    async def _repair(self) -> None:
        from engine.repair import RepairContext, repair_and_fill
        plan, intent, inputs, violations = self.chosen.plan, self.intent, self.inputs, self.violations
        fixed = await self.node(
            "repair", digest(["repair", self.plan_key, intent, digest(violations)]),
            lambda: repair_and_fill(plan, RepairContext(inputs, intent, inputs.facts), violations),
            lambda r: f"{len(r.diffs)} cycle(s), {sum(len(d.moves) for d in r.diffs)} move(s); "
                      f"{len(blocking(r.violations))} blocking left")
        METRICS.repaired(fixed.diffs, fixed.ok)
        if not fixed.ok:
            raise self._infeasible(fixed)
        self.fixed = fixed

    async def _write(self) -> None:
        fixed = self.fixed
        fixed_key = self.plan_key if fixed.plan is self.chosen.plan else digest(fixed.plan)
        itinerary = await self.node("synthesizer",
                                    digest(["synth", fixed_key, self.intent, digest(fixed.violations),
                                            self.s.notes.revision(self.intent.city)]),
                                    lambda: self._synthesize(fixed, self.inputs),
                                    lambda it: f"{len(it.citations)} citations")
        self.itinerary = itinerary.model_copy(update={"trace_id": self.trace_id, "run_id": self.run_id})
        self.checkpoints.save("responder", fixed_key, fixed.plan)

    STAGES = (Stage("city_pack", lambda run: 0 if run.s.catalog.has_city(run.intent.city) else 30, _pack),
              Stage("bookings", 2, _bookings), Stage("places", 3, _saved_places), Stage("intent", 2, _intent),
              Stage("tools", 15, _tools), Stage("draft", lambda run: 15 if run.drafter is not None else 0, _draft),
              Stage("branches", 10, _branches), Stage("select", 5, _select), Stage("enrich", 5, _enrich),
              Stage("verify", 8, _verify), Stage("repair", 15, _repair), Stage("write", 10, _write))

    # -- the outcome -----------------------------------------------------------------------------
    def final_plan(self) -> PlanV1 | None:
        return self.fixed.plan

    def best_of(self, exc: InfeasiblePlan):
        return exc.best

    def failure(self, exc: InfeasiblePlan) -> PlanFailure:
        from engine.costs import plan_cost
        total = plan_cost(exc.best, self.inputs.facts).total if exc.best is not None and self.inputs else None
        return PlanFailure(message=exc.message, intent=self.intent, violations=exc.violations,
                           attempts=exc.attempts, best_total_usd_cents=total, trace_id=self.trace_id,
                           run_id=self.run_id)

    # -- helpers ---------------------------------------------------------------------------------
    def fx_rate(self, currency: str) -> FXRate:
        """The trip currency's rate to USD (the synthesizer's FX claim): the answer the tools asked
        for once (``Toolbox.rate_of``), handed on — not asked again."""
        if self.fx is None or self.fx.from_currency != currency.upper():
            self.fx = self.s.toolbox.rate_of(currency)
        return self.fx

    def _apply_edits(self, plan: PlanV1, inputs: PlannerInputs) -> PlanV1:
        for edit in self.edits:
            plan = edit(plan, inputs.facts)
        self.emitter.emit("selector", EventStatus.running, note=f"applied {len(self.edits)} user edit(s)")
        return plan

    def _count_tool_calls(self, inputs: PlannerInputs) -> None:
        """Each tool call is a node: reused when the gather node or the tool cache answered it."""
        reused = inputs.calls if self.tools_reused or self.s.last_facts is inputs.facts else inputs.cache_hits
        self.s.memo.count(reused, inputs.calls - reused)
        self.s.last_facts = inputs.facts

    def _plan(self, inputs: PlannerInputs) -> list[PlanV1]:
        if self.choices is not None:
            from engine.planning.proposal import plans_from_proposal
            plans = plans_from_proposal(inputs, self.choices)
            for note in self.choices.notes:  # what the builder could not take from the proposal
                self.emitter.emit("planner", EventStatus.running, note=note)
            return plans
        from engine.planning.branches import enumerate_branches
        from engine.planning.builder import PlanBuilder
        builder = PlanBuilder(inputs, day_memo=self.s.memo)
        return [builder.build(b) for b in enumerate_branches(inputs)]

    def _decide_selection(self, chosen, scored, facts: TripFacts) -> None:
        from engine.planning.selector import selection_rationale
        METRICS.selected(chosen.plan.branch or "only", discarded=len(scored) - 1, fanout=len(scored))
        self.decisions = self._city_decisions() + [Decision(node="selector", selected=chosen.plan.branch,
                                   alternatives_considered=len(scored) - 1,
                                   rationale=selection_rationale(chosen, scored, facts))]

    def _city_decisions(self) -> list[Decision]:
        """A city read from OpenStreetMap says what was assumed of it (hours, prices)."""
        from engine.places.pack_city import PackCity, pack_decision
        raw = self.s.catalog.city(self.intent.city).raw
        if not isinstance(raw, PackCity):
            return []
        shared = getattr(self.s, "place_notes", {}).get(self.intent.city)  # a name other places share: which one
        said = [Decision(node="place", selected=raw.city, alternatives_considered=shared.count("'") // 2,
                         rationale=f"Planning {shared}.")] if shared else []
        return said + [pack_decision(raw)]

    def _synthesize(self, fixed: RepairResult, inputs: PlannerInputs):
        from engine.repair.moves import move_rationale
        decisions = list(self.decisions)
        for diff in fixed.diffs:
            for m in diff.moves:
                decisions.append(Decision(node="repair", selected=m.new_value, alternatives_considered=1,
                                          rationale=move_rationale(m)))
        decisions += [Decision(node="repair", selected=m.new_value, alternatives_considered=1,
                               rationale=f"Added {m.new_value} to fill the time a removal freed.")
                      for m in fixed.filled]
        from engine.planning.famous import famous_decisions
        decisions += famous_decisions(fixed.plan, self.intent, inputs.city, inputs.attractions, self.removed)
        itinerary = synthesize(fixed.plan, self.intent, inputs.facts, decisions=decisions,
                               violations=fixed.violations, repairs=fixed.diffs, trace_id=self.trace_id,
                               run_id=self.run_id, degraded=[*inputs.degraded, *sorted(inputs.facts.omitted_tools)],
                               fx_provenance=self.fx_rate(inputs.facts.currency).provenance,
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

