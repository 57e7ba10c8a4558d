"""The trip list panel and its model: a pure view over TripSummary records, driven like a user
would (keys, buttons, the inline editor) and checked through its signals."""

import time
from datetime import datetime, timedelta, timezone

import pytest
from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtGui import QAction, QFont, QIcon, QKeySequence
from PySide6.QtTest import QAbstractItemModelTester, QTest
from PySide6.QtWidgets import QApplication, QLineEdit, QMainWindow, QMenu

from engine.store.records import TripSummary, VersionSummary
from widgets.trip_list import EMPTY_TEXT, TripListPanel, no_match_text
from widgets.trip_list_undo import deleted_text
from widgets.trip_list_model import MAX_NAME_CHARS, TripFilterProxy, TripListModel, clean_trip_name, updated_text

NOW = datetime(2026, 11, 23, 15, 0, tzinfo=timezone.utc)
XSS = "<img src=x onerror=alert(1)>"


def trip(trip_id, name, *, mode="city", ago=timedelta(hours=1), versions=1, deleted=False):
    return TripSummary(trip_id=trip_id, name=name, mode=mode, created_by="u1", created_at=NOW - ago - timedelta(days=1),
                       updated_at=NOW - ago, deleted=deleted, version_count=versions)


def version(trip_id, *, days=5, cents=214000, number=1):
    return VersionSummary(trip_id=trip_id, number=number, status="ok", total_usd_cents=cents, day_count=days,
                          blocking_count=0, advisory_count=0, run_id=None, created_by="u1", created_at=NOW)


SAMPLE = [trip("paris", "Paris in June", ago=timedelta(days=2), versions=3),
          trip("r66", "Route 66", mode="road_trip", ago=timedelta(minutes=5), versions=5),
          trip("tokyo", "Tokyo with the kids", ago=timedelta(days=30)),
          trip("pch", "Pacific Coast Highway", mode="road_trip", ago=timedelta(hours=3), versions=2)]


def visible_ids(panel):
    return [panel.proxy.trip_id_at(r) for r in range(panel.proxy.rowCount())]


def model_failures(qtlog):
    return [r.message for r in qtlog.records if "FAIL" in r.message]


@pytest.fixture
def panel(qtbot):
    widget = TripListPanel(now=lambda: NOW, undo_timeout_ms=60_000)
    qtbot.addWidget(widget)
    widget.resize(420, 600)
    widget.set_trips(SAMPLE, {"paris": version("paris", number=3)})
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def focus_table(qtbot, panel, trip_id):
    panel.activateWindow()
    panel.table.setFocus()
    panel.select_trip(trip_id)
    qtbot.waitUntil(lambda: panel.focusWidget() is panel.table, timeout=2_000)


@pytest.fixture
def utc_local_time(monkeypatch):
    """Calendar words use the local zone; pin it so "today 12:00" is the same everywhere."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


# -- pure helpers ----------------------------------------------------------------------
@pytest.mark.parametrize(("ago", "expected"), [
    (timedelta(seconds=20), "just now"), (timedelta(minutes=12), "12 min ago"),
    (timedelta(hours=3), "today 12:00"), (timedelta(days=1), "yesterday"),
    (timedelta(days=3), "Fri 15:00"), (timedelta(days=40), "14 Oct 2026")])
def test_updated_wording(ago, expected, utc_local_time):
    assert updated_text(NOW - ago, NOW) == expected


def test_naive_timestamps_are_read_as_utc():
    naive = (NOW - timedelta(minutes=3)).replace(tzinfo=None)  # what SQLite hands back
    assert updated_text(naive, NOW) == "3 min ago"


def test_name_cleaning():
    assert clean_trip_name("  Rome \t ") == ("Rome", "")
    assert clean_trip_name("   ")[1].startswith("A trip needs a name")
    assert clean_trip_name("a\nb")[1]
    assert clean_trip_name("x" * MAX_NAME_CHARS) == ("x" * MAX_NAME_CHARS, "")
    assert "at most 120" in clean_trip_name("x" * (MAX_NAME_CHARS + 1))[1]


# -- the model -------------------------------------------------------------------------
def test_model_rows_columns_and_roles(qapp, qtlog):
    model = TripListModel(now=lambda: NOW)
    tester = QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Warning)
    model.set_trips(SAMPLE + [trip("gone", "Deleted one", deleted=True)], {"paris": version("paris")})
    assert model.rowCount() == 4 and model.columnCount() == 4  # the deleted trip is left out
    assert [model.headerData(c, Qt.Orientation.Horizontal) for c in range(4)] == ["Name", "Kind", "Versions", "Updated"]

    row = model.row_of("r66")
    cell = lambda col: model.index(row, col)  # noqa: E731
    assert [cell(c).data() for c in range(4)] == ["Route 66", "Road trip", "5", "5 min ago"]
    assert model.index(model.row_of("paris"), TripListModel.COL_KIND).data() == "City"
    icon = cell(TripListModel.COL_KIND).data(Qt.ItemDataRole.DecorationRole)
    assert isinstance(icon, QIcon) and not icon.isNull()
    assert cell(0).data(TripListModel.TripIdRole) == "r66"
    assert cell(0).data(TripListModel.TripRole) == SAMPLE[1]
    assert cell(TripListModel.COL_VERSIONS).data(TripListModel.SortRole) == 5
    assert cell(TripListModel.COL_UPDATED).data(TripListModel.SortRole) == SAMPLE[1].updated_at.timestamp()
    assert model.flags(cell(TripListModel.COL_NAME)) & Qt.ItemFlag.ItemIsEditable
    assert not model.flags(cell(TripListModel.COL_KIND)) & Qt.ItemFlag.ItemIsEditable
    paris_tip = model.index(model.row_of("paris"), 0).data(Qt.ItemDataRole.ToolTipRole)
    assert "Latest plan: 5 days \u00b7 $2,140.00" in paris_tip

    assert model.remove_trip("tokyo") and not model.remove_trip("tokyo")
    assert model.trip_ids() == ["paris", "r66", "pch"]
    model.set_trips([])
    assert model.rowCount() == 0
    del tester
    assert model_failures(qtlog) == []


def test_set_current_marks_the_open_trip_bold(qapp):
    model = TripListModel(now=lambda: NOW)
    model.set_trips(SAMPLE)
    model.set_current("pch")
    font = model.index(model.row_of("pch"), TripListModel.COL_UPDATED).data(Qt.ItemDataRole.FontRole)
    assert isinstance(font, QFont) and font.bold()
    assert model.index(model.row_of("pch"), 0).data(TripListModel.IsCurrentRole) is True
    assert "Open now" in model.index(model.row_of("pch"), 0).data(Qt.ItemDataRole.ToolTipRole)
    assert model.index(model.row_of("paris"), 0).data(Qt.ItemDataRole.FontRole) is None
    model.set_current(None)
    assert model.index(model.row_of("pch"), 0).data(Qt.ItemDataRole.FontRole) is None


def test_rename_via_setdata_trims_and_announces(qapp, qtbot):
    model = TripListModel(now=lambda: NOW)
    model.set_trips(SAMPLE)
    name_cell = model.index(model.row_of("paris"), TripListModel.COL_NAME)
    with qtbot.waitSignal(model.rename_requested) as renamed:
        assert model.setData(name_cell, "  Paris in July  ")
    assert renamed.args == ["paris", "Paris in July"]
    assert name_cell.data() == "Paris in July"  # shown at once; the owner writes it


@pytest.mark.parametrize("bad", ["", "   \t ", "x" * (MAX_NAME_CHARS + 1), "two\nlines"])
def test_rename_refuses_bad_names(qapp, qtbot, bad):
    model = TripListModel(now=lambda: NOW)
    model.set_trips(SAMPLE)
    name_cell = model.index(model.row_of("paris"), TripListModel.COL_NAME)
    with qtbot.assertNotEmitted(model.rename_requested), qtbot.waitSignal(model.rename_refused) as refused:
        assert not model.setData(name_cell, bad)
    assert refused.args[0] == "paris" and refused.args[1]
    assert name_cell.data() == "Paris in June"


def test_rename_to_the_same_name_is_not_a_request(qapp, qtbot):
    model = TripListModel(now=lambda: NOW)
    model.set_trips(SAMPLE)
    with qtbot.assertNotEmitted(model.rename_requested), qtbot.assertNotEmitted(model.rename_refused):
        assert not model.setData(model.index(model.row_of("paris"), 0), " Paris in June ")


def test_proxy_filters_by_name_with_unicode_case_folding(qapp):
    model = TripListModel(now=lambda: NOW)
    model.set_trips([*SAMPLE, trip("b", "Hauptstraße tour")])
    proxy = TripFilterProxy()
    proxy.setSourceModel(model)
    proxy.set_search("  ROUTE ")
    assert [proxy.trip_id_at(r) for r in range(proxy.rowCount())] == ["r66"]
    proxy.set_search("STRASSE")
    assert [proxy.trip_id_at(r) for r in range(proxy.rowCount())] == ["b"]
    proxy.set_search("road trip")  # the kind is not the name
    assert proxy.rowCount() == 0
    proxy.set_search("")
    assert proxy.rowCount() == 5


# -- the panel -------------------------------------------------------------------------
def test_default_order_is_most_recently_updated_first(panel):
    assert visible_ids(panel) == ["r66", "pch", "paris", "tokyo"]
    header = panel.table.horizontalHeader()
    assert header.sortIndicatorSection() == TripListModel.COL_UPDATED
    assert header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder


def test_clicking_headers_sorts_by_the_real_values(panel, qtbot):
    header = panel.table.horizontalHeader()
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(header.sectionViewportPosition(TripListModel.COL_VERSIONS) + 10, 5))
    order = visible_ids(panel)
    assert order in (["tokyo", "pch", "paris", "r66"], ["r66", "paris", "pch", "tokyo"])
    panel.table.sortByColumn(TripListModel.COL_UPDATED, Qt.SortOrder.AscendingOrder)
    assert visible_ids(panel) == ["tokyo", "paris", "pch", "r66"]  # "30 days ago" before "2 days ago"
    panel.table.sortByColumn(TripListModel.COL_NAME, Qt.SortOrder.AscendingOrder)
    assert visible_ids(panel) == ["pch", "paris", "r66", "tokyo"]


def test_search_box_filters_and_says_when_nothing_matches(panel, qtbot):
    assert panel.search.placeholderText() == "Search trips"
    qtbot.keyClicks(panel.search, "pa")
    assert visible_ids(panel) == ["pch", "paris"]
    assert panel.stack.currentWidget() is panel.table
    panel.search.setText("xyz")
    assert visible_ids(panel) == []
    assert panel.stack.currentWidget() is panel.empty_label
    assert panel.empty_label.text() == no_match_text("xyz") == "No trip matches \u201cxyz\u201d"
    panel.search.clear()
    assert len(visible_ids(panel)) == 4 and panel.stack.currentWidget() is panel.table


def test_empty_state(qtbot):
    panel = TripListPanel()
    qtbot.addWidget(panel)
    assert panel.stack.currentWidget() is panel.empty_label
    assert panel.empty_label.text() == EMPTY_TEXT
    assert panel.empty_label.textFormat() == Qt.TextFormat.PlainText
    assert not panel.open_button.isEnabled() and not panel.delete_button.isEnabled()
    panel.set_trips(SAMPLE[:1])
    assert panel.stack.currentWidget() is panel.table


def test_selection_is_kept_across_set_trips(panel):
    assert panel.select_trip("paris")
    reordered = [trip("new", "Brand new", ago=timedelta(0)), SAMPLE[0].model_copy(update={"version_count": 4}),
                 *SAMPLE[2:]]  # r66 gone, a new trip first: a reset
    panel.set_trips(reordered)
    assert panel.selected_trip_id() == "paris"
    assert panel.proxy.index(visible_ids(panel).index("paris"), TripListModel.COL_VERSIONS).data() == "4"
    same_ids = [t.model_copy(update={"name": t.name + "!"}) for t in reordered]  # refresh in place
    panel.set_trips(same_ids)
    assert panel.selected_trip_id() == "paris"
    assert panel.model.trip("paris").name == "Paris in June!"


def test_open_by_enter_double_click_button_and_menu(panel, qtbot):
    focus_table(qtbot, panel, "pch")
    with qtbot.waitSignal(panel.open_requested) as opened:
        QTest.keyClick(panel.table, Qt.Key.Key_Return)
    assert opened.args == ["pch"]

    rect = panel.table.visualRect(panel.proxy.index(visible_ids(panel).index("tokyo"), 1))
    with qtbot.waitSignal(panel.open_requested) as opened:
        # a real double-click starts with a press: the view only opens the index it saw pressed
        qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        qtbot.mouseDClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert opened.args == ["tokyo"]

    panel.select_trip("r66")
    with qtbot.waitSignal(panel.open_requested) as opened:
        panel.open_button.click()
    assert opened.args == ["r66"]

    menu = panel.context_menu("paris")
    assert [a.text() for a in menu.actions() if not a.isSeparator()] == ["Open", "Rename", "Delete"]
    with qtbot.waitSignal(panel.open_requested) as opened:
        menu.actions()[0].trigger()
    assert opened.args == ["paris"]
    menu.deleteLater()


def test_enter_in_the_search_box_opens_the_first_match(panel, qtbot):
    panel.activateWindow()
    panel.search.setFocus()
    qtbot.waitUntil(lambda: panel.focusWidget() is panel.search, timeout=2_000)
    qtbot.keyClicks(panel.search, "tok")
    with qtbot.waitSignal(panel.open_requested) as opened:
        QTest.keyClick(panel.search, Qt.Key.Key_Return)
    assert opened.args == ["tokyo"]


def test_delete_key_button_and_menu_ask_for_deletion(panel, qtbot):
    focus_table(qtbot, panel, "paris")
    with qtbot.waitSignal(panel.delete_requested) as deleted:
        QTest.keyClick(panel.table, Qt.Key.Key_Delete)
    assert deleted.args == ["paris"]
    assert "paris" in visible_ids(panel)  # a pure view: the row goes when the owner says so

    panel.select_trip("tokyo")
    with qtbot.waitSignal(panel.delete_requested) as deleted:
        panel.delete_button.click()
    assert deleted.args == ["tokyo"]

    menu = panel.context_menu("r66")
    delete = next(a for a in menu.actions() if a.text() == "Delete")
    with qtbot.waitSignal(panel.delete_requested) as deleted:
        delete.trigger()
    assert deleted.args == ["r66"]
    menu.deleteLater()


def test_show_deleted_then_undo_asks_for_a_restore(panel, qtbot):
    panel.show_deleted(SAMPLE[0])
    assert "paris" not in visible_ids(panel)
    assert panel.undo_bar.isVisible() and panel.pending_undo == "paris"
    assert panel.undo_label.text() == "Deleted \u201cParis in June\u201d."
    with qtbot.waitSignal(panel.restore_requested) as restored:
        panel.undo_button.click()
    assert restored.args == ["paris"]
    assert not panel.undo_bar.isVisible() and panel.pending_undo is None


def test_ctrl_z_in_the_panel_undoes_while_the_bar_shows(panel, qtbot):
    focus_table(qtbot, panel, "tokyo")
    with qtbot.assertNotEmitted(panel.restore_requested):
        QTest.keyClick(panel.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    panel.show_deleted(SAMPLE[0])
    panel.show_deleted(SAMPLE[2])  # the next deletion replaces the offer
    assert panel.undo_label.text() == "Deleted \u201cTokyo with the kids\u201d."
    focus_table(qtbot, panel, "r66")
    with qtbot.waitSignal(panel.restore_requested) as restored:
        QTest.keyClick(panel.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert restored.args == ["tokyo"]
    assert not panel.undo_bar.isVisible()


def test_undo_bar_times_out(qtbot):
    panel = TripListPanel(now=lambda: NOW, undo_timeout_ms=50)
    qtbot.addWidget(panel)
    panel.set_trips(SAMPLE)
    panel.show()
    panel.show_deleted(SAMPLE[1])
    assert panel.undo_bar.isVisible()
    qtbot.waitUntil(lambda: not panel.undo_bar.isVisible(), timeout=2_000)
    assert panel.pending_undo is None
    with qtbot.assertNotEmitted(panel.restore_requested):
        panel.undo_delete()


def test_inline_rename_through_the_editor(panel, qtbot):
    with qtbot.waitSignal(panel.rename_requested) as renamed:
        panel.start_rename("tokyo")
        editor = panel.table.findChild(QLineEdit, "trip_name_editor")
        assert editor is not None and editor.maxLength() == MAX_NAME_CHARS
        editor.setText("  Tokyo and Kyoto ")
        QTest.keyClick(editor, Qt.Key.Key_Return)
    assert renamed.args == ["tokyo", "Tokyo and Kyoto"]
    assert not panel.message_label.isVisible()


def test_refused_rename_shows_an_inline_message(panel, qtbot):
    name_cell = panel.proxy.index(visible_ids(panel).index("paris"), TripListModel.COL_NAME)
    with qtbot.assertNotEmitted(panel.rename_requested):
        assert not panel.proxy.setData(name_cell, "   ")
    assert panel.message_label.isVisible()
    assert panel.message_label.text().startswith("A trip needs a name")
    assert panel.message_label.textFormat() == Qt.TextFormat.PlainText
    with qtbot.waitSignal(panel.rename_requested):
        panel.proxy.setData(name_cell, "Paris again")
    assert not panel.message_label.isVisible()


def test_new_button(panel, qtbot):
    with qtbot.waitSignal(panel.new_requested):
        panel.new_button.click()


def test_detail_line_shows_the_latest_plan(panel):
    panel.select_trip("paris")
    assert panel.detail_label.text() == "Latest plan: 5 days \u00b7 $2,140.00"
    panel.set_trips([*SAMPLE, trip("empty", "Nothing yet", versions=0)])
    panel.select_trip("empty")
    assert panel.detail_label.text() == "No plan saved yet"


def test_names_are_plain_text_everywhere(panel, qtbot):
    hostile = trip("xss", XSS, ago=timedelta(0))
    panel.set_trips([*SAMPLE, hostile])
    cell = panel.proxy.index(visible_ids(panel).index("xss"), TripListModel.COL_NAME)
    assert cell.data() == XSS
    tooltip = cell.data(Qt.ItemDataRole.ToolTipRole)
    assert "&lt;img src=x" in tooltip and "<img" not in tooltip
    panel.show_deleted(hostile)
    assert panel.undo_label.textFormat() == Qt.TextFormat.PlainText
    assert panel.undo_label.text() == deleted_text(XSS) == f"Deleted \u201c{XSS}\u201d."
    assert "<img" not in panel.undo_label.toolTip()
    panel.search.setText(XSS)
    assert panel.empty_label.text() == f"No trip matches \u201c{XSS}\u201d"
    assert panel.empty_label.textFormat() == Qt.TextFormat.PlainText
    assert panel.detail_label.textFormat() == Qt.TextFormat.PlainText


def test_long_names_are_shortened_in_the_undo_bar(panel):
    long = trip("long", "A" * 120)
    panel.show_deleted(long)
    assert len(panel.undo_label.text()) < 80 and panel.undo_label.text().endswith("\u2026\u201d.")


def test_a_thousand_trips(qtbot):
    panel = TripListPanel(now=lambda: NOW)
    qtbot.addWidget(panel)
    panel.resize(420, 600)
    panel.show()
    trips = [trip(f"t{i}", f"Trip number {i}", mode="road_trip" if i % 3 else "city",
                  ago=timedelta(minutes=i), versions=i % 7) for i in range(1000)]
    latest = {t.trip_id: version(t.trip_id) for t in trips[::2]}
    panel.select_trip("t0")
    started = time.perf_counter()
    panel.set_trips(trips, latest)
    panel.select_trip("t500")
    panel.set_trips(list(reversed(trips)), latest)  # a reset that keeps the selection
    QTest.qWait(1)
    elapsed = time.perf_counter() - started
    print(f"\n1000 trips: two set_trips + repaint in {elapsed * 1000:.0f} ms")
    assert panel.proxy.rowCount() == 1000
    assert visible_ids(panel)[:2] == ["t0", "t1"]
    assert panel.selected_trip_id() == "t500"
    panel.search.setText("number 99")
    assert set(visible_ids(panel)) == {"t99", *(f"t{i}" for i in range(990, 1000))}


def test_model_index_lookups_for_unknown_trips(panel):
    assert panel.model.row_of("nope") == -1 and panel.model.trip("nope") is None
    assert not panel.select_trip("nope") and panel.selected_trip_id() is None
    assert panel.model.data(QModelIndex()) is None


def test_panel_keys_win_over_window_shortcuts(qtbot):
    """In the main window Ctrl+Z and Delete have window-wide meanings; inside the trip table
    (and, for Ctrl+Z, only while the Undo bar shows) the panel's meaning wins."""
    window = QMainWindow()
    qtbot.addWidget(window)
    window_undo, window_delete = QAction("Undo edit", window), QAction("Delete activity", window)
    window_undo.setShortcut(QKeySequence(QKeySequence.StandardKey.Undo))
    window_delete.setShortcut(QKeySequence(Qt.Key.Key_Delete))
    window.addActions([window_undo, window_delete])
    panel = TripListPanel(now=lambda: NOW)
    window.setCentralWidget(panel)
    panel.set_trips(SAMPLE)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2_000)
    focus_table(qtbot, panel, "pch")

    with qtbot.waitSignal(window_undo.triggered):  # no Undo bar: the window's undo
        QTest.keyClick(panel.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    panel.show_deleted(SAMPLE[0])
    with qtbot.assertNotEmitted(window_undo.triggered), qtbot.waitSignal(panel.restore_requested):
        QTest.keyClick(panel.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    with qtbot.assertNotEmitted(window_delete.triggered), qtbot.waitSignal(panel.delete_requested) as deleted:
        QTest.keyClick(panel.table, Qt.Key.Key_Delete)
    assert deleted.args == ["pch"]


def test_right_click_opens_the_row_menu(panel, qtbot):
    rect = panel.table.visualRect(panel.proxy.index(visible_ids(panel).index("tokyo"), 0))
    panel.table.customContextMenuRequested.emit(rect.center())
    qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu), timeout=2_000)
    menu = QApplication.activePopupWidget()
    assert [a.text() for a in menu.actions() if not a.isSeparator()] == ["Open", "Rename", "Delete"]
    assert panel.selected_trip_id() == "tokyo"
    with qtbot.waitSignal(panel.delete_requested) as deleted:
        next(a for a in menu.actions() if a.text() == "Delete").trigger()
    assert deleted.args == ["tokyo"]
    menu.close()
