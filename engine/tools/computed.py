"""In-process computations offered as tools (a transit leg: seed §4.1, "computed, cache by rounded
coords"), without a network tool's per-call machinery (issue 34 §3).

A plan asks for hundreds of legs, a 3,000-place city for thousands; through ``ToolExecutor.call_sync``
each paid a sha256 of the request's JSON, a metrics update with a hit-rate window, a look at the log
context and a log line — more than the leg itself (a cached 3,000-place city: 2,525 legs, 0.94 s).
A ``Computation`` keeps what the executor gives every tool and drops the rest:

- kept: the executor's L1 cache and its cached-copy marking (a leg computed in an earlier run of the
  session comes back ``cache_hit=True``, as before), its stats (calls, hits, errors), the breaker,
  ``tool_calls_total`` and the error rate, ``SIMULATE_TOOL_TIMEOUT`` (then every call takes
  ``call_sync``'s way, the ladder's rung included), and one INFO ``tool_call`` line per run;
- dropped: the sha256 key (the request's own tuple, ``memo_key()``: its coordinates are a ``Geo``'s,
  rounded to 6 decimals), the latency sample and hit-rate window, the per-call log context lookup
  and DEBUG line.

The computation's own memo (``FixtureTransit._memo``, process-wide) makes a new session's legs cheap
too. The L1 entries share ``ToolExecutor._cache`` (and its size bound) with the network tools', so
the cache is cleared exactly when it was before.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from engine.errors import ToolError

from .cache_entries import adapter_variant, mark_cached
from .call_log import in_a_run, log_sync_call
from .executor import ToolExecutor, ToolStats, call_inline


class Computation:
    """``executor.call_sync(tool, fn, request)``'s answers and accounting at a computation's cost;
    one per trip's facts (``engine.planning.inputs.build_facts``)."""

    __slots__ = ("_ex", "tool", "_stats", "_breaker", "_count", "_through_policy", "_logged")

    def __init__(self, executor: ToolExecutor, tool: str) -> None:
        self._ex = executor
        self.tool = tool
        self._stats = executor.stats.setdefault(tool, ToolStats())
        self._breaker = executor._breaker(tool)  # noqa: SLF001 (the executor's own lane)
        observer = executor.observer
        counted = getattr(observer, "computed_call", None)
        if counted is None and observer is not None:
            def counted(name: str, hit: bool) -> None:
                observer.tool_call(name, None, hit)
        self._count: Callable[[str, bool], None] | None = counted
        self._through_policy = tool in executor._delays  # noqa: SLF001 (SIMULATE_TOOL_TIMEOUT: call_sync's way)
        self._logged = False

    def __call__(self, fn: Callable[[Any], Any], request: Any) -> Any:
        ex, tool = self._ex, self.tool
        if self._through_policy:
            return ex.call_sync(tool, fn, request)
        stats = self._stats
        stats.calls += 1
        key = (tool, adapter_variant(fn), request.memo_key())
        hit = ex._cache.get(key)  # noqa: SLF001 (no TTL: a computation's answer never ages)
        if hit is not None:
            stats.cache_hits += 1
            if self._count is not None:
                self._count(tool, True)
            if not self._logged:
                self._log_first(0.0, True)
            marked = ex._marked.get(key)  # noqa: SLF001
            if marked is None:
                marked = ex._marked[key] = mark_cached(hit[1])  # noqa: SLF001
            return marked
        breaker = self._breaker
        started = time.perf_counter() if not self._logged else 0.0
        try:
            if breaker.opened_at is not None:  # a closed breaker admits every call
                breaker.admit(tool, ex._clock())  # noqa: SLF001
            result = call_inline(tool, fn, request)
        except ToolError as exc:
            breaker.record(False, ex._clock())  # noqa: SLF001
            ex._count_error(tool, stats, exc)  # noqa: SLF001
            raise
        if breaker.failures or breaker.probing or breaker.opened_at is not None:  # else a success changes nothing
            breaker.record(True, ex._clock())  # noqa: SLF001
        if self._count is not None:
            self._count(tool, False)
        if not self._logged:
            self._log_first((time.perf_counter() - started) * 1000, False)
        ex._remember(key, result)  # noqa: SLF001
        return result

    def _log_first(self, latency_ms: float, cache_hit: bool) -> None:
        """Seed §13.1's ``tool_call`` line, once per run and tool (``log_sync_call``); the other calls
        of these facts write none (a run's thousands of legs were one DEBUG line each)."""
        self._logged = True
        if in_a_run():
            log_sync_call(self.tool, latency_ms, cache_hit=cache_hit)
