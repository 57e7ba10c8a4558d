"""The chat brief's guarantees (bounded window, pseudonyms, no invented consensus, fallback) and
the token-guard ladders at their exact limits."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime, timedelta, timezone

import pytest

from engine.errors import InputError
from engine.llm.chat_brief import EXAMPLE, Window, format_window, summarize_planning_chat
from engine.llm.chat_import import ImportedMessage
from engine.llm.client import LLMClient
from engine.llm.config import LLMConfig
from engine.llm.drafting import drafting_messages
from engine.llm.revision import RevisionMaterial, select_chat, summary_messages
from engine.llm.token_guard import V1_IDEAS, V2_STEPS, estimate, fit

from .scripted_server import Reply, ScriptedServer, error_body

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=timezone.utc)


def said(author: str, body: str, hours_ago: float, kind: str = "user") -> ImportedMessage:
    return ImportedMessage(NOW - timedelta(hours=hours_ago), author, body, kind)


def brief_from(server: ScriptedServer, messages, window: Window = Window()):
    async def go():
        client = LLMClient(LLMConfig(base_url=server.base_url, model="gpt-4o-mini", timeout_s=5))
        try:
            return await summarize_planning_chat(client, messages, window=window, now=NOW)
        finally:
            await client.close()
    return asyncio.run(go())


def answer(pace: str, pace_confidence: str) -> Reply:
    doc = json.loads(json.dumps(EXAMPLE))
    doc["preferences"]["pace"], doc["confidence"]["pace"] = pace, pace_confidence
    doc["preferences"]["budget"], doc["confidence"]["budget"] = "lower", "high"
    return Reply(content=json.dumps(doc))


def test_contradictory_messages_leave_the_pace_unknown() -> None:
    chat = [said("Maya Rossi", "let's take it slow, 2 things a day max", 5),
            said("Tom Baker", "no way, I want to see everything, fast pace!", 4),
            said("Maya Rossi", "cheap eats please", 3), said("Tom Baker", "yes cheap", 2)]
    with ScriptedServer([answer("fast", "low")]) as server:
        brief, meta = brief_from(server, chat)
        sent = server.chat_requests()[0]["messages"][1]["content"]
    assert brief["preferences"]["pace"] == "unknown" and brief["preferences"]["budget"] == "lower"
    assert meta == {"chatBriefEnabled": True, "chatBriefMessageCount": 4, "chatBriefCharCount": len(sent) - 6,
                    "chatBriefSucceeded": True}
    assert "Maya" not in sent and "Tom" not in sent and "P1: let's take it slow" in sent


def test_one_person_is_no_consensus_even_with_high_confidence() -> None:
    with ScriptedServer([answer("fast", "high")]) as server:
        brief, _ = brief_from(server, [said("Ana", "fast pace please", 1), said("Ana", "and cheap", 0.5)])
    assert brief["preferences"]["pace"] == "unknown" and brief["preferences"]["budget"] == "unknown"


def test_the_window_keeps_the_newest_inside_its_bounds() -> None:
    chat = [said("A", "old news", 24 * 20), said("B", "x" * 50, 3), said("A", "y" * 50, 2),
            said("B", "newest", 1), said("", "A joined", 0.5, kind="system")]
    text, count, chars = format_window(chat, Window(lookback_days=14, max_messages=200, max_chars=110), NOW)
    assert "old news" not in text and "joined" not in text
    assert text.endswith("P1: newest") and count == 2 and chars <= 110  # y… and newest; x… did not fit
    _, count, _ = format_window(chat, Window(max_messages=1), NOW)
    assert count == 1


def test_a_failed_brief_returns_none_and_generation_goes_on() -> None:
    with ScriptedServer(default=Reply(status=500, body=error_body(500, "down"))) as server:
        brief, meta = brief_from(server, [said("A", "hello there", 1), said("B", "hi", 1)])
    assert brief is None and meta["chatBriefSucceeded"] is False and meta["chatBriefMessageCount"] == 2
    with ScriptedServer([Reply(content="nope"), Reply(content="still nope")]) as server:
        brief, meta = brief_from(server, [said("A", "hello there", 1)])
    assert brief is None and meta["chatBriefSucceeded"] is False


def material(ideas: int = 6, feedback: int = 14) -> RevisionMaterial:
    return RevisionMaterial(current={"days": [{"venues": ["louvre"], "meals": []}], "hotel_tier": "mid",
                                     "airport": "CDG"}, version=1,
                            feedback=[(f"feedback number {i} " + "z" * 120, 3) for i in range(feedback)],
                            reactions={"👍": 2}, ideas=[(f"idea {i} " + "w" * 200, 2) for i in range(ideas)],
                            chat=["hello"])


def test_the_v2_ladder_cuts_ideas_5_3_0_then_feedback_to_10_at_its_limits() -> None:
    m = material()
    sizes = [estimate(summary_messages(m, *step)) for step in V2_STEPS]
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == 4
    for step, size in zip(V2_STEPS, sizes):
        assert fit(lambda s: summary_messages(m, *s), V2_STEPS, size, "revision")[1] == step
    for step, size in zip(V2_STEPS[1:], sizes):
        assert fit(lambda s: summary_messages(m, *s), V2_STEPS, size - 1, "revision")[1] == step
    with pytest.raises(InputError, match="ITINERARY_MAX_PROMPT_TOKENS"):
        fit(lambda s: summary_messages(m, *s), V2_STEPS, sizes[-1] - 1, "revision")
    last = json.loads(summary_messages(m, 0, 10)[1]["content"])
    assert len(last["feedback"]) == 10 and last["new_ideas"] == [] and last["current_itinerary"] == m.current


def test_the_v1_ladder_keeps_10_5_3_ideas_then_refuses(paris_inputs) -> None:
    ideas = [(f"idea {i} " + "v" * 300, 1 + i % 5) for i in range(12)]
    build = lambda n: drafting_messages(paris_inputs, None, ideas[:n])  # noqa: E731
    sizes = [estimate(build(n)) for n in V1_IDEAS]
    for n, size in zip(V1_IDEAS, sizes):
        assert fit(build, V1_IDEAS, size, "drafting")[1] == n
    assert fit(build, V1_IDEAS, sizes[0] - 1, "drafting")[1] == 5
    with pytest.raises(InputError) as err:
        fit(build, V1_IDEAS, sizes[-1] - 1, "drafting")
    assert err.value.field == "prompt" and "remove some ideas" in err.value.message


def test_chat_bucketing_takes_20_relevant_and_10_other() -> None:
    relevant = [f"can we skip the museum on day {i}?" for i in range(25)]
    other = [f"lol {i}" for i in range(15)]
    chosen, r, o = select_chat([*other, *relevant], bucketing=True)
    assert (r, o) == (20, 10) and chosen[:20] == relevant[-20:] and chosen[20:] == other[-10:]
    plain, r, o = select_chat([*other, *relevant], bucketing=False)
    assert len(plain) == 30 and (r, o) == (0, 0)
