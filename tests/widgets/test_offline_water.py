"""Issue 14 §1: the built-in offline layer shows water at city zoom around the fixture cities —
rivers (the Seine, the Tiber), the harbour and bays (New York, Tokyo) — where its data puts them."""

from __future__ import annotations

import json

import pytest
from PySide6.QtGui import QColor
from shapely.geometry import Point, box, shape

from tests.widgets.test_map_view import make_view, run_js  # noqa: F401 (fixture)
from widgets.map_view import RESOURCES_DIR

WATER = QColor("#a9cde3")
LAND = QColor("#f3f0e8")


def _features(city: str) -> dict:
    data = json.loads((RESOURCES_DIR / "basemap" / "water.geojson").read_text(encoding="utf-8"))
    return {f["properties"]["kind"]: shape(f["geometry"]) for f in data["features"]
            if f["properties"]["city"] == city}


def _river_point(city: str, near: tuple[float, float]) -> tuple[float, float]:
    """The river vertex nearest ``near`` (lat, lon): a point the river line passes through."""
    river = _features(city)["river"]
    target = Point(near[1], near[0])
    vertex = min((Point(c) for line in river.geoms for c in line.coords), key=target.distance)
    return vertex.y, vertex.x


def _pixel(qtbot, view, lat: float, lon: float, zoom: int) -> QColor:
    run_js(qtbot, view, f"JSON.stringify(map.setView([{lat}, {lon}], {zoom}, {{animate: false}}) && 1)")
    qtbot.wait(300)  # the canvas renderer repaints after the move
    point = run_js(qtbot, view, f"JSON.stringify(map.latLngToContainerPoint([{lat}, {lon}]))")
    return view.grab().toImage().pixelColor(round(point["x"]), round(point["y"]))


def _is(colour: QColor, expected: QColor) -> bool:
    return max(abs(colour.red() - expected.red()), abs(colour.green() - expected.green()),
               abs(colour.blue() - expected.blue())) <= 4


@pytest.mark.parametrize("city, near", [("Paris", (48.8566, 2.3470)),  # the Seine by the Île de la Cité
                                        ("Rome", (41.8986, 12.4768))])  # the Tiber by the Ponte Sisto
def test_the_river_through_the_city_is_drawn_at_city_zoom(qtbot, make_view, city, near):
    view = make_view()
    lat, lon = _river_point(city, near)
    assert abs(lat - near[0]) < 0.01 and abs(lon - near[1]) < 0.01  # the data's river is the real one
    assert _is(_pixel(qtbot, view, lat, lon, 13), WATER)
    assert _is(_pixel(qtbot, view, lat + 0.01, lon + 0.01, 13), LAND)  # ~1 km off the river: dry land


@pytest.mark.parametrize("city, wet, dry", [
    ("New York", (40.660, -74.045), (40.7831, -73.9712)),   # Upper Bay; Manhattan
    ("Tokyo", (35.560, 139.900), (35.6812, 139.7671)),      # Tokyo Bay; Tokyo Station
])
def test_harbours_and_bays_are_water_and_the_city_is_land(qtbot, make_view, city, wet, dry):
    water = _features(city)["water"]
    assert water.contains(Point(wet[1], wet[0])) and not water.contains(Point(dry[1], dry[0]))
    view = make_view()
    assert _is(_pixel(qtbot, view, *wet, 12), WATER)
    assert _is(_pixel(qtbot, view, *dry, 12), LAND)


def test_every_fixture_city_has_its_box_of_water_data():
    for city in ("Paris", "Rome", "New York", "Tokyo"):
        features = _features(city)
        assert features["land"].equals(box(*features["land"].bounds))
        assert "river" in features or "water" in features
