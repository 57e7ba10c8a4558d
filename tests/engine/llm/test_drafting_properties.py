"""Any schema-valid proposal — however odd — ends in a verified plan or a clear explanation.
Proposals are generated at random from the request's own schema by a real local server; the real
``openai`` client fetches them; the real pipeline schedules, verifies and repairs."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from engine.catalog import default_catalog
from engine.errors import ModelUnavailable
from engine.llm.client import LLMClient
from engine.llm.config import LLMConfig
from engine.llm.drafting import Drafter
from engine.llm.usage import price_of
from engine.models import IntentV1
from engine.pipeline import PlanningSession
from engine.verify import blocking, verify_plan

from .model_runs import plan_drafted
from .scripted_server import Reply, ScriptedServer, error_body, first_choices, from_schema
from ..conftest import PARIS_DEMO, TODAY


def run_with(server: ScriptedServer, intent: IntentV1, session: PlanningSession, **config):
    return plan_drafted(session, server, intent, Drafter, timeout_s=5, **config)


@pytest.mark.parametrize("seed", range(12))
def test_random_schema_valid_proposals_end_verified_or_explained(seed) -> None:
    intent = IntentV1.model_validate(PARIS_DEMO)
    session = PlanningSession(default_catalog(), today=TODAY)
    with ScriptedServer(default=from_schema(random.Random(seed))) as server:
        result, drafter = run_with(server, intent, session)
    assert drafter.meta["model"] == "gpt-4o-mini" and drafter.client.meter.invalid_output_total == 0
    if result.status == "completed":
        assert not blocking(verify_plan(result.plan, intent, result.inputs.facts))
        refs = [s.selected.option_ref for d in result.plan.days for s in d.slots if s.role == "activity"]
        assert len(refs) == len(set(refs))  # a repeated venue is used once
        assert len(result.plan.days) == intent.days  # the trip's length, whatever the model said
    else:
        assert result.status == "error" and result.failure.message.startswith("Unable to")


def test_a_server_refusing_json_schema_gets_json_mode_and_validation() -> None:
    def strict_only(request):
        if request["response_format"]["type"] == "json_schema":
            return Reply(status=400, body=error_body(400, "response_format json_schema is not supported"))
        return Reply(content="")  # never reached: replaced below
    intent = IntentV1.model_validate(PARIS_DEMO)
    session = PlanningSession(default_catalog(), today=TODAY)
    seen: list[str] = []

    def answer(request):
        seen.append(request["response_format"]["type"])
        if request["response_format"]["type"] == "json_schema":
            return strict_only(request)
        # JSON mode carries no schema: answer with the ids the prompt listed
        facts = json.loads(request["messages"][1]["content"].split("\n", 1)[1])
        return Reply(content=json.dumps({"days": [{"venues": [facts["venues"][0]["id"]], "meals": []}],
                                         "must_dos": [], "hotel_tier": facts["hotels"][0]["tier"],
                                         "airport": facts["airports"][0]}))
    with ScriptedServer(default=answer) as server:
        result, drafter = run_with(server, intent, session)
    assert seen == ["json_schema", "json_object"] and drafter.client.schema_mode is False
    assert result.status == "completed" and drafter.meta


def test_the_cost_kill_switch_stops_asking_and_the_plan_goes_on() -> None:
    intent = IntentV1.model_validate(PARIS_DEMO)
    session = PlanningSession(default_catalog(), today=TODAY)
    # gpt-4o at 1200 + 300 tokens costs $0.006 a call; a $0.005 cap allows the first call only
    with ScriptedServer([Reply(content="nope")], default=first_choices) as server:
        result, drafter = run_with(server, intent, session, model="gpt-4o", max_cost_usd=0.005)
    assert len(server.chat_requests()) == 1
    assert drafter.warning == "this run's model cost reached the $0.005 limit"
    assert result.status == "completed" and not drafter.meta


def test_prices_per_model_and_unknown_models_marked() -> None:
    assert price_of("gpt-4o-mini") == (0.15, 0.60)
    assert price_of("gpt-4o-mini-2024-07-18") == (0.15, 0.60)
    assert price_of("gpt-4o-2024-08-06") == (2.50, 10.00)
    assert price_of("llama3.1:8b") is None
    intent = IntentV1.model_validate(PARIS_DEMO)
    session = PlanningSession(default_catalog(), today=TODAY)
    with ScriptedServer(default=first_choices) as server:
        _, drafter = run_with(server, intent, session, model="llama3.1:8b")
    assert drafter.client.meter.summary()["costUsd"] is None and drafter.client.meter.prompt_tokens == 1200


def test_models_are_listed_for_test_connection() -> None:
    async def listed(url: str):
        client = LLMClient(LLMConfig(base_url=url, model="x", timeout_s=2))
        try:
            return await client.list_models()
        finally:
            await client.close()
    with ScriptedServer(default=Reply()) as server:
        assert asyncio.run(listed(server.base_url)) == ["gpt-4o-mini", "llama3.1:8b"]
    with ScriptedServer(default=Reply(status=401, body=error_body(401, "bad key"))) as server:
        with pytest.raises(ModelUnavailable, match="HTTP 401 unauthorized"):
            asyncio.run(listed(server.base_url))


def test_the_model_chooses_what_and_the_builder_when() -> None:
    intent = IntentV1.model_validate(PARIS_DEMO)
    session = PlanningSession(default_catalog(), today=TODAY)
    with ScriptedServer(default=first_choices) as server:
        result, _ = run_with(server, intent, session)
        proposal = json.loads(first_choices(server.chat_requests()[0]).content)
    assert result.status == "completed" and not result.itinerary.repairs
    assert result.plan.branch == f"{proposal['airport']}/{proposal['hotel_tier']}"
    for di, day in enumerate(result.plan.days):
        wanted = set(proposal["days"][di]["venues"]) | set(proposal["must_dos"])
        visits = [s.selected.option_ref for s in day.slots if s.role == "activity"]
        meals = [s.selected.option_ref for s in day.slots if s.role == "meal"]
        assert set(visits) <= wanted, (di, visits, wanted)
        assert set(meals) <= set(proposal["days"][di]["meals"]), (di, meals)
    assert not blocking(verify_plan(result.plan, intent, result.inputs.facts))


def test_a_proposal_whose_branch_cannot_fly_is_explained_and_replaced(paris_inputs) -> None:
    from engine.planning.branches import enumerate_branches
    from engine.planning.proposal import DraftChoices, plans_from_proposal
    choices = DraftChoices(days=(), hotel_tier="luxury", airport="XXX")  # no flight lands at XXX
    [plan] = plans_from_proposal(paris_inputs, choices)
    first = enumerate_branches(paris_inputs)[0]
    assert plan.branch == first.label
    assert choices.notes == [f"no flights fit a luxury hotel via XXX; used {first.label} instead"]
