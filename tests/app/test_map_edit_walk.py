"""Issue 22 §2.7: every visit of a city trip can be replaced by another of the city's venues of its
kind (not only the planner's few runners-up), and a city marker's tooltip says how it can be edited."""

from __future__ import annotations

from app.map_edits import alternatives
from tests.app.conftest import wait_task
from tests.app.test_main_window import PARIS, plan
from tests.widgets.test_map_view import run_js


def _activities(itinerary, role):
    return [a for d in itinerary.days for a in d.activities if a.role == role]


def test_every_visit_and_meal_offers_alternatives_and_one_can_be_chosen(qtbot, make_window, tmp_path):
    window = make_window()
    version = plan(qtbot, window, PARIS)
    facts = window.planning.last_facts
    in_plan = {a.ref for d in version.itinerary.days for a in d.activities}
    for activity in _activities(version.itinerary, "activity") + _activities(version.itinerary, "meal"):
        options = alternatives(version.plan, activity.id, facts)
        assert len(options) >= 3, activity.name
        assert not {o.venue_id for o in options} & in_plan
        meal = activity.role == "meal"
        assert all((facts.venue(o.venue_id).provenance.tool == "dining") == meal for o in options)
    chapel = next(a for a in _activities(version.itinerary, "activity") if a.ref == "sainte_chapelle")
    window.map_view.bridge.marker_action(chapel.id, "replace")
    qtbot.waitUntil(lambda: window.replace_chooser is not None and window.replace_chooser.isVisible(), timeout=5_000)
    chooser = window.replace_chooser
    assert chooser.list.count() >= 3
    chooser.grab().save(str(tmp_path / "replace.png"))
    venue = chooser.list.item(chooser.list.count() - 1).data(0x0100)
    chooser.choose(chooser.list.count() - 1)
    qtbot.waitUntil(lambda: window.trip.current is not version, timeout=60_000)
    refs = {a.ref for d in window.trip.current.itinerary.days for a in d.activities}
    assert venue in refs and "sainte_chapelle" not in refs


def test_a_city_marker_says_how_it_can_be_edited(qtbot, make_window, tmp_path):
    window = make_window()
    version = plan(qtbot, window, PARIS)
    visit = _activities(version.itinerary, "activity")[0]
    tip = run_js(qtbot, window.map_view, f"JSON.stringify(tripwright.marker('{visit.id}').getTooltip()"
                                         ".getContent().textContent)")
    assert "right-click" in tip.lower() and "move to another day" in tip.lower()
    run_js(qtbot, window.map_view, f"(tripwright.marker('{visit.id}').openTooltip(), 'null')")
    qtbot.wait(300)
    window.map_view.grab().save(str(tmp_path / "tooltip.png"))


def test_a_refused_edit_keeps_the_zoom(qtbot, make_window):
    from tests.app.test_main_window import ROUTE66
    window = make_window()
    version = plan(qtbot, window, ROUTE66)
    night = version.itinerary.days[1].anchor
    run_js(qtbot, window.map_view, f"(map.setView([{night.geo.lat}, {night.geo.lon}], 11, {{animate: false}}), 'null')")
    qtbot.waitUntil(lambda: run_js(qtbot, window.map_view, "JSON.stringify(map.getZoom())") == 11, timeout=3_000)
    drawn = window.map_view.revision
    # Dropping day 2's night where it already is: refused with a message, the marker redrawn.
    window.controller.anchor_dragged("d1-overnight", night.geo.lat, night.geo.lon)
    qtbot.waitUntil(lambda: window.map_view.revision > drawn and "already ends in" in window.message_bar.text(),
                    timeout=10_000)
    qtbot.wait(300)
    assert run_js(qtbot, window.map_view, "JSON.stringify(map.getZoom())") == 11


def _day_of(itinerary, ref):
    return [i for i, d in enumerate(itinerary.days) for a in d.activities if a.ref == ref]


def test_move_to_a_full_day_trades_places_with_one_of_its_stops(qtbot, make_window):
    """Day 2 has no free two hours: Musée Carnavalet moved there trades places with a stop of day 2."""
    window = make_window()
    version = plan(qtbot, window, PARIS)
    museum = next(a for a in _activities(version.itinerary, "activity") if a.ref == "musee_carnavalet")
    assert _day_of(version.itinerary, museum.ref) == [0]
    moved = wait_task(qtbot, window.controller.marker_action(museum.id, "move:1"))
    assert moved is not None, window.message_bar.text()
    assert _day_of(moved.itinerary, museum.ref) == [1]
    assert moved.edit == f"Moved {museum.name} to day 2"
    before = {a.ref for a in version.itinerary.days[1].activities if a.role == "activity"}
    assert any(_day_of(moved.itinerary, ref) == [0] for ref in before)  # the one it traded with


def test_a_move_lands_where_asked_and_keeps_the_zoom(qtbot, make_window, tmp_path):
    """Sainte-Chapelle to day 3 (a full day) now stays on day 3, checked; the map keeps the
    traveller's zoom through the edit's redraw."""
    window = make_window()
    version = plan(qtbot, window, PARIS)
    chapel = next(a for a in _activities(version.itinerary, "activity") if a.ref == "sainte_chapelle")
    run_js(qtbot, window.map_view, f"(map.setView([{chapel.geo.lat}, {chapel.geo.lon}], 16, {{animate: false}}), 'null')")
    qtbot.waitUntil(lambda: run_js(qtbot, window.map_view, "JSON.stringify(map.getZoom())") == 16, timeout=3_000)
    moved = wait_task(qtbot, window.controller.marker_action(chapel.id, "move:2"))
    assert moved is not None and _day_of(moved.itinerary, chapel.ref) == [2], window.message_bar.text()
    assert not [v for v in moved.itinerary.violations if v.blocking]
    qtbot.wait(300)
    assert run_js(qtbot, window.map_view, "JSON.stringify(map.getZoom())") == 16
    window.grab().save(str(tmp_path / "moved-zoom-kept.png"))


def test_a_move_the_day_cannot_hold_is_refused_with_the_reason(qtbot, make_window, tmp_path):
    """The Louvre to day 1, a Tuesday (closed): said in the traveller's words, the plan unchanged."""
    window = make_window()
    version = plan(qtbot, window, PARIS)
    louvre = next(a for a in _activities(version.itinerary, "activity") if a.ref == "louvre")
    versions = len(window.trip.versions)
    moved = wait_task(qtbot, window.controller.marker_action(louvre.id, "move:0"))
    assert moved is None and window.trip.current is version and len(window.trip.versions) == versions
    text = window.message_bar.text()
    assert "closed on Tue 15 Jun" in text and "day_index" not in text, text
    assert "day_index" not in window.progress.status_label.text()  # the Progress tab too
    window.grab().save(str(tmp_path / "move-refused.png"))


def test_removing_a_visit_fills_its_time_with_another_place(qtbot, make_window, tmp_path):
    """The Louvre's four hours on day 2, removed on the map: the re-plan puts another sight (and the
    lunch the Louvre took the time of) there, never the Louvre; Re-plan then finds nothing to do."""
    window = make_window()
    version = plan(qtbot, window, PARIS)
    louvre = next(a for a in _activities(version.itinerary, "activity") if a.ref == "louvre")
    before = {a.ref for d in version.itinerary.days for a in d.activities}
    removed = wait_task(qtbot, window.controller.marker_action(louvre.id, "remove"))
    assert removed is not None, window.message_bar.text()
    day = removed.itinerary.days[_day_of(version.itinerary, "louvre")[0]]
    added = [a for a in day.activities if a.role in ("activity", "meal") and a.ref not in before]
    assert any(a.role == "activity" for a in added), [a.name for a in day.activities]
    assert "louvre" not in {a.ref for d in removed.itinerary.days for a in d.activities}
    assert not [v for v in removed.itinerary.violations if v.blocking]
    qtbot.wait(300)
    window.grab().save(str(tmp_path / "removal-filled.png"))
    versions = len(window.trip.versions)
    again = wait_task(qtbot, window.controller.replan())
    assert again is removed and len(window.trip.versions) == versions
    assert "louvre" not in {a.ref for d in again.itinerary.days for a in d.activities}
