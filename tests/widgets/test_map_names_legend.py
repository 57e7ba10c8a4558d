"""Issue 14 §1: the trip's place names beside their markers at street zoom; the legend's state is
the user's (a real QWebEngineView offscreen, driven through its page)."""

from __future__ import annotations

import json

from tests.widgets.test_map_view import city, make_view, run_js, state  # noqa: F401 (fixtures)


def _zoom(qtbot, view, level: float) -> dict:
    run_js(qtbot, view, f"(window.map.setZoom({level}, {{animate: false}}), JSON.stringify(true))")
    qtbot.waitUntil(lambda: state(qtbot, view)["zoom"] == level, timeout=5_000)
    return state(qtbot, view)


def test_place_names_show_at_street_zoom_only(qtbot, make_view, city):
    view = make_view(city)
    qtbot.waitUntil(lambda: state(qtbot, view)["markers"] > 0, timeout=10_000)
    markers = state(qtbot, view)["markers"]
    assert _zoom(qtbot, view, 11)["names"] == 0
    assert _zoom(qtbot, view, 15)["names"] == markers
    texts = json.loads(run_js(qtbot, view, "JSON.stringify(JSON.stringify("
                                          "Array.from(document.querySelectorAll('.tw-name-text'))"
                                          ".map(function (e) { return e.textContent; })))"))
    labels = {m["label"] for m in view.document["markers"]}
    assert texts and set(texts) <= labels


def test_the_legend_toggle_reaches_python_and_can_be_set(qtbot, make_view, city):
    view = make_view(city)
    assert state(qtbot, view)["legend_collapsed"] is False
    with qtbot.waitSignal(view.legend_toggled, timeout=5_000) as toggled:
        run_js(qtbot, view, "(document.querySelector('.tw-legend-toggle').click(), JSON.stringify(true))")
    assert toggled.args == [True] and state(qtbot, view)["legend_collapsed"] is True
    view.set_legend_collapsed(False)
    qtbot.waitUntil(lambda: state(qtbot, view)["legend_collapsed"] is False, timeout=5_000)
    assert state(qtbot, view)["legend_rows"] > 0


def test_print_mode_hides_the_controls_and_frames_the_city(qtbot, make_view, city):
    view = make_view(city)
    qtbot.waitUntil(lambda: state(qtbot, view)["markers"] > 0, timeout=10_000)
    shown = run_js(qtbot, view, "window.tripwright.printMode(true)")
    hidden = run_js(qtbot, view, "JSON.stringify(['.leaflet-control-zoom', '.tw-legend'].map(function (s) {"
                                 " return getComputedStyle(document.querySelector(s)).display; }))")
    assert shown["print"] is True and hidden == ["none", "none"]
    stops = [m["id"] for m in view.document["markers"] if m["kind"] != "flight"]
    inside = run_js(qtbot, view, f"JSON.stringify({json.dumps(stops)}.map(function (id) {{"
                                 " return window.map.getBounds().contains(window.tripwright.marker(id).getLatLng()); }))")
    assert stops and all(inside)  # every stop but the far-off airport is in the printed frame
    assert shown["zoom"] >= 12  # a city's zoom, not the whole region's
    assert run_js(qtbot, view, "window.tripwright.printMode(false)")["print"] is False
