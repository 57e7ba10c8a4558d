"""The printed map and the whole PDF, for File ▸ Export PDF and for ``tripwright export --pdf``.

The map is the app's own Leaflet page put in print mode (``window.tripwright.printMode``): no zoom
buttons, no legend, the whole trip fitted in a 3:2 box (the PDF prints a day key under it), and — when the street map shows — the street tiles of
that view loaded (up to 8 s) before the snapshot. The CLI has no window, so it renders a map view of its
own offscreen, waiting on a local Qt event loop (never qasync: the CLI enters no app loop).
"""

from __future__ import annotations

import json
import os
import time

from engine.errors import PdfRenderFailed

PRINT_MAP_SIZE = (1200, 800)  # 3:2, the shape of the map on the PDF's first page
PRINT_SETTLE_S = 0.4  # the basemap canvas repaints after the fit
PRINT_TILES_TIMEOUT_S = 8.0  # the street tiles of the printed view, when the street map shows
READY_TIMEOUT_S = 30.0


# The printed map is the largest 3:2 box of the view, the trip fitted into it (issue 32 §6: it was
# the window's current view, a tall one cut at the page's edge): the page's map shrinks to the box,
# print mode fits the trip, and the box is grabbed; the view goes back as it was afterwards.
PRINT_ON = """(function () {
  var el = document.getElementById("map");
  window.twBeforePrint = {center: map.getCenter(), zoom: map.getZoom()};
  el.style.width = "%dpx"; el.style.height = "%dpx";
  var answer = window.tripwright.printMode(true), w = el.clientWidth, h = el.clientHeight, margin = 6;
  // The pins are fitted; the names beside them too: pan, and zoom out a step when they cannot fit.
  for (var step = 0; step < 8; step++) {
    var box = null;
    document.querySelectorAll(".tw-icon, .tw-name:not(.tw-name-hidden) .tw-name-text").forEach(function (n) {
      var r = n.getBoundingClientRect();
      if (!r.width || r.right < 0 || r.left > w || r.bottom < 0 || r.top > h) return;  // off the map: an airport
      box = box ? {l: Math.min(box.l, r.left), t: Math.min(box.t, r.top), r: Math.max(box.r, r.right),
                   b: Math.max(box.b, r.bottom)} : {l: r.left, t: r.top, r: r.right, b: r.bottom};
    });
    if (!box || (box.l >= margin && box.t >= margin && box.r <= w - margin && box.b <= h - margin)) break;
    if (box.r - box.l + 2 * margin > w || box.b - box.t + 2 * margin > h) {
      map.setZoom(map.getZoom() - 0.25, {animate: false});
    } else {
      map.panBy([(box.l + box.r - w) / 2, (box.t + box.b - h) / 2], {animate: false});
    }
  }
  return answer;
})()"""
PRINT_OFF = """(function () {
  var el = document.getElementById("map"), before = window.twBeforePrint;
  el.style.width = ""; el.style.height = "";
  var answer = window.tripwright.printMode(false);
  window.tripwright.fit();  // the trip as fitted: a view that was so still re-fits when the window is resized
  if (before && (Math.abs(map.getZoom() - before.zoom) > 1e-6 || map.getCenter().distanceTo(before.center) > 1)) {
    map.setView(before.center, before.zoom, {animate: false});  // the traveller's own view, kept as theirs
    map.fire("dragstart");
  }
  return answer;
})()"""


def print_box(width: int, height: int) -> tuple[int, int]:
    """The largest box of the map's shape on the PDF's first page (3:2) inside a ``width`` x ``height`` view."""
    shape = PRINT_MAP_SIZE[0] / PRINT_MAP_SIZE[1]
    if width <= 0 or height <= 0:
        return PRINT_MAP_SIZE
    return (width, round(width / shape)) if width / height <= shape else (round(height * shape), height)


# -- in the app ----------------------------------------------------------------------------------
async def print_map_image(map_view):
    """A snapshot of ``map_view`` in print mode, the whole trip fitted in a 3:2 box; the view is put
    back as it was afterwards."""
    import asyncio

    from PySide6.QtCore import QRect

    from app.map_probe import page_state, street_tiles_settled

    if not map_view.is_ready:
        return map_view.grab().toImage()
    width, height = print_box(map_view.width(), map_view.height())
    await page_state(map_view, PRINT_ON % (width, height))
    try:
        await asyncio.sleep(PRINT_SETTLE_S)
        await street_tiles_settled(map_view, PRINT_TILES_TIMEOUT_S)  # the fit asks for new street tiles
        return map_view.grab(QRect(0, 0, width, height)).toImage()
    finally:
        await page_state(map_view, PRINT_OFF)


# -- in the CLI ----------------------------------------------------------------------------------
def itinerary_pdf_offscreen(itinerary) -> bytes:
    """The PDF of ``itinerary`` with its map, rendered without a display (``tripwright export --pdf``)."""
    from app.desktop_libs import prepare_environment

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    # A command-line run: Qt's and Chromium's GPU/sandbox chatter is not the user's business.
    os.environ.setdefault("QT_LOGGING_RULES", "*=false")
    os.environ.setdefault("QTWEBENGINE_CHROMIUM_FLAGS", "--log-level=3 --disable-logging")
    prepare_environment()
    import PySide6.QtWebEngineWidgets  # noqa: F401  (must precede the QApplication)
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    import widgets.offline_tiles  # noqa: F401  (registers its URL scheme, which must precede it too)
    from app.pdf_itinerary import itinerary_pdf_bytes
    from engine.settings import load_settings

    app = QApplication.instance() or QApplication(["tripwright"])
    image = _offscreen_map(itinerary)
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # the view goes before the app
    data = itinerary_pdf_bytes(itinerary, image, distance_unit=load_settings().settings.distance_unit)
    del app
    return data


def _offscreen_map(itinerary):
    from widgets.map_view import MapView

    view = MapView()
    try:
        view.resize(*PRINT_MAP_SIZE)
        view.show()
        view.show_itinerary(itinerary, route=_route(itinerary))
        _wait(lambda: view.is_ready, "the map page did not load")
        _wait(lambda: (_js(view, "window.tripwright.state()") or {}).get("markers", 0) > 0,
              "the map drew no markers")
        _js(view, PRINT_ON % PRINT_MAP_SIZE)
        _pause(PRINT_SETTLE_S)
        return view.grab().toImage()
    finally:
        view.close()
        view.deleteLater()


def _route(itinerary):
    from engine.errors import InputError
    from engine.roadtrip.routes import find_route

    intent = itinerary.intent
    if intent.mode != "road_trip" or not intent.route:
        return None
    try:
        return find_route(intent.route)
    except InputError:
        return None


def _js(view, script: str) -> dict | None:
    answer: list = []
    view.page().runJavaScript(script, 0, answer.append)
    _wait(lambda: bool(answer), "the map page did not answer", timeout=5.0)
    try:
        return json.loads(answer[0]) if isinstance(answer[0], str) and answer[0] else None
    except ValueError:
        return None


def _wait(condition, failure: str, timeout: float = READY_TIMEOUT_S) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise PdfRenderFailed(f"{failure} within {timeout:.0f} s")
        _pause(0.03)


def _pause(seconds: float) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(round(seconds * 1000), loop.quit)
    loop.exec()
