"""A multi-city trip in the real window (issue 33 §4; offscreen, over its real map page): planned
from the prompt and from the form's "Several cities" tab, shown (title, the itinerary's stay rows,
the map with its legs), exported to PDF and HTML from the window, and a night moved from one stay
to the next from the stay row — a re-plan through the trip controller, undoable. Saves
/tmp/window-multi-*.png."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.app.conftest import PLAN_TIMEOUT_MS

PROMPT = "3 nights in Paris then 2 nights in Rome by train from 2027-06-01, flying from JFK, budget 6000 USD"


def test_a_prompt_plans_two_cities_and_the_window_shows_them(qtbot, make_window):
    window = make_window(size=(1400, 900))
    form = window.intent_form
    form.prompt_edit.setFocus()
    QTest.keyClicks(form.prompt_edit, PROMPT)
    qtbot.mouseClick(form.plan_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.trip.current is not None, timeout=PLAN_TIMEOUT_MS)
    intent = window.trip.current.intent
    assert intent.mode == "multi_city" and [s.city for s in intent.stays] == ["Paris", "Rome"]
    qtbot.waitUntil(lambda: window.right_stack.currentWidget() is window.itinerary_panel, timeout=10_000)
    qtbot.wait(800)
    window.grab().save("/tmp/window-multi-prompt.png")
