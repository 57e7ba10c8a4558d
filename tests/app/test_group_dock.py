"""The Group dock over a real SQLite store and a real local OpenAI-compatible server (the LLM
tests' scripted server, the real ``openai`` client): ideas with priorities and reactions, the
chat (posted, and a WhatsApp export imported through the file dialog), feedback and reactions on
the shown version, a teammate's additions appearing by polling, "Plan with AI" and "Revise" with
their enabling rules and the version cap, the model nodes' tokens and cost in the progress panel,
the diff of a revision, and the fallback banner. Saves /tmp/tripwright-group-dock.png and
/tmp/tripwright-version-diff.png."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.itinerary_diff import diff_itineraries
from tests.app.conftest import wait_task
from tests.app.test_store_wiring import db_url, home, open_window, paris, plan, stored  # noqa: F401 (fixtures)
from tests.engine.llm.scripted_server import (Reply, ScriptedServer, enum_values, error_body, first_choices,
                                              from_schema, request_schema)
from tests.store.conftest import (FAST_HASHER, PASSWORD, PG_URL, accounts_for, memory_keyring,  # noqa: F401
                                  pg_schema)

SAMPLES = Path(__file__).parents[1] / "engine" / "llm" / "samples"
DOCK_SHOT = "/tmp/tripwright-group-dock.png"
DIFF_SHOT = "/tmp/tripwright-version-diff.png"


def rows(widget) -> list[str]:
    return [widget.item(i).text() for i in range(widget.count())]


def idea_rows(panel) -> list[tuple[str, str, str]]:
    tree = panel.ideas.tree
    return [tuple(tree.topLevelItem(i).text(c) for c in range(3)) for i in range(tree.topLevelItemCount())]


def other_choices(request: dict) -> Reply:
    """A revision that changes things: the venues after the first two, another order of days."""
    schema = request_schema(request)
    day = schema["$defs"]["DraftDay"]["properties"]
    venues, meals = enum_values(day["venues"]["items"]), enum_values(day["meals"]["items"])
    days = [{"venues": venues[3 + i * 2:5 + i * 2], "meals": meals[-1 - i:len(meals) - i]} for i in range(5)]
    return Reply(content=json.dumps({"days": days, "must_dos": venues[3:4],
                                     "hotel_tier": enum_values(schema["properties"]["hotel_tier"])[0],
                                     "airport": enum_values(schema["properties"]["airport"])[0]}))


@pytest.fixture
def model_env(monkeypatch):
    def point(server: ScriptedServer, **extra: str) -> None:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_MODEL", "gpt-4o-mini")
        monkeypatch.setenv("OPENAI_TIMEOUT_S", "5")
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        for key, value in extra.items():
            monkeypatch.setenv(key, value)
    return point


def test_ideas_chat_feedback_reactions_and_a_teammates_additions(qtbot, open_window, db_url,  # noqa: F811
                                                                 tmp_path):
    window = open_window()
    panel = window.group_panel
    assert window.group_dock.isVisibleTo(window) and not panel.revise_button.isEnabled()
    version = plan(qtbot, window, paris())
    window.group_dock.raise_()
    qtbot.waitUntil(lambda: window.group.snapshot is not None, timeout=10_000)
    assert panel.status_label.text().startswith("Waiting for feedback or reactions")
    assert panel.revise_button.toolTip() == "Waiting for feedback or reactions"

    panel.ideas.title_edit.setText("Picnic at Versailles")
    panel.ideas.priority.setValue(1)
    panel.ideas.add_button.click()
    qtbot.waitUntil(lambda: idea_rows(panel) == [("P1", "Picnic at Versailles", "")], timeout=10_000)
    assert panel.ideas.title_edit.text() == ""
    panel.ideas.tree.setCurrentItem(panel.ideas.tree.topLevelItem(0))
    panel.ideas.react_buttons["\U0001F44D"].click()
    qtbot.waitUntil(lambda: idea_rows(panel)[0][2] == "\U0001F44D 1", timeout=10_000)

    panel.chat.text_edit.setText("Can we skip the Louvre on Monday?")
    panel.chat.post_button.click()
    qtbot.waitUntil(lambda: any("Can we skip the Louvre" in r for r in rows(panel.chat.list)), timeout=10_000)
    dialog = panel.chat.choose_import()
    dialog.selectFile(str(SAMPLES / "whatsapp_android.txt"))
    dialog.accept()
    qtbot.waitUntil(lambda: "Imported 7 whatsapp message(s) from 3 people" in window.statusBar().currentMessage(),
                    timeout=10_000)
    assert len(rows(panel.chat.list)) == 8
    assert any("Tom: me! can we please do the Orsay" in r for r in rows(panel.chat.list))
    not_export = tmp_path / "notes.txt"  # a file that is no export: one line, nothing stored
    not_export.write_text("just some notes\n")
    wait_task(qtbot, window.group.import_chat(str(not_export)))
    assert window.message_bar.text().startswith("FILE: notes.txt is neither")
    assert len(rows(panel.chat.list)) == 8

    panel.feedback.text_edit.setText("Too many museums on day 2")
    panel.feedback.rating.setCurrentIndex(4)
    panel.feedback.send_button.click()
    qtbot.waitUntil(lambda: rows(panel.feedback.list) == ["\u2605\u2605\u2605\u2605  Too many museums on day 2"],
                    timeout=10_000)
    assert panel.feedback.heading.text() == "Feedback on v1"
    assert panel.status_label.text().startswith("1 feedback, 0 reactions since v1")
    window.itinerary_reactions.buttons["\U0001F44D"].click()  # the bar over the itinerary
    qtbot.waitUntil(lambda: panel.status_label.text().startswith("1 feedback, 1 reactions since v1"), timeout=10_000)
    assert panel.reactions.count_text("\U0001F44D").endswith(" 1")
    assert panel.revise_button.isEnabled() and "v2" in panel.revise_button.toolTip()

    # A teammate on another connection adds an idea and a message: the dock shows them by polling.
    store, ctx = stored(db_url)
    with store, store.org(ctx) as repo:
        repo.group.add_idea(window.trip.trip_id, "Boat on the Seine", priority=2)
        repo.group.post(window.trip.trip_id, "I booked the boat", author="Ana")
    qtbot.waitUntil(lambda: len(idea_rows(panel)) == 2, timeout=6_000)  # the poll is every 3 s
    assert idea_rows(panel)[1][:2] == ("P2", "Boat on the Seine")
    assert any("Ana: I booked the boat" in r for r in rows(panel.chat.list))
    assert version.number == 1
    window.group_dock.resize(460, 640)
    panel.tabs.setCurrentWidget(panel.chat)
    assert window.group_dock.grab().save(DOCK_SHOT)


@pytest.mark.postgres
@pytest.mark.skipif(not PG_URL, reason="TRIPWRIGHT_TEST_PG_URL is not set")
def test_on_postgresql_a_teammates_feedback_appears_without_a_restart(qtbot, make_window, home,  # noqa: F811
                                                                      pg_schema, accounts_for):  # noqa: F811
    from engine.store.accounts import Accounts
    from engine.store.secret_store import SecretStore
    store, ctx = accounts_for(pg_schema)  # the team's server: an org, me, and Ana on another computer
    accounts = Accounts(store, SecretStore(), hasher=FAST_HASHER)
    accounts.login("me@x.example", PASSWORD, remember=True)  # the app signs in from the keyring
    ana = accounts.add_user(ctx, "ana@x.example", PASSWORD)
    window = make_window(use_store=True, store_url=pg_schema, settings_path=home / "settings.json")
    qtbot.waitUntil(lambda: window.library.ready and window.library.active, timeout=20_000)
    assert window.database_label.text() == "PostgreSQL"
    plan(qtbot, window, paris())
    panel = window.group_panel
    qtbot.waitUntil(lambda: window.group.snapshot is not None, timeout=10_000)
    with store.org(ana) as repo:
        repo.group.add_feedback(window.trip.trip_id, "Day 3 is too long", rating=2)
        repo.group.react(window.trip.trip_id, "\U0001F389")
    qtbot.waitUntil(lambda: panel.status_label.text().startswith("1 feedback, 1 reactions since v1"), timeout=6_000)
    assert rows(panel.feedback.list) == ["\u2605\u2605  Day 3 is too long"]
    assert panel.reactions.count_text("\U0001F389").endswith(" 1") and panel.revise_button.isEnabled()


def test_plan_with_ai_then_revise_show_model_nodes_the_diff_and_the_cap(qtbot, open_window, db_url,  # noqa: F811
                                                                       model_env):
    window = open_window()
    panel = window.group_panel
    script = [first_choices, from_schema(random.Random(3)), other_choices]
    with ScriptedServer(script) as server:
        model_env(server, TRIPWRIGHT_MAX_VERSIONS="2")
        window.intent_form.set_intent(paris())
        v1 = wait_task(qtbot, window.model_runs.plan_with_ai())
        assert v1 is not None and v1.number == 1 and window.model_runs.last_warning is None
        assert [r["_path"] for r in server.chat_requests()] == ["/v1/chat/completions"]
        progress = window.progress
        qtbot.waitUntil(lambda: any(e.node == "draft" and e.model_usage for e in progress.model.events()),
                        timeout=10_000)
        draft = next(r for r in range(progress.model.rowCount())
                     if progress.model.event_at(r).node == "draft" and progress.model.event_at(r).model_usage)
        cell = progress.model.index(draft, progress.model.COL_MODEL).data()
        assert cell == "1200+300 tok \u00b7 $0.0004"  # the server's usage, gpt-4o-mini's price
        assert progress.model_label.text() == "Model: draft \u00b7 1200+300 tokens \u00b7 $0.0004"
        qtbot.waitUntil(lambda: window.group.snapshot is not None and window.group.snapshot.version == 1,
                        timeout=10_000)
        assert not panel.revise_button.isEnabled() and "1 model-made version(s) left" in panel.status_label.text()

        window.itinerary_reactions.buttons["\u2764\ufe0f"].click()
        qtbot.waitUntil(panel.revise_button.isEnabled, timeout=10_000)
        v2 = wait_task(qtbot, window.model_runs.revise())
        assert v2 is not None and v2.number == 2 and v2.edit == "Revised v1 with AI"
        summarize, revise = server.chat_requests()[1:]
        assert "summarize" in json.dumps(summarize["messages"][0]).lower()

    nodes = [e.node for e in window.progress.model.events() if e.model_usage]
    assert nodes == ["summarize", "revise"]
    assert window.progress.model_label.text() == "Model: summarize, revise \u00b7 2400+600 tokens \u00b7 $0.0007"
    store, ctx = stored(db_url)
    with store, store.org(ctx) as repo:
        meta = repo.versions.get(window.trip.trip_id, 2).llm_meta
        first = repo.versions.get(window.trip.trip_id, 1)
    assert meta["revisedFrom"] == 1 and meta["reactionCount"] == 1 and first.llm_meta["model"] == "gpt-4o-mini"

    # The Changes tab: the engine's diff of v1 → v2, as the view shows it.
    changes = panel.changes
    assert panel.tabs.currentWidget() is changes
    qtbot.waitUntil(lambda: changes.heading.text() == "v2 against v1", timeout=10_000)
    expected = diff_itineraries(first.itinerary_v1(), v2.itinerary)
    assert not expected.unchanged and changes.diff == expected
    shown = changes.lines()
    assert shown[-1].startswith("  ") and any(line.startswith("Day ") for line in shown)
    assert any(line.startswith("Cost ") for line in shown)
    window.group_dock.resize(460, 640)
    assert changes.grab().save(DIFF_SHOT)

    # Two model-made versions with TRIPWRIGHT_MAX_VERSIONS=2: Revise and Plan with AI refuse, saying why.
    window.itinerary_reactions.buttons["\U0001F44D"].click()
    qtbot.waitUntil(lambda: panel.status_label.text().startswith("0 feedback, 1 reactions since v2"),
                    timeout=10_000)
    assert not panel.revise_button.isEnabled() and not panel.plan_button.isEnabled()
    assert "TRIPWRIGHT_MAX_VERSIONS" in panel.revise_button.toolTip()
    assert "no model-made version left" in panel.status_label.text()
    refused = wait_task(qtbot, window.model_runs.revise())  # even when asked directly
    assert refused is None and "TRIPWRIGHT_MAX_VERSIONS" in window.message_bar.text()


@pytest.mark.parametrize("reply, reason", [
    (Reply(status=401, body=error_body(401, "Incorrect API key provided")), "401"),
    (None, "is not an http(s) URL"),
])
def test_plan_with_ai_falls_back_to_the_rule_based_plan_with_a_banner(qtbot, open_window, model_env,  # noqa: F811
                                                                      monkeypatch, reply, reason):
    window = open_window()
    with ScriptedServer(default=reply) as server:
        model_env(server)
        if reply is None:
            monkeypatch.setenv("OPENAI_BASE_URL", "not a url")
        window.intent_form.set_intent(paris())
        version = wait_task(qtbot, window.model_runs.plan_with_ai())
    assert version is not None and version.itinerary.days  # the rule-based plan
    assert window.message_bar.level == "warning" and reason in window.message_bar.text()
    assert window.message_bar.text().startswith("The model could not be used (")
    assert window.message_bar.text().endswith("this plan is rule-based.")
    assert reason in window.model_runs.last_warning


def test_plan_with_ai_has_the_model_read_an_unread_prompt_and_shows_the_extract_row(qtbot, open_window,  # noqa: F811
                                                                                    db_url, model_env):
    from tests.engine.llm.test_plan_llm_cli import extraction
    window = open_window()
    form = window.intent_form
    text = "Five days in the City of Light from mid June 2027, two of us, from JFK, about four grand, art"
    with ScriptedServer([extraction("Paris"), first_choices]) as server:
        model_env(server)
        form.prompt_edit.setPlainText(text)
        assert form.unread_prompt() == text
        version = wait_task(qtbot, window.model_runs.plan_with_ai())
        extract, _draft = server.chat_requests()
    assert version is not None and extract["messages"][1]["content"] == text  # the model read the prose
    assert version.itinerary.intent.travellers == 2 and version.itinerary.intent.date_window.start.isoformat() == "2027-06-15"
    assert form.city_combo.currentText() == "Paris" and form.unread_prompt() is None  # the form shows the reading
    progress = window.progress
    qtbot.waitUntil(lambda: any(e.node == "draft" and e.model_usage for e in progress.model.events()), timeout=10_000)
    events = progress.model.events()
    assert [e.node for e in events[:2]] == ["extract", "extract"] and events[0].seq == 0
    row = next(r for r in range(progress.model.rowCount()) if progress.model.event_at(r).node == "extract"
               and progress.model.event_at(r).model_usage)
    assert progress.model.index(row, progress.model.COL_MODEL).data() == "1200+300 tok \u00b7 $0.0004"
    assert progress.model_label.text() == "Model: extract, draft \u00b7 2400+600 tokens \u00b7 $0.0007"


def test_plan_with_ai_on_a_road_trip_lets_the_model_choose_the_nights(qtbot, open_window, db_url,  # noqa: F811
                                                                      model_env):
    """As ``plan --llm``: the model proposes nights among the corridor's towns (enums), the
    deterministic planner keeps the seed 000 invariants, and the draft row carries its tokens."""
    from datetime import date

    from engine.models import RoadTripIntent
    from tests.engine.llm.test_road_drafting import evenly, facts_of
    window = open_window()
    intent = RoadTripIntent(origin="Los Angeles", terminus="Chicago", days=7, start_date=date(2027, 5, 3),
                            route="Route 66")
    with ScriptedServer(default=evenly) as server:
        model_env(server)
        window.intent_form.set_intent(intent)
        version = wait_task(qtbot, window.model_runs.plan_with_ai())
        (draft,) = server.chat_requests()
    assert version is not None and version.mode == "road_trip"
    towns = {t["id"]: t["name"] for t in facts_of(draft)["towns"]}
    proposed = [towns[i] for i in json.loads(evenly(draft).content)["overnights"]]
    nights = [d.anchor.name for d in version.itinerary.days if d.anchor is not None]
    assert proposed and all(any(name.startswith(p.split(",")[0]) for name in nights) for p in proposed)
    assert "does not draft" not in window.message_bar.text()
    progress = window.progress
    qtbot.waitUntil(lambda: any(e.node == "draft" and e.model_usage for e in progress.model.events()), timeout=10_000)
