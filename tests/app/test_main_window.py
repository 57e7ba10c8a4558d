"""The main window with a real map page, offscreen: the shell, planning from the form with live
progress, selection sync, input errors and failures, unexpected exceptions, reopening."""

from __future__ import annotations

import sys
from datetime import date

import pytest
from PySide6.QtCore import QDate, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDockWidget

from app.error_box import ErrorReporter
from app.trip_session import TripSession
from engine.models import EventStatus, IntentV1, RoadTripIntent
from tests.app.conftest import PLAN_TIMEOUT_MS, wait_task
from tests.widgets.test_map_view import run_js, state
from widgets.diagnostics_panel import DiagnosticsPanel
from widgets.intent_form import IntentForm
from widgets.itinerary_panel import ItineraryPanel
from widgets.map_view import MapView
from widgets.progress_panel import ProgressPanel

ROUTE66 = RoadTripIntent(origin="Los Angeles", terminus="Chicago", days=7, start_date=date(2027, 5, 3),
                         route="Route 66")
PARIS = IntentV1.model_validate({
    "city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
    "budget_usd_cents": 400000, "airports": ["CDG", "ORY"], "origin_airport": "JFK",
    "prefs": {"themes": ["art", "food"]}})


def fill_route66(form: IntentForm) -> None:
    form.set_mode("road_trip")
    form.origin_edit.setText("Los Angeles")
    form.terminus_edit.setText("Chicago")
    form.route_combo.setCurrentIndex(form.route_combo.findData("Route 66"))
    form.road_days_spin.setValue(7)
    form.road_start_edit.setDate(QDate(2027, 5, 3))


def plan(qtbot, window, intent):
    return wait_task(qtbot, window.controller.plan_intent(intent))


# -- the shell ----------------------------------------------------------------------------------
def test_shell_has_map_docks_menus_shortcuts_and_status(make_window):
    window = make_window()
    assert window.windowTitle() == "Tripwright"
    assert isinstance(window.map_view, MapView) and window.centralWidget().isAncestorOf(window.map_view)
    docks = {d.objectName(): d for d in window.findChildren(QDockWidget)}
    assert set(docks) == {"trips_dock", "form_dock", "itinerary_dock", "bottom_dock", "notes_dock", "group_dock",
                          "today_dock"}
    assert not docks["today_dock"].isVisible()  # no trip under way (issue 36 §1)
    assert not docks["trips_dock"].isVisible()  # in memory (no store asked for): no saved trips to list
    assert not docks["notes_dock"].isVisible()  # notes live in the store too
    assert isinstance(window.intent_form, IntentForm) and isinstance(window.itinerary_panel, ItineraryPanel)
    assert isinstance(window.progress, ProgressPanel) and isinstance(window.diagnostics, DiagnosticsPanel)
    assert [window.bottom_tabs.tabText(i) for i in range(2)] == ["Progress", "Diagnostics"]
    assert window.dockWidgetArea(docks["bottom_dock"]) == Qt.DockWidgetArea.BottomDockWidgetArea
    menus = [a.text().replace("&", "") for a in window.menuBar().actions()]
    assert menus == ["File", "Edit", "Plan", "Trip", "View", "Help"]
    c = window.commands
    shortcuts = {name: [s.toString() for s in getattr(c, name).shortcuts()]
                 for name in ("new_trip", "plan", "replan", "export_any", "undo", "redo", "cancel", "settings")}
    assert shortcuts["new_trip"] == [QKeySequence(QKeySequence.StandardKey.New).toString()] == ["Ctrl+N"]
    assert shortcuts["plan"] == ["Ctrl+R"] and "Ctrl+Shift+R" in shortcuts["replan"]
    assert shortcuts["export_any"] == ["Ctrl+E"] and shortcuts["undo"] == ["Ctrl+Z"]
    assert shortcuts["redo"][0] == "Ctrl+Shift+Z" and shortcuts["cancel"] == ["Esc"]
    assert shortcuts["settings"] == ["Ctrl+,"]
    assert sorted(c.exports) == ["gpx", "html", "ics", "json", "kml", "kmz", "pdf", "phone"] and sorted(c.examples) == ["city", "road"]
    assert window.user_label.text() == "Local user" and window.database_label.text() == "In-memory"
    assert window.online_label.text() == "Offline \u00b7 built-in map"  # the street map wanted, TRIPWRIGHT_OFFLINE=1
    assert window.data_label.text() == f"Fixtures \u00b7 FX as-of {window.planning.toolbox.fx_as_of.isoformat()}"
    # First launch: the welcome page with both examples, nothing to undo or export, no Cancel.
    assert window.right_stack.currentWidget() is window.welcome
    assert set(window.welcome.example_buttons) == {"city", "road"}
    assert not c.undo.isEnabled() and not c.export_any.isEnabled() and not c.cancel.isEnabled()


def test_default_layout_keeps_the_map_wide(make_window):
    narrow = make_window(size=(1400, 900))
    assert narrow.map_view.width() >= 700  # the form shares the right dock as a tab
    assert narrow.tabifiedDockWidgets(narrow.itinerary_dock) == [narrow.form_dock]  # Trips: hidden without a store
    wide = make_window(size=(1800, 1000))
    assert wide.dockWidgetArea(wide.form_dock) == Qt.DockWidgetArea.LeftDockWidgetArea
    assert wide.dockWidgetArea(wide.itinerary_dock) == Qt.DockWidgetArea.RightDockWidgetArea
    assert wide.map_view.width() >= 700


def test_online_toggle_switches_tiles_and_status(qtbot, make_window, monkeypatch):
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE")  # the tiles are an inline image: no network
    window = make_window()
    window.map_view.tile_url = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=="
    window.commands.online.setChecked(False)
    qtbot.waitUntil(lambda: not state(qtbot, window.map_view)["online"], timeout=5_000)
    assert window.online_label.text() == "Built-in map"
    window.commands.online.setChecked(True)
    qtbot.waitUntil(lambda: state(qtbot, window.map_view)["online"], timeout=5_000)
    assert window.online_label.text() == "Street map \u00b7 online"


# -- planning -----------------------------------------------------------------------------------
def test_plan_a_road_trip_from_the_form(qtbot, make_window):
    window = make_window()
    fill_route66(window.intent_form)
    qtbot.mouseClick(window.intent_form.plan_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.trip.current is not None, timeout=PLAN_TIMEOUT_MS)

    events = window.controller.run_events
    assert [e.seq for e in events] == list(range(len(events)))  # in order, none missing
    assert events[0].node == "intent_extractor" and events[-1].status is EventStatus.done
    assert [e.node for e in events if e.status is EventStatus.started][:2] == ["intent_extractor", "planner"]
    qtbot.waitUntil(lambda: window.progress.pending == 0, timeout=5_000)
    shown = window.progress.model.events()
    assert [e.seq for e in shown] == [e.seq for e in events if e.status is not EventStatus.heartbeat]
    assert window.progress.status_label.text().startswith("Done in")

    view = window.map_view
    qtbot.waitUntil(lambda: state(qtbot, view)["markers"] > 0, timeout=10_000)
    now = state(qtbot, view)
    assert now["markers"] == len(view.document["markers"]) and now["corridor_polygons"] >= 1
    assert now["day_lines"] == 7 and now["draggable"] == 6
    itinerary = window.trip.current.itinerary
    # The panel follows once the page has painted the plan (MapView.drawn), not before.
    qtbot.waitUntil(lambda: window.itinerary_panel.itinerary() is itinerary, timeout=5_000)
    assert window.right_stack.currentWidget() is window.itinerary_panel
    assert window.windowTitle() == "Tripwright \u2014 Los Angeles \u2192 Chicago via Route 66, 7 days \u00b7 v1/1"
    assert window.commands.export_any.isEnabled() and not window.commands.cancel.isEnabled()
    assert window.diagnostics.nodes.rowCount() >= 4


def test_example_button_plans_the_paris_trip(qtbot, make_window):
    window = make_window()
    qtbot.mouseClick(window.welcome.example_buttons["city"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.trip.current is not None, timeout=PLAN_TIMEOUT_MS)
    intent = window.trip.current.intent
    assert intent.city == "Paris" and intent.days == 5 and set(intent.prefs.themes) == {"art", "food"}
    assert "5 days in Paris" in window.intent_form.prompt_edit.toPlainText()


def test_example_prompt_link_plans_like_the_example_cards(qtbot, make_window):
    from PySide6.QtCore import QPoint

    window = make_window()
    link = window.welcome.prompt_links[0]
    assert link.toolTip().startswith("Plan this trip")
    qtbot.waitUntil(link.isVisible, timeout=3_000)
    qtbot.mouseClick(link, Qt.MouseButton.LeftButton, pos=QPoint(12, link.fontMetrics().height() // 2 + 1))  # on its words
    qtbot.waitUntil(lambda: window.trip.current is not None, timeout=PLAN_TIMEOUT_MS)
    intent = window.trip.current.intent
    assert intent.city == "Rome" and intent.days == 4 and intent.origin_airport == "LHR"
    assert window.intent_form.prompt_edit.toPlainText().startswith("4 days in Rome")  # there to change and plan again
    assert window.intent_form.city_combo.currentText() == "Rome"
    assert window.form_dock.isVisible()
    qtbot.waitUntil(lambda: window.right_stack.currentWidget() is window.itinerary_panel, timeout=10_000)


def test_selection_follows_between_panel_and_map(qtbot, make_window):
    window = make_window()
    plan(qtbot, window, PARIS)
    view = window.map_view
    qtbot.waitUntil(lambda: state(qtbot, view)["markers"] > 0, timeout=10_000)
    visits = [a.id for d in window.trip.current.itinerary.days for a in d.activities if a.role == "activity"]
    window.itinerary_panel.select_activity(visits[0])
    window.itinerary_panel.activity_selected.emit(visits[0])  # what a click in the tree emits
    qtbot.waitUntil(lambda: state(qtbot, view)["highlighted"] == visits[0], timeout=5_000)
    with qtbot.waitSignal(view.marker_selected, timeout=5_000):
        run_js(qtbot, view, f"tripwright.marker({visits[1]!r}).getElement().click(); 'null'")
    assert window.itinerary_panel.selected_activity() == visits[1]


def test_input_error_is_one_line_and_keeps_the_trip(qtbot, make_window):
    window = make_window()
    plan(qtbot, window, PARIS)
    before = window.trip.current
    bad = ROUTE66.model_copy(update={"stops": ["Atlantis"]})
    assert plan(qtbot, window, bad) is None
    text = window.message_bar.text()
    assert window.message_bar.level == "error" and "\n" not in text and "Traceback" not in text
    assert text.startswith("Stops 1: could not find 'Atlantis'")  # in the form's words (issue 22 §2.8)
    assert window.trip.current is before and len(window.trip.versions) == 1
    assert window.progress.status_label.text().startswith("Error")


def test_infeasible_plan_shows_the_explanation_and_attempts(qtbot, make_window):
    window = make_window()
    broke = PARIS.model_copy(update={"budget_usd_cents": 50_000})
    assert plan(qtbot, window, broke) is None
    text = window.message_bar.text()
    assert text.startswith("Unable to meet budget constraint")
    assert "Attempt 1:" in text and "Best plan found costs $" in text
    assert window.trip.current is None and window.right_stack.currentWidget() is window.welcome
    assert window.progress.status_label.text().startswith("Error: Unable to meet budget")


def test_form_errors_are_shown_not_raised(qtbot, make_window):
    window = make_window()
    window.intent_form.set_mode("road_trip")  # origin and terminus left empty
    window.commands.plan.trigger()
    assert window.message_bar.text().startswith("Check the form:")
    assert window.intent_form.field_errors()
    assert window.trip.current is None


# -- unexpected errors, reopening ---------------------------------------------------------------
def test_unexpected_exception_shows_a_non_modal_box_and_keeps_the_trip(qtbot, make_window, monkeypatch):
    window = make_window()
    plan(qtbot, window, PARIS)
    before = window.trip.current
    reporter = ErrorReporter(lambda: window)
    monkeypatch.setattr(sys, "excepthook", reporter.excepthook)

    async def broken(*args, **kwargs):
        raise RuntimeError("boom\nsecond line")
    monkeypatch.setattr(window.controller, "run", broken)
    window.commands.replan.trigger()  # an asyncSlot: qasync hands the failure to sys.excepthook
    qtbot.waitUntil(lambda: bool(reporter.boxes), timeout=5_000)
    box = reporter.boxes[0]
    assert box.isVisible() and not box.isModal()
    assert box.text() == "RuntimeError: boom second line"
    assert "Traceback" in box.detailedText()
    assert window.trip.current is before and window.itinerary_panel.itinerary() is before.itinerary
    box.close()
    # A failed task nobody awaited reaches the loop's handler: the same box.
    reporter.loop_exception_handler(None, {"message": "task failed", "exception": ValueError("bad value")})
    assert reporter.boxes[-1].text() == "ValueError: bad value" and len(reporter.seen) == 2
    reporter.boxes[-1].close()


def test_a_new_window_over_the_same_session_restores_the_open_trip(qtbot, make_window, planning):
    first = make_window()
    plan(qtbot, first, ROUTE66)
    trip, title = first.trip, first.windowTitle()
    first.close()
    second = make_window(trip=trip, session=planning)
    assert isinstance(second.trip, TripSession) and second.trip is trip
    assert second.windowTitle() == title
    assert second.itinerary_panel.itinerary() is trip.current.itinerary
    qtbot.waitUntil(lambda: state(qtbot, second.map_view)["markers"] == len(second.map_view.document["markers"]) > 0,
                    timeout=10_000)
    assert second.commands.export_any.isEnabled()


def test_new_trip_returns_to_the_welcome_page(qtbot, make_window):
    window = make_window()
    plan(qtbot, window, PARIS)
    window.commands.new_trip.trigger()
    assert window.trip.current is None and window.right_stack.currentWidget() is window.welcome
    qtbot.waitUntil(lambda: state(qtbot, window.map_view)["markers"] == 0, timeout=5_000)
    assert window.windowTitle() == "Tripwright"


def test_about_box_is_not_modal(make_window):
    window = make_window()
    window.commands.about.trigger()
    assert window.about_box.isVisible() and not window.about_box.isModal()
    window.about_box.close()


@pytest.mark.parametrize("key", ["city", "road"])
def test_menu_examples_plan(qtbot, make_window, key):
    window = make_window()
    window.commands.examples[key].trigger()
    qtbot.waitUntil(lambda: window.trip.current is not None, timeout=PLAN_TIMEOUT_MS)
    assert window.trip.current.mode == ("city" if key == "city" else "road_trip")
