"""Edit-and-replan on the map: a dragged anchor, right-click actions, add a stop, undo/redo, cancel."""

from __future__ import annotations

import asyncio
import os
import threading
import time

import pytest

from engine.geocode.trust import geodesic_miles
from engine.models import EventStatus
from app.map_edits import alternatives
from tests.app.conftest import PLAN_TIMEOUT_MS, wait_task
from tests.app.test_place_picker import SHOTS
from tests.app.test_main_window import PARIS, ROUTE66, plan
from tests.widgets.test_map_view import run_js, state

KINGMAN = (35.1894, -114.0530)


def anchors(version):
    return [(d.anchor.name, d.anchor.source) for d in version.itinerary.days]


def activity(version, activity_id):
    for di, day in enumerate(version.itinerary.days):
        for a in day.activities:
            if a.id == activity_id:
                return di, a
    return None


def visits(version, day_index):
    return [a.id for a in version.itinerary.days[day_index].activities if a.role == "activity"]


def wait_versions(qtbot, window, count):
    qtbot.waitUntil(lambda: len(window.trip.versions) == count and not window.controller.busy,
                    timeout=PLAN_TIMEOUT_MS)
    return window.trip.current


@pytest.fixture
def road_window(qtbot, make_window):
    window = make_window()
    plan(qtbot, window, ROUTE66)
    qtbot.waitUntil(lambda: state(qtbot, window.map_view)["markers"] > 0, timeout=10_000)
    return window


@pytest.fixture
def city_window(qtbot, make_window):
    window = make_window()
    plan(qtbot, window, PARIS)
    qtbot.waitUntil(lambda: state(qtbot, window.map_view)["markers"] > 0, timeout=10_000)
    return window


# -- road trips ---------------------------------------------------------------------------------
def test_dragged_anchor_snaps_to_a_route_town_and_becomes_a_forced_stop(qtbot, road_window):
    window, view = road_window, road_window.map_view
    before = window.trip.current
    assert anchors(before)[0] == ("Needles, CA", "route_town")
    # A drop a few miles off Kingman, through the page's own drag handler and the web channel.
    run_js(qtbot, view, """(() => { const m = tripwright.marker('d0-overnight');
        m.setLatLng([35.23, -114.10]); m.fire('dragend'); return 'null'; })()""")
    after = wait_versions(qtbot, window, 2)
    assert after.intent.stops == ["Kingman, AZ"]
    assert ("Kingman, AZ", "user") in anchors(after) and anchors(after) != anchors(before)
    assert window.intent_form.current_intent() == after.intent  # the next Plan keeps the forced stop
    assert window.last_change.startswith("Moved an overnight stop to Kingman, AZ: day")
    assert "cost" in window.last_change and "violations" in window.last_change
    # The map shows the new anchor where Kingman is.
    marker = next(m for m in view.document["markers"] if m["label"] == "Overnight in Kingman, AZ")
    qtbot.waitUntil(lambda: run_js(qtbot, view, f"JSON.stringify(!!tripwright.marker({marker['id']!r}))"),
                    timeout=5_000)
    where = run_js(qtbot, view, f"JSON.stringify(tripwright.marker({marker['id']!r}).getLatLng())")
    assert geodesic_miles((where["lat"], where["lng"]), KINGMAN) < 2


def test_second_drag_of_a_forced_stop_replaces_it(qtbot, road_window):
    window, bridge = road_window, road_window.map_view.bridge
    bridge.marker_dragged("d0-overnight", *KINGMAN)
    first = wait_versions(qtbot, window, 2)
    day = next(i for i, (name, _) in enumerate(anchors(first)) if name == "Kingman, AZ")
    bridge.marker_dragged(f"d{day}-overnight", 35.5281, -108.7426)  # Gallup, NM
    second = wait_versions(qtbot, window, 3)
    assert second.intent.stops == ["Gallup, NM"]


def stop_here(qtbot, window, lat, lon, kind_text):
    """Click the map, check the menu asks which kind of stop, and pick one."""
    window.map_view.bridge.map_clicked(lat, lon)
    menu = window.map_menu
    assert menu is not None
    texts = [a.text() for a in menu.actions()]
    assert texts[1:] == ["Stay overnight here", "Visit on the way (no night)"]
    next(a for a in menu.actions() if a.text() == kind_text).trigger()
    return texts[0]


def test_add_a_stop_here_asks_overnight_or_visit_and_an_overnight_is_a_night(qtbot, road_window):
    window = road_window
    window.map_view.bridge.map_clicked(35.20, -101.85)  # Amarillo
    menu = window.map_menu
    qtbot.waitExposed(menu)
    SHOTS.mkdir(parents=True, exist_ok=True)
    menu.grab().save(str(SHOTS / "add_stop_menu.png"))
    assert [a.text() for a in menu.actions()] == ["Add a stop here: Amarillo, TX", "Stay overnight here",
                                                  "Visit on the way (no night)"]
    menu.actions()[1].trigger()
    after = wait_versions(qtbot, window, 2)
    assert after.intent.stops == ["Amarillo, TX"] and after.intent.visits == []
    assert ("Amarillo, TX", "user") in anchors(after)
    assert window.last_change.startswith("Added an overnight stop in Amarillo, TX")


def test_add_a_stop_here_as_a_visit_keeps_the_nights_and_walks_the_town(qtbot, road_window):
    window = road_window
    before = window.trip.current
    assert "Amarillo, TX" not in [name for name, _ in anchors(before)]
    assert stop_here(qtbot, window, 35.20, -101.85, "Visit on the way (no night)") == "Add a stop here: Amarillo, TX"
    after = wait_versions(qtbot, window, 2)
    assert after.intent.visits == ["Amarillo, TX"] and after.intent.stops == []
    assert anchors(after) == anchors(before)  # no night moved
    walks = [(k, a) for k, d in enumerate(after.itinerary.days) for a in d.activities if a.name == "Walk in Amarillo"]
    assert len(walks) == 1
    day, walk = walks[0]
    assert geodesic_miles((walk.geo.lat, walk.geo.lon), (35.222, -101.831)) < 5
    # On the day whose drive passes it: Route 66 runs west to east, so between the day's start and night.
    west = before.itinerary.days[day - 1].anchor.geo.lon if day else -118.24
    assert west < -101.85 < before.itinerary.days[day].anchor.geo.lon
    assert window.last_change.startswith("Added a visit to Amarillo, TX")
    assert window.intent_form.current_intent() == after.intent  # the next Plan keeps the visit


def test_stops_are_kept_in_travel_order(qtbot, road_window):
    window = road_window
    stop_here(qtbot, window, 36.154, -95.993, "Stay overnight here")  # Tulsa first ...
    wait_versions(qtbot, window, 2)
    stop_here(qtbot, window, *KINGMAN, "Stay overnight here")  # ... then Kingman, which comes before it
    after = wait_versions(qtbot, window, 3)
    assert after.intent.stops == ["Kingman, AZ", "Tulsa, OK"]
    assert [name for name, source in anchors(after) if source == "user"] == ["Kingman, AZ", "Tulsa, OK"]


# LA → Chicago by Las Vegas, Denver and Omaha: nowhere near Route 66 east of Barstow.
NORTHERN = [(34.05, -118.24), (34.90, -117.02), (36.17, -115.14), (37.10, -113.58), (38.99, -110.16),
            (39.06, -108.55), (39.74, -104.99), (40.63, -103.21), (41.12, -100.77), (40.81, -96.70),
            (41.26, -95.94), (41.59, -93.62), (41.52, -90.58), (41.88, -87.63)]


def test_file_import_route_replans_the_road_trip_along_the_track(qtbot, road_window, tmp_path):
    import gpxpy.gpx
    from PySide6.QtWidgets import QFileDialog

    from engine.roadtrip.corridor import TrackCorridor
    doc, track, seg = gpxpy.gpx.GPX(), gpxpy.gpx.GPXTrack(), gpxpy.gpx.GPXTrackSegment()
    seg.points.extend(gpxpy.gpx.GPXTrackPoint(a, b) for a, b in NORTHERN)
    track.segments.append(seg)
    doc.tracks.append(track)
    path = tmp_path / "northern.gpx"
    path.write_text(doc.to_xml())
    window = road_window
    window.commands.import_route.trigger()
    dialog = window.import_dialog
    assert isinstance(dialog, QFileDialog) and dialog.isVisible()
    dialog.selectFile(str(path))
    dialog.accept()  # emits fileSelected: the re-plan runs as an asyncSlot
    after = wait_versions(qtbot, window, 2)
    assert after.intent.route is None and after.intent.route_track_name == "northern"
    corridor = TrackCorridor(NORTHERN)
    assert all(corridor.offset_miles(d.anchor.geo.lat, d.anchor.geo.lon) <= 50 for d in after.itinerary.days)
    assert after.edit == "Following the route northern"
    again = window.choose_route_file()  # the next import opens where this one was chosen
    assert os.path.samefile(again.directory().absolutePath(), tmp_path)
    again.close()


def test_lock_on_a_road_anchor_keeps_its_town(qtbot, road_window):
    window = road_window
    window.map_view.bridge.marker_action("d2-overnight", "lock")
    after = wait_versions(qtbot, window, 2)
    assert after.intent.stops == ["Santa Rosa, NM"]
    assert ("Santa Rosa, NM", "user") in anchors(after)


def test_a_refused_drag_puts_the_marker_back(qtbot, road_window):
    window, view = road_window, road_window.map_view
    before = window.trip.current
    # Needles is already day 1's stop: nothing to re-plan, the marker returns.
    run_js(qtbot, view, """(() => { const m = tripwright.marker('d0-overnight');
        m.setLatLng([34.90, -114.70]); m.fire('dragend'); return 'null'; })()""")
    qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("Day 1 already ends in Needles"),
                    timeout=5_000)
    assert window.trip.current is before
    qtbot.waitUntil(lambda: geodesic_miles(tuple(run_js(qtbot, view, "JSON.stringify(Object.values("
                                                        "tripwright.marker('d0-overnight').getLatLng()))")),
                                           (34.848, -114.6141)) < 0.5, timeout=5_000)


@pytest.mark.parametrize("action, verb", [("remove", "Removed"), ("replace", "Replaced")])
def test_remove_and_replace_a_road_stop_replan_without_it(qtbot, road_window, action, verb):
    """Issue 12 §4: right-click Remove/Replace on a stop along the way makes a new version that
    no longer visits it, and the day still has two activities."""
    window = road_window
    first = window.trip.current
    target = visits(first, 1)[0]
    ref = activity(first, target)[1].ref
    window.map_view.bridge.marker_action(target, action)
    after = wait_versions(qtbot, window, 2)
    assert after.intent.skip_stops == [ref] and after.edit.startswith(verb)
    refs = [a.ref for d in after.itinerary.days for a in d.activities if a.role == "activity"]
    assert ref not in refs and len(visits(after, 1)) >= 2


def _rest_from_menu(qtbot, view, marker: str, tmp_path) -> None:
    run_js(qtbot, view, "(() => { tripwright.marker('%s').fire('contextmenu', {containerPoint: "
                        "{x: 200, y: 200}}); return 'null'; })()" % marker)
    labels = run_js(qtbot, view, "JSON.stringify(Array.from(document.querySelectorAll('.tw-menu button'))"
                                 ".map(b => b.textContent))")
    assert "Rest a day here" in labels
    qtbot.wait(400)  # the menu painted before the shot
    view.grab().save(str(tmp_path / "rest-menu.png"))
    run_js(qtbot, view, "(() => { document.querySelector('.tw-menu button[data-action=rest]').click(); "
                        "return 'null'; })()")


def test_rest_a_day_on_a_road_anchor_rests_there_and_keeps_the_length(qtbot, make_window, tmp_path):
    """Issue 20 §3: right-click "Rest a day here" on a night: the next version rests a day there
    (no driving) and the trip keeps its length."""
    window = make_window()
    plan(qtbot, window, ROUTE66.model_copy(update={"days": 9}))
    qtbot.waitUntil(lambda: state(qtbot, window.map_view)["markers"] > 0, timeout=10_000)
    first = window.trip.current
    town = first.itinerary.days[1].anchor
    _rest_from_menu(qtbot, window.map_view, "d1-overnight", tmp_path)
    after = wait_versions(qtbot, window, 2)
    assert after.intent.rest_days == [f"{town.name.split(',')[0]}, {town.admin1}"]
    assert len(after.itinerary.days) == 9 and after.edit.startswith("Rest day in")
    rest = [d for d in after.itinerary.days if d.exemption == "rest"]
    assert len(rest) == 1 and rest[0].drive.miles == 0 and rest[0].anchor.name.startswith(town.name.split(",")[0])


def _menu_labels(qtbot, view, marker: str) -> list[str]:
    run_js(qtbot, view, "(() => { tripwright.marker('%s').fire('contextmenu', {containerPoint: "
                        "{x: 200, y: 200}}); return 'null'; })()" % marker)
    return run_js(qtbot, view, "JSON.stringify(Array.from(document.querySelectorAll('.tw-menu button'))"
                               ".map(b => b.textContent))")


def test_a_rest_day_the_days_cannot_spare_is_not_offered(qtbot, road_window):
    """7 days for 2,200 miles: a rest town mid-route splits the drive into legs that need 7 driving
    days, which the re-plan refuses ("need at least 7 day(s)"), so the menu does not offer it there
    (issue 32 §3: offer only what will be done); at the first night the legs still fit."""
    window = road_window
    assert "Rest a day here" not in _menu_labels(qtbot, window.map_view, "d1-overnight")
    assert "Rest a day here" in _menu_labels(qtbot, window.map_view, "d0-overnight")
    assert len(window.trip.versions) == 1


def test_remove_on_a_road_anchor_says_what_to_do_instead(qtbot, road_window):
    window = road_window
    window.map_view.bridge.marker_action("d2-overnight", "remove")
    qtbot.wait(200)
    assert len(window.trip.versions) == 1 and not window.controller.busy


def test_a_drag_beyond_the_daily_cap_says_why(qtbot, road_window):
    """Issue 12 §4: day 1's night dragged to Joliet cannot be day 1's (2,000 miles in a day): the
    stop is kept on the day the cap allows, and the message says why."""
    window, view = road_window, road_window.map_view
    run_js(qtbot, view, """(() => { const m = tripwright.marker('d0-overnight');
        m.setLatLng([41.525, -88.081]); m.fire('dragend'); return 'null'; })()""")
    after = wait_versions(qtbot, window, 2)
    qtbot.waitUntil(lambda: "daily cap" in window.statusBar().currentMessage(), timeout=5_000)
    message = window.statusBar().currentMessage()
    assert "not day 1's" in message and "Joliet" in message
    assert after.itinerary.days[0].anchor.name != "Joliet, IL"


# -- city trips ---------------------------------------------------------------------------------
def test_lock_and_remove_on_city_activities_make_new_versions(qtbot, city_window):
    window = city_window
    first = window.trip.current
    target, other = visits(first, 1)[:2]
    window.map_view.bridge.marker_action(target, "lock")
    locked = wait_versions(qtbot, window, 2)
    assert activity(locked, target)[1].locked
    assert locked.edit.startswith("Locked ")
    marker = next(m for m in window.map_view.document["markers"] if m["id"] == target)
    assert marker["locked"] and marker["actions"] == ["unlock"]
    window.map_view.bridge.marker_action(other, "remove")
    removed = wait_versions(qtbot, window, 3)
    assert activity(removed, other) is None and activity(removed, target)[1].locked  # the lock is kept
    assert "day 2 changed" in window.last_change
    assert window.windowTitle().endswith("v3/3")


def test_move_to_another_day(qtbot, city_window):
    window = city_window
    target = visits(window.trip.current, 3)[0]
    window.map_view.bridge.marker_action(target, "move:1")
    moved = wait_versions(qtbot, window, 2)
    assert activity(moved, target)[0] == 1
    assert moved.edit.endswith("to day 2")


def test_replace_offers_alternatives_in_a_non_modal_chooser(qtbot, city_window):
    window = city_window
    current = window.trip.current
    target = next(a for d in range(len(current.itinerary.days)) for a in visits(current, d)
                  if alternatives(current.plan, a))
    window.map_view.bridge.marker_action(target, "replace")
    qtbot.waitUntil(lambda: window.replace_chooser is not None and window.replace_chooser.isVisible(), timeout=5_000)
    chooser = window.replace_chooser
    assert not chooser.isModal() and chooser.list.count() >= 1
    assert "cost" in chooser.list.item(0).text()
    venue = chooser.list.item(0).data(0x0100)
    chooser.choose(0)
    replaced = wait_versions(qtbot, window, 2)
    assert activity(replaced, target) is None
    assert any(a.ref == venue for d in replaced.itinerary.days for a in d.activities)
    assert replaced.edit.startswith("Replaced ")


def test_undo_and_redo_move_between_versions_and_redraw(qtbot, city_window):
    window, view = city_window, city_window.map_view
    target = visits(window.trip.current, 1)[0]
    window.map_view.bridge.marker_action(target, "remove")
    wait_versions(qtbot, window, 2)
    qtbot.waitUntil(lambda: target not in [m["id"] for m in view.document["markers"]], timeout=5_000)
    assert window.commands.undo.isEnabled() and not window.commands.redo.isEnabled()
    window.commands.undo.trigger()
    assert window.trip.pointer == 0 and window.windowTitle().endswith("v1/2")
    assert target in [m["id"] for m in view.document["markers"]]
    qtbot.waitUntil(lambda: run_js(qtbot, view, f"JSON.stringify(!!tripwright.marker({target!r}))"), timeout=5_000)
    assert window.itinerary_panel.itinerary() is window.trip.current.itinerary
    assert window.progress.status_label.text().startswith("Replay")
    window.commands.redo.trigger()
    assert window.trip.pointer == 1 and target not in [m["id"] for m in view.document["markers"]]
    window.commands.undo.trigger()
    # A new edit after an undo drops the undone version.
    window.map_view.bridge.marker_action(target, "lock")
    qtbot.waitUntil(lambda: window.trip.current.edit.startswith("Locked") and not window.controller.busy,
                    timeout=PLAN_TIMEOUT_MS)
    assert len(window.trip.versions) == 2 and not window.commands.redo.isEnabled()


# -- cancel -------------------------------------------------------------------------------------
def test_cancel_mid_run_takes_effect_within_200_ms(qtbot, city_window):
    window = city_window
    release = threading.Event()

    def stuck(plan, facts):  # the engine is busy inside a node: it cannot see the token yet
        release.wait(20)
        return plan

    try:
        task = asyncio.ensure_future(window.controller.run(PARIS, edits=[stuck], description="Planned"))
        qtbot.waitUntil(lambda: window.controller.busy, timeout=5_000)
        qtbot.waitUntil(lambda: any(e.node == "selector" and e.status is EventStatus.completed
                                    for e in window.controller.run_events), timeout=10_000)
        assert window.commands.cancel.isEnabled() and window.progress.cancel_button.isEnabled()
        started = time.perf_counter()
        window.commands.cancel.trigger()  # Esc
        qtbot.waitUntil(lambda: task.done() and window.progress.status_label.text() == "Cancelled", timeout=2_000)
        elapsed_ms = (time.perf_counter() - started) * 1000
    finally:
        release.set()
    assert elapsed_ms < 200, elapsed_ms
    assert task.result() is None and len(window.trip.versions) == 1
    assert window.message_bar.text() == "Planning cancelled; the trip is unchanged."
    assert not window.commands.cancel.isEnabled()
    events = window.controller.run_events
    assert events[-1].status is EventStatus.cancelled
    assert not [e for e in events if e.node in ("verifier", "repair", "synthesizer")]


def test_cancel_button_of_the_progress_panel(qtbot, city_window):
    window = city_window
    release = threading.Event()

    def stuck(plan, facts):
        release.wait(20)
        return plan

    try:
        task = asyncio.ensure_future(window.controller.run(PARIS, edits=[stuck], description="x"))
        qtbot.waitUntil(lambda: window.controller.busy and bool(window.controller.run_events), timeout=10_000)
        window.progress.cancel_button.click()
        qtbot.waitUntil(task.done, timeout=1_000)
    finally:
        release.set()
    assert window.progress.status_label.text() == "Cancelled"
    assert wait_task(qtbot, task) is None
