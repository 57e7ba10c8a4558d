"""Issue 14 §1: the legend opens on the first launch, starts collapsed after it, and keeps what
the user last chose (the window's state file, fresh for the test)."""

from __future__ import annotations

import json

from app import ui_state
from tests.widgets.test_map_view import run_js, state


def _launch(qtbot, make_window) -> tuple[object, dict]:
    window = make_window(use_store=False, size=(1600, 1000))  # room for the legend beside the trip
    # The warm-up the ready map starts must end within the test (the fixture joins its thread).
    qtbot.waitUntil(lambda: window.controller._service is not None  # noqa: SLF001
                    and not window.controller._service.running, timeout=120_000)  # noqa: SLF001
    qtbot.waitUntil(lambda: "legend_collapsed" in (state(qtbot, window.map_view) or {}), timeout=5_000)
    return window, state(qtbot, window.map_view)


def test_legend_state_persists_across_launches(qtbot, make_window, tmp_path, monkeypatch):
    # A fresh state file, not a fresh data dir (that would rebuild the gazetteer index).
    monkeypatch.setattr(ui_state, "_path", lambda: tmp_path / "ui_state.json")
    first, shown = _launch(qtbot, make_window)
    assert shown["legend_collapsed"] is False  # the first launch shows what the marks mean
    second, shown = _launch(qtbot, make_window)
    assert shown["legend_collapsed"] is True
    with qtbot.waitSignal(second.map_view.legend_toggled, timeout=5_000):
        run_js(qtbot, second.map_view, "(document.querySelector('.tw-legend-toggle').click(), JSON.stringify(1))")
    assert json.loads((tmp_path / "ui_state.json").read_text())["legend_collapsed"] is False
    third, shown = _launch(qtbot, make_window)
    assert shown["legend_collapsed"] is False  # the user opened it: it stays open
