"""Issue 32 §6: the HTML export draws the city's own map — the water, the parks, the named main
streets and the rail of the trip's city pack — with the app's renderer, and makes no request.
A Lisbon trip planned and exported by the real ``tripwright`` (its pack and map fetched from the
Overpass stand-in on 127.0.0.1, hand-made approximate geometry: tests/data/osm/README.md), the
page opened in a real QtWebEngine view offscreen. Saves /tmp/tripwright-html-city-map.png."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QColor

from tests.overpass_standin import OverpassStandIn, load_lisbon
from tests.widgets.test_html_export import open_page, run_js  # noqa: F401 (fixture)

EXE = Path(sys.executable).with_name("tripwright")
LISBON_MAP = Path(__file__).parents[1] / "data" / "osm" / "lisbon_map.json"
SHOT = "/tmp/tripwright-html-city-map.png"
WATER, PARK, LAND = QColor("#a9cde3"), QColor("#cfe5bf"), QColor("#f3f0e8")  # trip_map.js's colours

LAYERS = """JSON.stringify((function () {
  var map = window[document.querySelector('.folium-map').id], panes = {citymap: 0, citymapnames: 0};
  map.eachLayer(function (l) { if (l instanceof L.Path && l.options.pane in panes) panes[l.options.pane] += 1; });
  return {drawn: panes.citymap, names: Array.from(document.querySelectorAll('.tw-city-name-text'))
                                              .map(function (e) { return e.textContent; })};
})())"""


@pytest.fixture(scope="module")
def lisbon_page(tmp_path_factory) -> str:
    tmp = tmp_path_factory.mktemp("lisbon-html")
    elements = load_lisbon() + json.loads(LISBON_MAP.read_text(encoding="utf-8"))
    env = {k: v for k, v in os.environ.items() if k != "TRIPWRIGHT_OFFLINE"}
    env.update(TRIPWRIGHT_HOME=str(tmp / "home"), TRIPWRIGHT_OVERPASS_TIMEOUT_S="5")
    with OverpassStandIn(elements=elements) as server:
        done = subprocess.run([str(EXE), "plan", "--prompt", "3 days in Lisbon from 2027-05-17, flying from JFK, "
                               "budget 4000 USD", "--today", "2026-11-26", "--out", str(tmp / "lisbon.json")],
                              capture_output=True, text=True, env={**env, "TRIPWRIGHT_OVERPASS_URL": server.interpreter_url},
                              timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    done = subprocess.run([str(EXE), "export", str(tmp / "lisbon.json"), "--html", str(tmp / "lisbon.html")],
                          capture_output=True, text=True, env={**env, "TRIPWRIGHT_OFFLINE": "1"}, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return (tmp / "lisbon.html").read_text(encoding="utf-8")


def _page_data(page_text: str) -> dict:
    """The page's own data block, read back with the JSON parser."""
    block = page_text.split('<script type="application/json" id="tw-data">', 1)[1].split("</script>", 1)[0]
    return json.loads(block)


def _near(colour: QColor, expected: QColor) -> bool:
    return max(abs(colour.red() - expected.red()), abs(colour.green() - expected.green()),
               abs(colour.blue() - expected.blue())) <= 6


def test_the_exported_page_draws_the_citys_water_parks_streets_and_rail(qtbot, open_page, lisbon_page):  # noqa: F811
    view, _page, requests = open_page(lisbon_page, "lisbon.html")
    qtbot.waitUntil(lambda: run_js(qtbot, view, LAYERS)["drawn"] > 0, timeout=10_000)
    map_js = "window[document.querySelector('.folium-map').id]"
    run_js(qtbot, view, f"JSON.stringify({map_js}.setView([38.7150, -9.1450], 14, {{animate: false}}) && 1)")
    qtbot.wait(600)
    layers = run_js(qtbot, view, LAYERS)
    city_map = _page_data(lisbon_page)["city_map"]
    assert city_map["water"] and city_map["parks"] and city_map["streets"] and city_map["rail"]
    # every area, river, rail line and station once, every street twice (its casing, then itself)
    assert layers["drawn"] == (sum(len(city_map[k]) for k in ("water", "parks", "rivers", "rail", "stations"))
                               + 2 * len(city_map["streets"]))
    assert "Avenida da Liberdade" in layers["names"]  # street names at city zoom
    image = view.grab().toImage()
    image.save(SHOT)

    def colour(lat: float, lon: float) -> QColor:
        point = run_js(qtbot, view, f"""JSON.stringify((function () {{
          var p = {map_js}.latLngToContainerPoint([{lat}, {lon}]), box = {map_js}.getContainer().getBoundingClientRect();
          return {{x: p.x + box.left, y: p.y + box.top}};  // in the page: the itinerary list is left of the map
        }})())""")
        return image.pixelColor(round(point["x"]), round(point["y"]))
    assert _near(colour(38.6990, -9.1450), WATER)  # the Tagus
    assert _near(colour(38.7275, -9.1512), PARK)   # Parque Eduardo VII, south of its name
    assert _near(colour(38.7200, -9.1300), LAND)   # the city north of the river: land, not Natural Earth's sea
    assert all(url.startswith(("file:", "data:")) for url in requests.urls), requests.urls  # nothing fetched


def test_a_fixture_citys_page_carries_and_draws_its_water(qtbot, open_page):  # noqa: F811
    """Paris's export carries Paris's GSHHG land box and the Seine (not Rome's), drawn as the app
    draws them: the river is water at city zoom."""
    from engine.export import itinerary_to_html
    from tests.widgets.test_map_layers import city_trip

    page_text = itinerary_to_html(city_trip())
    block = page_text.split('<script type="application/json" id="tw-basemap">', 1)[1].split("</script>", 1)[0]
    water = json.loads(block)["water"]["features"]
    assert {(f["properties"]["city"], f["properties"]["kind"]) for f in water} == {("Paris", "land"), ("Paris", "river")}
    seine = water[[f["properties"]["kind"] for f in water].index("river")]["geometry"]["coordinates"]
    lon, lat = min((p for line in seine for p in line), key=lambda p: (p[0] - 2.3413) ** 2 + (p[1] - 48.8575) ** 2)
    view, _page, requests = open_page(page_text, "paris.html")
    map_js = "window[document.querySelector('.folium-map').id]"
    point = run_js(qtbot, view, f"""JSON.stringify((function () {{
      var map = {map_js}; map.setView([{lat}, {lon}], 15, {{animate: false}});
      var p = map.latLngToContainerPoint([{lat}, {lon}]), box = map.getContainer().getBoundingClientRect();
      return {{x: p.x + box.left, y: p.y + box.top}};
    }})())""")
    qtbot.wait(600)
    image = view.grab().toImage()
    image.save("/tmp/tripwright-html-paris-water.png")
    assert _near(image.pixelColor(round(point["x"]), round(point["y"])), WATER)
    assert all(url.startswith(("file:", "data:")) for url in requests.urls), requests.urls
