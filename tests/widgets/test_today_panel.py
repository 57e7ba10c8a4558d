"""The Today panel (widgets/today_panel.py) over a real Today answer: the rows ``tripwright today``
prints (but the map's, which the map shows), names from data as plain text, the buttons' signals."""

from __future__ import annotations

import asyncio
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from engine.pipeline import PlanningSession
from engine.today_words import heading, today_lines
from engine.trip_today import read_today
from tests.engine.conftest import paris_demo
from widgets.today_panel import TodayPanel


@pytest.fixture(scope="module")
def today():
    itinerary = asyncio.run(PlanningSession(today=date(2026, 11, 23)).plan(paris_demo())).itinerary
    return read_today(itinerary, datetime.combine(itinerary.days[1].date, time(11, 0), ZoneInfo("Europe/Paris")))


def test_rows_are_the_clis_lines_but_the_map(qtbot, today) -> None:
    panel = TodayPanel()
    qtbot.addWidget(panel)
    panel.set_today(today)
    assert panel.heading.text() == heading(today)
    assert panel.rows() == [(label, text) for label, text in today_lines(today) if label != "Map"]
    assert [r[0] for r in panel.rows()][:2] == ["Now", "Next"]
    assert panel.day_button.isEnabled()
    with qtbot.waitSignal(panel.show_day_requested) as shown:
        panel.day_button.click()
    assert shown.args == [today.day_index]
    with qtbot.waitSignal(panel.itinerary_requested):
        panel.itinerary_button.click()
    panel.set_today(None)
    assert panel.rows() == [] and panel.heading.text() == "" and not panel.day_button.isEnabled()


def test_a_name_is_shown_as_text_never_as_markup(qtbot, today) -> None:
    odd = today.model_copy(update={"next": today.next.model_copy(update={"name": "<b>Louvre</b> & <i>co</i>"})})
    panel = TodayPanel()
    qtbot.addWidget(panel)
    panel.set_today(odd)
    label = panel.findChild(QLabel, "today_next")
    assert "<b>Louvre</b> & <i>co</i>" in label.text()
    assert label.textFormat() == Qt.TextFormat.PlainText
    assert all(w.textFormat() == Qt.TextFormat.PlainText for w in panel.findChildren(QLabel))
