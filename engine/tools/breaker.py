"""Circuit breaker per tool (seed §4.2): opens after 5 failures in 60 s; while open every call is
answered ``ToolUnavailable`` with a retry-after; one half-open probe every 30 s decides."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from engine.errors import ToolUnavailable

BreakerState = Literal["closed", "open", "half_open"]


@dataclass
class Breaker:
    failures_to_open: int = 5
    window_s: float = 60.0
    probe_every_s: float = 30.0
    failures: list[float] = field(default_factory=list)
    opened_at: float | None = None
    probing: bool = False

    def state(self, now: float) -> BreakerState:
        if self.opened_at is None:
            return "closed"
        return "half_open" if self.probing or now - self.opened_at >= self.probe_every_s else "open"

    def admit(self, tool: str, now: float) -> None:
        """Let a call through, or raise. Past the probe interval exactly one call (the probe) passes."""
        if self.opened_at is None:
            return
        waited = now - self.opened_at
        if waited >= self.probe_every_s and not self.probing:
            self.probing = True
            return
        retry_after = max(1, math.ceil(self.probe_every_s - waited)) if not self.probing else 1
        refusal = ToolUnavailable(tool, f"circuit open; retry after {retry_after}s",
                                  retry_after_s=retry_after, retryable=False)
        refusal.kind = "circuit_open"  # its own label in tool_errors_total
        raise refusal

    def record(self, ok: bool, now: float) -> None:
        was_probe, self.probing = self.probing, False
        if ok:
            self.failures.clear()
            self.opened_at = None
            return
        if was_probe:  # the probe failed: stay open for another interval
            self.opened_at = now
            return
        self.failures = [t for t in self.failures if now - t < self.window_s] + [now]
        if len(self.failures) >= self.failures_to_open:
            self.opened_at = now
