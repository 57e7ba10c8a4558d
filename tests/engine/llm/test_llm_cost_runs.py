"""The model's cost per run on the stored run row, and ``tripwright diagnostics`` showing cost and
the invalid-output rate — through the real executable, a real SQLite file and a real local
OpenAI-compatible server."""

from __future__ import annotations

import json

import pytest

from .scripted_server import Reply, ScriptedServer, first_choices
from .test_plan_llm_cli import INTENT, TODAY, tw


@pytest.fixture()
def home(tmp_path):
    (tmp_path / "intent.json").write_text(json.dumps(INTENT))
    return tmp_path


def stored_runs(home) -> list[dict]:
    done = tw("http://127.0.0.1:9/v1", "diagnostics", "--json", TRIPWRIGHT_HOME=str(home))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["runs"]["last"]


def test_the_run_row_keeps_the_model_cost_and_diagnostics_show_it(home) -> None:
    with ScriptedServer([Reply(content="not json"), first_choices]) as server:
        done = tw(server.base_url, "plan", "--llm", "--intent", str(home / "intent.json"), "--save",
                  "--today", TODAY, TRIPWRIGHT_HOME=str(home))
    assert done.returncode == 0, done.stderr
    report = json.loads(tw("http://127.0.0.1:9/v1", "diagnostics", "--json", TRIPWRIGHT_HOME=str(home)).stdout)
    # gpt-4o-mini at 1200 + 300 tokens a call: $0.00036; two calls (the garbage and the re-ask)
    assert report["llm"] == {"calls": 2, "invalid_outputs": 1, "invalid_output_rate": 0.5, "cost_usd": 0.00072}
    [run] = report["runs"]["last"]
    assert run["status"] == "completed" and run["cost_usd"] == pytest.approx(0.00072)
    assert report["tools"]["llm"]["calls"] == 2 and report["tools"]["llm"]["breaker"] == "closed"
    human = tw("http://127.0.0.1:9/v1", "diagnostics", TRIPWRIGHT_HOME=str(home)).stdout
    assert "Model: 2 call(s), 1 invalid output(s) (invalid-output rate 50.0%), cost $0.0007" in human
    assert "Recent runs: 1, model cost per run $0.0007" in human
    # Seed §13.1: each model call is one INFO line with its tokens and cost, tied to the run.
    lines = [json.loads(line) for line in (home / "logs" / "tripwright.log").read_text().splitlines()]
    calls = [line for line in lines if line["message"] == "tool_call" and line["tool"] == "llm"]
    assert len(calls) == 2 and len({c["trace_id"] for c in calls}) == 1
    for call in calls:
        assert (call["tokens_in"], call["tokens_out"], call["cost_usd"]) == (1200, 300, pytest.approx(0.00036))
        assert call["model"] == "gpt-4o-mini" and call["retries"] == 0 and call["cache_hit"] is False
        assert call["run_id"] == run["run_id"]


def test_the_cost_kill_switch_still_stops_asking_and_the_run_keeps_what_was_spent(home) -> None:
    # gpt-4o at 1200 + 300 tokens costs $0.006 a call; a $0.005 cap allows the first call only
    with ScriptedServer([Reply(content="nope")], default=first_choices) as server:
        done = tw(server.base_url, "plan", "--llm", "--intent", str(home / "intent.json"), "--save",
                  "--today", TODAY, TRIPWRIGHT_HOME=str(home), OPENAI_MODEL="gpt-4o",
                  TRIPWRIGHT_LLM_MAX_COST_USD="0.005")
        assert len(server.chat_requests()) == 1
    assert done.returncode == 0
    assert done.stderr.strip().endswith("model unavailable (this run's model cost reached the $0.005 limit); "
                                        "planned rule-based")
    [run] = stored_runs(home)
    assert run["status"] == "completed" and run["cost_usd"] == pytest.approx(0.006)


def test_a_run_without_the_model_costs_nothing(home) -> None:
    done = tw("http://127.0.0.1:9/v1", "plan", "--intent", str(home / "intent.json"), "--save", "--today", TODAY,
              TRIPWRIGHT_HOME=str(home))
    assert done.returncode == 0, done.stderr
    [run] = stored_runs(home)
    assert run["cost_usd"] == 0.0
