"""Structured logs of a run (seed §13.1): JSON lines in a rotating file in the data dir, every line of
a run carrying trace_id, run_id, org_id, user_id and node; secrets in URLs and keys redacted."""

from __future__ import annotations

import json
from datetime import date

import pytest
import structlog

from engine.catalog import default_catalog
from engine.log_setup import configure
from engine.pipeline import PlanningSession
from engine.net.network import NetworkState

from .conftest import make_intent
from .standin_server import Reply


pytestmark = pytest.mark.standin_urls("TRIPWRIGHT_OPEN_METEO_URL")


@pytest.fixture()
def log_file(tmp_path):
    configure(0, log_dir=tmp_path / "logs")
    yield tmp_path / "logs" / "tripwright.log"
    configure(0)  # back to stderr only (closes the file)


async def test_every_line_of_a_run_carries_the_run_context(server, log_file) -> None:
    server.then("/v1/forecast", Reply(status=503))  # a retry: warning and info lines from the executor
    session = PlanningSession(default_catalog(), today=date(2027, 6, 10))
    session.org_id, session.user_id = "org-1", "user-1"
    result = await session.plan(make_intent())
    assert result.status == "completed"
    lines = [json.loads(line) for line in log_file.read_text().splitlines()]
    assert any(line["logger"] == "httpx" for line in lines)  # the HTTP client's own lines too
    assert any(line["message"] == "tool_retry" for line in lines)
    for line in lines:
        assert "trace_id" in line, line
        assert (line["trace_id"], line["run_id"]) == (result.trace_id, result.run_id), line
        assert (line["org_id"], line["user_id"]) == ("org-1", "user-1")
    tools = [line for line in lines if line["logger"] in ("httpx", "tripwright.tools")]
    nodes = {line["node"] for line in tools}  # the tools are called while planning (FX and transit also later)
    assert tools and "planner" in nodes and nodes <= {"planner", "tool_executor", "synthesizer"}, nodes
    synchronous = {line["tool"] for line in tools if line.get("message") == "tool_call"}
    assert {"fx", "transit"} <= synchronous  # seed §13.1: the in-process look-ups are tool calls too


async def test_secrets_in_urls_and_keys_never_reach_the_log(server, log_file) -> None:
    with structlog.contextvars.bound_contextvars(trace_id="t1"):
        await NetworkState().get_json("weather", f"{server.url}/v1/forecast",
                                      {"latitude": "1", "longitude": "2", "start_date": "2027-06-15",
                                       "end_date": "2027-06-15", "appid": "SECRET-APPID"})
        structlog.get_logger("tripwright.test").warning("key_check", api_key="SECRET-KEY",
                                                        url="https://x.test/a?token=SECRET-TOKEN&b=1")
    text = log_file.read_text()
    assert "SECRET" not in text
    assert "appid=***" in text and "token=***" in text and '"api_key": "***"' in text
    assert server.hits("/v1/forecast")[0].query["appid"] == "SECRET-APPID"  # the request itself was intact


def test_a_verbose_json_plan_logs_each_node_tool_call_and_verification_under_one_trace_id(tmp_path) -> None:
    """Seed §13.1 through the real executable: ``plan -v --log-json`` writes one INFO line per node
    (duration), per tool call (latency, retries, cache hit) and per verification (counts), with the
    seed's field names, every line of the run carrying the same trace_id and run_id."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from .conftest import intent_dict
    exe = Path(sys.executable).with_name("tripwright")
    intent, out = tmp_path / "intent.json", tmp_path / "it.json"
    intent.write_text(json.dumps(intent_dict()))
    done = subprocess.run([str(exe), "plan", "-v", "--log-json", "--intent", str(intent), "--out", str(out),
                           "--today", "2027-06-10"], capture_output=True, text=True, timeout=120,
                          env=os.environ | {"TRIPWRIGHT_HOME": str(tmp_path / "home")})
    assert done.returncode == 0, done.stderr
    itinerary = json.loads(out.read_text())
    lines = [json.loads(line) for line in done.stderr.splitlines() if line.startswith("{")]
    run = [line for line in lines if "trace_id" in line]
    assert run and {(line["trace_id"], line["run_id"]) for line in run} == {(itinerary["trace_id"], itinerary["run_id"])}
    for line in run:
        assert {"ts", "level", "message", "node", "org_id", "user_id"} <= set(line), line
    by = {}
    for line in run:
        by.setdefault(line["message"], []).append(line)
    nodes = {line["node"]: line for line in by["node_completed"]}
    assert {"intent_extractor", "planner", "selector", "tool_executor", "verifier", "repair",
            "synthesizer"} <= set(nodes)
    assert all(isinstance(line["duration_ms"], int) and line["duration_ms"] >= 0 for line in nodes.values())
    calls = by["tool_call"]
    assert {"flights", "lodging", "attractions", "dining"} <= {c["tool"] for c in calls}
    for call in calls:
        assert call["level"] == "info" and call["latency_ms"] >= 0 and call["retries"] == 0
        assert isinstance(call["cache_hit"], bool)
    [verification] = by["verification"]
    assert verification["node"] == "verifier"
    assert 0 <= verification["blocking_count"] <= verification["violations_count"]
