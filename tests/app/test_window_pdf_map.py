"""Issue 32 §6, the PDF's first-page map from the real window (offscreen, its real map page): the
whole trip fitted in a 3:2 box, whatever the window's current view (a zoomed-in view, a small
window), with a day key under it; the window's view is put back afterwards. Saves
/tmp/window-pdf-*.png."""

from __future__ import annotations

import io
import json

from pypdf import PdfReader
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSize
from PySide6.QtPdf import QPdfDocument

from engine.maps.trip_map import day_colour
from tests.app.conftest import wait_task
from tests.app.test_main_window import PARIS, ROUTE66, plan
from tests.widgets.test_map_view import run_js

INSIDE = """JSON.stringify((function (ids, w, h) {
  var out = [];
  ids.forEach(function (id) {
    var m = tripwright.marker(id), r = m && m.getElement() && m.getElement().getBoundingClientRect();
    if (!r || r.left < 0 || r.top < 0 || r.right > w || r.bottom > h) out.push(id);
  });
  document.querySelectorAll('.tw-name:not(.tw-name-hidden) .tw-name-text').forEach(function (n) {
    var r = n.getBoundingClientRect();  // the names shown beside the pins, whole
    if (r.width && r.right > 0 && r.left < w && (r.left < 0 || r.top < 0 || r.right > w || r.bottom > h))
      out.push('name: ' + n.textContent);
  });
  return out;
})(%s, %d, %d))"""


def _first_page_png(data: bytes, path: str) -> None:
    array = QByteArray(data)  # kept alive while the document reads it
    buffer = QBuffer(array)
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    document = QPdfDocument()
    document.load(buffer)
    size = document.pagePointSize(0).toSize() * 2
    assert document.render(0, QSize(size.width(), size.height())).save(path)
    document.close()


def _export_pdf(qtbot, window, monkeypatch, tmp_path, name: str, stops: list[str]):
    """The PDF through File ▸ Export's path; returns (what print mode left outside its box, pdf bytes)."""
    import app.map_probe
    from app.pdf_render import print_box

    settled = app.map_probe.street_tiles_settled
    outside: list = []

    async def look_then_settle(view, timeout):  # the snapshot's moment: what its box shows
        await settled(view, timeout)
        width, height = print_box(view.width(), view.height())
        answer = await app.map_probe.page_state(view, INSIDE % (json.dumps(stops), width, height))
        outside.append(answer)

    monkeypatch.setattr(app.map_probe, "street_tiles_settled", look_then_settle)
    path = tmp_path / f"{name}.pdf"
    assert wait_task(qtbot, window.controller.export_to("pdf", str(path)), timeout=30_000) == path
    return outside, path.read_bytes()


def _stops(window, *, city: bool) -> list[str]:
    itinerary = window.trip.current.itinerary
    return [a.id for d in itinerary.days for a in d.activities
            if a.id in window.map_view._markers and not (city and a.kind.value == "flight")]  # noqa: SLF001


def test_the_pdf_map_fits_the_whole_city_trip_from_a_zoomed_in_small_window(qtbot, make_window, monkeypatch,
                                                                             tmp_path):
    window = make_window(size=(1024, 700))
    plan(qtbot, window, PARIS)
    stops = _stops(window, city=True)
    assert len(stops) > 10
    # The traveller's view: zoomed in on one street of the city, most of the trip off the map.
    run_js(qtbot, window.map_view, "JSON.stringify(map.setView([48.8606, 2.3376], 17, {animate: false}) && 1)")
    qtbot.wait(200)
    before = run_js(qtbot, window.map_view, "JSON.stringify([map.getZoom(), map.getCenter().lat])")
    outside, data = _export_pdf(qtbot, window, monkeypatch, tmp_path, "paris", stops)
    assert outside == [[]]  # every visit, meal and the hotel inside the printed box
    after = run_js(qtbot, window.map_view, "JSON.stringify([map.getZoom(), map.getCenter().lat])")
    assert after[0] == before[0] and abs(after[1] - before[1]) < 1e-6  # the window's view back as it was
    first = PdfReader(io.BytesIO(data)).pages[0]
    image = first.images[0].image
    assert abs(image.width / image.height - 1.5) < 0.02  # the 3:2 box, not the window's shape
    text = " ".join(first.extract_text().split())
    itinerary = window.trip.current.itinerary
    for i, day in enumerate(itinerary.days):  # the day key, under the map
        assert f"Day {i + 1} \u00b7 {day.date:%a} {day.date.day} {day.date:%b}" in text
    _first_page_png(data, "/tmp/window-pdf-paris-page1.png")


def test_the_pdf_map_fits_a_whole_road_trip_from_a_tall_narrow_map(qtbot, make_window, monkeypatch, tmp_path):
    window = make_window(size=(1024, 700))
    plan(qtbot, window, ROUTE66)
    window.resize(760, 900)  # a map taller than wide: its grab printed taller than the page
    qtbot.wait(400)
    stops = _stops(window, city=False)
    outside, data = _export_pdf(qtbot, window, monkeypatch, tmp_path, "route66", stops)
    assert outside == [[]]
    image = PdfReader(io.BytesIO(data)).pages[0].images[0].image
    assert abs(image.width / image.height - 1.5) < 0.02
    # The map showed the trip as fitted before the export: it still re-fits when the window is resized.
    window.resize(620, 900)  # narrower: without a re-fit the ends of the route leave the map
    qtbot.wait(600)
    shown = run_js(qtbot, window.map_view, INSIDE % (json.dumps(stops), window.map_view.width(),
                                                     window.map_view.height()))
    assert shown == []
    from app.pdf_itinerary import day_key
    key = day_key(window.trip.current.itinerary)
    assert key.count("bgcolor=") == 7 and f"bgcolor='{day_colour(6)}'" in key  # each day in its map colour
    _first_page_png(data, "/tmp/window-pdf-route66-page1.png")
