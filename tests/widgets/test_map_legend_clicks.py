"""Issue 22 §2.1: a click on the legend's "Hide ▾" / "Legend ▸" is the legend's, never the map's
(it used to offer "Add a stop here" for the place under the button)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from tests.widgets.test_map_layers import road_trip
from tests.widgets.test_map_view import make_view, run_js, state, until_painted  # noqa: F401 (fixture)


def _toggle_centre(qtbot, view) -> QPoint:
    box = run_js(qtbot, view, """JSON.stringify((() => {
        const r = document.querySelector('.tw-legend-toggle').getBoundingClientRect();
        return {x: r.left + r.width / 2, y: r.top + r.height / 2, text: document.querySelector('.tw-legend-toggle').textContent};
    })())""")
    return QPoint(round(box["x"]), round(box["y"])), box["text"]


def _real_click(qtbot, view, point: QPoint) -> None:
    target = view.focusProxy()
    QTest.mouseMove(target, point)
    QTest.mouseClick(target, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)


def test_clicks_on_the_legend_toggle_never_reach_the_map(qtbot, make_view, tmp_path):
    view = make_view(road_trip())
    clicks = []
    view.map_clicked.connect(lambda *a: clicks.append(a))
    for expected_text, collapsed_after in (("Hide ▾", True), ("Legend ▸", False)):
        point, text = _toggle_centre(qtbot, view)
        assert text == expected_text
        with qtbot.waitSignal(view.legend_toggled, timeout=5_000) as toggled:
            _real_click(qtbot, view, point)
        assert toggled.args == [collapsed_after]
        qtbot.wait(400)  # a click the map saw would have reached Python by now
        assert clicks == []
        until_painted(qtbot, view, str(tmp_path / f"legend-{'collapsed' if collapsed_after else 'open'}.png"))
    # The map itself still hears a click on open land.
    with qtbot.waitSignal(view.map_clicked, timeout=5_000):
        _real_click(qtbot, view, QPoint(300, 120))
    assert state(qtbot, view)["legend_collapsed"] is False


def _centre_of(qtbot, view, selector: str) -> QPoint:
    box = run_js(qtbot, view, f"""JSON.stringify((() => {{
        const r = document.querySelector({selector!r}).getBoundingClientRect();
        return {{x: r.left + r.width / 2, y: r.top + r.height / 2}};
    }})())""")
    return QPoint(round(box["x"]), round(box["y"]))


def test_clicks_on_the_scale_bar_and_the_credits_never_reach_the_map(qtbot, make_view):
    """Every control on the map keeps its clicks (issue 22 §1: the scale bar offered "Add a stop here")."""
    view = make_view(road_trip())
    clicks = []
    view.map_clicked.connect(lambda *a: clicks.append(a))
    for selector in (".leaflet-control-scale-line", ".leaflet-control-attribution"):
        _real_click(qtbot, view, _centre_of(qtbot, view, selector))
        qtbot.wait(400)  # a click the map saw would have reached Python by now
        assert clicks == [], selector
