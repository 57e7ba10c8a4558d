"""Issue 32 §4: a shipped city's offline map is readable — Paris and Tokyo planned from the fixtures
show their own main streets, parks (and Tokyo its JR Yamanote Line) in the real MapView offscreen,
from fixtures/cities/maps/ (hand-made, coarse), over the basemap's GSHHG water. Saves
/tmp/tripwright-paris-city-map.png and /tmp/tripwright-tokyo-city-map.png."""

from __future__ import annotations

from PySide6.QtGui import QColor

from engine.models import IntentV1
from tests.widgets.test_city_map_view import _go, _is, _names, _pixel
from tests.widgets.test_map_layers import _plan, city_trip
from tests.widgets.test_map_view import make_view, run_js, until_painted  # noqa: F401 (fixture)

PARK, STREET, WATER, RAIL = QColor("#cfe5bf"), QColor("#ffffff"), QColor("#a9cde3"), QColor("#7b7482")


def _shown(qtbot, make_view, itinerary):  # noqa: F811 (the fixture)
    view = make_view()
    view.show_itinerary(itinerary, online=False)
    qtbot.waitUntil(lambda: run_js(qtbot, view, "window.tripwright.cityMap()") > 0, timeout=10_000)
    return view


def test_offline_paris_shows_its_streets_parks_and_the_seine(qtbot, make_view):  # noqa: F811
    view = _shown(qtbot, make_view, city_trip())
    assert "Rue de Rivoli" in {s["name"] for s in view.city_map_document["streets"]}
    _go(qtbot, view, 48.8600, 2.3350, 14)
    until_painted(qtbot, view, "/tmp/tripwright-paris-city-map.png")
    assert _is(_pixel(qtbot, view, 48.8470, 2.3360), PARK)     # in the Jardin du Luxembourg
    assert _is(_pixel(qtbot, view, 48.8627, 2.3285), PARK)     # in the Tuileries, south of its name
    names = _names(qtbot, view)
    assert {"Rue de Rivoli", "Boulevard Saint-Germain"} & set(names.get("tw-street-name", [])), names
    assert "Jardin des Tuileries" in names.get("tw-park-name", []), names  # a name under a pin is hidden


def test_offline_tokyo_shows_the_yamanote_line_and_its_parks(qtbot, make_view):  # noqa: F811
    tokyo = _plan(IntentV1.model_validate({
        "city": "Tokyo", "date_window": {"start": "2027-05-10", "end": "2027-05-13", "tz": "Asia/Tokyo"},
        "budget_usd_cents": 500000, "airports": ["HND"], "origin_airport": "LAX"}))
    view = _shown(qtbot, make_view, tokyo)
    layers = view.city_map_document
    assert [r["name"] for r in layers["rail"]] == ["JR Yamanote Line"] and len(layers["stations"]) >= 8
    _go(qtbot, view, 35.6850, 139.7350, 13)
    until_painted(qtbot, view, "/tmp/tripwright-tokyo-city-map.png")
    assert _is(_pixel(qtbot, view, 35.6860, 139.7100), PARK)   # Shinjuku Gyoen
    assert _is(_pixel(qtbot, view, 35.6850, 139.7540), PARK)   # the Imperial Palace grounds
