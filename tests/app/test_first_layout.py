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
    first.itinerary_dock.raise_()  # a new window starts on the Trip form (issue 32 §6), its tab beside this one
    first.resizeDocks([first.itinerary_dock], [620], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: abs(first.itinerary_dock.width() - 620) <= 10, timeout=2_000)
    first.resize(1450, 930)
    qtbot.waitUntil(lambda: first.width() == 1450, timeout=2_000)
    width = first.itinerary_dock.width()
    _drag_split(qtbot, first.itinerary_panel, 0.45)  # the tree over the details, dragged by the user
    split = first.itinerary_panel.split_fraction
    assert split is not None and abs(split - 0.45) < 0.08
    first.close()
    second = make_window(size=(1000, 700), remember_layout=True)
    qtbot.waitUntil(lambda: second.width() == 1450 and second.height() == 930, timeout=3_000)
    qtbot.waitUntil(lambda: abs(second.itinerary_dock.width() - width) <= 10, timeout=3_000)
    assert second.itinerary_panel.split_fraction == split
    plan(qtbot, second, PARIS)  # a new plan keeps the user's split
    sizes = second.itinerary_panel.splitter.sizes()
    assert abs(sizes[0] / sum(sizes) - split) < 0.05
    # Windows that do not ask (tests, the screenshot tool) keep the default layout.
    third = make_window(size=(1000, 700))
    assert third.width() == 1000


def _drag_split(qtbot, panel, fraction: float) -> None:
    """Drag the itinerary panel's splitter handle with the mouse to ``fraction`` of its height."""
    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest

    splitter = panel.splitter
    assert splitter.orientation() == Qt.Orientation.Vertical
    handle = splitter.handle(1)
    start = QPoint(handle.width() // 2, handle.height() // 2)
    target_y = int(splitter.height() * fraction) - handle.mapTo(splitter, start).y()
    QTest.mousePress(handle, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(handle, start + QPoint(0, target_y // 2))
    QTest.mouseMove(handle, start + QPoint(0, target_y))
    QTest.mouseRelease(handle, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start + QPoint(0, target_y))
    qtbot.wait(50)
