"""In-process metrics with the seed's names (seed 002 §13.2), on prometheus_client's registry
(no HTTP server: the desktop shows them in Diagnostics, the CLI prints or bundles them).

    node_latency_ms{node}  e2e_latency_ms  ttfe_ms  tool_latency_ms{tool}      histograms
    tool_errors_total{tool,reason}  repair_cycles_total{success}
    invalid_output_total{node}  llm_calls_total{node}  sse_events_sent_total{node}    counters
    cache_hit_rate{tool} (sliding 5 minutes)  active_runs                      gauges
    cost_usd{node}                                                             summary

``METRICS`` is the process's registry: the executor reports tool calls to it and the event
emitter reports node timings and run boundaries.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, Summary, generate_latest

NODE_BUCKETS = (100, 500, 1000, 2000, 5000, 10000)
TOOL_BUCKETS = (1, 5, 20, 100, 500, 1000, 2000, 4000)
HIT_WINDOW_S = 300.0
MAX_WINDOW_SAMPLES = 10_000


class Metrics:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.node_latency_ms = Histogram("node_latency_ms", "Pipeline node duration", ["node"],
                                         buckets=NODE_BUCKETS, registry=r)
        self.e2e_latency_ms = Histogram("e2e_latency_ms", "Whole run duration", buckets=NODE_BUCKETS, registry=r)
        self.ttfe_ms = Histogram("ttfe_ms", "Time to the first event of a run", buckets=NODE_BUCKETS, registry=r)
        self.tool_latency_ms = Histogram("tool_latency_ms", "Tool call latency (cache hits: 0)", ["tool"],
                                         buckets=TOOL_BUCKETS, registry=r)
        self.tool_errors_total = Counter("tool_errors_total", "Tool failures", ["tool", "reason"], registry=r)
        self.repair_cycles_total = Counter("repair_cycles_total", "Repair cycles run", ["success"], registry=r)
        self.invalid_output_total = Counter("invalid_output_total", "Invalid model outputs", ["node"], registry=r)
        # The denominator of the seed's invalid_output_rate (schema rejects / model calls).
        self.llm_calls_total = Counter("llm_calls_total", "Model calls answered", ["node"], registry=r)
        self.sse_events_sent_total = Counter("sse_events_sent_total", "Stream events emitted", ["node"], registry=r)
        self.cache_hit_rate = Gauge("cache_hit_rate", "Cache hit rate over 5 minutes", ["tool"], registry=r)
        self.active_runs = Gauge("active_runs", "Runs in flight", registry=r)
        self.cost_usd = Summary("cost_usd", "LLM and tool cost per node", ["node"], registry=r)
        self._hits: dict[str, deque[tuple[float, bool]]] = {}
        self._hit_counts: dict[str, int] = {}  # hits inside each window, kept as it slides

    # -- tools (the executor's observer) -----------------------------------------------------
    def tool_call(self, tool: str, latency_ms: float, cache_hit: bool) -> None:
        self.tool_latency_ms.labels(tool).observe(latency_ms)
        window = self._hits.setdefault(tool, deque())
        now = self._clock()
        window.append((now, cache_hit))
        hits = self._hit_counts[tool] = self._hit_counts.get(tool, 0) + cache_hit
        while window and (now - window[0][0] > HIT_WINDOW_S or len(window) > MAX_WINDOW_SAMPLES):
            hits -= window.popleft()[1]
        self._hit_counts[tool] = hits
        self.cache_hit_rate.labels(tool).set(hits / len(window))

    def tool_error(self, tool: str, reason: str) -> None:
        self.tool_errors_total.labels(tool, reason).inc()

    # -- runs -------------------------------------------------------------------------------
    def node_done(self, node: str, duration_ms: float) -> None:
        self.node_latency_ms.labels(node).observe(duration_ms)

    def event(self, node: str) -> None:
        self.sse_events_sent_total.labels(node).inc()

    def repair_cycles(self, cycles: int, success: bool) -> None:
        if cycles:
            self.repair_cycles_total.labels(str(success).lower()).inc(cycles)

    def llm_figures(self) -> dict:
        """Model calls, invalid outputs, their rate and the priced cost, over every node."""
        def total(metric, suffix: str) -> float:
            return sum(s.value for f in metric.collect() for s in f.samples if s.name.endswith(suffix))
        calls = total(self.llm_calls_total, "_total")
        invalid = total(self.invalid_output_total, "_total")
        return {"calls": int(calls), "invalid_outputs": int(invalid),
                "invalid_output_rate": round(invalid / calls, 4) if calls else 0.0,
                "cost_usd": round(total(self.cost_usd, "_sum"), 6)}

    def prometheus_text(self) -> str:
        return generate_latest(self.registry).decode()

    def snapshot(self) -> dict:
        """Plain values: ``{metric: [{"labels": {...}, "value": v}, ...]}`` (sums and counts for
        histograms and summaries)."""
        out: dict[str, list[dict]] = {}
        for family in self.registry.collect():
            rows = out.setdefault(family.name, [])
            for sample in family.samples:
                if sample.name.endswith(("_bucket", "_created")):
                    continue
                suffix = sample.name[len(family.name):].lstrip("_") or "value"
                rows.append({"labels": dict(sample.labels), suffix: sample.value})
        return out


METRICS = Metrics()
