"""One run of the planning pipeline, whatever the kind of trip: the stages a kind declares (in
order, each with its share of the progress bar) run one after the other under one error path,
one node memo and one event stream with its heartbeat.

A kind of trip is a subclass of :class:`Run` with ``STAGES``: ``Stage(name, weight, method)``.
The skeleton enters each stage on the emitter (so every event of the stage lands inside the
stage's share of the bar), checks cancellation between stages (a cancel raises
``PlanCancelled`` from there, or from inside a stage's awaits; the event callback asks for a cancel
by raising ``PlanCancelled``), and turns the run's outcome —
completed, cancelled, infeasible, an invalid model answer, bad input found mid-run — into the
closing events and a :class:`PlanResult`. Facts the stages share (the FX rate, the pack, the
corridor's OpenStreetMap cells) live on the run object: looked up once, handed on.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Awaitable, Callable, ClassVar

import structlog

from engine.cancel import CancelToken
from engine.canonical import digest
from engine.errors import InfeasiblePlan, ModelOutputError, PlanCancelled, TripwrightError
from engine.metrics import METRICS
from engine.models import EventStatus, ItineraryV1, PlanFailure, PlanV1, StreamEvent, Violation
from engine.tools.executor import NETWORK_WAIT
from engine.verify import blocking

from .control import Checkpoints
from .events import INFEASIBLE, EventCallback, EventEmitter, both

if TYPE_CHECKING:
    from engine.planning.inputs import PlannerInputs

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


@dataclass(frozen=True)
class Stage:
    """One step of a run: its name, its weight on the progress bar (a number, or a function of
    the run when the step's cost depends on it: a fetch that only an unknown city needs), and
    what it does (an async method of the run, reading and writing the run's state)."""

    name: str
    weight: float | Callable[[Any], float]
    step: Callable[[Any], Awaitable[None]]

    def weight_in(self, run) -> float:
        return self.weight(run) if callable(self.weight) else self.weight


def bar_spans(stages: tuple[Stage, ...], run) -> list[tuple[float, float]]:
    """Each stage's (start, share) of a 0–100 bar, in proportion to its weight in ``run``."""
    weights = [s.weight_in(run) for s in stages]
    total = sum(weights) or 1.0
    spans, start = [], 0.0
    for weight in weights:
        share = 100.0 * weight / total
        spans.append((start, share))
        start += share
    return spans


def cancel_on_request(callback: EventCallback | None, cancel: CancelToken) -> EventCallback | None:
    """``callback``, where raising ``PlanCancelled`` asks to cancel the run: the request goes to
    ``cancel`` and the event stream goes on, so the run stops at its next stage or node boundary
    (an awaited model call at once) through its one cancel path."""
    if callback is None:
        return None

    def asking(event: StreamEvent) -> None:
        try:
            callback(event)
        except PlanCancelled:
            cancel.cancel()
    return asking


def drafter_cost(drafter) -> float:
    """The model cost of a run so far: its drafter's client meter (extraction included when the
    same client extracted the intent)."""
    return drafter.client.meter.cost_usd if drafter is not None else 0.0


def logged_verification(violations: list[Violation]) -> list[Violation]:
    """Seed §13.1: one line per verification, with its counts."""
    log.info("verification", violations_count=len(violations), blocking_count=len(blocking(violations)))
    METRICS.verified(violations)
    return violations


class Run:
    """The skeleton; a kind of trip declares ``STAGES`` and ``MEMO_SPACE`` and builds its result.
    ``session``: the ``PlanningSession`` (its tools, memo, notes, catalog and event tap)."""

    STAGES: ClassVar[tuple[Stage, ...]] = ()
    MEMO_SPACE: ClassVar[str] = ""  # prefix of this kind's node names in the session's memo

    def __init__(self, session, intent, on_event: EventCallback | None, cancel: CancelToken,
                 run_id: str, trace_id: str, *, drafter=None, replan: bool = False,
                 emitter: EventEmitter | None = None) -> None:
        self.s = session
        self.intent = intent
        self.cancel = cancel
        self.run_id = run_id
        self.trace_id = trace_id
        self.drafter = drafter
        self.checkpoints = Checkpoints()
        self.inputs: PlannerInputs | None = None
        if emitter is not None:  # a part of another run (a multi-city trip's stay): its stream, its bar
            self.emitter = emitter
            return
        self.emitter = EventEmitter(trace_id, run_id, both(cancel_on_request(on_event, cancel),
                                                           cancel_on_request(session.event_tap, cancel)),
                                    session.take_early_events(), heartbeat_s=session.heartbeat_s)
        self.emitter.replan = replan or session.last_intent == intent
        session.last_intent = intent

    # -- the skeleton ------------------------------------------------------------------------------
    async def execute(self) -> PlanResult:
        """Every stage in order, then the closing events; the executor's network waits name the
        tool in the run's heartbeats meanwhile."""
        waiting = NETWORK_WAIT.set(self.emitter.waiting)
        try:
            return await self._outcome()
        finally:
            self.emitter.close()
            NETWORK_WAIT.reset(waiting)

    async def _outcome(self) -> PlanResult:
        self.s.memo.reset_counts()
        self.emitter.emit("intent_extractor", EventStatus.started, args_digest=digest(self.intent))
        try:
            for stage, (start, share) in zip(self.STAGES, bar_spans(self.STAGES, self)):
                self.cancel.raise_if_cancelled()
                self.emitter.enter(start, share)
                await stage.step(self)
        except PlanCancelled:
            self.emitter.emit("responder", EventStatus.cancelled, note="cancelled by the user")
            return self._result("cancelled")
        except InfeasiblePlan as exc:
            failure = self.failure(exc)
            self.emitter.emit("responder", EventStatus.error, note=exc.message, reason=INFEASIBLE)
            self.emitter.emit("responder", EventStatus.done)
            return self._result("error", failure=failure, plan=self.best_of(exc), extra=self.failure_extra(exc))
        except ModelOutputError as exc:  # invalid twice (seed 002 §5.5): the run stops, no itinerary
            self.emitter.emit("responder", EventStatus.error, note=f"{exc.reason}: {exc}", reason=exc.reason)
            self.emitter.emit("responder", EventStatus.done)
            failure = PlanFailure(message=str(exc), reason=exc.reason, intent=self.intent, violations=[],
                                  attempts=[], trace_id=self.trace_id, run_id=self.run_id)
            return self._result("error", failure=failure)
        except TripwrightError as exc:  # bad input found mid-run: close the stream, then report
            self.emitter.emit("responder", EventStatus.error, note=str(exc))
            self.emitter.emit("responder", EventStatus.done)
            raise
        self.emitter.emit("responder", EventStatus.done, note=f"run {self.run_id}")
        return self._result("completed", itinerary=self.itinerary, plan=self.final_plan(),
                            extra=self.completed_extra())

    def _result(self, status: str, *, itinerary=None, failure=None, plan=None, extra=None) -> PlanResult:
        return PlanResult(run_id=self.run_id, trace_id=self.trace_id, status=status, itinerary=itinerary,
                          failure=failure, plan=plan, events=self.emitter.events, checkpoints=self.checkpoints,
                          reuse=self.s.memo.reuse, inputs=self.inputs, extra=extra or {},
                          cost_usd=drafter_cost(self.drafter))

    # -- what each kind says of its outcome ----------------------------------------------------------
    itinerary: ItineraryV1 | None = None

    def final_plan(self) -> PlanV1 | None:
        return None

    def completed_extra(self) -> dict:
        return {}

    def failure(self, exc: InfeasiblePlan) -> PlanFailure:
        return PlanFailure(message=exc.message, intent=self.intent, violations=exc.violations,
                           attempts=exc.attempts, trace_id=self.trace_id, run_id=self.run_id)

    def best_of(self, exc: InfeasiblePlan):
        return None

    def failure_extra(self, exc: InfeasiblePlan) -> dict:
        return {}

    # -- nodes ---------------------------------------------------------------------------------------
    async def memo(self, node: str, key: str, fn):
        """``fn()`` (sync or async) unless the session's memo holds its output; (value, reused)."""
        self.cancel.raise_if_cancelled()
        found, value = self.s.memo.get(self.MEMO_SPACE + node, key)
        if not found:
            value = fn()
            if hasattr(value, "__await__"):
                value = await value
            self.s.memo.put(self.MEMO_SPACE + node, key, value)
        return value, found

    async def node(self, node: str, key: str, fn, note=None, *, announce: bool = True):
        """One pipeline node under memo, cancellation and events: ``started`` (unless the memo
        answers, or ``announce`` is off), then ``completed`` with ``note`` (text, or a function of
        the value)."""
        self.cancel.raise_if_cancelled()
        with structlog.contextvars.bound_contextvars(node=node):
            started = time.perf_counter()
            if announce and (self.MEMO_SPACE + node, key) not in self.s.memo.store:
                self.emitter.emit(node, EventStatus.started, args_digest=key)
            value, found = await self.memo(node, key, fn)
            text = note(value) if callable(note) else note
            self.emitter.emit(node, EventStatus.completed, args_digest=key, cache_hit=found, note=text,
                              duration_ms=int((time.perf_counter() - started) * 1000))
            return value
