"""Executor policy around every tool call (seed §4.2): cache, timeouts, one retry, circuit breaker.

Fixture adapters are synchronous and instant, so they are called inline (no thread hop); real
adapters are coroutines and get the 2 s soft / 4 s hard timeout and a jittered retry.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import stamina

from engine.canonical import canonical_json, digest
from engine.errors import InputError, ToolError

DAY_S = 24 * 3600
TTL_S = {"weather": DAY_S, "fx": DAY_S}  # fixtures: forever


@dataclass(frozen=True)
class ExecutorPolicy:
    soft_timeout_s: float = 2.0
    hard_timeout_s: float = 4.0
    retries: int = 1
    retry_wait_s: tuple[float, float] = (0.2, 0.5)
    breaker_failures: int = 5
    breaker_window_s: float = 60.0
    breaker_probe_s: float = 30.0


@dataclass
class ToolStats:
    calls: int = 0
    cache_hits: int = 0
    errors: int = 0
    slow: int = 0
    latencies_ms: list[float] = field(default_factory=list)


@dataclass
class Breaker:
    failures: list[float] = field(default_factory=list)
    opened_at: float | None = None

    def check(self, tool: str, policy: ExecutorPolicy, now: float) -> None:
        if self.opened_at is not None and now - self.opened_at < policy.breaker_probe_s:
            retry_after = int(policy.breaker_probe_s - (now - self.opened_at)) + 1
            raise ToolError(tool, f"circuit open; retry after {retry_after}s")

    def record(self, ok: bool, policy: ExecutorPolicy, now: float) -> None:
        if ok:
            self.failures.clear()
            self.opened_at = None
            return
        self.failures = [t for t in self.failures if now - t < policy.breaker_window_s] + [now]
        if len(self.failures) >= policy.breaker_failures:
            self.opened_at = now


def simulated_delays() -> dict[str, float]:
    """``SIMULATE_TOOL_TIMEOUT=flights:5s,weather:3s`` (seed §16.3 chaos toggle)."""
    out = {}
    for part in filter(None, os.environ.get("SIMULATE_TOOL_TIMEOUT", "").split(",")):
        tool, _, secs = part.partition(":")
        out[tool.strip()] = float(secs.strip().rstrip("s") or 0)
    return out


class ToolExecutor:
    def __init__(self, policy: ExecutorPolicy | None = None) -> None:
        self.policy = policy or ExecutorPolicy()
        self.stats: dict[str, ToolStats] = {}
        self._cache: dict[str, tuple[float, Any]] = {}
        self._breakers: dict[str, Breaker] = {}
        self._delays = simulated_delays()

    async def call(self, tool: str, fn: Callable[[Any], Any], request: Any) -> tuple[Any, bool]:
        """Run ``fn(request)`` under the policy; returns (result, cache_hit)."""
        stats = self.stats.setdefault(tool, ToolStats())
        stats.calls += 1
        key = digest({"tool": tool, "request": canonical_json(request)})
        hit = self._cache.get(key)
        now = time.monotonic()
        if hit and (tool not in TTL_S or now - hit[0] < TTL_S[tool]):
            stats.cache_hits += 1
            return mark_cached(hit[1]), True
        breaker = self._breakers.setdefault(tool, Breaker())
        breaker.check(tool, self.policy, now)
        started = time.perf_counter()
        try:
            result = await self._attempts(tool, fn, request)
        except ToolError:
            stats.errors += 1
            breaker.record(False, self.policy, time.monotonic())
            raise
        elapsed = time.perf_counter() - started
        stats.latencies_ms.append(elapsed * 1000)
        stats.slow += elapsed > self.policy.soft_timeout_s
        breaker.record(True, self.policy, time.monotonic())
        self._cache[key] = (time.monotonic(), result)
        return result, False

    async def _attempts(self, tool: str, fn: Callable[[Any], Any], request: Any) -> Any:
        if not inspect.iscoroutinefunction(fn) and tool not in self._delays:
            return _sync_call(tool, fn, request)
        lo, hi = self.policy.retry_wait_s
        async for attempt in stamina.retry_context(on=ToolError, attempts=1 + self.policy.retries,
                                                   wait_initial=lo, wait_jitter=hi - lo, wait_max=hi):
            with attempt:
                return await self._once(tool, fn, request)
        raise AssertionError("unreachable")  # pragma: no cover

    async def _once(self, tool: str, fn: Callable[[Any], Any], request: Any) -> Any:
        async def run() -> Any:
            if tool in self._delays:
                await asyncio.sleep(self._delays[tool])
            if not inspect.iscoroutinefunction(fn):
                return _sync_call(tool, fn, request)
            try:
                return await fn(request)
            except (ToolError, InputError):
                raise
            except (OSError, KeyError, ValueError) as exc:  # same failures as the sync path
                raise ToolError(tool, str(exc) or type(exc).__name__) from exc
        try:
            return await asyncio.wait_for(run(), timeout=self.policy.hard_timeout_s)
        except asyncio.TimeoutError as exc:
            raise ToolError(tool, f"timed out after {self.policy.hard_timeout_s:g}s") from exc

    def cache_hit_rate(self, tool: str | None = None) -> float:
        rows = [self.stats[tool]] if tool else list(self.stats.values())
        calls = sum(s.calls for s in rows)
        return sum(s.cache_hits for s in rows) / calls if calls else 0.0


def mark_cached(result: Any) -> Any:
    """The cached answer, its provenance saying ``cache_hit=True`` (seed §3.7)."""
    if isinstance(result, list):
        return [mark_cached(r) for r in result]
    provenance = getattr(result, "provenance", None)
    if provenance is None or provenance.cache_hit:
        return result
    return result.model_copy(update={"provenance": provenance.model_copy(update={"cache_hit": True})})


def _sync_call(tool: str, fn: Callable[[Any], Any], request: Any) -> Any:
    try:
        return fn(request)
    except (ToolError, InputError):
        raise
    except (OSError, KeyError, ValueError) as exc:
        raise ToolError(tool, str(exc)) from exc
