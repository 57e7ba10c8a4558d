"""The tool-call log lines (seed §13.1): one ``tool_call`` line per call, at INFO, with the run's
trace_id, run_id and node from the log context; a run's in-process look-ups only once per tool at
INFO (thousands of INFO lines cost the app's GUI thread its turns)."""

from __future__ import annotations

import logging
from typing import Any

import structlog

log = structlog.get_logger("tripwright.tools")
_STDLIB_LOG = logging.getLogger("tripwright.tools")  # the logger structlog's level filter asks


def in_a_run() -> bool:
    """Whether a plan run is under way here (its trace_id is in the log context)."""
    return "trace_id" in structlog.contextvars.get_contextvars()


_SYNC_LOGGED: dict[str, set[str]] = {}  # trace_id → the in-process tools already logged at INFO
_SYNC_RUNS_KEPT = 64


def log_sync_call(tool: str, latency_ms: float, *, cache_hit: bool) -> None:
    """A run's in-process look-up (an FX rate, a transit leg: thousands in a plan with many places):
    its first per run and tool at INFO, the rest at DEBUG — thousands of INFO lines written and
    flushed from the engine's thread cost the app's GUI thread its turns (a 150-place import: 6,600
    lines, stalls of 150–260 ms)."""
    trace = str(structlog.contextvars.get_contextvars().get("trace_id"))
    seen = _SYNC_LOGGED.setdefault(trace, set())
    if len(_SYNC_LOGGED) > _SYNC_RUNS_KEPT:
        _SYNC_LOGGED.pop(next(iter(_SYNC_LOGGED)))
    if tool in seen:
        log.debug("tool_call", tool=tool, latency_ms=round(latency_ms, 1), retries=0, cache_hit=cache_hit)
        return
    seen.add(tool)
    log_tool_call(tool, latency_ms, retries=0, cache_hit=cache_hit)


def log_tool_call(tool: str, latency_ms: float, *, retries: int, cache_hit: bool, **more: Any) -> None:
    """Seed §13.1: one INFO line per tool call (the run's trace_id, run_id and node come from the
    log context); a run's synchronous in-process look-ups go through ``log_sync_call``. When INFO
    is off for the tools' logger, the line is not built at all (structlog's own level filter comes
    after its bound-logger set-up, ~10 µs a cached call)."""
    if not _STDLIB_LOG.isEnabledFor(logging.INFO):
        return
    log.info("tool_call", tool=tool, latency_ms=round(latency_ms, 1), retries=retries, cache_hit=cache_hit, **more)
