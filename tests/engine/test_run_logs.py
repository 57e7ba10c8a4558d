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
from engine.tools.network import NetworkState

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
    assert any(line["event"] == "tool_retry" for line in lines)
    for line in lines:
        assert (line["trace_id"], line["run_id"]) == (result.trace_id, result.run_id), line
        assert (line["org_id"], line["user_id"]) == ("org-1", "user-1")
    assert {line["node"] for line in lines} == {"planner"}  # the tools are called while planning


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
