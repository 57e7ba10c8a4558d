"""Issue 32: "Plan with AI" reads a described trip by the rules the form's prompt path keeps — a
trip that names no budget is planned with the default budget and the line under the prompt says
so; a trip whose start the model read in the past is refused on the prompt in one line and
nothing is planned or drafted. The real window, the real ``openai`` client and the scripted
OpenAI-compatible server on 127.0.0.1. Saves /tmp/tripwright-ai-no-budget.png."""

from __future__ import annotations

from datetime import timedelta

from engine.intake.vocabulary import DEFAULT_BUDGET_USD, NO_BUDGET_GIVEN
from tests.app.conftest import wait_task
from tests.engine.llm.scripted_server import ScriptedServer, first_choices
from tests.engine.llm.test_model_reading_rules import reading


def point(monkeypatch, server: ScriptedServer) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAI_MODEL", "gpt-4o-mini")
    monkeypatch.setenv("OPENAI_TIMEOUT_S", "5")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def test_no_budget_plans_with_the_default_and_says_so_under_the_prompt(qtbot, make_window, monkeypatch):
    window = make_window()
    form = window.intent_form
    text = "Five days in Paris from mid June 2027, two of us, from JFK, art"
    with ScriptedServer([reading(budget_amount=None, budget_currency=None), first_choices]) as server:
        point(monkeypatch, server)
        form.prompt_edit.setPlainText(text)
        version = wait_task(qtbot, window.model_runs.plan_with_ai())
        assert len(server.chat_requests()) == 2  # read, then drafted
    assert version is not None and version.itinerary.intent.budget_usd_cents == DEFAULT_BUDGET_USD * 100
    assert form.prompt_note.isVisible()
    assert form.prompt_note.text() == NO_BUDGET_GIVEN[:1].upper() + NO_BUDGET_GIVEN[1:]
    assert form.budget_spin.value() == DEFAULT_BUDGET_USD
    window.grab().save("/tmp/tripwright-ai-no-budget.png")


def test_a_start_in_the_past_is_refused_and_nothing_is_planned(qtbot, make_window, monkeypatch):
    window = make_window()
    form = window.intent_form
    today = window.controller.service.session.today
    past = today - timedelta(days=40)
    versions = len(window.trip.versions)
    with ScriptedServer([reading(start_date=past.isoformat(), end_date=(past + timedelta(days=4)).isoformat()),
                         first_choices]) as server:
        point(monkeypatch, server)
        form.prompt_edit.setPlainText(f"Five days in Paris from {past:%B} {past.day}, from JFK, $4000")
        result = wait_task(qtbot, window.model_runs.plan_with_ai())
        asked = len(server.chat_requests())
    assert result is None and asked == 1 and len(window.trip.versions) == versions
    assert window.message_bar.level == "error"
    assert window.message_bar.text() == (f"Check the prompt: Start: the trip starts {past}, before today ({today}); "
                                         "plan a trip from today on")
    assert "\n" not in window.message_bar.text()
