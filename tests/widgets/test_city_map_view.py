"""Issue 32 §4: a fetched city's own map in the app's map, offline — the Tagus, a park, the main
streets with their names, the rail and its stations, from the pack fetched from the Overpass
stand-in (hand-made approximate Lisbon geometry, tests/data/osm/README.md), drawn by
resources/trip_map.js in the real MapView (QWebEngineView, offscreen) and sampled pixel by pixel."""

from __future__ import annotations

import asyncio
import json
from datetime import date
from pathlib import Path

import pytest
from PySide6.QtGui import QColor

from engine.models import IntentV1
from engine.net.network import NetworkState
from engine.pipeline.run import PlanningSession
from engine.places.fetch import PackFetcher
from engine.places.pack_store import PackStore
from engine.tools.executor import ToolExecutor
from tests.overpass_standin import OverpassStandIn, load_lisbon
from tests.widgets.test_map_view import make_view, run_js, until_painted  # noqa: F401 (fixture)

LISBON_MAP = Path(__file__).parents[1] / "data" / "osm" / "lisbon_map.json"
WATER, PARK, STREET, LAND = QColor("#a9cde3"), QColor("#cfe5bf"), QColor("#ffffff"), QColor("#f3f0e8")


@pytest.fixture(scope="module")
def lisbon(tmp_path_factory):
    """Lisbon planned from a pack fetched from the stand-in (before any Qt loop runs): (itinerary, home)."""
    home = tmp_path_factory.mktemp("packs")
    elements = load_lisbon() + json.loads(LISBON_MAP.read_text(encoding="utf-8"))
    with OverpassStandIn(elements=elements) as server, pytest.MonkeyPatch.context() as env:
        env.delenv("TRIPWRIGHT_OFFLINE", raising=False)
        env.setenv("TRIPWRIGHT_OVERPASS_URL", server.interpreter_url)
        session = PlanningSession(today=date(2026, 11, 26))
        session._packs = PackFetcher(PackStore(home), NetworkState(), ToolExecutor())
        intent = IntentV1.model_validate({
            "city": "Lisbon", "date_window": {"start": "2027-05-10", "end": "2027-05-12", "tz": "Europe/Lisbon"},
            "budget_usd_cents": 300000, "airports": ["LIS"], "origin_airport": "JFK"})
        result = asyncio.run(session.plan(intent))
    assert result.status == "completed", result.failure
    return result.itinerary, home


def _view(qtbot, make_view, lisbon):  # noqa: F811 (the fixture)
    itinerary, home = lisbon
    view = make_view()
    view.pack_store = PackStore(home)
    view.show_itinerary(itinerary, online=False)
    qtbot.waitUntil(lambda: run_js(qtbot, view, "window.tripwright.cityMap()") > 0, timeout=10_000)
    return view


def _go(qtbot, view, lat: float, lon: float, zoom: float) -> None:
    run_js(qtbot, view, f"JSON.stringify(map.setView([{lat}, {lon}], {zoom}, {{animate: false}}) && 1)")
    qtbot.wait(300)  # the canvas repaints after the move


def _pixel(qtbot, view, lat: float, lon: float) -> QColor:
    point = run_js(qtbot, view, f"JSON.stringify(map.latLngToContainerPoint([{lat}, {lon}]))")
    return view.grab().toImage().pixelColor(round(point["x"]), round(point["y"]))


def _is(colour: QColor, expected: QColor) -> bool:
    return max(abs(colour.red() - expected.red()), abs(colour.green() - expected.green()),
               abs(colour.blue() - expected.blue())) <= 6


def _names(qtbot, view) -> dict[str, list[str]]:
    """The city map's names shown now, by kind (street, park, station): in the page, not hidden."""
    script = """JSON.stringify(Array.from(document.querySelectorAll('.tw-city-name')).filter(function (n) {
        return !n.classList.contains('tw-name-hidden') && n.firstChild.getBoundingClientRect().width > 0;
      }).map(function (n) { return [n.className.match(/tw-(street|park|station)-name/)[0], n.textContent]; }))"""
    out: dict[str, list[str]] = {}
    for kind, text in run_js(qtbot, view, script):
        out.setdefault(kind, []).append(text)
    return out


def test_the_document_carries_the_packs_city_map(qtbot, make_view, lisbon):  # noqa: F811
    view = _view(qtbot, make_view, lisbon)
    assert view.document["city_map"] is None  # sent apart from the document, once (set_city_map)
    layers = view.city_map_document
    assert {s["name"] for s in layers["streets"]} >= {"Avenida da Liberdade", "Avenida 24 de Julho"}
    assert [p["name"] for p in layers["parks"]] == ["Parque Eduardo VII"] and layers["water"]


def test_offline_lisbon_shows_the_tagus_a_park_and_named_streets(qtbot, make_view, lisbon, tmp_path):  # noqa: F811
    view = _view(qtbot, make_view, lisbon)
    _go(qtbot, view, 38.7150, -9.1450, 14)
    until_painted(qtbot, view, str(tmp_path / "lisbon_city_map_z14.png"))
    assert _is(_pixel(qtbot, view, 38.7300, -9.1530), PARK)           # inside Parque Eduardo VII
    assert _is(_pixel(qtbot, view, 38.7235, -9.1484), STREET)         # on the Avenida da Liberdade
    assert _is(_pixel(qtbot, view, 38.6990, -9.1450), WATER)          # the Tagus off Cais do Sodré
    assert _is(_pixel(qtbot, view, 38.7180, -9.1560), LAND)           # Príncipe Real: land, no street
    names = _names(qtbot, view)
    streets = set(names.get("tw-street-name", []))  # a street's name hides under a trip's pin or name
    assert "Avenida da República" in streets and len(streets) >= 2, streets  # away from the trip's stops
    assert "Parque Eduardo VII" in names.get("tw-park-name", [])
    stations = names.get("tw-station-name", [])  # a station's name hides under a trip's pin or name
    assert stations and set(stations) <= {"Cais do Sodré", "Rossio", "Oriente", "Santa Apolónia"}, stations
    _go(qtbot, view, 38.7215, -9.1470, 16)  # closer in, the avenue between the pins has room for its name
    until_painted(qtbot, view, str(tmp_path / "lisbon_city_map_z16.png"))
    assert "Avenida da Liberdade" in _names(qtbot, view).get("tw-street-name", [])
    _go(qtbot, view, 38.7000, -9.1600, 12)  # the whole city: water still drawn, names left out
    until_painted(qtbot, view, str(tmp_path / "lisbon_city_map_z12.png"))
    assert _is(_pixel(qtbot, view, 38.6950, -9.1600), WATER)
    assert _is(_pixel(qtbot, view, 38.6700, -9.1600), LAND)           # Almada, across the river
    assert _names(qtbot, view) == {}


def test_the_city_map_is_sent_once_not_with_every_redraw(qtbot, make_view, lisbon):  # noqa: F811
    view = _view(qtbot, make_view, lisbon)
    sent: list[str] = []
    view.bridge.set_city_map.connect(sent.append)
    view.show_itinerary(lisbon[0], keep_view=True)  # a redraw after an edit: the same city's map stays
    view.set_distance_unit("km")
    assert sent == [] and run_js(qtbot, view, "window.tripwright.cityMap()") > 0
    view.show_itinerary(None)  # no trip: the city's map goes with it
    assert sent == ["null"]
    qtbot.waitUntil(lambda: run_js(qtbot, view, "window.tripwright.cityMap()") == 0, timeout=5_000)
