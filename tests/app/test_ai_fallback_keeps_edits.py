"""Issue 22 §2.3: "Plan with AI" with no usable model falls back to the rule-based plan — and keeps
the traveller's locks and removals, like every other path; a re-plan that changes nothing saves
no version."""

from __future__ import annotations

from tests.app.conftest import wait_task
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
