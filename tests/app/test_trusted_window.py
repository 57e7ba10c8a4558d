"""Issue 32 §6, the window a traveller trusts, driven through the real main window over its real
map page (offscreen): a row click keeps the side panel's tab, the map shows one tooltip at a time,
and each planning run's bar starts at 0 %. Saves the screens it checks under /tmp/trust-*.png."""

from __future__ import annotations

from tests.app.test_main_window import PARIS, plan
from tests.app.test_store_wiring import db_url, home, listed, open_window  # noqa: F401 (fixtures)
from tests.store.conftest import memory_keyring  # noqa: F401 (a fixture)
from tests.widgets.test_map_view import run_js, state

OPEN_TIPS = "JSON.stringify(document.querySelectorAll('.leaflet-tooltip').length)"


def _activities(window) -> list:
    itinerary = window.itinerary_panel.itinerary()
    return [a for d in itinerary.days for a in d.activities
            if a.role != "transfer" and a.id in window.map_view._markers]  # noqa: SLF001


def test_selecting_rows_and_hovering_markers_leaves_one_tooltip(qtbot, make_window):
    window = make_window(size=(1400, 900))
    plan(qtbot, window, PARIS)
    panel = window.itinerary_panel
    stops = _activities(window)[:4]
    assert len(stops) == 4
    for stop in stops:  # as clicks on the rows do: the map pans to each and opens its tooltip
        panel.tree.setCurrentIndex(panel.model.activity_index(stop.id))
        qtbot.waitUntil(lambda s=stop: state(qtbot, window.map_view)["highlighted"] == s.id, timeout=5_000)
        qtbot.waitUntil(lambda: run_js(qtbot, window.map_view, OPEN_TIPS) >= 1, timeout=5_000)
        qtbot.wait(400)  # a closed tooltip fades out for 200 ms before it leaves the page
        assert run_js(qtbot, window.map_view, OPEN_TIPS) == 1
    other = _activities(window)[5].id  # hovering another marker: its tooltip replaces the selection's
    run_js(qtbot, window.map_view, f"tripwright.marker({other!r}).fire('mouseover'); JSON.stringify(1)")
    qtbot.wait(400)
    assert run_js(qtbot, window.map_view, OPEN_TIPS) == 1
    assert run_js(qtbot, window.map_view,
                  f"JSON.stringify(tripwright.marker({other!r}).isTooltipOpen())") is True
    window.grab().save("/tmp/trust-one-tooltip.png")


def test_each_planning_run_starts_its_bar_at_zero(qtbot, make_window):
    window = make_window(size=(1400, 900))
    plan(qtbot, window, PARIS)
    assert window.progress.progress_bar.value() == 100
    seen: list[int] = []
    start_run = window.progress.start_run

    def start_and_look(*args, **kwargs):
        start_run(*args, **kwargs)
        seen.append(window.progress.progress_bar.value())
        window.grab().save("/tmp/trust-progress-start.png")

    window.progress.start_run = start_and_look
    plan(qtbot, window, PARIS.model_copy(update={"budget_usd_cents": 350000}))
    assert seen == [0]
    assert window.progress.progress_bar.value() == 100


# -- a small window, resizing, the keyboard ------------------------------------------------------
IN_VIEW = """JSON.stringify(Array.from(document.querySelectorAll('.tw-icon')).length ? (function () {
  var ids = %s, shown = 0, under = 0;
  var note = document.getElementById('offline-note'), box = note.hidden ? null : note.getBoundingClientRect();
  ids.forEach(function (id) {
    var m = tripwright.marker(id);
    if (!m || !m._map.getBounds().contains(m.getLatLng())) return;
    shown += 1;
    var r = m.getElement().getBoundingClientRect();
    if (box && r.right > box.left && r.left < box.right && r.bottom > box.top && r.top < box.bottom) under += 1;
  });
  return [shown, under];
})() : null)"""


def _in_view(qtbot, window, ids) -> tuple[int, int]:
    """How many of ``ids``' markers the map shows, and how many of those the offline note covers."""
    shown, under = run_js(qtbot, window.map_view, IN_VIEW % repr(list(ids)).replace("'", '"'))
    return shown, under


def test_a_1024_window_keeps_half_for_the_map_and_refits_it_on_resize(qtbot, make_window):
    window = make_window(size=(1400, 900))
    plan(qtbot, window, PARIS)
    sights = [a.id for a in _activities(window) if a.kind != "flight"]  # the trip's focus: the city
    qtbot.wait(300)
    before = _in_view(qtbot, window, sights)
    assert before == (len(sights), 0)
    window.resize(1024, 700)
    qtbot.waitUntil(lambda: window.width() == 1024, timeout=3_000)
    qtbot.waitUntil(lambda: window.map_view.width() >= 0.5 * window.width(), timeout=3_000)
    assert window.map_view.height() >= 0.5 * window.height()
    qtbot.wait(500)  # the page's resize event, then its re-fit
    assert _in_view(qtbot, window, sights) == (len(sights), 0)  # the whole city trip, nothing under the note
    window.grab().save("/tmp/trust-1024x700.png")


def test_a_new_1024_window_starts_with_half_for_the_map_and_the_keyboard_in_the_form(qtbot, make_window):
    window = make_window(size=(1024, 700))
    qtbot.waitUntil(lambda: window.focusWidget() is window.intent_form.prompt_edit, timeout=3_000)
    assert window.form_dock.isVisible() and window.intent_form.prompt_edit.isVisible()
    plan(qtbot, window, PARIS)
    qtbot.wait(300)
    assert window.map_view.width() >= 0.5 * window.width()
    assert window.map_view.height() >= 0.5 * window.height()
    # A long message above the map (a failure with its explanation) leaves the map its half too.
    window.show_message("Plan failed: " + " ".join(["the budget does not cover the flights and the hotel"] * 12),
                        "error")
    qtbot.waitUntil(lambda: window.message_bar.isVisible(), timeout=2_000)
    qtbot.wait(200)
    assert window.map_view.height() >= 0.5 * window.height(), (window.map_view.height(), window.message_bar.height())
    window.grab().save("/tmp/trust-1024x700-first.png")


def test_shortcuts_work_wherever_the_focus_is(qtbot, make_window):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    window = make_window(size=(1400, 900))
    assert window.focusWidget() is window.intent_form.prompt_edit
    hits: list[str] = []
    window.commands.new_trip.triggered.connect(lambda: hits.append("new"))
    for where in ("map", "itinerary", "form"):
        plan(qtbot, window, PARIS)
        target = {"map": window.map_view.focusProxy(), "itinerary": window.itinerary_panel.tree,
                  "form": window.intent_form.prompt_edit}[where]
        target.setFocus()
        qtbot.waitUntil(lambda t=target: window.focusWidget() is t, timeout=2_000)
        QTest.keyClick(target, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)  # New trip
        qtbot.waitUntil(lambda n=len(hits): window.trip.current is None, timeout=3_000)
        assert window.right_stack.currentWidget() is window.welcome, where
    assert hits == ["new", "new", "new"]
    window.map_view.focusProxy().setFocus()
    with qtbot.waitSignal(window.commands.plan.triggered, timeout=3_000):
        QTest.keyClick(window.map_view.focusProxy(), Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)


# -- the facts in the rows (issue 32 §5) ----------------------------------------------------------
def test_rows_show_hours_weather_estimates_and_unknown_hours(qtbot, make_window):
    from engine.models import IntentV1
    from widgets.itinerary_model import ItineraryModel

    studio = {"name": "Atelier of a friend", "geo": {"lat": 48.8606, "lon": 2.3376}}  # not in the catalog
    intent = IntentV1.model_validate({**PARIS.model_dump(mode="json"),
                                      "prefs": {"themes": ["art", "food"], "must_see": [studio]}})
    window = make_window(size=(1400, 900))
    plan(qtbot, window, intent)
    panel, model = window.itinerary_panel, window.itinerary_panel.model
    itinerary = panel.itinerary()
    rows = {a.name: (d, a) for d, day in enumerate(itinerary.days) for a in day.activities}
    what = lambda a: model.activity_index(a.id, ItineraryModel.COL_NAME).data(ItineraryModel.FullTextRole)  # noqa: E731
    cost = lambda a: model.activity_index(a.id, ItineraryModel.COL_COST).data()  # noqa: E731
    _, louvre = rows["Musée du Louvre"]
    assert "open 09:00-21:00 on Wednesday 2027-06-16" in louvre.notes  # what the engine said
    assert what(louvre) == "Musée du Louvre \u00b7 open 9\u201321"
    assert cost(louvre) == "est. $37.15"
    _, own = rows["Atelier of a friend"]
    assert what(own) == "Atelier of a friend \u00b7 hours unknown"
    flight = itinerary.days[0].activities[0]
    assert what(flight).endswith("\u00b7 times est.") and cost(flight).startswith("est. $")
    header = model.index(1, 0).data(ItineraryModel.HeaderRole)
    assert header.startswith("Wed 16 Jun \u00b7 Day 2 \u00b7 ") and "\u00b0C, 27% rain (typical)" in header
    assert header.endswith(model.index(1, ItineraryModel.COL_COST).data())
    assert panel.tree.isFirstColumnSpanned(1, panel.tree.rootIndex())
    qtbot.wait(50)  # the What texts are fitted once the header has laid out its columns
    assert model.activity_index(own.id, ItineraryModel.COL_NAME).data().endswith("\u00b7 hours unknown")
    shown = model.activity_index(louvre.id, ItineraryModel.COL_NAME).data()  # as drawn: the hours whole
    assert shown.endswith("\u00b7 open 9\u201321") and shown.startswith("Musée")
    assert panel.tree.fontMetrics().horizontalAdvance(shown) <= panel.tree.columnWidth(ItineraryModel.COL_NAME)
    panel.select_activity(own.id)
    window.grab().save("/tmp/trust-rows-city.png")


def test_road_trip_day_lines_are_not_cut_off(qtbot, make_window):
    from PySide6.QtCore import Qt

    from tests.app.test_main_window import ROUTE66
    from widgets.itinerary_model import ItineraryModel

    window = make_window(size=(1400, 900))
    plan(qtbot, window, ROUTE66)
    tree, model = window.itinerary_panel.tree, window.itinerary_panel.model
    wide = tree.fontMetrics()  # the day line's font (not bold)
    assert model.index(0, 0).data(Qt.ItemDataRole.FontRole) is None
    for d in range(model.rowCount()):
        header = model.index(d, 0).data(ItineraryModel.HeaderRole)
        summary = model.index(d, ItineraryModel.COL_NAME).data()
        assert summary in header and model.index(d, 0).data() == header  # "→ Needles, CA · 294 mi · 5 h 21 min"
        room = tree.viewport().width() - tree.indentation() - 8
        assert wide.horizontalAdvance(header) <= room, (header, room)
    sights = [a for day in window.itinerary_panel.itinerary().days for a in day.activities
              if a.kind.value == "attraction"]
    assert sights and all("open " not in a.notes for a in sights)  # the road-trip catalog has no hours
    for sight in sights:  # so each is marked in its row
        assert model.activity_index(sight.id, ItineraryModel.COL_NAME).data(ItineraryModel.FullTextRole) == \
            f"{sight.name} \u00b7 hours unknown"
    window.grab().save("/tmp/trust-rows-road.png")


# -- Help (issue 32 §6) -----------------------------------------------------------------------------
def test_help_has_a_short_guide_and_every_shortcut(qtbot, make_window):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QPlainTextEdit, QTabWidget

    window = make_window(size=(1400, 900))
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    assert [a.text() for a in help_menu.actions() if a.text()] == \
        ["Quick &guide", "&Keyboard shortcuts", "&About Tripwright"]
    window.map_view.focusProxy().setFocus()  # F1 works from the map too
    QTest.keyClick(window.map_view.focusProxy(), Qt.Key.Key_F1)
    qtbot.waitUntil(lambda: getattr(window, "help_dialog", None) is not None
                    and window.help_dialog.isVisible(), timeout=3_000)
    dialog = window.help_dialog
    tabs = dialog.findChild(QTabWidget, "help_tabs")
    guide = tabs.widget(0).toPlainText()
    assert tabs.currentIndex() == 0
    for words in ("Plan (Ctrl+R)", "Right-click a pin", "est.", "hours unknown", "Export (Ctrl+E)"):
        assert words in guide
    assert len(guide.split()) < 200  # short
    dialog.grab().save("/tmp/trust-help-guide.png")
    help_menu.actions()[1].trigger()
    assert tabs.currentIndex() == 1
    listed = tabs.widget(1).toPlainText()
    for action in (window.commands.new_trip, window.commands.plan, window.commands.replan, window.commands.undo,
                   window.commands.redo, window.commands.export_any, window.commands.settings,
                   window.commands.quit, window.commands.guide):
        keys = [k.toString() for k in action.shortcuts() if not k.isEmpty()]
        for key in keys:
            assert f"{key}" in listed, (action.text(), key)
        if keys:
            assert f"\t{action.text().replace('&', '')}" in listed
    assert isinstance(tabs.widget(1), QPlainTextEdit) and tabs.widget(1).isReadOnly()
    dialog.grab().save("/tmp/trust-help-shortcuts.png")


# -- saved trips (issue 32 §5) ------------------------------------------------------------------------
def test_two_paris_trips_have_distinct_names_with_their_dates(qtbot, open_window):  # noqa: F811
    window = open_window()
    plan(qtbot, window, PARIS)
    window.new_trip()
    september = PARIS.model_copy(update={"date_window": PARIS.date_window.model_copy(
        update={"start": PARIS.date_window.start.replace(month=9, day=28),
                "end": PARIS.date_window.end.replace(month=10, day=2)})})
    plan(qtbot, window, september)
    names = sorted(t.name for t in listed(qtbot, window, 2))
    assert names == ["Paris, 5 days \u00b7 15\u201319 Jun 2027", "Paris, 5 days \u00b7 28 Sep\u20132 Oct 2027"]
    shown = [window.trip_list.model.index(r, 0).data() for r in range(2)]
    assert sorted(shown) == names  # the Trips list's Name column
    window.trips_dock.show()
    window.trips_dock.raise_()
    qtbot.wait(200)
    window.trips_dock.grab().save("/tmp/trust-trips-list.png")
