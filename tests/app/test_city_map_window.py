"""Issue 32 §4 through the real window: a city typed in the form is fetched (places and its own
map, from the Overpass stand-in's approximate Lisbon data) and planned, and the window's map shows
the Tagus, the park and the named streets with the network off."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtGui import QColor

from tests.app.test_city_packs_app import LISBON, home, serve, session, shot, wait_planned  # noqa: F401 (fixtures)
from tests.overpass_standin import load_lisbon
from tests.widgets.test_map_view import run_js

LISBON_MAP = Path(__file__).parents[1] / "data" / "osm" / "lisbon_map.json"
WATER, PARK = QColor("#a9cde3"), QColor("#cfe5bf")


def _near(colour: QColor, expected: QColor) -> bool:
    return max(abs(colour.red() - expected.red()), abs(colour.green() - expected.green()),
               abs(colour.blue() - expected.blue())) <= 6


def test_a_fetched_city_is_planned_and_its_own_map_drawn_in_the_window(qtbot, make_window, session, home,  # noqa: F811
                                                                       monkeypatch, tmp_path):
    server = serve(monkeypatch, load_lisbon() + json.loads(LISBON_MAP.read_text(encoding="utf-8")))
    try:
        window = make_window(session=session)
        window.use_prompt(LISBON)
        window.plan_from_form()
        wait_planned(qtbot, window)
    finally:
        server.stop()
    view = window.map_view
    qtbot.waitUntil(lambda: run_js(qtbot, view, "window.tripwright.cityMap()") > 0, timeout=10_000)
    assert {s["name"] for s in view.city_map_document["streets"]} >= {"Avenida da Liberdade"}
    run_js(qtbot, view, "JSON.stringify(map.setView([38.7150, -9.1450], 14, {animate: false}) && 1)")
    qtbot.wait(400)
    shot(window, tmp_path, "window_lisbon_city_map")

    def colour(lat: float, lon: float) -> QColor:
        point = run_js(qtbot, view, f"JSON.stringify(map.latLngToContainerPoint([{lat}, {lon}]))")
        return view.grab().toImage().pixelColor(round(point["x"]), round(point["y"]))
    assert _near(colour(38.6990, -9.1450), WATER) and _near(colour(38.7300, -9.1530), PARK)
