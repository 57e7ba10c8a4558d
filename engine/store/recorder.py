"""Recording a planning run as it happens: the idempotency claim, the run and its events, and the
version when the plan completes. Qt-free; the CLI and the desktop app share it.

    recorder = PlanRecorder(store, ctx)
    ticket = recorder.begin(intent, trip_id=trip_id)          # trip_id=None: a new trip
    if ticket.duplicate is not None: show ticket.duplicate    # the same request, already saved
    elif ticket.duplicate_pending: say "already planning"     # the same request, in flight
    else:
        result = await session.plan(intent, on_event=lambda e: recorder.event(ticket, e))
        summary = recorder.finish(ticket, result)             # None unless the plan completed
        # or recorder.abandon(ticket, result_or_None, error=...) when it will not be kept

Why it is shaped like this:
- Idempotency (seed §9.3): the key is the trip + the intent's canonical digest (+ ``request_key``
  for what else changes the result: the planning date, the app's edits), claimed before any work,
  so a double click or a re-run within the TTL reuses the stored version instead of planning (and
  paying an LLM) twice. A run that ends without a version frees its key, so a retry plans again.
- ``begin`` creates a new trip at once (the UI can show it while planning), and a run that ends
  without a version removes that trip again (its run stays, detached): a cancelled or failed
  first plan leaves no empty trip behind, however often it is retried.
- Thread safety: every call opens its own short ``store.org(ctx, write=True)`` transaction and
  keeps no Session, so a worker thread can record while the GUI thread reads. A ticket guards its
  buffer with its own lock: ``event`` buffers and writes ``flush_every`` events at a time;
  ``record_events`` writes a batch the caller made (the app batches on the GUI thread).
- Recording never breaks a plan: a flush the database refuses keeps its events for the next one
  (``finish`` raises StoreError if the database is still unusable by then).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import structlog
from pydantic import BaseModel

from ..canonical import digest
from ..errors import InputError, StoreError, TripwrightError, VersionCapError
from ..models import IntentV1, MultiCityIntent, RoadTripIntent, StreamEvent
from .cache import DEFAULT_IDEMPOTENCY_TTL, idempotency_key
from .columns import new_id
from .run_lease import Lease
from .runs import result_cost_micro_usd
from .records import IdempotencyHit, RunState, Version, VersionSummary
from .store import OrgScope, Store
from .tenancy import OrgContext
from .records import trip_name_for
from .trips import clean_name
from .versions import MAX_VERSIONS_ENV, max_llm_revisions

log = structlog.get_logger("tripwright.store.recorder")


@dataclass(eq=False)
class RunTicket:
    """One planning request. ``duplicate``/``duplicate_pending``: the request was already made
    (no run was started; ``run_id`` is that earlier run, ``trip_id`` its trip)."""

    key: str
    intent: Any
    run_id: str | None
    trip_id: str | None
    created_trip: bool = False  # begin made the trip: it goes again if no version is saved
    duplicate: Version | None = None
    duplicate_pending: bool = False
    version: VersionSummary | None = None  # set by a completed finish
    recorded: int = 0  # events written so far
    writes: int = 0  # transactions after begin (event batches and the closing one)
    write_ms: float = 0.0  # time spent in them: the recorder's cost on the calling thread
    _buffer: list[StreamEvent] = field(default_factory=list, repr=False)
    _next_seq: int = field(default=0, repr=False)
    _done: bool = field(default=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _lease: Lease | None = field(default=None, repr=False)  # tells other processes this run is alive

    @property
    def owned(self) -> bool:
        """This ticket started a run: record its events, then finish or abandon it."""
        return self.duplicate is None and not self.duplicate_pending


def plan_idempotency_key(trip_id: str | None, intent: Any, request_key: str | None = None) -> str:
    """The idempotency key of a planning request (``engine.canonical`` digest of the intent)."""
    extra = f"|{request_key}" if request_key else ""
    return idempotency_key(trip_id, digest(intent) + extra)


def _intent(intent: Any) -> BaseModel:
    """The intent as its model: JSON without ``mode`` is a city trip, as in an intent file (a
    ValidationError names the bad field)."""
    if isinstance(intent, BaseModel):
        return intent
    mode = intent.get("mode") if isinstance(intent, dict) else None
    model = {"road_trip": RoadTripIntent, "multi_city": MultiCityIntent}.get(mode, IntentV1)  # type: ignore[arg-type]
    return model.model_validate(intent)


def _one_line(error: BaseException | str) -> str:
    text = " ".join(str(error).split())
    return text or (type(error).__name__ if isinstance(error, BaseException) else "failed")


class PlanRecorder:
    def __init__(self, store: Store, ctx: OrgContext, *, flush_every: int = 25,
                 ttl: timedelta = DEFAULT_IDEMPOTENCY_TTL) -> None:
        if flush_every < 1:
            raise InputError("flush_every", "flush at least every event (1 or more)")
        self._store = store
        self._ctx = ctx
        self.flush_every = flush_every
        self.ttl = ttl

    # -- begin -------------------------------------------------------------------------------
    def begin(self, intent: Any, *, trip_id: str | None = None, trip_name: str | None = None,
              request_key: str | None = None, llm_revision: bool = False) -> RunTicket:
        """Claim the request and start its run (status ``running``), creating the trip when
        ``trip_id`` is None; or return the duplicate. ``llm_revision=True`` refuses at once
        (VersionCapError) when the trip has no LLM revision left, before any model is paid for.
        An unknown trip or a bad name is an InputError, before anything is written."""
        intent = _intent(intent)
        key = plan_idempotency_key(trip_id, intent, request_key)
        name = clean_name(trip_name) if trip_name is not None else trip_name_for(intent)
        run_id = new_id()
        lease = self._store.run_leases.hold(run_id)  # before the row: a running row always has one
        try:
            with self._store.org(self._ctx, write=True) as repo:
                if trip_id is not None:
                    self._check_trip(repo, trip_id, llm_revision, intent.mode)
                hit = repo.idempotency.claim(key, self.ttl, run_id=run_id)
                if hit is not None:
                    duplicate = self._duplicate(repo, hit, key, intent, trip_id)
                    if duplicate is not None:
                        log.info("plan_request_duplicate", run_id=duplicate.run_id, pending=duplicate.duplicate_pending)
                        lease.release()
                        return duplicate
                    self._take_over(repo, key, run_id)
                created = trip_id is None
                if created:
                    trip_id = repo.trips.create(name, mode=intent.mode).trip_id
                repo.runs.start(intent=intent, trace_id=run_id.replace("-", ""), run_id=run_id, trip_id=trip_id)
        except BaseException:
            lease.release()
            raise
        log.info("plan_run_started", run_id=run_id, trip_id=trip_id, new_trip=created)
        return RunTicket(key=key, intent=intent, run_id=run_id, trip_id=trip_id, created_trip=created, _lease=lease)

    @staticmethod
    def _check_trip(repo: OrgScope, trip_id: str, llm_revision: bool, mode: str) -> None:
        trip = repo.trips.get(trip_id)
        if trip.mode != mode:
            raise InputError("trip", f"trip {trip_id} is a {trip.mode.replace('_', ' ')} trip; this plan is a "
                                     f"{mode.replace('_', ' ')} (save it as a new trip instead)")
        if llm_revision and repo.versions.llm_revisions_left(trip_id) == 0:
            raise VersionCapError(max_llm_revisions(), MAX_VERSIONS_ENV)

    def _duplicate(self, repo: OrgScope, hit: IdempotencyHit, key: str, intent: Any,
                   trip_id: str | None) -> RunTicket | None:
        """The ticket for an earlier identical request, or None when what it saved is gone (its
        trip was deleted since): then the request is planned again."""
        trip_id = trip_id or self._run_trip(repo, hit.run_id)
        if hit.status == "pending" and not repo.runs.fail_if_orphaned([hit.run_id] if hit.run_id else []):
            return RunTicket(key=key, intent=intent, run_id=hit.run_id, trip_id=trip_id, duplicate_pending=True)
        if trip_id is None or hit.version_number is None:
            return None
        try:
            repo.trips.get(trip_id)
            version = repo.versions.get(trip_id, hit.version_number)
        except InputError:
            return None
        return RunTicket(key=key, intent=intent, run_id=hit.run_id, trip_id=trip_id, duplicate=version)

    @staticmethod
    def _run_trip(repo: OrgScope, run_id: str | None) -> str | None:
        if run_id is None:
            return None
        try:
            return repo.runs.status(run_id).trip_id
        except InputError:  # pruned (runs are kept 30 days, claims minutes)
            return None

    def _take_over(self, repo: OrgScope, key: str, run_id: str) -> None:
        repo.idempotency.complete(key, run_id=run_id, status="error")
        repo.idempotency.claim(key, self.ttl, run_id=run_id)

    # -- events ------------------------------------------------------------------------------
    def event(self, ticket: RunTicket, event: StreamEvent) -> None:
        """Buffer one event (the pipeline's ``on_event``); every ``flush_every`` events are
        written in one transaction. Ignored for a duplicate or a finished ticket."""
        if not ticket.owned:
            return
        with ticket._lock:
            if ticket._done:
                return
            ticket._buffer.append(event)
            ticket._next_seq = max(ticket._next_seq, event.seq + 1)
            if len(ticket._buffer) >= self.flush_every:
                self._flush(ticket)

    def record_events(self, ticket: RunTicket, events: Iterable[StreamEvent]) -> None:
        """Write a batch now, in one transaction (for callers that batch themselves). On a
        database failure the batch is kept for ``finish`` and the StoreError raised."""
        if not ticket.owned:
            return
        with ticket._lock:
            if ticket._done:
                return
            for e in events:
                ticket._buffer.append(e)
                ticket._next_seq = max(ticket._next_seq, e.seq + 1)
            if not self._flush(ticket):
                raise StoreError(f"the events of run {ticket.run_id} were not saved yet; they will be "
                                 "written when the run finishes")

    def _flush(self, ticket: RunTicket) -> bool:
        """Write the buffer (lock held); on a database failure keep it for the next write."""
        batch, ticket._buffer = ticket._buffer, []
        try:
            with self._writing(ticket, batch):
                pass  # the events are the whole transaction
            return True
        except StoreError as exc:
            ticket._buffer[:0] = batch
            log.warning("run_events_not_saved", run_id=ticket.run_id, pending=len(ticket._buffer), error=str(exc))
            return False

    @contextlib.contextmanager
    def _writing(self, ticket: RunTicket, events: list[StreamEvent]) -> Iterator[OrgScope]:
        """One write transaction that starts by appending ``events``; the ticket's counters move
        only once it has committed."""
        started = time.perf_counter()
        with self._store.org(self._ctx, write=True) as repo:
            if events:
                repo.runs.record_events(str(ticket.run_id), events, trace_id=events[-1].trace_id)
            yield repo
        elapsed = (time.perf_counter() - started) * 1000
        ticket.recorded += len(events)
        ticket.writes += 1
        ticket.write_ms += elapsed
        log.debug("run_written", run_id=ticket.run_id, events=len(events), ms=round(elapsed, 2))

    @staticmethod
    @contextlib.contextmanager
    def _released(ticket: RunTicket) -> Iterator[None]:
        """The run's lease goes once its closing transaction is over, committed or not (a run
        left ``running`` by a failed close is then an orphan for the next start to fail)."""
        try:
            yield
        finally:
            if ticket._lease is not None:
                ticket._lease.release()

    # -- finish ------------------------------------------------------------------------------
    def finish(self, ticket: RunTicket, result: Any, *, intent: Any = None,
               llm_meta: dict[str, Any] | None = None, note: str = "",
               based_on: int | None = None) -> VersionSummary | None:
        """Close the run from a ``PlanResult``: the events not written yet (those never given to
        :meth:`event` are taken from ``result.events``), status, checkpoints, error message. A
        completed plan becomes the trip's next version (itinerary, intent — by default the one
        given to :meth:`begin` —, plan, repairs, run id, ``llm_meta``, ``note``, and ``based_on``,
        the version it was made from: by default the trip's latest) and completes the claim with
        its number; anything else is closed as by :meth:`abandon`."""
        if result.status != "completed" or result.itinerary is None:
            self.abandon(ticket, result)
            return None
        events = self._closing(ticket, result.events)
        try:
            return self._save(ticket, result, events, intent, llm_meta, note, based_on)
        except TripwrightError as exc:  # VersionCapError, a trip deleted meanwhile, the database
            self._close(ticket, events, "error", _one_line(exc), result.checkpoints, result_cost_micro_usd(result))
            raise

    def abandon(self, ticket: RunTicket, result: Any = None, *, error: str = "") -> None:
        """Close a run that will not be kept: it failed, was cancelled, raised (``result`` None,
        ``error`` says why) or was superseded by a newer run. No version is saved, the claim is
        freed for a retry, and a trip this ticket created is removed again."""
        status, message = _outcome(result, error)
        events = self._closing(ticket, result.events if result is not None else [])
        self._close(ticket, events, status, message, result.checkpoints if result is not None else None,
                    result_cost_micro_usd(result))

    def _closing(self, ticket: RunTicket, result_events: list[StreamEvent]) -> list[StreamEvent]:
        """Mark the ticket done and hand over every event not written yet."""
        if not ticket.owned:
            raise InputError("ticket", "a duplicate request has no run of its own to finish")
        with ticket._lock:
            if ticket._done:
                raise InputError("ticket", f"run {ticket.run_id} is already finished")
            ticket._done = True
            events = ticket._buffer + [e for e in result_events if e.seq >= ticket._next_seq]
            ticket._buffer = []
        return events

    def _save(self, ticket: RunTicket, result: Any, events: list[StreamEvent], intent: Any,
              llm_meta: dict[str, Any] | None, note: str, based_on: int | None) -> VersionSummary:
        run_id, trip_id = str(ticket.run_id), str(ticket.trip_id)
        with self._released(ticket), self._writing(ticket, events) as repo:
            # The checkpoints name the version's plan instead of repeating it (one copy of a plan).
            repo.runs.finish(run_id, "completed", checkpoints=result.checkpoints, version_plan=result.plan,
                             cost_micro_usd=result_cost_micro_usd(result))
            intent = intent if intent is not None else ticket.intent
            summary = repo.versions.save(trip_id, result.itinerary, intent=intent, plan=result.plan,
                                         llm_meta=llm_meta, run_id=run_id, note=note, based_on=based_on)
            repo.idempotency.complete(ticket.key, run_id=run_id, version_number=summary.number)
        ticket.version = summary
        log.info("plan_run_saved", run_id=run_id, trip_id=trip_id, version=summary.number,
                 events=ticket.recorded, write_ms=round(ticket.write_ms, 2))
        return summary

    def _close(self, ticket: RunTicket, events: list[StreamEvent], status: RunState, message: str,
               checkpoints: Any, cost: int = 0) -> None:
        run_id = str(ticket.run_id)
        with self._released(ticket), self._writing(ticket, events) as repo:
            repo.runs.finish(run_id, status, checkpoints=checkpoints, error_message=message, cost_micro_usd=cost)
            repo.idempotency.complete(ticket.key, run_id=run_id, status="error")
            discarded = ticket.created_trip and repo.trips.discard_if_empty(str(ticket.trip_id))
        log.info("plan_run_closed", run_id=run_id, status=status, events=ticket.recorded,
                 trip_discarded=bool(discarded))


def _outcome(result: Any, error: str) -> tuple[RunState, str]:
    """(status, message) of a run that ends without a version."""
    if error:
        return "error", _one_line(error)
    status = getattr(result, "status", None)
    failure = getattr(result, "failure", None)
    if status == "error" or failure is not None:
        return "error", failure.message if failure is not None else "planning failed"
    if status == "completed":
        return "cancelled", "superseded by a newer run; not saved"
    return "cancelled", "cancelled"
