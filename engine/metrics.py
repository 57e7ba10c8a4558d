"""In-process metrics with the seed's names (seed 002 §13.2), counted as plain numbers
(``engine.metric_types``) and shown on a prometheus_client registry only when asked (no HTTP
server: the desktop shows them in Diagnostics, the CLI prints or bundles them).

    node_latency_ms{node}  e2e_latency_ms  ttfe_ms  tool_latency_ms{tool}      histograms
    replan_latency_ms  budget_delta_usd_cents  repairs_per_run
    tool_calls_total{tool}  tool_errors_total{tool,reason}  repair_cycles_total{success,cycle}
    invalid_output_total{node}  llm_calls_total{node}  sse_events_sent_total{node}    counters
    budget_violations_total  feasibility_violations_total{type}  venue_closed_violations_total
    weather_blocking_total  weather_advisory_total  pref_violations_total{reason}
    repair_moves_total{move_type}  selector_decisions_total{chosen,discarded}
    sse_drops_total  sse_reconnects_total{reason}
    cache_hit_rate{tool} (sliding 5 minutes)  active_runs  tool_error_rate{tool}   gauges
    branch_fanout_max  cross_org_reads
    ttfe_ms_p50/_p95  e2e_latency_ms_p50/_p95  replan_latency_ms_p50/_p95 (the last 1,000 runs)
    cost_usd{node}                                                             summary

The per-section names are seed 002's (§5.3 selector, §6 verifiers, §7 repair, §8.2 stream, §9
tenancy, §16 SLOs). Counters and gauges that only some runs touch are exported at 0 from the
start, so a scrape always lists every name. ``cross_org_reads`` keeps the seed's name without
``_total`` (a gauge only ever increased); seed §7's ``repair_cycles{success,cycle}`` is the counter
§13.2 calls ``repair_cycles_total``, with the cycle number as a second label.

``METRICS`` is the process's registry: the executor reports tool calls to it and the event
emitter reports node timings and run boundaries.

the process's metrics on a prometheus_client registry with the seed's names (`node_latency_ms`,
`e2e_latency_ms`, `ttfe_ms`, `tool_latency_ms`, `tool_errors_total{tool,reason}`, `cache_hit_rate{tool}`
over 5 min, `repair_cycles_total{success,cycle}`, `invalid_output_total`, `llm_calls_total`,
`sse_events_sent_total`, `active_runs`, `cost_usd`; the per-section ones: verifier counts by family —
`budget_violations_total`, `budget_delta_usd_cents`, `feasibility_violations_total{type}`,
`venue_closed_violations_total`, `weather_blocking_total`/`weather_advisory_total`,
`pref_violations_total{reason}` —, `repair_moves_total{move_type}`, `repairs_per_run`, `branch_fanout_max`,
`selector_decisions_total{chosen,discarded}`, `sse_drops_total`, `sse_reconnects_total{reason}` (0: the in-
process stream never disconnects), `cross_org_reads`, `tool_calls_total{tool}`, `tool_error_rate{tool}`, and
p50/p95 gauges of TTFE, end-to-end and re-plan latency — `replan_latency_ms`: an edit or the same intent
again — over the last 1,000 runs, also in `diagnostics`' `latency_ms`), fed by the executor and the event
emitter; the report `tripwright diagnostics [--json] [--prometheus] [--bundle]` shows (saved after each CLI
plan and each `tripwright eval` in the data dir); the bundle zip is staged and renamed into place
"""

from __future__ import annotations

import time
from collections import deque
from statistics import quantiles
from typing import Callable

from engine.metric_types import Counter, Gauge, Histogram, Registry, Summary

NODE_BUCKETS = (100, 500, 1000, 2000, 5000, 10000)
TOOL_BUCKETS = (1, 5, 20, 100, 500, 1000, 2000, 4000)
HIT_WINDOW_S = 300.0
MAX_WINDOW_SAMPLES = 10_000
DELTA_BUCKETS = (0, 1_000, 5_000, 10_000, 50_000, 100_000, 500_000)  # cents over budget
MOVES_BUCKETS = (0, 1, 2, 3, 4, 6)
QUANTILE_RUNS = 1_000  # p50/p95 over the last this many runs
FEASIBILITY = {"timing_infeasible": "timing", "slippage_risk": "slippage", "direction_violated": "direction",
               "pacing_violated": "pacing", "corridor_violated": "corridor"}
PREF_REASONS = ("late_night", "not_kid_friendly", "overnight_flight", "locked_slot_missing")
MOVE_TYPES = ("swap_airport", "downgrade_hotel", "reorder_days", "replace_activity")  # engine.models.MoveType


class Metrics:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.metrics = Registry()  # plain numbers; prometheus_client only for ``prometheus_text``/``snapshot``
        r = self.metrics
        self.node_latency_ms = Histogram("node_latency_ms", "Pipeline node duration", ["node"],
                                         buckets=NODE_BUCKETS, registry=r)
        self.e2e_latency_ms = Histogram("e2e_latency_ms", "Whole run duration", buckets=NODE_BUCKETS, registry=r)
        self.ttfe_ms = Histogram("ttfe_ms", "Time to the first event of a run", buckets=NODE_BUCKETS, registry=r)
        self.tool_latency_ms = Histogram("tool_latency_ms", "Tool call latency (cache hits: 0)", ["tool"],
                                         buckets=TOOL_BUCKETS, registry=r)
        self.tool_errors_total = Counter("tool_errors_total", "Tool failures", ["tool", "reason"], registry=r)
        # Seed §7's repair_cycles{success,cycle} and §13.2's repair_cycles_total{success}: one counter.
        self.repair_cycles_total = Counter("repair_cycles", "Repair cycles run, by outcome and cycle number",
                                           ["success", "cycle"], registry=r)
        self.invalid_output_total = Counter("invalid_output_total", "Invalid model outputs", ["node"], registry=r)
        # The denominator of the seed's invalid_output_rate (schema rejects / model calls).
        self.llm_calls_total = Counter("llm_calls_total", "Model calls answered", ["node"], registry=r)
        self.sse_events_sent_total = Counter("sse_events_sent_total", "Stream events emitted", ["node"], registry=r)
        self.cache_hit_rate = Gauge("cache_hit_rate", "Cache hit rate over 5 minutes", ["tool"], registry=r)
        self.active_runs = Gauge("active_runs", "Runs in flight", registry=r)
        self.cost_usd = Summary("cost_usd", "LLM and tool cost per node", ["node"], registry=r)
        self.tool_calls_total = Counter("tool_calls_total", "Tool calls (cache hits included)", ["tool"], registry=r)
        self.tool_error_rate = Gauge("tool_error_rate", "Tool errors / tool calls", ["tool"], registry=r)
        self._verifier_metrics(r)
        self._repair_metrics(r)
        self.branch_fanout_max = Gauge("branch_fanout_max", "Most branches one run explored", registry=r)
        self.selector_decisions_total = Counter("selector_decisions_total", "Selector choices",
                                                ["chosen", "discarded"], registry=r)
        self.sse_drops_total = Counter("sse_drops_total", "Events dropped by a full stream buffer", registry=r)
        self.sse_reconnects_total = Counter("sse_reconnects_total", "Stream replays after a gap", ["reason"],
                                            registry=r)
        self.sse_reconnects_total.labels("heartbeat_timeout")
        self.cross_org_reads = Gauge("cross_org_reads", "Rows of another org that reached a session", registry=r)
        self.replan_latency_ms = Histogram("replan_latency_ms", "Re-plan (edit or same intent again) duration",
                                           buckets=NODE_BUCKETS, registry=r)
        self._latency_quantiles(r)
        self._hits: dict[str, deque[tuple[float, bool]]] = {}
        self._tool_counts: dict[str, tuple[int, int]] = {}  # calls, errors (tool_error_rate)
        self._tool_children: dict[str, tuple] = {}
        self._hit_counts: dict[str, int] = {}  # hits inside each window, kept as it slides

    def _verifier_metrics(self, r: Registry) -> None:
        self.budget_violations_total = Counter("budget_violations_total", "Plans over budget", registry=r)
        self.budget_delta_usd_cents = Histogram("budget_delta_usd_cents", "How far over budget a plan was",
                                                buckets=DELTA_BUCKETS, registry=r)
        self.feasibility_violations_total = Counter("feasibility_violations_total", "Infeasible timings",
                                                    ["type"], registry=r)
        self.feasibility_violations_total.labels("timing")
        self.venue_closed_violations_total = Counter("venue_closed_violations_total", "Visits while closed",
                                                     registry=r)
        self.weather_blocking_total = Counter("weather_blocking_total", "Outdoor visits in bad weather", registry=r)
        self.weather_advisory_total = Counter("weather_advisory_total", "Uncertain-weather advisories", registry=r)
        self.pref_violations_total = Counter("pref_violations_total", "Preferences not kept", ["reason"], registry=r)
        for reason in PREF_REASONS:
            self.pref_violations_total.labels(reason)

    def _repair_metrics(self, r: Registry) -> None:
        self.repair_moves_total = Counter("repair_moves_total", "Repair moves applied", ["move_type"], registry=r)
        for move in MOVE_TYPES:
            self.repair_moves_total.labels(move)
        self.repairs_per_run = Histogram("repairs_per_run", "Repair moves per run", buckets=MOVES_BUCKETS,
                                         registry=r)

    def _latency_quantiles(self, r: Registry) -> None:
        self._samples: dict[str, deque[float]] = {}
        self._quantile_gauges: dict[str, tuple[Gauge, Gauge]] = {}
        for name, what in (("ttfe_ms", "time to first event"), ("e2e_latency_ms", "run duration"),
                           ("replan_latency_ms", "re-plan duration")):
            self._samples[name] = deque(maxlen=QUANTILE_RUNS)
            self._quantile_gauges[name] = (Gauge(f"{name}_p50", f"Median {what} (last runs)", registry=r),
                                           Gauge(f"{name}_p95", f"95th percentile {what} (last runs)", registry=r))

    def _sample(self, name: str, value_ms: float) -> None:
        samples = self._samples[name]
        samples.append(value_ms)
        p50, p95 = percentiles(list(samples))
        low, high = self._quantile_gauges[name]
        low.set(p50)
        high.set(p95)

    # -- tools (the executor's observer) -----------------------------------------------------
    def _tool(self, tool: str) -> tuple:
        """The tool's labelled children, looked up once (``labels()`` is the slow part of a call)."""
        found = self._tool_children.get(tool)
        if found is None:
            found = self._tool_children[tool] = (self.tool_latency_ms.labels(tool), self.tool_calls_total.labels(tool),
                                                 self.tool_error_rate.labels(tool), self.cache_hit_rate.labels(tool))
        return found

    def tool_call(self, tool: str, latency_ms: float | None, cache_hit: bool) -> None:
        """One call; ``latency_ms=None``: an in-process lookup with no latency worth a sample
        (``ToolExecutor.call_sync``: FX rates, transit legs — hundreds a run)."""
        latency, calls, _, hit_rate = self._tool(tool)
        if latency_ms is not None:
            latency.observe(latency_ms)
        calls.inc()
        self._error_rate(tool)
        window = self._hits.setdefault(tool, deque())
        now = self._clock()
        window.append((now, cache_hit))
        hits = self._hit_counts[tool] = self._hit_counts.get(tool, 0) + cache_hit
        while window and (now - window[0][0] > HIT_WINDOW_S or len(window) > MAX_WINDOW_SAMPLES):
            hits -= window.popleft()[1]
        self._hit_counts[tool] = hits
        hit_rate.set(hits / len(window))

    def computed_call(self, tool: str, cache_hit: bool) -> None:  # noqa: ARG002 (the executor's observer API)
        """One in-process computation (``engine.tools.computed``: a transit leg, thousands a run):
        counted, and in the error rate; no latency sample and no hit-rate window (its cache is a
        memo of a computation, not a service's answers)."""
        self._tool(tool)[1].inc()
        self._error_rate(tool)

    def tool_error(self, tool: str, reason: str) -> None:
        self.tool_errors_total.labels(tool, reason).inc()
        self.tool_calls_total.labels(tool).inc()  # a failed call is a call (the rate's denominator)
        self._error_rate(tool, error=True)

    def _error_rate(self, tool: str, error: bool = False) -> None:
        calls, errors = self._tool_counts.get(tool, (0, 0))
        calls, errors = calls + 1, errors + error
        self._tool_counts[tool] = (calls, errors)
        if errors or calls == 1:  # 0.0 stays 0.0 until a call fails: no gauge write per call
            self._tool(tool)[2].set(errors / calls)

    # -- runs -------------------------------------------------------------------------------
    def node_done(self, node: str, duration_ms: float) -> None:
        self.node_latency_ms.labels(node).observe(duration_ms)

    def event(self, node: str) -> None:
        self.sse_events_sent_total.labels(node).inc()

    def first_event(self, ms: float) -> None:
        self.ttfe_ms.observe(ms)
        self._sample("ttfe_ms", ms)

    def run_done(self, ms: float, replan: bool) -> None:
        self.e2e_latency_ms.observe(ms)
        self._sample("e2e_latency_ms", ms)
        if replan:
            self.replan_latency_ms.observe(ms)
            self._sample("replan_latency_ms", ms)

    def verified(self, violations) -> None:  # noqa: ANN001 (list[Violation]; engine.models loads late)
        """What the verifier node found (seed §6's per-family counters)."""
        for v in violations:
            kind = v.kind.value
            if kind == "budget_exceeded":
                self.budget_violations_total.inc()
                total, budget = v.details.get("total_usd_cents"), v.details.get("budget_usd_cents")
                if isinstance(total, int) and isinstance(budget, int):
                    self.budget_delta_usd_cents.observe(max(total - budget, 0))
            elif kind in FEASIBILITY:
                self.feasibility_violations_total.labels(FEASIBILITY[kind]).inc()
            elif kind == "venue_closed":
                self.venue_closed_violations_total.inc()
            elif kind == "weather_unsuitable":
                (self.weather_blocking_total if v.blocking else self.weather_advisory_total).inc()
            elif kind == "pref_violated":
                self.pref_violations_total.labels(v.reason).inc()

    def repaired(self, diffs, success: bool) -> None:  # noqa: ANN001 (list[RepairDiff])
        """A run's repair: cycles (by outcome and number), moves by type, moves per run."""
        moves = 0
        for diff in diffs:
            self.repair_cycles_total.labels(str(success).lower(), str(diff.cycle)).inc()
            for move in diff.moves:
                self.repair_moves_total.labels(move.move_type.value).inc()
                moves += 1
        self.repairs_per_run.observe(moves)

    def selected(self, chosen: str, discarded: int, fanout: int) -> None:
        self.selector_decisions_total.labels(chosen, str(discarded)).inc()
        if fanout > self.branch_fanout_max.get():
            self.branch_fanout_max.set(fanout)


    def llm_figures(self) -> dict:
        """Model calls, invalid outputs, their rate and the priced cost, over every node."""
        def total(metric, field: str = "value") -> float:
            return sum(getattr(s, field) for s in metric.series.values())
        calls = total(self.llm_calls_total)
        invalid = total(self.invalid_output_total)
        return {"calls": int(calls), "invalid_outputs": int(invalid),
                "invalid_output_rate": round(invalid / calls, 4) if calls else 0.0,
                "cost_usd": round(total(self.cost_usd, "sum"), 6)}

    def latency_figures(self) -> dict:
        """p50 and p95 (ms) of time to first event, whole runs and re-plans, over the last runs."""
        out = {}
        for name, label in (("ttfe_ms", "ttfe"), ("e2e_latency_ms", "e2e"), ("replan_latency_ms", "replan")):
            values = list(self._samples[name])
            p50, p95 = percentiles(values) if values else (None, None)
            out[label] = {"runs": len(values), "p50": None if p50 is None else round(p50, 1),
                          "p95": None if p95 is None else round(p95, 1)}
        return out

    @property
    def registry(self):  # noqa: ANN201 (prometheus_client's CollectorRegistry, imported only here)
        """The metrics as a prometheus_client registry (built at the first ask)."""
        return self.metrics.prometheus()

    def prometheus_text(self) -> str:
        from prometheus_client import generate_latest
        return generate_latest(self.registry).decode()

    def snapshot(self) -> dict:
        """Plain values: ``{metric: [{"labels": {...}, "value": v}, ...]}`` (sums and counts for
        histograms and summaries; the names and suffixes of the Prometheus view)."""
        return self.metrics.snapshot()


def percentiles(values: list[float]) -> tuple[float, float]:
    """(p50, p95) of ``values`` (inclusive method; one value is both)."""
    if len(values) == 1:
        return values[0], values[0]
    cuts = quantiles(values, n=20, method="inclusive")
    return cuts[9], cuts[18]


METRICS = Metrics()
