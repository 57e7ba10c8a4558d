"""The standalone HTML map export, opened in a real QtWebEngine page offscreen.

Planned Paris and Route 66 trips whose venue, town and trip names are hostile (a backtick,
``${...}``, ``</script>``, ``<img onerror>``): no injected code runs, every layer still draws and
the names show literally. Every request the page makes is recorded: it makes none but its own.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QUrl
from PySide6.QtGui import QImage
from PySide6.QtWebEngineCore import QWebEnginePage, QWebEngineProfile, QWebEngineUrlRequestInterceptor
from PySide6.QtWebEngineWidgets import QWebEngineView
from PySide6.QtWidgets import QApplication

from engine.export import html_parts, itinerary_to_html
from engine.maps.trip_map import DAY_COLOURS
from engine.models import ItineraryV1
from tests.widgets.test_map_layers import city_trip, road_trip

LOAD_TIMEOUT_MS = 15_000
PWN = "window.__pwned"
HOSTILE = ("`", f"Café `${{{PWN}=1}}`", f"</script><script>{PWN}=2</script>",
           f"<img src=x onerror={PWN}=3>", "{{ 7*7 }}")


def _renamed(name: str, n: int) -> str:
    return f"{name} {HOSTILE[n % len(HOSTILE)]}"


def hostile(itin: ItineraryV1) -> ItineraryV1:
    """``itin`` with every activity, town and the trip itself named with hostile text."""
    days, n = [], 0
    for day in itin.days:
        acts = []
        for act in day.activities:
            acts.append(act.model_copy(update={"name": _renamed(act.name, n)}))
            n += 1
        update = {"activities": acts}
        if day.anchor is not None:
            update["anchor"] = day.anchor.model_copy(update={"name": _renamed(day.anchor.name, n)})
        if day.drive is not None:
            update["drive"] = day.drive.model_copy(update={"from_name": _renamed(day.drive.from_name, n + 1),
                                                           "to_name": _renamed(day.drive.to_name, n + 2)})
        days.append(day.model_copy(update=update))
    field = "city" if itin.intent.mode == "city" else "origin"
    intent = itin.intent.model_copy(update={field: getattr(itin.intent, field) + " " + HOSTILE[2]})
    return itin.model_copy(update={"days": days, "intent": intent})


@pytest.fixture(scope="module")
def city() -> ItineraryV1:
    return hostile(city_trip())


@pytest.fixture(scope="module")
def road() -> ItineraryV1:
    return hostile(road_trip())


class RequestLog(QWebEngineUrlRequestInterceptor):
    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def interceptRequest(self, info):
        self.urls.append(info.requestUrl().toString())


class ConsoleLog(QWebEnginePage):
    def __init__(self, profile):
        super().__init__(profile, None)
        self.errors: list[str] = []

    def javaScriptConsoleMessage(self, level, message, line, source):
        if level == QWebEnginePage.JavaScriptConsoleMessageLevel.ErrorMessageLevel:
            self.errors.append(f"{line}: {message}")


@pytest.fixture
def open_page(qtbot, tmp_path):
    """open_page(html) -> (view, page, requests): the file loaded in a fresh off-the-record profile."""
    opened = []

    def open_(page_text: str, name: str = "trip.html"):
        path = tmp_path / name
        path.write_text(page_text, encoding="utf-8")
        profile = QWebEngineProfile()
        requests = RequestLog()
        profile.setUrlRequestInterceptor(requests)
        page = ConsoleLog(profile)
        view = QWebEngineView()
        view.setPage(page)
        view.resize(1200, 800)
        opened.append((view, page, profile, requests))
        with qtbot.waitSignal(view.loadFinished, timeout=LOAD_TIMEOUT_MS) as loaded:
            view.load(QUrl.fromLocalFile(str(path)))
            view.show()
        assert loaded.args == [True]
        return view, page, requests

    yield open_
    for view, page, profile, _ in opened:
        view.close()
        page.deleteLater()
        view.deleteLater()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        profile.deleteLater()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def run_js(qtbot, view, script):
    with qtbot.waitCallback(timeout=5_000) as callback:
        view.page().runJavaScript(script, 0, callback)
    return json.loads(callback.args[0])


STATE = """JSON.stringify((function () {
  var map = window[document.querySelector('.folium-map').id];
  var markers = [], lines = 0, basemap = [];
  map.eachLayer(function (l) {
    if (l instanceof L.Marker && l.getTooltip()) markers.push(l.getTooltip().getContent().querySelector('.tw-tip-title').textContent);
    if (l instanceof L.Polyline && l.options.className === 'tw-day-line') lines += 1;
    if (l.feature && l.options.pane === 'basemap') basemap.push(l.feature.properties.iso_a3 || l.feature.properties.postal || l.feature.properties.kind);
  });
  function texts(selector) {
    return Array.from(document.querySelectorAll(selector)).map(function (e) { return e.textContent; });
  }
  return {pwned: window.__pwned === undefined ? null : String(window.__pwned), markers: markers,
          icons: document.querySelectorAll('.leaflet-marker-icon.tw-icon').length, lines: lines,
          paths: document.querySelectorAll('path.tw-day-line').length, basemap: basemap,
          images: document.images.length, scripts: document.scripts.length,
          items: texts('#tw-itinerary .tw-item-name'), labels: texts('.tw-name-text'), tags: texts('.tw-day-tag'),
          heading: texts('#tw-itinerary h1')[0], title: document.title,
          attribution: document.querySelector('.leaflet-control-attribution').textContent};
})())"""


def _stops(itin: ItineraryV1) -> list[str]:
    return [a.name for d in itin.days for a in d.activities if a.geo is not None and a.kind.value != "flight"]


def _basemap_codes(page_text: str) -> list[str]:
    """What the page's basemap block holds, read back with the JSON parser."""
    block = page_text.split('<script type="application/json" id="tw-basemap">', 1)[1].split("</script>", 1)[0]
    layers = json.loads(block)
    return [f["properties"]["iso_a3"] for f in layers["countries"]["features"]] + [
        f["properties"]["postal"] for f in layers.get("admin1", {}).get("features", [])] + [
        f["properties"]["kind"] for f in layers.get("water", {}).get("features", [])]  # a fixture city's water


def test_hostile_city_names_run_nothing_and_every_layer_draws(qtbot, open_page, city):
    page_text = itinerary_to_html(city)
    view, page, requests = open_page(page_text)
    state = run_js(qtbot, view, STATE)

    # Leaflet, the page's code, folium's map, and the trip, cost breakdown and basemap JSON blocks.
    assert state["pwned"] is None and state["images"] == 0 and state["scripts"] == 6
    assert sorted(state["markers"]) == sorted(_stops(city)) and state["icons"] == len(_stops(city))
    drawn_days = sum(1 for d in city.days if sum(1 for a in d.activities
                                                if a.geo is not None and a.kind.value != "flight") > 1)
    assert state["lines"] == state["paths"] == drawn_days == 3
    assert sorted(state["basemap"]) == sorted(_basemap_codes(page_text))
    assert "FRA" in state["basemap"] and "USA" not in state["basemap"]
    assert state["items"] == [a.name + (" (locked)" if a.locked else "") for d in city.days for a in d.activities]
    assert set(state["labels"]) == set(_stops(city))
    assert state["heading"] == "Paris " + HOSTILE[2] and state["title"].startswith(state["heading"] + " – ")
    assert state["attribution"] == "Leaflet | Basemap: Natural Earth, GSHHG"  # Paris: its GSHHG water too
    assert page.errors == []
    assert requests.urls and {QUrl(u).scheme() for u in requests.urls} == {"file"}
    assert {Path(QUrl(u).toLocalFile()).name for u in requests.urls} == {"trip.html"}


def test_hostile_road_trip_draws_each_driven_day_with_its_number(qtbot, open_page, road):
    page_text = itinerary_to_html(road)
    view, page, _ = open_page(page_text)
    state = run_js(qtbot, view, STATE)

    origin = "Start: " + road.days[0].drive.from_name
    assert state["pwned"] is None and state["images"] == 0 and page.errors == []
    assert sorted(state["markers"]) == sorted([origin, *_stops(road)])
    assert state["lines"] == state["paths"] == len(road.days) == 7
    assert state["tags"] == [f"Day {n}" for n in range(1, 8)]
    towns = [d.anchor.name for d in road.days]
    assert set(state["labels"]) == {road.days[0].drive.from_name, *towns}
    assert all(any(h in town for h in HOSTILE) for town in towns)
    assert state["heading"] == f"{road.intent.origin} → {road.intent.terminus}"
    assert sorted(state["basemap"]) == sorted(_basemap_codes(page_text))
    assert {"USA", "MEX", "CA", "IL"} <= set(state["basemap"])


def test_the_reader_stays_in_the_region_the_basemap_covers(qtbot, open_page, road):
    view, _, _ = open_page(itinerary_to_html(road))
    seen = run_js(qtbot, view, """(function () {
      var map = window[document.querySelector('.folium-map').id];
      var fitted = map.getZoom();
      map.setZoom(0, {animate: false});
      map.panBy([-5000, -5000], {animate: false});
      return JSON.stringify({fitted: fitted, zoom: map.getZoom(), min: map.getMinZoom(),
                             inside: map.options.maxBounds.pad(0.02).contains(map.getBounds())});
    })()""")

    assert seen["zoom"] == seen["min"] > 2 and seen["fitted"] >= seen["min"] and seen["inside"]


def test_the_csp_stops_markup_that_gets_in_anyway(qtbot, open_page, city):
    """Even markup pasted into the page runs nothing: only the page's own scripts are allowed."""
    injected = f'<body>\n<img src=x onerror="{PWN}=\'img\'"><script>{PWN}="script"</script>'
    view, page, requests = open_page(itinerary_to_html(city).replace("<body>", injected, 1))
    state = run_js(qtbot, view, STATE)

    assert state["pwned"] is None
    assert state["icons"] == len(_stops(city)) and state["paths"] == 3
    assert {Path(QUrl(u).toLocalFile()).name for u in requests.urls} == {"trip.html"}  # the img's x: blocked


def test_the_list_shows_stops_on_the_map_and_days_can_be_hidden(qtbot, open_page, city):
    view, _, _ = open_page(itinerary_to_html(city))
    louvre = next(a.name for a in city.days[2].activities if a.name.startswith("Musée du Louvre"))
    shown = run_js(qtbot, view, """(function () {
      var row = Array.from(document.querySelectorAll('.tw-item-stop'))
        .find(function (r) { return r.querySelector('.tw-item-name').textContent === %s; });
      row.click();
      var tip = document.querySelector('.leaflet-tooltip-pane .tw-tip-title');
      var toggle = document.querySelectorAll('.tw-day-head input')[1];
      toggle.click();
      var hidden = document.querySelectorAll('path.tw-day-line').length;
      toggle.click();
      return JSON.stringify({tip: tip && tip.textContent, hidden: hidden,
                             back: document.querySelectorAll('path.tw-day-line').length});
    })()""" % json.dumps(louvre))

    assert shown == {"tip": louvre, "hidden": 2, "back": 3}


def test_without_the_basemap_files_the_page_credits_nothing_it_does_not_show(qtbot, open_page, city,
                                                                             monkeypatch, tmp_path):
    monkeypatch.setattr(html_parts, "BASEMAP_DIR", tmp_path / "missing")
    html_parts._basemap_features.cache_clear()
    try:
        view, page, _ = open_page(itinerary_to_html(city))
    finally:
        html_parts._basemap_features.cache_clear()
    state = run_js(qtbot, view, STATE)

    assert state["attribution"] == "Leaflet" and state["basemap"] == []
    assert state["icons"] == len(_stops(city)) and page.errors == []


def _pixels(view, path: Path) -> np.ndarray:
    image = view.grab().toImage().convertToFormat(QImage.Format.Format_RGB888)
    assert image.save(str(path))
    raw = np.frombuffer(image.constBits(), dtype=np.uint8)
    return raw.reshape(image.height(), image.bytesPerLine())[:, : image.width() * 3].reshape(
        image.height(), image.width(), 3).copy()  # the QImage, and its buffer, die on return


@pytest.mark.parametrize("which", ["city", "road"])
def test_the_map_paints_the_basemap_and_each_days_colour(qtbot, open_page, city, road, tmp_path, which):
    itin = city if which == "city" else road
    view, _, _ = open_page(itinerary_to_html(itin))
    left = run_js(qtbot, view, "JSON.stringify(document.querySelector('.folium-map').getBoundingClientRect().left)")
    colours = ("#f3f0e8", *DAY_COLOURS[:len(itin.days) if which == "road" else 3])  # land, then the days

    def shares() -> list[float]:
        pixels = _pixels(view, tmp_path / f"{which}.png")[:, int(left) + 1:]  # the map, not the list
        return [_share(pixels, colour) for colour in colours]

    # A grab right after loading is blank (docs/PLATFORM_NOTES.md): poll until it has painted.
    for _ in range(50):
        qtbot.wait(100)
        painted = shares()
        if painted[0] > 0.05 and min(painted[1:]) > 0.0001:
            break
    assert painted[0] > 0.05 and min(painted[1:]) > 0.0001, painted


def _share(pixels: np.ndarray, hex_colour: str) -> float:
    rgb = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)])
    return float(np.all(np.abs(pixels.astype(int) - rgb) <= 6, axis=-1).mean())
