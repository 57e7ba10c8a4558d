"""Diagnostics: what the tools and runs of a process did (metrics with the seed's names, breaker
states, cache hit rates, error reasons, cost), saved after each CLI plan so ``tripwright diagnostics``
can show the last one, and packed into a bundle (report, Prometheus text, versions, redacted logs).
"""

from __future__ import annotations

import json
import platform
import sys
import zipfile
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from statistics import quantiles
from typing import Any

from engine.log_setup import default_log_dir, redact_text
from engine.metrics import METRICS

SNAPSHOT_NAME = "diagnostics-last.json"
PACKAGES = ("tripwright", "httpx", "geopy", "pydantic", "sqlalchemy", "prometheus_client", "PySide6")


def data_dir() -> Path:
    """The store's data dir rule without importing the store (that import costs ~1 s)."""
    return default_log_dir().parent


def snapshot_path() -> Path:
    return data_dir() / SNAPSHOT_NAME


def collect(executor: Any | None = None, *, prometheus: bool = True) -> dict:
    """This process's figures. ``prometheus=False`` (a CLI plan saving them): the series as plain
    rows instead of the Prometheus text, which ``load`` renders (a plan never imports prometheus_client)."""
    tools = {}
    if executor is not None:
        states = executor.breaker_states()
        for tool, stats in sorted(executor.stats.items()):
            tools[tool] = {"calls": stats.calls, "cache_hits": stats.cache_hits,
                           "cache_hit_rate": round(stats.cache_hits / stats.calls, 3) if stats.calls else 0.0,
                           "errors": dict(stats.error_reasons), "retries": stats.retries, "slow": stats.slow,
                           "latency_ms": _percentiles(stats.latencies_ms), "breaker": states.get(tool, "closed")}
    metrics = METRICS.snapshot()
    cost = sum(row.get("sum", 0.0) for row in metrics.get("cost_usd", []))
    return {"generated_at": datetime.now(timezone.utc).isoformat(), "tools": tools, "cost_usd": cost,
            "llm": METRICS.llm_figures(), "latency_ms": METRICS.latency_figures(), "metrics": metrics,
            **({"prometheus": METRICS.prometheus_text()} if prometheus else {"series": METRICS.metrics.state()})}


def run_costs(runs: list[Any]) -> dict:
    """Model cost per run from stored run rows (``RunStatus``, newest first)."""
    costs = [r.cost_micro_usd / 1_000_000 for r in runs]
    return {"count": len(runs), "total_cost_usd": round(sum(costs), 6),
            "mean_cost_usd": round(sum(costs) / len(costs), 6) if costs else 0.0,
            "last": [{"run_id": r.run_id, "status": r.status, "created_at": r.created_at.isoformat(),
                      "cost_usd": c} for r, c in zip(runs, costs)]}


def _percentiles(values: list[float]) -> dict:
    if not values:
        return {"p50": None, "p95": None}
    if len(values) == 1:
        return {"p50": round(values[0], 2), "p95": round(values[0], 2)}
    cuts = quantiles(values, n=20, method="inclusive")
    return {"p50": round(cuts[9], 2), "p95": round(cuts[18], 2)}


def versions() -> dict:
    found = {"python": sys.version.split()[0], "platform": platform.platform()}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def save(report: dict, path: Path | None = None) -> Path:
    from engine.atomic import write_atomic
    target = path or snapshot_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, json.dumps(report, indent=2))
    return target


def load(path: Path | None = None) -> dict | None:
    try:
        report = json.loads((path or snapshot_path()).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(report, dict) and "prometheus" not in report and isinstance(report.get("series"), list):
        from engine.metrics import Metrics
        saved = Metrics()
        saved.metrics.restore(report.pop("series"))
        report["prometheus"] = saved.prometheus_text()
    return report


def redact(text: str) -> str:
    return redact_text(text)


def bundle(report: dict, target: Path, log_dir: Path | None = None) -> list[str]:
    """Write the zip; returns the names inside. Logs are redacted line by line on the way in. The
    zip is staged beside ``target`` and renamed into place: a failure leaves no half-written file."""
    from engine.atomic import atomic_path
    with atomic_path(target) as staged:
        return _write_bundle(report, staged, log_dir)


def _write_bundle(report: dict, target: Path, log_dir: Path | None) -> list[str]:
    names = []
    report = report | {"versions": versions()}
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        body = {k: v for k, v in report.items() if k != "prometheus"}
        for name, text in (("report.json", json.dumps(body, indent=2)), ("metrics.prom", report.get("prometheus", "")),
                           ("versions.json", json.dumps(report["versions"], indent=2))):
            zf.writestr(name, redact(text))
            names.append(name)
        for log in sorted((log_dir or data_dir() / "logs").glob("*.log*")):
            zf.writestr(f"logs/{log.name}", redact(log.read_text(encoding="utf-8", errors="replace")))
            names.append(f"logs/{log.name}")
    return names


def human(report: dict) -> str:
    lines = [f"Diagnostics of the last run ({report['generated_at']}); cost ${report.get('cost_usd', 0):.4f}"]
    lines.append(f"{'tool':<16}{'calls':>6}{'hit rate':>10}{'p50 ms':>9}{'p95 ms':>9}  breaker    errors")
    for tool, t in report.get("tools", {}).items():
        errors = ", ".join(f"{k} {v}" for k, v in t["errors"].items()) or "-"
        p50, p95 = (t["latency_ms"][k] for k in ("p50", "p95"))
        lines.append(f"{tool:<16}{t['calls']:>6}{t['cache_hit_rate']:>10.0%}{_ms(p50):>9}{_ms(p95):>9}  "
                     f"{t['breaker']:<10} {errors}")
    latency = report.get("latency_ms") or {}
    if any(row.get("runs") for row in latency.values()):
        lines.append("Latency (ms)      p50      p95  runs")
        for name, row in latency.items():
            lines.append(f"  {name:<12}{_ms(row['p50']):>9}{_ms(row['p95']):>9}{row['runs']:>6}")
    llm = report.get("llm") or {}
    if llm.get("calls") or llm.get("invalid_outputs"):
        lines.append(f"Model: {llm['calls']} call(s), {llm['invalid_outputs']} invalid output(s) "
                     f"(invalid-output rate {llm['invalid_output_rate']:.1%}), cost ${llm['cost_usd']:.4f}")
    runs = report.get("runs")
    if runs:
        lines.append(f"Recent runs: {runs['count']}, model cost per run ${runs['mean_cost_usd']:.4f} "
                     f"(total ${runs['total_cost_usd']:.4f})")
        lines += [f"  {r['created_at'][:19]}  {r['status']:<10} ${r['cost_usd']:.4f}  {r['run_id']}" for r in runs["last"]]
    return "\n".join(lines)


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"
