"""Stream events in-process (SPEC_DECISIONS §1): an emitter for the engine and a throttled,
bounded stream for the UI with replay after a timestamp."""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable, Iterable

from engine.metrics import METRICS
from engine.models import EventStatus, ModelUsage, StreamEvent

EventCallback = Callable[[StreamEvent], None]
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
    """Stamps and records every event of one run, and forwards it to a callback at once."""

    def __init__(self, trace_id: str, run_id: str, callback: EventCallback | None = None,
                 early: Iterable[EarlyEvent] = ()) -> None:
        self.trace_id = trace_id
        self.run_id = run_id
        self.callback = callback
        self.events: list[StreamEvent] = []
        self._started = time.perf_counter()
        self._open = True
        METRICS.active_runs.inc()
        for e in early:
            self.emit(e.node, e.status, note=e.note, duration_ms=e.duration_ms, usage=e.usage, reason=e.reason)

    def emit(self, node: str, status: EventStatus, *, args_digest: str = "", duration_ms: int | None = None,
             cache_hit: bool | None = None, note: str | None = None, progress: int = 0,
             usage: ModelUsage | None = None, reason: str | None = None) -> StreamEvent:
        event = StreamEvent(trace_id=self.trace_id, run_id=self.run_id, seq=len(self.events), node=node,
                            status=status, ts=datetime.now(timezone.utc), args_digest=args_digest,
                            duration_ms=duration_ms, cache_hit=cache_hit, decision_note=note,
                            progress_pct=progress, model_usage=usage, reason=reason)
        self.events.append(event)
        self._measure(event)
        if self.callback is not None:
            self.callback(event)
        return event

    def _measure(self, event: StreamEvent) -> None:
        METRICS.event(event.node)
        if event.seq == 0:
            METRICS.ttfe_ms.observe((time.perf_counter() - self._started) * 1000)
        if event.status is EventStatus.completed and event.duration_ms is not None:
            METRICS.node_done(event.node, event.duration_ms)
        if self._open and event.node == "responder" and event.status in (EventStatus.done, EventStatus.cancelled):
            self._open = False
            METRICS.active_runs.dec()
            METRICS.e2e_latency_ms.observe((time.perf_counter() - self._started) * 1000)


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
