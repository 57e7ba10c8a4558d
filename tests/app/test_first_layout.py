"""Issue 22 §2.12 and §2.5: the first launch leaves the map its room — the legend starts collapsed
on a small window, the run table stays out of the way until a run — and the window comes back at
the size and with the dock sizes the traveller left it (the app's windows; tests' do not share)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app import ui_state
from tests.app.test_main_window import PARIS, plan
from tests.widgets.test_map_view import state


@pytest.fixture
def fresh_state(tmp_path, monkeypatch):
    path = tmp_path / "ui_state.json"
    monkeypatch.setattr(ui_state, "_path", lambda: path)
    return path


def _legend_collapsed(qtbot, window) -> bool:
    qtbot.waitUntil(lambda: "legend_collapsed" in (state(qtbot, window.map_view) or {}), timeout=5_000)
    qtbot.wait(100)
    return state(qtbot, window.map_view)["legend_collapsed"]


def test_a_small_first_window_starts_with_the_legend_collapsed(qtbot, make_window, fresh_state, tmp_path):
    window = make_window(size=(1400, 900))  # the legend (284 px) would cover a third of the map
    assert window.map_view.width() < 900
    assert _legend_collapsed(qtbot, window) is True
    window.grab().save(str(tmp_path / "small-first-launch.png"))


def test_a_roomy_first_window_shows_the_legend(qtbot, make_window, fresh_state):
    window = make_window(size=(1600, 1000))
    assert _legend_collapsed(qtbot, window) is False


def test_the_run_table_stays_out_of_the_way_until_a_run(qtbot, make_window, fresh_state, tmp_path):
    window = make_window(size=(1400, 900))
    assert not window.bottom_dock.isVisible()
    map_height = window.map_view.height()
    assert map_height > 0.75 * window.height()
    window.grab().save(str(tmp_path / "first-launch.png"))
    plan(qtbot, window, PARIS)
    assert window.bottom_dock.isVisible() and window.bottom_tabs.currentWidget() is window.progress


def test_the_window_comes_back_as_it_was_left(qtbot, make_window, fresh_state):
    first = make_window(size=(1500, 950), remember_layout=True)
    first.resizeDocks([first.itinerary_dock], [620], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: abs(first.itinerary_dock.width() - 620) <= 10, timeout=2_000)
    first.resize(1450, 930)
    qtbot.waitUntil(lambda: first.width() == 1450, timeout=2_000)
    width = first.itinerary_dock.width()
    first.close()
    second = make_window(size=(1000, 700), remember_layout=True)
    qtbot.waitUntil(lambda: second.width() == 1450 and second.height() == 930, timeout=3_000)
    qtbot.waitUntil(lambda: abs(second.itinerary_dock.width() - width) <= 10, timeout=3_000)
    # Windows that do not ask (tests, the screenshot tool) keep the default layout.
    third = make_window(size=(1000, 700))
    assert third.width() == 1000
