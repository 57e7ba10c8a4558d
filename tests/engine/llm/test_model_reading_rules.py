"""Issue 32: "Plan with AI" (``plan --llm --prompt``) reads a prompt by the same rules as the
rule-based prompt path — a trip that names no budget is planned with the default budget and says
so in the same line, and a trip starting before today is refused on ``start`` (exit 2, one line).
Through the real ``tripwright`` executable and the real ``openai`` client against the scripted
OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json

from engine.intake.vocabulary import DEFAULT_BUDGET_USD, NO_BUDGET_GIVEN
from tests.engine.llm.scripted_server import Reply, ScriptedServer, first_choices
from tests.engine.llm.test_plan_llm_cli import TODAY, tw


def reading(**changes) -> Reply:
    found = {"city": "Paris", "start_date": "2027-06-15", "end_date": "2027-06-19", "days": 5, "budget_amount": 4000,
             "budget_currency": "USD", "origin_airport": "JFK", "travellers": 2, "themes": ["art"],
             "kid_friendly": False, "avoid_overnight": False, "stays": None, "return_from": None, **changes}
    return Reply(content=json.dumps(found))


def test_a_prompt_without_a_budget_is_planned_with_the_default_and_says_so(tmp_path) -> None:
    out = tmp_path / "out.json"
    text = "5 days in Paris from 2027-06-15 for 2, flying from JFK, art"
    with ScriptedServer([reading(budget_amount=None, budget_currency=None), first_choices]) as server:
        done = tw(server.base_url, "plan", "--llm", "--prompt", text, "--out", str(out), "--today", TODAY)
    assert done.returncode == 0, done.stderr
    assert f"tripwright: {NO_BUDGET_GIVEN}" in done.stderr.splitlines()  # the rules' reading says the same line
    itinerary = json.loads(out.read_text())
    assert itinerary["intent"]["budget_usd_cents"] == DEFAULT_BUDGET_USD * 100
    assert itinerary["llm_meta"]["intentExtracted"] is True


def test_a_prompt_with_a_budget_says_nothing_of_the_default(tmp_path) -> None:
    out = tmp_path / "out.json"
    with ScriptedServer([reading(), first_choices]) as server:
        done = tw(server.base_url, "plan", "--llm", "--prompt", "5 days in Paris from 2027-06-15, $4000",
                  "--out", str(out), "--today", TODAY)
    assert done.returncode == 0, done.stderr
    assert "no budget given" not in done.stderr
    assert json.loads(out.read_text())["intent"]["budget_usd_cents"] == 400000


def test_a_start_the_model_read_in_the_past_is_refused_in_one_line(tmp_path) -> None:
    out = tmp_path / "out.json"
    with ScriptedServer([reading(start_date="2026-06-15", end_date="2026-06-19"), first_choices]) as server:
        done = tw(server.base_url, "plan", "--llm", "--prompt", "5 days in Paris from June 15, $4000",
                  "--out", str(out), "--today", TODAY)
        asked = len(server.chat_requests())
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert lines == [f"tripwright: start: the trip starts 2026-06-15, before today ({TODAY}); plan a trip from today on"]
    assert "Traceback" not in done.stderr and not out.exists()
    assert asked == 1  # refused after the reading: nothing was drafted
