"""Group planning through the real ``tripwright`` executable on a real SQLite file: ideas, chat
(posted and imported from WhatsApp / Telegram exports), feedback, reactions, and ``revise`` with
its enabling rule, the LLM-version cap and llm_meta (counts only) against a local model server."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from .scripted_server import Reply, ScriptedServer, first_choices, from_schema

EXE = Path(sys.executable).with_name("tripwright")
SAMPLES = Path(__file__).with_name("samples")
TODAY = "2026-11-23"
PROMPT = "5 days in Paris from 2027-06-15, flying from JFK, budget $4000"


@pytest.fixture()
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


def tw(home: Path, *args: str, **env_extra: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "ITINERARY_", "TRIPWRIGHT_"))}
    env.update({"TRIPWRIGHT_HOME": str(home), "TRIPWRIGHT_OFFLINE": "1", "OPENAI_TIMEOUT_S": "5", **env_extra})
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, env=env, timeout=180)


@pytest.fixture()
def trip(home: Path) -> str:
    done = tw(home, "plan", "--prompt", PROMPT, "--save", "--today", TODAY)
    assert done.returncode == 0, done.stderr
    return tw(home, "trips", "list").stdout.split()[0]


def db_rows(home: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(home / "tripwright.db")
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_ideas_are_listed_by_priority_and_bad_ones_name_the_field(home, trip) -> None:
    assert tw(home, "ideas", "add", trip, "--title", "Seine cruise", "--priority", "4").returncode == 0
    assert tw(home, "ideas", "add", trip, "--title", "Picnic at Versailles", "--priority", "1").returncode == 0
    listed = tw(home, "ideas", "list", trip).stdout.splitlines()
    assert listed[0].startswith("P1") and "Versailles" in listed[0] and listed[1].startswith("P4")
    bad = tw(home, "ideas", "add", trip, "--title", "x", "--priority", "0")
    assert bad.returncode == 2 and bad.stderr.startswith("tripwright: priority:")
    empty = tw(home, "ideas", "add", trip, "--title", "   ")
    assert empty.returncode == 2 and empty.stderr.startswith("tripwright: title:")
    other = tw(home, "ideas", "add", "no-such-trip", "--title", "x")
    assert other.returncode == 2 and other.stderr.startswith("tripwright: trip:")
    assert db_rows(home, "SELECT count(*) FROM idea") == [(2,)]


def test_whatsapp_and_telegram_exports_import_once(home, trip) -> None:
    android = tw(home, "chat", "import", trip, str(SAMPLES / "whatsapp_android.txt"))
    assert android.returncode == 0, android.stderr
    assert android.stdout.strip() == "imported 7 whatsapp message(s) from 3 people"
    again = tw(home, "chat", "import", trip, str(SAMPLES / "whatsapp_android.txt"))
    assert again.stdout.strip() == "imported 0 whatsapp message(s) from 3 people; 7 already there"
    assert tw(home, "chat", "import", trip, str(SAMPLES / "whatsapp_ios.txt")).returncode == 0
    telegram = tw(home, "chat", "import", trip, str(SAMPLES / "telegram_result.json"))
    assert telegram.stdout.strip() == "imported 4 telegram message(s) from 2 people"
    rows = db_rows(home, "SELECT author, body, kind, source FROM chat_message ORDER BY sent_at")
    bodies = {r[1]: r for r in rows}
    assert bodies["I'd rather not do more than 2 museums a day\nhonestly the last trip was exhausting"][2] == "user"
    assert bodies["Only if we leave early, it's far"][0] == "Tom"
    assert bodies["<Media omitted>"][2] == "system" and bodies["create group"][2] == "system"
    assert ("Ana", "photo", "system", "telegram") in rows or any(r[0] == "Ana" and r[2] == "system" for r in rows)


def test_a_bad_export_names_the_file_and_stores_nothing(home, trip, tmp_path) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("just some notes\nno dates here\n")
    done = tw(home, "chat", "import", trip, str(bad))
    assert done.returncode == 2 and done.stderr.startswith("tripwright: FILE: notes.txt is neither")
    broken = tmp_path / "result.json"
    broken.write_text('{"messages": [{"type": "message", "from": "A", "text": "x"}]}')
    done = tw(home, "chat", "import", trip, str(broken))
    assert done.returncode == 2 and "no readable date" in done.stderr
    assert db_rows(home, "SELECT count(*) FROM chat_message") == [(0,)]


def test_feedback_and_reactions_belong_to_a_version(home, trip) -> None:
    added = tw(home, "feedback", "add", trip, "--text", "too many museums", "--rating", "3")
    assert added.returncode == 0 and "1 feedback, 0 reactions since v1" in added.stdout
    assert tw(home, "feedback", "add", trip, "--text", "x", "--rating", "6").stderr.startswith("tripwright: rating:")
    assert tw(home, "feedback", "add", trip, "--text", "x", "--version", "2").stderr.startswith("tripwright: version:")
    reacted = tw(home, "react", trip, "👍")
    assert reacted.returncode == 0 and reacted.stdout.startswith("v1: 👍 1")
    assert "already" in tw(home, "react", trip, "👍").stdout
    assert tw(home, "react", trip, "ok").stderr.startswith("tripwright: emoji:")
    assert "v1  3/5 too many museums" in tw(home, "feedback", "list", trip).stdout


def test_revise_needs_feedback_or_reactions_on_the_latest_version(home, trip) -> None:
    with ScriptedServer(default=first_choices) as server:
        done = tw(home, "revise", trip, "--today", TODAY, OPENAI_BASE_URL=server.base_url)
        assert done.returncode == 2
        assert done.stderr.startswith("tripwright: revise: Waiting for feedback or reactions")
        assert server.chat_requests() == []  # nothing was asked


def revise(home: Path, trip: str, server: ScriptedServer, out: Path, **env) -> subprocess.CompletedProcess:
    return tw(home, "revise", trip, "--out", str(out), "--today", TODAY, OPENAI_BASE_URL=server.base_url, **env)


def test_a_reaction_alone_enables_a_revision_and_the_cap_refuses_more(home, trip, tmp_path) -> None:
    out = tmp_path / "v2.json"
    assert tw(home, "react", trip, "🔥").returncode == 0
    with ScriptedServer([from_schema(random.Random(3)), first_choices]) as server:
        done = revise(home, trip, server, out, TRIPWRIGHT_MAX_VERSIONS="1")
    assert done.returncode == 0, done.stderr
    meta = json.loads(out.read_text())["llm_meta"]
    assert meta["reactionCount"] == 1 and meta["feedbackCount"] == 0 and meta["revisedFrom"] == 1
    assert "saved as version 2" in done.stderr
    assert tw(home, "react", trip, "👎").returncode == 0  # on v2 now
    with ScriptedServer(default=first_choices) as server:
        capped = revise(home, trip, server, tmp_path / "v3.json", TRIPWRIGHT_MAX_VERSIONS="1")
        assert server.chat_requests() == []
    assert capped.returncode == 2 and capped.stderr.startswith("tripwright: version: this trip already has 1 LLM")
    assert db_rows(home, "SELECT count(*) FROM itinerary_version") == [(2,)]


def test_llm_meta_holds_counts_not_text(home, trip, tmp_path) -> None:
    secret_bits = ["Tom", "Orsay instead of the Louvre", "SECRET-FEEDBACK-TEXT", "Marais"]
    assert tw(home, "chat", "import", trip, str(SAMPLES / "whatsapp_ios.txt")).returncode == 0
    assert tw(home, "feedback", "add", trip, "--text", "SECRET-FEEDBACK-TEXT please").returncode == 0
    assert tw(home, "ideas", "add", trip, "--title", "Orsay instead of the Louvre").returncode == 0
    out = tmp_path / "v2.json"
    with ScriptedServer([from_schema(random.Random(5)), first_choices]) as server:
        done = revise(home, trip, server, out)
    assert done.returncode == 0, done.stderr
    stored = db_rows(home, "SELECT llm_meta FROM itinerary_version WHERE number = 2")[0][0]
    for text in (stored, json.dumps(json.loads(out.read_text())["llm_meta"])):
        assert not any(bit in text for bit in secret_bits)
    meta = json.loads(stored)
    assert set(meta) >= {"model", "generatedAt", "promptTokenEstimate", "ideaCount", "feedbackCount",
                         "reactionCount", "chatMessageCount"}
    assert (meta["feedbackCount"], meta["ideaCount"]) == (1, 1)
    # the export's messages are dated after v1: the delta holds the two that are not system lines
    assert meta["chatMessageCount"] == 2


def test_revise_without_a_model_says_why(home, trip) -> None:
    assert tw(home, "react", trip, "👍").returncode == 0
    done = tw(home, "revise", trip, "--today", TODAY, OPENAI_BASE_URL="not a url")
    assert done.returncode == 2 and done.stderr.startswith("tripwright: model: revise needs the model")


INTENT = {"city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
          "budget_usd_cents": 400000, "airports": ["CDG", "ORY"], "origin_airport": "JFK"}


def intent_file(tmp_path: Path) -> str:
    path = tmp_path / "intent.json"
    path.write_text(json.dumps(INTENT))
    return str(path)


def brief_answer(request: dict) -> Reply:
    return Reply(content=json.dumps({
        "mustDos": ["Versailles"], "avoid": ["long queues"],
        "preferences": {"pace": "slow", "budget": "lower", "focus": ["food"], "logistics": []},
        "constraints": [], "openQuestions": [], "confidence": {"pace": "high", "budget": "high"}}))


def test_the_chat_brief_goes_into_the_draft_when_the_flag_is_on(home, trip, tmp_path) -> None:
    assert tw(home, "chat", "post", trip, "Versailles is a must for me").returncode == 0
    assert tw(home, "ideas", "add", trip, "Picnic in the Tuileries", "--priority", "1").returncode == 2  # no --title
    assert tw(home, "ideas", "add", trip, "--title", "Picnic in the Tuileries", "--priority", "1").returncode == 0
    out = tmp_path / "v2.json"
    events = tmp_path / "events.jsonl"
    with ScriptedServer([brief_answer, first_choices]) as server:
        done = tw(home, "plan", "--llm", "--intent", intent_file(tmp_path), "--save", "--trip", trip, "--out", str(out),
                  "--events", str(events), "--today", TODAY, OPENAI_BASE_URL=server.base_url,
                  ITINERARY_INCLUDE_CHAT_BRIEF_ON_GENERATE="1")
        brief_request, draft_request = server.chat_requests()
    assert done.returncode == 0, done.stderr
    facts = json.loads(draft_request["messages"][1]["content"].split("\n", 1)[1])
    assert facts["group_brief"]["mustDos"] == ["Versailles"]
    assert facts["group_ideas"] == [{"title": "Picnic in the Tuileries", "priority": 1}]
    assert "Versailles is a must" not in json.dumps(draft_request)  # the brief, never the chat
    meta = json.loads(out.read_text())["llm_meta"]
    # one speaker: the pace and budget the model claimed are no consensus
    assert facts["group_brief"]["preferences"]["pace"] == "unknown"
    assert (meta["chatBriefEnabled"], meta["chatBriefSucceeded"], meta["chatBriefMessageCount"]) == (True, True, 1)
    assert meta["ideaCount"] == 1 and "Versailles" not in json.dumps(meta)
    rows = [json.loads(line) for line in events.read_text().splitlines()]
    # the brief's call opens the run's stream (heartbeats name the latest node: left out, timing's)
    briefed = [e for e in rows if e["node"] == "summarize_chat" and e["status"] != "heartbeat"]
    assert [e["status"] for e in briefed] == ["started", "completed"] and briefed[0]["seq"] == 0
    assert briefed[1]["model_usage"]["prompt_tokens"] == 1200 and "Versailles" not in json.dumps(briefed)


def test_a_failing_brief_falls_back_to_drafting_without_it(home, trip, tmp_path) -> None:
    assert tw(home, "chat", "post", trip, "slow mornings please").returncode == 0
    out = tmp_path / "v2.json"
    events = tmp_path / "events.jsonl"
    with ScriptedServer([Reply(content="??"), Reply(content="??"), first_choices]) as server:
        done = tw(home, "-v", "plan", "--llm", "--intent", intent_file(tmp_path), "--save", "--trip", trip, "--out", str(out),
                  "--events", str(events), "--today", TODAY, OPENAI_BASE_URL=server.base_url,
                  ITINERARY_INCLUDE_CHAT_BRIEF_ON_GENERATE="1")
        draft_request = server.chat_requests()[-1]
    assert done.returncode == 0, done.stderr
    assert "chat_brief_failed" in done.stderr
    assert "group_brief" not in draft_request["messages"][1]["content"]
    meta = json.loads(out.read_text())["llm_meta"]
    assert meta["chatBriefEnabled"] is True and meta["chatBriefSucceeded"] is False
    rows = [json.loads(line) for line in events.read_text().splitlines()]
    note = [e for e in rows if e["node"] == "summarize_chat" and e["status"] != "heartbeat"][-1]
    assert note["status"] == "completed" and note["model_usage"]["prompt_tokens"] == 2400
    assert note["decision_note"] == "the chat brief failed (logged); generating without the brief"
    assert any(e["node"] == "draft" and e["status"] == "completed" for e in rows)  # generation went on
