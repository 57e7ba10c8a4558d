"""Issue 32 §3, dates in the window's form: a date typed into Start is taken whole wherever the
cursor was ("2027-06-08" typed with the year selected became 2026-06-08, or 2027-12-06), and a trip
starting before today is refused on its Start field, not planned. Offscreen, through the window:
real key presses and mouse clicks in the field, the Plan command."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtCore import QDate, QPoint, Qt
from PySide6.QtWidgets import QLineEdit

from tests.app.conftest import PLAN_TIMEOUT_MS, TODAY
from tests.app.test_main_window import fill_route66
from tests.widgets.test_panels_intent import fill_paris as fill_paris_trip


def fill_paris(form) -> None:
    fill_paris_trip(form)
    form.home_combo.setCurrentText("JFK")  # the window's form starts from the settings' home (none here)


def type_date(qtbot, edit, text: str, *, how: str) -> None:
    """Type ``text`` into ``edit`` the way a traveller might start: a click on the year or the day,
    Home, Ctrl+A, or a Tab into the field; then Tab out."""
    line = edit.findChild(QLineEdit)
    edit.window().setFocus()
    if how == "click year":
        qtbot.mouseClick(line, Qt.MouseButton.LeftButton, pos=QPoint(6, line.height() // 2))
    elif how == "click day":
        qtbot.mouseClick(line, Qt.MouseButton.LeftButton, pos=QPoint(line.width() - 40, line.height() // 2))
    else:
        edit.setFocus(Qt.FocusReason.TabFocusReason)
        if how == "home":
            qtbot.keyClick(edit, Qt.Key.Key_Home)
        elif how == "select all":
            qtbot.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Tab)


@pytest.mark.parametrize("how", ["click year", "click day", "home", "select all", "tab"])
def test_a_typed_start_is_taken_whole(qtbot, make_window, how) -> None:
    window = make_window()
    form = window.intent_form
    fill_paris(form)
    form.start_edit.setDate(QDate(2026, 12, 20))
    type_date(qtbot, form.start_edit, "2027-06-08", how=how)
    assert form.start_edit.date() == QDate(2027, 6, 8)
    form.road_start_edit.setDate(QDate(2026, 12, 20))
    type_date(qtbot, form.road_start_edit, "2027-5-3", how=how)  # short month and day, said on leaving
    assert form.road_start_edit.date() == QDate(2027, 5, 3)


def test_the_typed_start_is_the_planned_start(qtbot, make_window) -> None:
    window = make_window()
    fill_paris(window.intent_form)
    type_date(qtbot, window.intent_form.start_edit, "2027-06-08", how="click year")
    window.commands.plan.trigger()
    qtbot.waitUntil(lambda: window.trip.current is not None, timeout=PLAN_TIMEOUT_MS)
    itinerary = window.trip.current.itinerary
    assert itinerary.intent.date_window.start == date(2027, 6, 8) and itinerary.days[0].date == date(2027, 6, 8)


@pytest.mark.parametrize("mode", ["city", "road_trip"])
def test_a_start_before_today_is_refused_on_the_start_field(qtbot, make_window, mode) -> None:
    window = make_window()
    form = window.intent_form
    fill_paris(form) if mode == "city" else fill_route66(form)
    edit, key = (form.start_edit, "start") if mode == "city" else (form.road_start_edit, "road_start")
    type_date(qtbot, edit, "2026-06-08", how="select all")
    assert edit.date() == QDate(2026, 6, 8) and date(2026, 6, 8) < TODAY
    window.commands.plan.trigger()
    said = f"the trip starts 2026-06-08, before today ({TODAY}); plan a trip from today on"
    assert form.field_errors() == {key: f"Start: {said}"}
    assert window.message_bar.text().startswith("Check the form:") and said in window.message_bar.text()
    qtbot.wait(300)
    assert window.trip.current is None  # nothing planned
    type_date(qtbot, edit, TODAY.isoformat(), how="select all")  # today is fine
    window.commands.plan.trigger()
    qtbot.waitUntil(lambda: window.trip.current is not None, timeout=PLAN_TIMEOUT_MS)
