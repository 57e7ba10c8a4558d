"""Issue 22 §2.3: "Plan with AI" with no usable model falls back to the rule-based plan — and keeps
the traveller's locks and removals, like every other path; a re-plan that changes nothing saves
no version."""

from __future__ import annotations

import pytest

from tests.app.conftest import wait_task
from tests.engine.llm.scripted_server import Reply, ScriptedServer, error_body
from tests.app.test_main_window import PARIS, plan


def _visits(itinerary, day):
    return [a for a in itinerary.days[day].activities if a.role == "activity"]


def _find(itinerary, activity_id):
    return next((a for d in itinerary.days for a in d.activities if a.id == activity_id), None)


def test_plan_with_ai_without_a_model_keeps_locks_and_removals(qtbot, make_window, monkeypatch, tmp_path):
    window = make_window()
    v1 = plan(qtbot, window, PARIS)
    kept, dropped = _visits(v1.itinerary, 1)[0], _visits(v1.itinerary, 2)[0]
    assert wait_task(qtbot, window.controller.marker_action(kept.id, "lock")) is not None
    v3 = wait_task(qtbot, window.controller.marker_action(dropped.id, "remove"))
    assert _find(v3.itinerary, kept.id).locked and _find(v3.itinerary, dropped.id) is None
    versions = len(window.trip.versions)

    monkeypatch.setenv("OPENAI_BASE_URL", "not a url")  # no model can be used
    result = wait_task(qtbot, window.model_runs.plan_with_ai())
    current = window.trip.current
    assert result is current
    assert _find(current.itinerary, kept.id) is not None and _find(current.itinerary, kept.id).locked
    assert _find(current.itinerary, dropped.id) is None
    assert window.message_bar.text().startswith("The model could not be used (")
    # Nothing changed: no new version, and the traveller is told so.
    assert len(window.trip.versions) == versions and current is window.trip.versions[-1]
    assert "nothing changed" in window.statusBar().currentMessage().lower()
    window.grab().save(str(tmp_path / "ai-fallback.png"))


def test_a_replan_that_changes_nothing_saves_no_version(qtbot, make_window):
    window = make_window()
    plan(qtbot, window, PARIS)
    versions = len(window.trip.versions)
    again = wait_task(qtbot, window.controller.replan())
    assert again is window.trip.current and len(window.trip.versions) == versions
    assert "nothing changed" in window.statusBar().currentMessage().lower()


@pytest.mark.parametrize("script, timeout", [
    ([Reply(content='{"days": [')] + [Reply(status=500, body=error_body(500, "upstream model crashed"))] * 4, "5"),
    ([Reply(content='{"days": []}')] + [Reply(status=503, body=error_body(503, "overloaded"))] * 4, "5"),
    ([Reply(content='{"days": [')] + [Reply(content='{"days": []}', delay_s=2.5)] * 4, "1"),
], ids=["malformed-then-500", "invalid-then-503", "malformed-then-timeout"])
def test_a_model_failing_midway_keeps_locks_and_removals_and_saves_nothing(qtbot, make_window, monkeypatch,
                                                                           tmp_path, script, timeout):
    """A reachable model that answers once and then fails: the rule-based plan keeps the traveller's
    lock and removal, the message says plainly that the model was not used, and since nothing
    changed no version is saved."""
    window = make_window()
    v1 = plan(qtbot, window, PARIS)
    kept, dropped = _visits(v1.itinerary, 1)[0], _visits(v1.itinerary, 2)[0]
    assert wait_task(qtbot, window.controller.marker_action(kept.id, "lock")) is not None
    v3 = wait_task(qtbot, window.controller.marker_action(dropped.id, "remove"))
    versions = len(window.trip.versions)
    with ScriptedServer(list(script)) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_MODEL", "gpt-4o-mini")
        monkeypatch.setenv("OPENAI_TIMEOUT_S", timeout)
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        window.intent_form.set_intent(v3.intent)
        result = wait_task(qtbot, window.model_runs.plan_with_ai())
        assert len(server.chat_requests()) >= 2  # it answered, then failed
    current = window.trip.current
    assert result is current is v3 and len(window.trip.versions) == versions
    assert _find(current.itinerary, kept.id).locked and _find(current.itinerary, dropped.id) is None
    text = window.message_bar.text()
    assert text.startswith("The model could not be used (") and "rule-based" in text
    assert "Nothing changed" in text and "locks and removals" in text
    window.grab().save(str(tmp_path / "ai-midway.png"))


def test_a_model_that_answers_keeps_the_locks_and_removals_too(qtbot, make_window, monkeypatch, tmp_path):
    """Plan with AI with a working model makes a plan of its own — with the traveller's lock at its
    day and time and the removed place left out (every path keeps them)."""
    from tests.engine.llm.scripted_server import first_choices

    window = make_window()
    v1 = plan(qtbot, window, PARIS)
    kept, dropped = _visits(v1.itinerary, 1)[0], _visits(v1.itinerary, 2)[0]
    assert wait_task(qtbot, window.controller.marker_action(kept.id, "lock")) is not None
    v3 = wait_task(qtbot, window.controller.marker_action(dropped.id, "remove"))
    with ScriptedServer(default=first_choices) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_MODEL", "gpt-4o-mini")
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        window.intent_form.set_intent(v3.intent)
        result = wait_task(qtbot, window.model_runs.plan_with_ai())
        assert server.chat_requests()  # the model was asked and answered
    assert result is not None and result is window.trip.current and window.model_runs.last_warning is None
    lock = next(a for d in result.itinerary.days for a in d.activities if a.ref == kept.ref)
    assert lock.locked and lock.window == kept.window
    assert result.itinerary.days.index(next(d for d in result.itinerary.days if lock in d.activities)) == 1
    assert all(a.ref != dropped.ref for d in result.itinerary.days for a in d.activities)
