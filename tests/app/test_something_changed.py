"""Plan ▸ Something changed… (issue 36 §2): the open Paris trip re-planned from now on around a
closure, through the dialog, off the GUI thread, saved as a version in a real SQLite store and
undone with Edit ▸ Undo; a value the engine cannot read is said in the dialog, which stays open."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QDateTime
from PySide6.QtWidgets import QMenu

from tests.app.conftest import PLAN_TIMEOUT_MS, wait_task
from tests.app.test_main_window import PARIS
from tests.app.test_store_wiring import db_url, home, open_window, plan, stored  # noqa: F401 (fixtures)
from tests.store.conftest import memory_keyring  # noqa: F401 (a fixture)


def refs(version, day):
    return {a.ref for a in version.itinerary.days[day].activities}


def noted(version) -> dict[str, str]:
    """Each planned place whose notes cite the destination notes, with that line."""
    return {a.ref: line for d in version.itinerary.days for a in d.activities
            for line in a.notes.split("; ") if line.startswith(("From Tripwright's notes:", "From your notes:"))}


def test_a_closure_through_the_dialog_saves_a_version_and_undo_goes_back(qtbot, open_window, db_url):  # noqa: F811
    window = open_window()
    before = plan(qtbot, window, PARIS)
    assert "louvre" in refs(before, 1) and window.something_changed.action.isEnabled()
    plan_menu = next(m for m in window.menuBar().findChildren(QMenu) if m.title() == "&Plan")
    assert window.something_changed.action in plan_menu.actions()
    dialog = window.something_changed.ask()
    dialog.set_kind("closed")
    dialog.closed.setCurrentText("Louvre")
    dialog.now.setDateTime(QDateTime.fromString("2027-06-16T11:00", "yyyy-MM-ddTHH:mm"))
    qtbot.waitUntil(dialog.isVisible)
    dialog.grab().save("/tmp/something_changed_dialog.png")
    dialog.ok.click()
    after = wait_task(qtbot, window.something_changed.task, PLAN_TIMEOUT_MS)
    assert after is window.trip.current and after.edit == "Something changed: Louvre closed"
    assert "louvre" not in refs(after, 1) and refs(after, 0) == refs(before, 0)
    assert "replaces Musée du Louvre today at 14:25" in window.last_change
    planned = {a.ref for d in after.itinerary.days for a in d.activities}  # the notes cited as the plan cited them
    assert noted(after) and noted(after) == {r: line for r, line in noted(before).items() if r in planned}
    window.grab().save("/tmp/something_changed_window.png")
    store, ctx = stored(db_url)
    with store.org(ctx) as repo:
        trip_id = repo.trips.list()[0].trip_id
        saved = repo.versions.get(trip_id)
    assert saved.number == after.number == 2 and saved.note == "Something changed: Louvre closed"
    assert "louvre" not in {a.ref for a in saved.itinerary_v1().days[1].activities}
    undone = window.controller.undo()
    assert undone is not None and "louvre" in refs(window.trip.current, 1)


def test_a_value_the_engine_cannot_read_is_said_in_the_dialog(qtbot, open_window):  # noqa: F811
    window = open_window()
    plan(qtbot, window, PARIS)
    dialog = window.something_changed.ask()
    dialog.set_kind("at")
    dialog.at.setText("somewhere near the Seine")
    qtbot.waitUntil(dialog.isVisible)
    dialog.ok.click()
    assert dialog.isVisible() and "LAT,LON" in dialog.error.text()
    assert window.something_changed.task is None and len(window.trip.versions) == 1
    assert datetime(2027, 6, 15, 9, 0) == dialog.choice()[2]  # not under way on the device clock: day 1, 09:00


def test_a_late_start_on_a_road_trip_pushes_the_nights_stop(qtbot, make_window):
    from tests.app.test_main_window import ROUTE66
    window = make_window()
    before = plan(qtbot, window, ROUTE66)
    dialog = window.something_changed.ask()
    assert [dialog.kind.itemData(i) for i in range(dialog.kind.count())] == ["late", "closed", "skip"]
    dialog.late.setValue(150)
    dialog.now.setDateTime(QDateTime.fromString("2027-05-04T08:00", "yyyy-MM-ddTHH:mm"))
    qtbot.waitUntil(dialog.isVisible)
    dialog.grab().save("/tmp/something_changed_road_dialog.png")
    dialog.ok.click()
    after = wait_task(qtbot, window.something_changed.task, PLAN_TIMEOUT_MS)
    assert after is window.trip.current and after.edit == "Something changed: 150 min late"

    def checkin(version):
        return next(a for a in version.itinerary.days[1].activities if a.role == "checkin")
    assert checkin(after).start - checkin(before).start == __import__("datetime").timedelta(minutes=150)
    assert "Overnight in Holbrook, AZ now at" in window.last_change


def test_no_beds_in_tonights_town_on_a_road_trip_moves_the_night_on(qtbot, make_window):
    from tests.app.test_main_window import ROUTE66
    window = make_window()
    plan(qtbot, window, ROUTE66)
    dialog = window.something_changed.ask()
    dialog.set_kind("closed")
    dialog.now.setDateTime(QDateTime.fromString("2027-05-03T07:00", "yyyy-MM-ddTHH:mm"))
    offered = [dialog.closed.itemText(i) for i in range(dialog.closed.count())]
    assert "Overnight in Needles, CA" in offered  # a road trip's nights are offered beside its stops
    dialog.closed.setCurrentText("Overnight in Needles, CA")
    dialog.ok.click()
    after = wait_task(qtbot, window.something_changed.task, PLAN_TIMEOUT_MS)
    assert after is window.trip.current and after.itinerary.days[0].anchor.name == "Oatman, AZ"
    assert after.itinerary.days[1].drive.from_name == "Oatman, AZ"
    assert "Overnight in Oatman, AZ replaces Overnight in Needles, CA today" in window.last_change
