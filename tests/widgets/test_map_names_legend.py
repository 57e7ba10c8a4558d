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
