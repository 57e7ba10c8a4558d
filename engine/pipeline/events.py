"""Stream events in-process (SPEC_DECISIONS §1): an emitter for the engine and a throttled,
bounded stream for the UI with replay after a timestamp."""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable, Iterable

import structlog

from engine.log_setup import flush_log_file
from engine.metrics import METRICS
from engine.models import EventStatus, ModelUsage, StreamEvent

EventCallback = Callable[[StreamEvent], None]
log = structlog.get_logger("tripwright.pipeline")
_STDLIB_LOG = logging.getLogger("tripwright.pipeline")  # the logger structlog's level filter asks
INFEASIBLE = "infeasible_plan"  # an error event's ``reason`` when no plan keeps every rule


@dataclass(frozen=True)
class EarlyEvent:
    """A node that ran before the run had an emitter (``plan --llm``'s model extraction, the chat
    brief): kept by the session and emitted first in the next run's stream, so ``--events`` and the
    progress panel show its tokens and cost with the rest."""

    node: str
    status: EventStatus
    note: str | None = None
    duration_ms: int | None = None
    usage: ModelUsage | None = None
    reason: str | None = None


class EventEmitter:
    """Stamps and records every event of one run, and forwards it to a callback at once.

    A heartbeat event goes out every ``heartbeat_s`` of the run (seed §8.2) from the process's one
    heartbeat thread (``HEARTBEATS``), so a node busy on the CPU — which holds the event loop — still
    shows the run is alive; the run joins its schedule after its first event is out (starting a thread
    waits until it is scheduled: 2–17 ms on a loaded machine, not to be paid before the first event); a node waiting on the network says what it waits for (``waiting``, the executor's hook).
    ``emit`` may so be called from two threads: a lock keeps ``seq`` in order and the callback sees
    events in that order (a heartbeat is stamped and sent under the same lock, so it never
    reorders or replaces another event). ``close`` ends the heartbeat (the run is over); so does the
    responder's last event.

    Progress is the run's stage's share of the bar (``enter``: the stage's offset and share, from
    the stage list the run declares): a node's ``started`` is at the stage's start, ``completed``
    at its end, ``fraction`` places an event inside the stage, and anything else (heartbeats,
    running notes, errors) keeps the bar where it is. The bar never goes back; ``responder done``
    is 100."""

    def __init__(self, trace_id: str, run_id: str, callback: EventCallback | None = None,
                 early: Iterable[EarlyEvent] = (), *, heartbeat_s: float | None = 1.0) -> None:
        self.trace_id = trace_id
        self.run_id = run_id
        self.callback = callback
        self.events: list[StreamEvent] = []
        self.node = "intent_extractor"  # the node the latest event was about (heartbeats name it)
        self.replan = False  # an edit or the same intent again (its duration is the re-plan latency)
        self._waits: dict[str, int] = {}  # tools with calls waiting on the network, and how many
        self._span = (0.0, 0.0)  # the current stage's start and share of the bar, in percent
        self._pct = 0  # the bar so far (never goes back)
        self._started = time.perf_counter()
        self._open = True  # until the responder's last event
        self._closed = False  # ``close``: no heartbeat after it returns
        self._lock = threading.RLock()
        self._heartbeat_s = heartbeat_s
        self._beating = False  # on the process's heartbeat schedule (from the first event on)
        METRICS.active_runs.inc()
        for e in early:
            self.emit(e.node, e.status, note=e.note, duration_ms=e.duration_ms, usage=e.usage, reason=e.reason)

    def enter(self, start_pct: float, share_pct: float) -> None:
        """The run enters a stage that owns ``share_pct`` of the bar from ``start_pct`` on."""
        with self._lock:
            self._span = (start_pct, share_pct)

    def emit(self, node: str, status: EventStatus, *, args_digest: str = "", duration_ms: int | None = None,
             cache_hit: bool | None = None, note: str | None = None, fraction: float | None = None,
             usage: ModelUsage | None = None, reason: str | None = None) -> StreamEvent:
        """Stamp, record and forward one event; ``fraction`` (0–1): how far into its stage the run is."""
        with self._lock:
            self._pct = self._progress(node, status, fraction)
            event = StreamEvent(trace_id=self.trace_id, run_id=self.run_id, seq=len(self.events), node=node,
                                status=status, ts=datetime.now(timezone.utc), args_digest=args_digest,
                                duration_ms=duration_ms, cache_hit=cache_hit, decision_note=note,
                                progress_pct=self._pct, model_usage=usage, reason=reason)
            self.events.append(event)
            if status is not EventStatus.heartbeat:
                self.node = node
            self._measure(event)
            if self.callback is not None:
                self.callback(event)
            if not self._beating and self._heartbeat_s and self._open and not self._closed:
                self._beating = True  # after the first event is out: it never waits for a thread
                HEARTBEATS.add(self, self._heartbeat_s)
            return event

    def _progress(self, node: str, status: EventStatus, fraction: float | None) -> int:
        if node == "responder" and status is EventStatus.done:
            return 100
        if fraction is None:
            fraction = {EventStatus.started: 0.0, EventStatus.completed: 1.0}.get(status)
        if fraction is None:
            return self._pct
        start, share = self._span
        return max(self._pct, min(100, round(start + share * min(max(fraction, 0.0), 1.0))))

    def beat(self) -> StreamEvent | None:
        """One heartbeat for the current node (none once the run has ended)."""
        with self._lock:
            if not self._open or self._closed:
                return None
            tools = ", ".join(sorted(self._waits))
            return self.emit(self.node, EventStatus.heartbeat, note=f"waiting for {tools}" if tools else None)

    def waiting(self, tool: str, started: bool) -> None:
        """A call of ``tool`` started (or stopped) waiting on the network."""
        with self._lock:
            count = self._waits.get(tool, 0) + (1 if started else -1)
            if count > 0:
                self._waits[tool] = count
            else:
                self._waits.pop(tool, None)

    def close(self) -> None:
        """The run is over: no more heartbeats once this returns (idempotent)."""
        HEARTBEATS.remove(self)
        with self._lock:
            self._closed = True

    def _measure(self, event: StreamEvent) -> None:
        METRICS.event(event.node)
        if event.seq == 0:
            METRICS.first_event((time.perf_counter() - self._started) * 1000)
        if event.status is EventStatus.completed and event.duration_ms is not None:
            METRICS.node_done(event.node, event.duration_ms)
            # Seed §13.1: one line per node, tied to its run whatever thread or context logs it (not
            # built at all when INFO is off: structlog's level filter comes after its set-up).
            if _STDLIB_LOG.isEnabledFor(logging.INFO):
                log.info("node_completed", trace_id=self.trace_id, run_id=self.run_id, node=event.node,
                         duration_ms=event.duration_ms, cache_hit=bool(event.cache_hit))
        if self._open and event.node == "responder" and event.status in (EventStatus.done, EventStatus.cancelled):
            self._open = False
            HEARTBEATS.remove(self)  # the run is over: no heartbeat after its last event
            METRICS.active_runs.dec()
            METRICS.run_done((time.perf_counter() - self._started) * 1000, self.replan)
            flush_log_file()  # the run's lines are on disk when it ends (the file writes in batches)


class Heartbeats:
    """One daemon thread for the process beating every live run on its own interval: a run's next
    beat is ``interval`` after its previous one (or after it joined). Started with the first run
    that joins and kept (idle on a condition) for the next ones, so a run never waits for a thread.
    ``beat`` is called outside the schedule's lock (an emitter's lock is never taken under it)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._due: dict[EventEmitter, tuple[float, float]] = {}  # emitter → (next beat, interval)
        self._thread: threading.Thread | None = None

    def add(self, emitter: EventEmitter, interval_s: float) -> None:
        with self._cond:
            self._due[emitter] = (time.monotonic() + interval_s, interval_s)
            if self._thread is None or not self._thread.is_alive():  # the first run (or after a fork)
                self._thread = threading.Thread(target=self._run, daemon=True, name="heartbeats")
                self._thread.start()
            else:
                self._cond.notify()

    def __contains__(self, emitter: EventEmitter) -> bool:
        with self._cond:
            return emitter in self._due

    def remove(self, emitter: EventEmitter) -> None:
        with self._cond:
            self._due.pop(emitter, None)

    def _run(self) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                due = [e for e, (at, _) in self._due.items() if at <= now]
                for emitter in due:
                    self._due[emitter] = (now + self._due[emitter][1], self._due[emitter][1])
                if not due:
                    soonest = min((at for at, _ in self._due.values()), default=None)
                    self._cond.wait(None if soonest is None else soonest - now)
                    continue
                self._cond.release()
                try:
                    for emitter in due:
                        self._beat(emitter)
                finally:
                    self._cond.acquire()

    def _beat(self, emitter: EventEmitter) -> None:
        try:
            emitter.beat()
        except Exception:  # a run's callback failed: that run stops beating, the others go on
            log.exception("heartbeat_failed", run_id=emitter.run_id)
            self.remove(emitter)


HEARTBEATS = Heartbeats()


def both(first: EventCallback | None, second: EventCallback | None) -> EventCallback | None:
    """One callback that calls ``first`` then ``second`` (either may be None)."""
    if first is None or second is None:
        return first or second

    def each(event: StreamEvent) -> None:
        first(event)
        second(event)
    return each


def replay_after(events: Iterable[StreamEvent], last_ts: datetime | None) -> list[StreamEvent]:
    """Events strictly after ``last_ts`` (the seed's ``?last_ts=`` reconnect)."""
    return [e for e in events if last_ts is None or e.ts > last_ts]


class ThrottledStream:
    """≤ ``rate`` events/s with bursts of ``burst``; at most ``capacity`` queued, dropping the
    oldest non-critical event first (seed §8.2)."""

    def __init__(self, rate: float = 10.0, burst: int = 20, capacity: int = 200,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.capacity = rate, burst, capacity
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()
        self._queue: deque[StreamEvent] = deque()
        self.dropped = 0

    def push(self, event: StreamEvent) -> None:
        self._queue.append(event)
        while len(self._queue) > self.capacity:
            victim = next((e for e in self._queue if not e.critical), self._queue[0])
            self._queue.remove(victim)
            self.dropped += 1
            METRICS.sse_drops_total.inc()

    def pop_ready(self) -> list[StreamEvent]:
        """Events that may be delivered now under the rate limit."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        out = []
        while self._queue and self._tokens >= 1:
            out.append(self._queue.popleft())
            self._tokens -= 1
        return out

    def __len__(self) -> int:
        return len(self._queue)
