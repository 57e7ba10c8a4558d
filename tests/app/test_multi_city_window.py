"""A multi-city trip in the real window (issue 33 §4; offscreen, over its real map page): planned
from the prompt and from the form's "Several cities" tab, shown (title, the itinerary's stay rows,
the map with its legs), exported to PDF and HTML from the window, and a night moved from one stay
to the next from the stay row — a re-plan through the trip controller, undoable. Saves
/tmp/window-multi-*.png."""

from __future__ import annotations

from datetime import date

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


def test_the_several_cities_tab_plans_moves_a_night_undoes_it_and_exports(qtbot, make_window, tmp_path):
    from pypdf import PdfReader

    from tests.app.test_exports import export_through_dialog

    window = make_window(size=(1400, 900))
    form = window.intent_form
    form.set_mode("multi_city")
    assert form.tabs.tabText(form.tabs.currentIndex()) == "Several cities"
    form.stay_list.set_trip(date(2027, 6, 1), [("Paris", 3), ("Rome", 2)], ["train"])
    form._set_multi_home("JFK")
    form.multi_budget_spin.setValue(6000)
    qtbot.wait(200)
    window.grab().save("/tmp/window-multi-form.png")
    qtbot.mouseClick(form.plan_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.trip.current is not None, timeout=PLAN_TIMEOUT_MS)
    first = window.trip.current
    assert first.intent.mode == "multi_city" and [(s.city, s.nights) for s in first.intent.stays] == [("Paris", 3),
                                                                                                       ("Rome", 2)]
    assert first.intent.leg_requests()[0].mode == "train" and first.itinerary.legs[0].mode == "train"
    assert window.trip_title() == "Paris \u2192 Rome, 6 days" and "Paris \u2192 Rome" in window.windowTitle()
    panel = window.itinerary_panel
    qtbot.waitUntil(lambda: window.right_stack.currentWidget() is panel, timeout=10_000)
    # the map: both cities and the leg drawn between them
    answer: list = []
    window.map_view.page().runJavaScript("document.body.innerText", 0, answer.append)
    qtbot.waitUntil(lambda: len(answer) == 1, timeout=5000)
    assert "Paris" in answer[0] and "Rome" in answer[0] and "Train" in answer[0]
    # the stay row's menu moves a night from Paris to Rome: the trip's next version
    menu = panel.stay_menu(panel.model.index(0, 0))
    assert menu is not None
    move = next(a for a in menu.actions() if a.text() == "Move a night from Paris to Rome")
    move.trigger()
    qtbot.waitUntil(lambda: window.trip.current is not first and not window.controller.busy, timeout=PLAN_TIMEOUT_MS)
    moved = window.trip.current
    assert [(s.city, s.nights) for s in moved.intent.stays] == [("Paris", 2), ("Rome", 3)]
    assert moved.edit == "Move a night from Paris to Rome"
    assert [d.stay for d in moved.itinerary.days] == [0, 0, 1, 1, 1, 1]
    assert window.itinerary_panel.itinerary() is moved.itinerary
    assert window.commands.undo.isEnabled()
    qtbot.wait(500)
    window.grab().save("/tmp/window-multi-moved.png")
    window.commands.undo.trigger()
    qtbot.waitUntil(lambda: window.trip.current is not None and window.trip.current.intent == first.intent,
                    timeout=20_000)
    assert window.itinerary_panel.itinerary() is window.trip.current.itinerary and window.commands.redo.isEnabled()
    assert [(s.city, s.nights) for s in window.trip.current.intent.stays] == [("Paris", 3), ("Rome", 2)]
    # Re-plan runs the trip anew: the same plan, said so, the version on screen kept
    shown = window.trip.current
    window.commands.replan.trigger()
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Re-planned"), timeout=PLAN_TIMEOUT_MS)
    assert window.statusBar().currentMessage().startswith("Re-planned: nothing changed")
    assert window.trip.current is shown and window.message_bar.level != "error"
    # exports from the window: the whole trip in one file
    pdf = export_through_dialog(qtbot, window, "pdf", tmp_path / "paris-rome.pdf")
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(str(pdf)).pages)
    assert text.startswith(window.trip.name or window.trip_title()) and "Paris" in text and "Rome" in text
    assert "Train" in text or "train" in text
    html = export_through_dialog(qtbot, window, "html", tmp_path / "paris-rome.html").read_text(encoding="utf-8")
    assert "Paris" in html and "Rome" in html and ("Train" in html or "train" in html)
