"""Issue 32 §4, on the one renderer (resources/trip_map.js) in a real QWebEngineView offscreen:
"Fit trip" and "Show one day" on the map, a legend that says "Legend" once and, opened, covers
no third of the map; and the HTML export draws the same controls and legend from the same document."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from engine.export import itinerary_to_html
from tests.widgets.test_html_export import open_page  # noqa: F401 (fixture)
from tests.widgets.test_map_layers import city_trip, road_trip
from tests.widgets.test_map_view import make_view, run_js, state, until_painted  # noqa: F401 (fixtures)

VISIBLE = """JSON.stringify((function () {
  var shown = {};
  document.querySelectorAll('.leaflet-marker-icon.tw-icon').forEach(function (e) { shown[e.textContent] = 1; });
  return {pins: document.querySelectorAll('.leaflet-marker-icon.tw-icon').length,
          lines: document.querySelectorAll('path.tw-day-line').length,
          picker: document.querySelector('.tw-day-picker').value,
          options: Array.from(document.querySelectorAll('.tw-day-picker option')).map(function (o) { return o.textContent; })};
})())"""


def _choose_day(qtbot, view, value: str) -> dict:
    """Pick ``value`` in the "Show one day" list as a reader's choice arrives: a change event."""
    run_js(qtbot, view, "(function () { var s = document.querySelector('.tw-day-picker'); s.value = %r;"
                        " s.dispatchEvent(new Event('change')); return JSON.stringify(true); })()" % value)
    return run_js(qtbot, view, VISIBLE)


def _centre(qtbot, view, selector: str) -> QPoint:
    box = run_js(qtbot, view, "JSON.stringify(document.querySelector(%r).getBoundingClientRect())" % selector)
    return QPoint(round(box["x"] + box["width"] / 2), round(box["y"] + box["height"] / 2))


def _click(view, point: QPoint) -> None:
    target = view.focusProxy()
    QTest.mouseMove(target, point)
    QTest.mouseClick(target, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)


def test_show_one_day_then_fit_the_trip_in_the_app(qtbot, make_view, tmp_path):  # noqa: F811
    itin = city_trip()
    view = make_view(itin, size=(1200, 800))
    qtbot.waitUntil(lambda: state(qtbot, view)["markers"] > 0, timeout=10_000)
    every = run_js(qtbot, view, VISIBLE)
    fitted = state(qtbot, view)["zoom"]
    day2 = [m for m in view.document["markers"] if m["day"] == 1]

    one = _choose_day(qtbot, view, "1")
    until_painted(qtbot, view, str(tmp_path / "one-day.png"))
    assert every["options"] == ["All days"] + [f"Day {n}" for n in range(1, len(itin.days) + 1)]
    assert every["pins"] == len(view.document["markers"]) and one["pins"] == len(day2) > 0
    assert one["lines"] == 1 and state(qtbot, view)["shown_day"] == 1
    inside = run_js(qtbot, view, "JSON.stringify(%s.map(function (id) { return window.map.getBounds()"
                                 ".contains(window.tripwright.marker(id).getLatLng()); }))" % [m["id"] for m in day2])
    assert all(inside)

    back = _choose_day(qtbot, view, "")
    assert back["pins"] == every["pins"] and back["lines"] == every["lines"] and state(qtbot, view)["shown_day"] is None
    clicks = []
    view.map_clicked.connect(lambda *a: clicks.append(a))
    _click(view, _centre(qtbot, view, ".tw-legend-day:nth-child(3)"))  # a real click on day 3's legend row
    qtbot.waitUntil(lambda: state(qtbot, view)["shown_day"] == 2, timeout=5_000)
    assert run_js(qtbot, view, VISIBLE)["picker"] == "2"
    _click(view, _centre(qtbot, view, ".tw-legend-day:nth-child(3)"))  # again: every day
    qtbot.waitUntil(lambda: state(qtbot, view)["shown_day"] is None, timeout=5_000)
    run_js(qtbot, view, "(window.map.setZoom(5, {animate: false}), JSON.stringify(true))")
    _click(view, _centre(qtbot, view, ".tw-fit"))  # a real click on "Fit trip"
    qtbot.waitUntil(lambda: state(qtbot, view)["zoom"] == fitted, timeout=5_000)
    qtbot.wait(300)
    assert clicks == []  # the controls' clicks are not "Add a stop here"


def test_the_legend_says_legend_once_and_covers_no_third_of_a_small_map(qtbot, make_view, tmp_path):  # noqa: F811
    view = make_view(road_trip(), size=(1024, 700))
    qtbot.waitUntil(lambda: state(qtbot, view)["markers"] > 0, timeout=10_000)
    size = run_js(qtbot, view, "JSON.stringify(window.map.getSize())")
    box = run_js(qtbot, view, "JSON.stringify(document.querySelector('.tw-legend').getBoundingClientRect())")
    until_painted(qtbot, view, str(tmp_path / "legend-open.png"))
    assert box["width"] * box["height"] < size["x"] * size["y"] / 3 and box["height"] <= size["y"] / 2
    view.set_legend_collapsed(True)
    qtbot.waitUntil(lambda: state(qtbot, view)["legend_collapsed"], timeout=5_000)
    text = run_js(qtbot, view, "JSON.stringify(document.querySelector('.tw-legend').textContent)")
    assert text.count("Legend") == 1 and state(qtbot, view)["legend_rows"] == 0


def test_the_legend_shows_the_rings_the_days_and_the_marks_of_the_document(qtbot, make_view):  # noqa: F811
    view = make_view(city_trip())
    qtbot.waitUntil(lambda: state(qtbot, view)["markers"] > 0, timeout=10_000)
    legend = view.document["legend"]
    shown = run_js(qtbot, view, """JSON.stringify(Array.from(document.querySelectorAll('.tw-legend-row'))
      .map(function (r) { var pin = r.querySelector('.tw-pin');
        return [r.lastChild.textContent, pin ? pin.style.getPropertyValue('--src') : null]; }))""")
    texts = [t for t, _ in shown]
    assert [d["label"] for d in legend["days"]] == texts[:len(legend["days"])]
    rings = {t: ring for t, ring in shown if ring}
    assert all(rings[s["text"]] == s["colour"] for s in legend["sources"])
    assert {m["text"] for m in legend["marks"]} <= set(texts)


def test_the_html_export_has_the_same_legend_and_controls(qtbot, open_page, tmp_path):  # noqa: F811
    itin = road_trip()
    view, page, _ = open_page(itinerary_to_html(itin))
    seen = run_js(qtbot, view, """JSON.stringify({
      legend: Array.from(document.querySelectorAll('.tw-legend-row')).map(function (r) { return r.textContent; }),
      fit: document.querySelectorAll('.tw-fit').length})""")
    assert seen["fit"] == 1 and seen["legend"][:len(itin.days)] == [
        r["label"] for r in view_document_days(itin)]
    one = _choose_day(qtbot, view, "2")
    boxes = run_js(qtbot, view, "JSON.stringify(Array.from(document.querySelectorAll('.tw-day-head input'))"
                                ".map(function (b) { return b.checked; }))")
    assert one["lines"] == 1 and boxes == [i == 2 for i in range(len(itin.days))]  # the list follows the map
    view.grab().save(str(tmp_path / "export-one-day.png"))
    row = run_js(qtbot, view, """(function () {
      document.querySelectorAll('.tw-item-stop')[0].click();  /* a stop of day 1, hidden now */
      return JSON.stringify(document.querySelector('.tw-day-picker').value); })()""")
    assert row == "" and run_js(qtbot, view, VISIBLE)["lines"] == len(itin.days)
    assert page.errors == []


def view_document_days(itin) -> list[dict]:
    from engine.export.html_document import map_document

    return map_document(itin)["days"]


def test_the_export_carries_the_renderer_itself():
    page = itinerary_to_html(city_trip())
    renderer = (Path(__file__).resolve().parents[2] / "resources" / "trip_map.js").read_text(encoding="utf-8")
    assert renderer in page  # the app's own renderer, inlined: the file opens from disk, offline
    # (that it asks for nothing else: tests/engine/test_export_html.py and the request log of test_html_export.py)
