"""Executor policy around every tool call (seed §4.2, STRICT).

- cache: key sha256 of the tool, the canonical request and the adapter's ``cache_variant`` (whatever
  else changes its answer: pinned overrides, the FX rates prices are converted with, the service it
  asks — never a secret); an in-memory L1 and, for results that name their type, a durable L2 (the
  store's ``tool_cache`` table); TTLs weather 24 h, FX 24 h, everything else forever. One executor can
  serve many sessions (the app's runs, an eval suite's scenarios), so its caches carry across them;
- identical concurrent calls share one attempt;
- 2 s soft (counted, logged) / 4 s hard timeout; exactly one retry after 200–500 ms of jitter on a
  timeout or an unavailable answer (a Retry-After longer than the hard timeout is not waited for);
  an unusable answer (``ToolResponseError``) is never retried;
- a breaker per tool (``breaker.py``); the cache's keys in ``cache_entries.py``, the log lines in
  ``call_log.py``.

Fixture adapters are synchronous and instant, so they are called inline (no thread hop). Programming
errors (``KeyError``, ``ValueError`` …) raised by our own code propagate: they are bugs, not outages.
The clock, the sleep and the jitter source are injectable so tests need no real waiting.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import os
import random
import time
from contextlib import AbstractAsyncContextManager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Protocol

from pydantic import TypeAdapter, ValidationError

from engine.errors import ToolError, ToolTimeout, ToolUnavailable

from .breaker import Breaker
from .cache_entries import adapter_variant, cache_key, mark_cached
from .call_log import in_a_run, log, log_sync_call, log_tool_call

# Where callers have long imported them from (the log lines and cache entries have their own modules).
__all__ = ["NETWORK_WAIT", "DurableCache", "ExecutorObserver", "ExecutorPolicy", "ToolExecutor", "ToolStats", "Turn",
           "adapter_variant", "cache_key", "call_inline", "log_sync_call", "log_tool_call", "mark_cached",
           "simulated_delays"]


DAY_S = 24 * 3600
TTL_S: dict[str, float] = {"weather": DAY_S, "fx": DAY_S}  # every other tool: forever
MAX_L1_ENTRIES = 20_000


@dataclass(frozen=True)
class ExecutorPolicy:
    soft_timeout_s: float = 2.0
    hard_timeout_s: float = 4.0
    retries: int = 1
    retry_wait_s: tuple[float, float] = (0.2, 0.5)
    breaker_failures: int = 5
    breaker_window_s: float = 60.0
    breaker_probe_s: float = 30.0


# A service's queue: ``turn()`` is entered before each attempt and held while it runs.
Turn = Callable[[], AbstractAsyncContextManager[Any]]

# Set by the pipeline for its run: called with (tool, True) when a call starts waiting on the
# network and (tool, False) when it ends, so the run's heartbeats (one a second) say what it waits for.
NETWORK_WAIT: ContextVar[Callable[[str, bool], None] | None] = ContextVar("tripwright_network_wait", default=None)


@dataclass
class ToolStats:
    calls: int = 0
    cache_hits: int = 0
    errors: int = 0
    slow: int = 0
    retries: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    error_reasons: dict[str, int] = field(default_factory=dict)


class DurableCache(Protocol):
    """The L2: JSON payloads by key (``engine.tools.durable_cache.StoreToolCache`` over the store)."""

    def get(self, key: str) -> Any | None: ...

    def put(self, key: str, tool: str, payload: Any, ttl_s: float | None) -> None: ...


class ExecutorObserver(Protocol):
    """Where the executor reports (the metrics registry); every method is optional in spirit."""

    def tool_call(self, tool: str, latency_ms: float, cache_hit: bool) -> None: ...

    def tool_error(self, tool: str, reason: str) -> None: ...


def simulated_delays() -> dict[str, float]:
    """``SIMULATE_TOOL_TIMEOUT=flights:5s,weather:3s`` (seed §16.3 chaos toggle)."""
    out = {}
    for part in filter(None, os.environ.get("SIMULATE_TOOL_TIMEOUT", "").split(",")):
        tool, _, secs = part.partition(":")
        out[tool.strip()] = float(secs.strip().rstrip("s") or 0)
    return out


class ToolExecutor:
    def __init__(self, policy: ExecutorPolicy | None = None, *, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep, rng: random.Random | None = None,
                 durable: DurableCache | None = None, observer: ExecutorObserver | None = None) -> None:
        self.policy = policy or ExecutorPolicy()
        self.stats: dict[str, ToolStats] = {}
        self.durable = durable
        if observer is None:
            from engine.metrics import METRICS
            observer = METRICS
        self.observer = observer
        self._clock, self._sleep, self._rng = clock, sleep, rng or random.Random()
        self._cache: dict[str, tuple[float, Any]] = {}
        self._marked: dict[str, Any] = {}  # the cache-hit copy of each entry, made once (values are frozen)
        self._breakers: dict[str, Breaker] = {}
        self._inflight: dict[str, asyncio.Future] = {}
        self._delays = simulated_delays()
        self._sync_checked: set = set()  # adapters call_sync has seen are synchronous (checked once)
        # Tools whose callers say what failed in their own words (the model's one warning line on
        # the CLI): their errors and slow calls are logged at INFO, not as warnings.
        self.quiet_tools: set[str] = set()

    # -- public -----------------------------------------------------------------------------------
    async def call(self, tool: str, fn: Callable[[Any], Any], request: Any, *,
                   result_type: Any = None, turn: Turn | None = None) -> tuple[Any, bool]:
        """Run ``fn(request)`` under the policy; returns (result, cache_hit). ``result_type``
        (a pydantic-validatable type) makes the result durable in the L2 cache. ``turn``: the
        service's queue (an async context manager factory, e.g. Nominatim's one request a second):
        each attempt waits for its turn first, and the timeouts count from the turn — they bound
        the request, not the queue."""
        stats = self.stats.setdefault(tool, ToolStats())
        stats.calls += 1
        key = cache_key(tool, request, adapter_variant(fn))
        cached = self._lookup(tool, key, result_type)
        if cached is not None:
            return self._hit(tool, stats, cached, key, log_call=True)
        pending = self._inflight.get(key)
        if pending is not None:  # an identical call is under way: share its answer
            result = await asyncio.shield(pending)
            return self._hit(tool, stats, result, log_call=True)
        future = asyncio.get_running_loop().create_future()
        self._inflight[key] = future
        try:
            result = await self._fresh(tool, fn, request, stats, log_call=True, turn=turn)
        except BaseException as exc:
            _settle(future, exc=exc)
            raise
        finally:
            self._inflight.pop(key, None)
        _settle(future, result=result)
        self._store(tool, key, result, result_type)
        return result, False

    def call_sync(self, tool: str, fn: Callable[[Any], Any], request: Any) -> Any:
        """A synchronous (fixture) adapter called from synchronous code, e.g. a display conversion:
        the same cache, breaker and stats, no timeout (it cannot block)."""
        code = getattr(fn, "__func__", fn)
        if code not in self._sync_checked:
            if inspect.iscoroutinefunction(fn):
                raise TypeError(f"{tool}: call_sync needs a synchronous adapter")
            self._sync_checked.add(code)
        stats = self.stats.setdefault(tool, ToolStats())
        stats.calls += 1
        key = cache_key(tool, request, adapter_variant(fn))
        cached = self._lookup(tool, key, None)
        if cached is not None:
            if in_a_run():
                log_sync_call(tool, 0.0, cache_hit=True)
            return self._hit(tool, stats, cached, key, latency_ms=None)[0]
        breaker = self._breaker(tool)
        started = time.perf_counter()
        try:
            breaker.admit(tool, self._clock())
            self._simulated_sync_timeout(tool, stats)
            result = call_inline(tool, fn, request)
        except ToolError as exc:
            breaker.record(False, self._clock())
            self._count_error(tool, stats, exc)
            raise
        breaker.record(True, self._clock())
        if self.observer is not None:
            self.observer.tool_call(tool, None, False)
        if in_a_run():  # seed §13.1: a run's calls (a session's set-up FX rates belong to none)
            log_sync_call(tool, (time.perf_counter() - started) * 1000, cache_hit=False)
        self._remember(key, result)
        return result

    def _simulated_sync_timeout(self, tool: str, stats: ToolStats) -> None:
        """``SIMULATE_TOOL_TIMEOUT`` for a synchronous adapter (FX, transit): a synchronous caller
        cannot be cut off mid-call, so a delay past the hard timeout is the timeout the policy would
        end in — both attempts spent, no real wait — and a shorter one is a slow call."""
        delay = self._delays.get(tool)
        if delay is None:
            return
        if delay < self.policy.hard_timeout_s:
            stats.slow += delay > self.policy.soft_timeout_s
            return
        stats.retries += self.policy.retries
        raise ToolTimeout(tool, f"timed out after {self.policy.hard_timeout_s:g}s (simulated)")

    def breaker_state(self, tool: str) -> str:
        breaker = self._breakers.get(tool)
        return breaker.state(self._clock()) if breaker else "closed"

    def breaker_states(self) -> dict[str, str]:
        return {tool: self.breaker_state(tool) for tool in sorted(set(self._breakers) | set(self.stats))}

    def cache_hit_rate(self, tool: str | None = None) -> float:
        rows = [self.stats[tool]] if tool in self.stats else [] if tool else list(self.stats.values())
        calls = sum(s.calls for s in rows)
        return sum(s.cache_hits for s in rows) / calls if calls else 0.0

    # -- cache ------------------------------------------------------------------------------------
    def _lookup(self, tool: str, key: str, result_type: Any) -> Any | None:
        hit = self._cache.get(key)
        now = self._clock()
        if hit is not None and (tool not in TTL_S or now - hit[0] < TTL_S[tool]):
            return hit[1]
        if self.durable is None or result_type is None:
            return None
        payload = self.durable.get(key)
        if payload is None:
            return None
        try:
            result = _adapter(result_type).validate_python(payload)
        except ValidationError:  # a row from before a stricter check (1e308 °C), or damaged: a miss
            log.warning("tool_cache_row_invalid", tool=tool)
            return None
        self._remember(key, result)
        return result

    def _store(self, tool: str, key: str, result: Any, result_type: Any) -> None:
        self._remember(key, result)
        if self.durable is not None and result_type is not None:
            payload = _adapter(result_type).dump_python(result, mode="json")
            self.durable.put(key, tool, payload, TTL_S.get(tool))

    def _remember(self, key: str, result: Any) -> None:
        if len(self._cache) >= MAX_L1_ENTRIES:
            self._cache.clear()
            self._marked.clear()
        self._cache[key] = (self._clock(), result)
        self._marked.pop(key, None)

    def _hit(self, tool: str, stats: ToolStats, result: Any, key: str | None = None, *,
             log_call: bool = False, latency_ms: float | None = 0.0) -> tuple[Any, bool]:
        stats.cache_hits += 1
        if self.observer is not None:
            self.observer.tool_call(tool, latency_ms, True)
        if log_call:
            log_tool_call(tool, 0.0, retries=0, cache_hit=True)
        if key is None:
            return mark_cached(result), True
        marked = self._marked.get(key)
        if marked is None:
            marked = self._marked[key] = mark_cached(result)
        return marked, True

    # -- a fresh call -----------------------------------------------------------------------------
    async def call_uncached(self, tool: str, fn: Callable[[Any], Awaitable[Any]], request: Any, *,
                            soft_timeout_s: float | None = None, hard_timeout_s: float | None = None,
                            log_call: bool = True) -> Any:
        """The policy without the cache or the sharing of identical calls, for answers that must
        not be replayed (a model's): breaker, retry with jitter, Retry-After, metrics and stats as
        every call; the timeouts may be the caller's own (a model answers in seconds, not ms).
        ``log_call=False``: the caller writes the call's log line itself (the model client: with
        its tokens and cost)."""
        stats = self.stats.setdefault(tool, ToolStats())
        stats.calls += 1
        return await self._fresh(tool, fn, request, stats, (soft_timeout_s, hard_timeout_s), log_call=log_call)

    async def _fresh(self, tool: str, fn: Callable[[Any], Any], request: Any, stats: ToolStats,
                     timeouts: tuple[float | None, float | None] = (None, None), *, log_call: bool = False,
                     turn: Turn | None = None) -> Any:
        soft_s = timeouts[0] or self.policy.soft_timeout_s
        breaker = self._breaker(tool)
        try:
            breaker.admit(tool, self._clock())
        except ToolUnavailable as exc:
            self._count_error(tool, stats, exc)
            raise
        started = time.perf_counter()
        retries_before = stats.retries
        try:
            result = await self._attempts(tool, fn, request, stats, timeouts[1], turn)
        except ToolError as exc:
            breaker.record(False, self._clock())
            self._count_error(tool, stats, exc)
            raise
        except BaseException:
            breaker.probing = False  # a bug or a cancellation says nothing about the service
            raise
        elapsed_ms = (time.perf_counter() - started) * 1000
        stats.latencies_ms.append(elapsed_ms)
        if elapsed_ms > soft_s * 1000:
            stats.slow += 1
            self._log(tool)("tool_slow", tool=tool, latency_ms=round(elapsed_ms, 1))
        breaker.record(True, self._clock())
        if self.observer is not None:
            self.observer.tool_call(tool, elapsed_ms, False)
        if log_call:
            log_tool_call(tool, elapsed_ms, retries=stats.retries - retries_before, cache_hit=False)
        return result

    def _log(self, tool: str):
        return log.info if tool in self.quiet_tools else log.warning

    def _breaker(self, tool: str) -> Breaker:
        breaker = self._breakers.get(tool)
        if breaker is None:
            p = self.policy
            breaker = self._breakers[tool] = Breaker(p.breaker_failures, p.breaker_window_s, p.breaker_probe_s)
        return breaker

    def _count_error(self, tool: str, stats: ToolStats, exc: ToolError) -> None:
        stats.errors += 1
        stats.error_reasons[exc.kind] = stats.error_reasons.get(exc.kind, 0) + 1
        self._log(tool)("tool_error", tool=tool, reason=exc.kind, detail=exc.reason)
        if self.observer is not None:
            self.observer.tool_error(tool, exc.kind)

    async def _attempts(self, tool: str, fn: Callable[[Any], Any], request: Any, stats: ToolStats,
                        hard_s: float | None = None, turn: Turn | None = None) -> Any:
        if not inspect.iscoroutinefunction(fn) and tool not in self._delays:
            return call_inline(tool, fn, request)
        for attempt in range(1 + self.policy.retries):
            try:
                if turn is None:
                    return await self._once(tool, fn, request, hard_s or self.policy.hard_timeout_s)
                async with turn():  # the queue's wait is not the request's time
                    return await self._once(tool, fn, request, hard_s or self.policy.hard_timeout_s)
            except (ToolTimeout, ToolUnavailable) as exc:
                wait = self._retry_wait(exc)
                if attempt == self.policy.retries or wait is None:
                    raise
            stats.retries += 1
            log.info("tool_retry", tool=tool, wait_s=round(wait, 3))
            await self._sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover

    def _retry_wait(self, exc: ToolError) -> float | None:
        """Jitter in the policy's range, or the server's Retry-After when it fits the budget."""
        if not getattr(exc, "retryable", True):  # breaker open, or a drip that used the whole time
            return None
        jitter = self._rng.uniform(*self.policy.retry_wait_s)
        retry_after = getattr(exc, "retry_after_s", None)
        if retry_after is None:
            return jitter
        return max(jitter, retry_after) if retry_after <= self.policy.hard_timeout_s else None

    async def _once(self, tool: str, fn: Callable[[Any], Any], request: Any, hard_s: float) -> Any:
        async def run() -> Any:
            if tool in self._delays:
                await asyncio.sleep(self._delays[tool])
            if not inspect.iscoroutinefunction(fn):
                return call_inline(tool, fn, request)
            try:
                return await fn(request)
            except OSError as exc:  # a socket error the adapter did not classify
                raise ToolUnavailable(tool, str(exc) or type(exc).__name__) from exc
        hook = NETWORK_WAIT.get()
        if hook is not None:
            hook(tool, True)
        try:
            async with asyncio.timeout(hard_s):
                return await run()
        except TimeoutError as exc:
            raise ToolTimeout(tool, f"timed out after {hard_s:g}s") from exc
        finally:
            if hook is not None:
                hook(tool, False)


@functools.cache  # one adapter per result type, built once per process
def _adapter(result_type: Any) -> TypeAdapter:
    return TypeAdapter(result_type)


def _settle(future: asyncio.Future, *, result: Any = None, exc: BaseException | None = None) -> None:
    if future.done():
        return
    if exc is None:
        future.set_result(result)
    elif isinstance(exc, asyncio.CancelledError):
        future.cancel()
    else:
        future.set_exception(exc)
        future.exception()  # retrieved: no "never retrieved" warning when nobody shared the call


def call_inline(tool: str, fn: Callable[[Any], Any], request: Any) -> Any:
    """A synchronous adapter's answer, called inline (no thread hop); an unreadable file is the tool unavailable."""
    try:
        return fn(request)
    except OSError as exc:  # a fixture file that cannot be read
        raise ToolUnavailable(tool, str(exc) or type(exc).__name__) from exc
