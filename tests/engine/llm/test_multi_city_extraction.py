"""The model's reading of a multi-city prompt (issue 33 §4): the extraction schema carries stays, each with its
own enums (the hotel tier, the mode of the leg that reaches it); the answer is input like a form's — a bad
stay is refused in words, an answer outside the enums is re-asked then refused. A real local
OpenAI-compatible server (scripted), the real ``openai`` client, no internet."""

from __future__ import annotations

import asyncio
import json
from datetime import date

import pytest

from engine.errors import InputError, ModelOutputError
from engine.llm.client import LLMClient
from engine.llm.config import LLMConfig
from engine.llm.prompt_reading import read_with_model
from engine.models import IntentV1, MultiCityIntent

from .scripted_server import Reply, ScriptedServer, request_schema

TODAY = date(2027, 1, 10)
PROMPT = "3 nights in Lisbon, mid-range hotel in Porto for 2 nights by train, from 2027-05-10, JFK, $4000"


def answer(**changes) -> dict:
    base = {"city": "Lisbon", "start_date": "2027-05-10", "end_date": None, "days": None, "budget_amount": 4000,
            "budget_currency": "USD", "origin_airport": "JFK", "travellers": 2, "themes": ["food"],
            "kid_friendly": False, "avoid_overnight": False,
            "stays": [{"city": "Lisbon", "nights": 3, "tier": None, "mode_from_previous": "best"},
                      {"city": "Porto", "nights": 2, "tier": "mid", "mode_from_previous": "train"}],
            "return_from": "last"}
    return {**base, **changes}


def reply(data: dict) -> Reply:
    return Reply(content=json.dumps(data))


@pytest.fixture()
def session(monkeypatch):
    monkeypatch.setenv("TRIPWRIGHT_OFFLINE", "1")
    from engine.catalog import default_catalog
    from engine.pipeline import PlanningSession
    return PlanningSession(default_catalog(), today=TODAY)


def read(server: ScriptedServer, session, text: str = PROMPT):
    client = LLMClient(LLMConfig(base_url=server.base_url, model="gpt-4o-mini", timeout_s=5))
    return asyncio.run(read_with_model(client, text, session, None))


def test_the_schema_offers_stays_with_their_own_enums() -> None:
    from engine.llm.extraction import extraction_schema
    schema = extraction_schema(["JFK", "LIS"]).model_json_schema()
    stay = schema["$defs"]["ExtractedStay"]
    assert set(stay["required"]) == {"city", "nights", "tier", "mode_from_previous"}
    assert stay["properties"]["mode_from_previous"]["enum"] == ["best", "train", "flight", "bus", "drive", "ferry"]
    assert "stays" in schema["required"] and "return_from" in schema["required"]  # strict: every field asked for


def test_a_multi_city_answer_becomes_a_multi_city_intent(session) -> None:
    with ScriptedServer([reply(answer())]) as server:
        intent = read(server, session)
        [asked] = server.chat_requests()
    sent = request_schema(asked)
    assert sent["$defs"]["ExtractedStay"]["properties"]["tier"]["anyOf"][0] == {"$ref": "#/$defs/Tier"}
    assert sent["$defs"]["Tier"]["enum"] == ["budget", "mid", "luxury"]  # each stay's tier is an enum
    assert isinstance(intent, MultiCityIntent)
    assert [(s.city, s.nights, s.tier and s.tier.value) for s in intent.stays] == [("Lisbon", 3, None),
                                                                                  ("Porto", 2, "mid")]
    assert [leg.mode for leg in intent.leg_requests()] == ["train"]
    assert (intent.start_date, intent.origin_airport, intent.budget_usd_cents, intent.travellers) == (
        date(2027, 5, 10), "JFK", 400_000, 2)


def test_back_from_the_first_adds_the_leg_home(session) -> None:
    with ScriptedServer([reply(answer(return_from="first"))]) as server:
        intent = read(server, session)
    assert isinstance(intent, MultiCityIntent) and intent.return_from == "first"
    assert [leg.mode for leg in intent.leg_requests()] == ["train", "best"]


def test_one_stay_is_a_one_city_trip(session) -> None:
    one = answer(city="Paris", end_date="2027-05-14", stays=[
        {"city": "Paris", "nights": 4, "tier": None, "mode_from_previous": "best"}], return_from=None)
    with ScriptedServer([reply(one)]) as server:
        intent = read(server, session, "5 days in Paris from 2027-05-10, JFK, $4000")
    assert isinstance(intent, IntentV1) and intent.city == "Paris"


@pytest.mark.parametrize("stays,field,words", [
    ([{"city": "Lisbon", "nights": 0, "tier": None, "mode_from_previous": "best"},
      {"city": "Porto", "nights": 2, "tier": None, "mode_from_previous": "train"}], "stays", "greater than or equal to 1"),
    ([{"city": "Lisbon", "nights": 14, "tier": None, "mode_from_previous": "best"},
      {"city": "Porto", "nights": 14, "tier": None, "mode_from_previous": "train"},
      {"city": "Faro", "nights": 5, "tier": None, "mode_from_previous": "bus"}], "stays", "at most 30 days"),
    ([{"city": "Lisbon", "nights": 3, "tier": None, "mode_from_previous": "best"},
      {"city": "<script>Porto", "nights": 2, "tier": None, "mode_from_previous": "train"}], "stays", "markup"),
])
def test_a_bad_stay_is_refused_in_words(session, stays, field, words) -> None:
    with ScriptedServer([reply(answer(stays=stays))]) as server, pytest.raises(InputError) as exc:
        read(server, session)
    assert exc.value.field.startswith(field) and words in exc.value.message


def test_a_mode_outside_the_enum_is_re_asked_then_refused(session) -> None:
    bad = answer(stays=[{"city": "Lisbon", "nights": 3, "tier": None, "mode_from_previous": "best"},
                        {"city": "Porto", "nights": 2, "tier": None, "mode_from_previous": "teleport"}])
    with ScriptedServer([reply(bad), reply(bad)]) as server, pytest.raises(ModelOutputError) as exc:
        read(server, session)
        assert len(server.chat_requests()) == 2
    assert "mode_from_previous" in str(exc.value) and "'teleport' is not one of the allowed ids" in str(exc.value)


def test_a_re_asked_answer_that_fixes_the_mode_is_used(session) -> None:
    bad = answer(stays=[{"city": "Lisbon", "nights": 3, "tier": None, "mode_from_previous": "best"},
                        {"city": "Porto", "nights": 2, "tier": "palace", "mode_from_previous": "train"}])
    with ScriptedServer([reply(bad), reply(answer())]) as server:
        intent = read(server, session)
        retry = server.chat_requests()[1]["messages"][-1]["content"]
    assert "stays.1.tier" in retry and isinstance(intent, MultiCityIntent)
