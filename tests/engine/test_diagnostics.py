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
    before = METRICS.active_runs.get()
    emitter = EventEmitter("t" * 32, "run-1")
    assert METRICS.active_runs.get() == before + 1
    emitter.emit("planner", EventStatus.completed, duration_ms=120)
    emitter.emit("responder", EventStatus.done)
    assert METRICS.active_runs.get() == before
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


# Seed 002's per-section metrics (issue 23 §2): each name, scraped after a real run.
SECTION_NAMES = ("budget_violations_total", "budget_delta_usd_cents", "feasibility_violations_total",
                 "venue_closed_violations_total", "weather_blocking_total", "weather_advisory_total",
                 "pref_violations_total", "repair_moves_total", "repairs_per_run", "repair_cycles_total",
                 "sse_drops_total", "sse_reconnects_total", "branch_fanout_max", "selector_decisions_total",
                 "cross_org_reads", "tool_calls_total", "tool_error_rate", "ttfe_ms_p50", "ttfe_ms_p95",
                 "e2e_latency_ms_p50", "e2e_latency_ms_p95", "replan_latency_ms_p50", "replan_latency_ms_p95")


def scrape(text: str) -> dict[tuple, float]:
    from prometheus_client.parser import text_string_to_metric_families
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def test_prometheus_scrape_after_a_budget_pinched_run_has_every_seed_metric_with_plausible_values(
        tmp_path, server) -> None:
    intent = tmp_path / "intent.json"
    intent.write_text(json.dumps(INTENT | {"budget_usd_cents": 190000}))  # forces a cheaper hotel
    done = tw(tmp_path, server, "plan", "--intent", str(intent), "--today", "2027-06-10", "--out",
              str(tmp_path / "it.json"))
    assert done.returncode == 0, done.stderr
    itinerary = json.loads((tmp_path / "it.json").read_text())
    moves = [m["move_type"] for d in itinerary["repairs"] for m in d["moves"]]
    assert moves, "the budget did not pinch: pick a lower one"
    text = tw(tmp_path, server, "diagnostics", "--prometheus").stdout
    found = scrape(text)
    names = {name for name, _ in found}
    missing = [n for n in SECTION_NAMES if not any(s == n or s.startswith(n + "_") for s in names)]
    assert missing == []

    def value(name: str, **labels: str) -> float:
        return found[(name, tuple(sorted(labels.items())))]

    assert value("budget_violations_total") >= 1
    assert value("budget_delta_usd_cents_count") >= 1 and value("budget_delta_usd_cents_sum") > 0
    assert value("feasibility_violations_total", type="timing") >= 0
    assert value("venue_closed_violations_total") >= 0 and value("weather_blocking_total") >= 0
    assert value("weather_advisory_total") >= 0 and value("pref_violations_total", reason="late_night") >= 0
    for move in set(moves):
        assert value("repair_moves_total", move_type=move) == moves.count(move)
    assert value("repairs_per_run_count") == 1 and value("repairs_per_run_sum") == len(moves)
    assert value("repair_cycles_total", success="true", cycle="1") == 1
    assert value("sse_drops_total") == 0 and value("sse_reconnects_total", reason="heartbeat_timeout") == 0
    fanout = value("branch_fanout_max")
    assert 1 <= fanout <= 4
    [(labels, decisions)] = [(dict(k[1]), v) for k, v in found.items() if k[0] == "selector_decisions_total"]
    assert decisions == 1 and int(labels["discarded"]) == fanout - 1 and "/" in labels["chosen"]
    assert value("cross_org_reads") == 0
    assert value("tool_calls_total", tool="flights") == 2 and value("tool_calls_total", tool="weather") == 1
    assert value("tool_calls_total", tool="transit") > 10  # through the executor like every tool
    assert value("tool_error_rate", tool="flights") == 0
    for name in ("ttfe_ms", "e2e_latency_ms"):
        assert 0 < value(f"{name}_p50") <= value(f"{name}_p95")
    assert value("e2e_latency_ms_p50") >= value("ttfe_ms_p50")
    assert value("replan_latency_ms_p50") == value("replan_latency_ms_p95") == 0  # one run: no re-plan
    human = tw(tmp_path, server, "diagnostics").stdout
    assert "Latency (ms)" in human and "e2e" in human


def test_a_replan_and_a_failing_tool_reach_the_quantiles_and_the_error_rate() -> None:
    """In-process: the same intent planned twice is a re-plan (seed §16: re-plan p50); a tool that
    fails half its calls has an error rate of 0.5."""
    import asyncio

    from engine.catalog import default_catalog
    from engine.metrics import METRICS
    from engine.pipeline import PlanningSession

    from .conftest import TODAY, make_intent
    before = len(METRICS._samples["replan_latency_ms"])  # noqa: SLF001
    session = PlanningSession(default_catalog(), today=TODAY)
    asyncio.run(session.plan(make_intent()))
    assert len(METRICS._samples["replan_latency_ms"]) == before  # noqa: SLF001 (a first plan)
    asyncio.run(session.plan(make_intent()))
    assert len(METRICS._samples["replan_latency_ms"]) == before + 1  # noqa: SLF001
    figures = METRICS.latency_figures()["replan"]
    assert figures["runs"] >= 1 and 0 < figures["p50"] <= figures["p95"]
    metrics = Metrics()
    metrics.tool_call("flights", 3.0, cache_hit=False)
    metrics.tool_error("flights", "timeout")
    assert 'tool_error_rate{tool="flights"} 0.5' in metrics.prometheus_text()


def test_events_a_full_stream_buffer_drops_are_counted() -> None:
    from engine.metrics import METRICS
    from engine.pipeline import ThrottledStream
    emitter = EventEmitter("t" * 32, "run-drops", heartbeat_s=None)
    stream = ThrottledStream(capacity=3)
    before = METRICS.sse_drops_total.get()  # noqa: SLF001
    for _ in range(5):
        stream.push(emitter.emit("planner", EventStatus.running))
    emitter.emit("responder", EventStatus.done)
    assert stream.dropped == 2 and METRICS.sse_drops_total.get() == before + 2  # noqa: SLF001
