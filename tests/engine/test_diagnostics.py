"""Metrics with the seed's names and ``tripwright diagnostics`` through the real executable, after
real plans against a 127.0.0.1 Open-Meteo stand-in."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

from engine.metrics import Metrics
from engine.models import EventStatus
from engine.pipeline.events import EventEmitter

from .standin_server import Reply, StandIn

EXE = Path(sys.executable).with_name("tripwright")
SEED_NAMES = ("node_latency_ms", "e2e_latency_ms", "ttfe_ms", "tool_latency_ms", "tool_errors_total",
              "cache_hit_rate", "repair_cycles_total", "invalid_output_total", "active_runs", "cost_usd",
              "sse_events_sent_total")
INTENT = {"city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
          "budget_usd_cents": 400000, "airports": ["CDG", "ORY"], "origin_airport": "JFK",
          "prefs": {"themes": ["art", "food"]}}


def tw(home: Path, server: StandIn, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TRIPWRIGHT_OFFLINE"}
    env |= {"TRIPWRIGHT_HOME": str(home), "TRIPWRIGHT_OPEN_METEO_URL": server.url}
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, env=env, timeout=120)


def plan(tmp_path: Path, server: StandIn) -> None:
    intent = tmp_path / "intent.json"
    intent.write_text(json.dumps(INTENT))
    done = tw(tmp_path, server, "plan", "--intent", str(intent), "--today", "2027-06-10")
    assert done.returncode == 0, done.stderr


def test_a_hundred_events_and_tool_calls_show_every_seed_metric() -> None:
    metrics = Metrics()
    for i in range(100):
        metrics.event("planner")
        metrics.tool_call("weather", 12.0, cache_hit=i % 5 != 0)
    metrics.tool_error("weather", "timeout")
    text = metrics.prometheus_text()
    for name in SEED_NAMES:
        assert f"# TYPE {name}" in text, name
    assert 'sse_events_sent_total{node="planner"} 100.0' in text
    assert 'cache_hit_rate{tool="weather"} 0.8' in text
    assert 'tool_errors_total{reason="timeout",tool="weather"} 1.0' in text


def test_the_emitter_reports_node_latency_ttfe_e2e_and_active_runs() -> None:
    from engine.metrics import METRICS
    before = METRICS.active_runs._value.get()
    emitter = EventEmitter("t" * 32, "run-1")
    assert METRICS.active_runs._value.get() == before + 1
    emitter.emit("planner", EventStatus.completed, duration_ms=120)
    emitter.emit("responder", EventStatus.done)
    assert METRICS.active_runs._value.get() == before
    snapshot = METRICS.snapshot()
    assert any(r["labels"] == {"node": "planner"} and r["count"] >= 1 for r in snapshot["node_latency_ms"])
    assert snapshot["e2e_latency_ms"][0]["count"] >= 1 and snapshot["ttfe_ms"][0]["count"] >= 1


def test_diagnostics_after_a_plan_shows_tools_breakers_and_hit_rates(tmp_path, server) -> None:
    plan(tmp_path, server)
    done = tw(tmp_path, server, "diagnostics", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    weather = report["tools"]["weather"]
    assert weather["calls"] == 1 and weather["breaker"] == "closed" and weather["errors"] == {}
    assert report["tools"]["flights"]["calls"] == 2
    assert {"node_latency_ms", "tool_latency_ms", "e2e_latency_ms"} <= set(report["metrics"])
    text = tw(tmp_path, server, "diagnostics", "--prometheus").stdout
    assert all(f"# TYPE {name}" in text for name in SEED_NAMES)
    human = tw(tmp_path, server, "diagnostics").stdout
    assert "weather" in human and "closed" in human


def test_diagnostics_names_the_error_reasons_of_a_failing_service(tmp_path, server) -> None:
    server.then("/v1/forecast", Reply(status=503), Reply(status=503))
    plan(tmp_path, server)
    report = json.loads(tw(tmp_path, server, "diagnostics", "--json").stdout)
    assert report["tools"]["weather"]["errors"] == {"unavailable": 1}
    assert report["tools"]["weather"]["retries"] == 1


def test_bundle_holds_report_metrics_versions_and_redacted_logs(tmp_path, server) -> None:
    plan(tmp_path, server)
    logs = tmp_path / "logs"  # the CLI's own rotating log is here already; add an older rotated file
    assert (logs / "tripwright.log").exists()
    (logs / "tripwright.log.1").write_text(
        "HTTP Request: GET https://api.openweathermap.org/data/3.0/onecall?lat=1&lon=2&appid=SECRET123 200\n"
        "token=SECRET456 api_key=SECRET789\n")
    target = tmp_path / "diag.zip"
    done = tw(tmp_path, server, "diagnostics", "--bundle", str(target))
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(target) as zf:
        names = set(zf.namelist())
        assert {"report.json", "metrics.prom", "versions.json", "logs/tripwright.log", "logs/tripwright.log.1"} <= names
        everything = "".join(zf.read(n).decode() for n in names)
    assert "SECRET" not in everything and "appid=***" in everything
    assert json.loads(zipfile.ZipFile(target).read("versions.json"))["httpx"]


def test_bundle_to_a_bad_path_is_one_clear_line(tmp_path, server) -> None:
    done = tw(tmp_path, server, "diagnostics", "--bundle", str(tmp_path / "diag.txt"))
    assert done.returncode == 2 and "--bundle" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
