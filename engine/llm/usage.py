"""Token and cost accounting per call (from the answer's ``usage``) and per run.

Prices are USD per million tokens (input, output), as published by the provider; a model not in
the table is counted in tokens and marked ``priced=False`` (local models cost nothing we know of)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from engine.metrics import METRICS

PRICES_PER_MTOK = {
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "o4-mini": (1.10, 4.40),
}


def price_of(model: str) -> tuple[float, float] | None:
    """The price row for ``model``; dated snapshots (``gpt-4o-mini-2024-07-18``) use their family."""
    best = max((name for name in PRICES_PER_MTOK if model == name or model.startswith(name + "-")),
               key=len, default=None)
    return PRICES_PER_MTOK.get(best) if best else None


@dataclass(frozen=True)
class CallUsage:
    node: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float | None  # None: the model is not in the price table
    duration_ms: int


def call_usage(node: str, model: str, usage, duration_ms: int) -> CallUsage:
    prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
    completion = int(getattr(usage, "completion_tokens", 0) or 0)
    price = price_of(model)
    cost = None if price is None else (prompt * price[0] + completion * price[1]) / 1_000_000
    return CallUsage(node, model, prompt, completion, cost, duration_ms)


@dataclass
class UsageMeter:
    """One run's model calls, also reported to the process's metrics (engine/metrics.py):
    ``llm_calls_total{node}``, ``invalid_output_total{node}`` and ``cost_usd{node}`` (priced
    calls only: an unpriced local model's cost is unknown, not 0)."""

    calls: list[CallUsage] = field(default_factory=list)
    llm_calls_total: int = 0
    invalid_output_total: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record(self, call: CallUsage) -> None:
        with self._lock:
            self.calls.append(call)
        if call.cost_usd is not None:
            METRICS.cost_usd.labels(call.node).observe(call.cost_usd)

    def count_call(self, node: str) -> None:
        with self._lock:
            self.llm_calls_total += 1
        METRICS.llm_calls_total.labels(node).inc()

    def count_invalid(self, node: str) -> None:
        with self._lock:
            self.invalid_output_total += 1
        METRICS.invalid_output_total.labels(node).inc()

    @property
    def cost_usd(self) -> float:
        return sum(c.cost_usd or 0.0 for c in self.calls)

    @property
    def priced(self) -> bool:
        return all(c.cost_usd is not None for c in self.calls)

    @property
    def prompt_tokens(self) -> int:
        return sum(c.prompt_tokens for c in self.calls)

    @property
    def completion_tokens(self) -> int:
        return sum(c.completion_tokens for c in self.calls)

    @property
    def invalid_output_rate(self) -> float:
        return self.invalid_output_total / self.llm_calls_total if self.llm_calls_total else 0.0

    def summary(self) -> dict:
        return {"llmCalls": self.llm_calls_total, "invalidOutputs": self.invalid_output_total,
                "promptTokens": self.prompt_tokens, "completionTokens": self.completion_tokens,
                "costUsd": round(self.cost_usd, 6) if self.priced else None}
