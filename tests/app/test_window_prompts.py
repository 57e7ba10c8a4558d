"""Issue 32 §6, a described trip through the real window (offscreen, over its real map page): what
the text leaves out — the budget, the day in a month — is planned with the form's default budget and
the month's first full week, and the form and the message bar say so. Saves /tmp/window-*.png."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import QDate, Qt
from PySide6.QtTest import QTest

from engine.intake.vocabulary import DEFAULT_BUDGET_USD
from tests.app.conftest import PLAN_TIMEOUT_MS

PROMPT = "a week in Paris in May, flying from JFK"
SAID = ["No day given in May: planned Mon 3 \u2013 Sun 9 May 2027, the first full week of May; write a start date "
        "(e.g. 'from 2027-05-10') to choose other days",
        "No budget given: planned with the default budget of $3,000; add e.g. 'budget 2500 USD' to change it"]


def test_a_described_trip_without_budget_or_day_plans_the_default_and_the_first_week(qtbot, make_window):
    window = make_window(size=(1400, 900))
    form = window.intent_form
    assert form.budget_spin.value() == DEFAULT_BUDGET_USD == 3000  # the form's default is the prompt's
    assert not form.prompt_note.isVisible()
    form.prompt_edit.setFocus()
    QTest.keyClicks(form.prompt_edit, PROMPT)
    qtbot.mouseClick(form.read_button, Qt.MouseButton.LeftButton)
    assert form.field_errors() == {}  # not "no travel dates found", not "no budget found"
    assert form.prompt_note.isVisible() and form.prompt_note.text().splitlines() == SAID
    assert window.message_bar.level == "info" and "No budget given" in window.message_bar.text()
    assert "first full week of May" in window.message_bar.text()
    assert (form.start_edit.date(), form.days_spin.value()) == (QDate(2027, 5, 3), 7)
    assert (form.budget_spin.value(), form.currency_combo.currentText()) == (3000, "USD")
    qtbot.wait(200)
    window.grab().save("/tmp/window-default-budget-may-read.png")
    qtbot.mouseClick(form.plan_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.trip.current is not None, timeout=PLAN_TIMEOUT_MS)
    intent = window.trip.current.intent
    assert (intent.city, intent.date_window.start, intent.date_window.end) == ("Paris", date(2027, 5, 3),
                                                                               date(2027, 5, 9))
    assert intent.budget_usd_cents == 300000 and intent.origin_airport == "JFK"
    qtbot.waitUntil(lambda: window.right_stack.currentWidget() is window.itinerary_panel, timeout=10_000)
    assert form.prompt_note.isVisible()  # still said under the prompt that planned it
    qtbot.wait(300)
    window.grab().save("/tmp/window-default-budget-may-planned.png")
    # A prompt that gives both says nothing; a new trip clears what was said.
    form.prompt_edit.setPlainText("5 days in Paris from 2027-06-15, flying from JFK, budget 4000 USD")
    qtbot.mouseClick(form.read_button, Qt.MouseButton.LeftButton)
    assert not form.prompt_note.isVisible()
    form.prompt_edit.setPlainText(PROMPT)
    qtbot.mouseClick(form.read_button, Qt.MouseButton.LeftButton)
    window.commands.new_trip.trigger()
    assert not form.prompt_note.isVisible() and form.budget_spin.value() == 3000


def test_a_month_without_a_length_names_what_is_missing(qtbot, make_window):
    window = make_window(size=(1400, 900))
    form = window.intent_form
    form.prompt_edit.setPlainText("Paris in May, flying from JFK")
    qtbot.mouseClick(form.read_button, Qt.MouseButton.LeftButton)
    said = form.field_errors()["prompt"]
    assert said == ("Prompt: Dates \u2014 found the month (May) but no trip length; add e.g. 'a week in May' or "
                    "'5 days' (a city trip lasts 2-7 days)")
    assert not form.prompt_note.isVisible()


def test_plan_reads_a_described_trip_without_read_being_pressed(qtbot, make_window):
    window = make_window(size=(1400, 900))
    form = window.intent_form
    form.prompt_edit.setFocus()
    QTest.keyClicks(form.prompt_edit, "4 days in Rome in September, flying from LHR")
    QTest.keyClick(form.prompt_edit, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)  # Plan, from the keyboard
    qtbot.waitUntil(lambda: window.trip.current is not None, timeout=PLAN_TIMEOUT_MS)
    intent = window.trip.current.intent
    assert (intent.city, intent.date_window.start, intent.days) == ("Rome", date(2027, 9, 6), 4)
    assert intent.budget_usd_cents == 300000 and intent.origin_airport == "LHR"
    assert form.prompt_note.text().splitlines()[0].startswith("No day given in September: planned Mon 6 \u2013 Thu 9")
    # A prompt Plan cannot read is said under it and in the bar; nothing is planned.
    before = window.trip.current
    form.prompt_edit.setPlainText("Rome, flying from LHR")
    qtbot.mouseClick(form.plan_button, Qt.MouseButton.LeftButton)
    assert "no travel dates found" in form.field_errors()["prompt"] and window.trip.current is before
    window.commands.plan.trigger()
    assert window.message_bar.level == "error" and window.message_bar.text().startswith("Check the prompt:")
    assert window.trip.current is before
