"""Issue 32 §4: a road trip's own offline map in the app — the main roads and water its corridor
chunks keep (``Chunk.layers``), merged along the route (``engine.places.corridor_map``) and drawn by
resources/trip_map.js in the real MapView (offscreen). The chunks are built as a fetch builds them
(``city_layers.build_road_layers``) from hand-made coarse geometry (tests/data/osm/README.md)."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from engine.maps.city_layers import build_road_layers
from engine.places import corridor as chunks
from engine.places.overpass_answer import Element
from tests.widgets.test_city_map_view import _go, _pixel
from tests.widgets.test_map_view import make_view, road, route66, run_js, until_painted  # noqa: F401 (fixtures)

ROUTE66_MAP = Path(__file__).parents[1] / "data" / "osm" / "route66_corridor_map.json"


@pytest.fixture()
def store(tmp_path):
    """A chunk store whose Arizona cells carry the hand-made map (and no places)."""
    elements = [Element.model_validate(e) for e in json.loads(ROUTE66_MAP.read_text(encoding="utf-8"))]
    store = chunks.ChunkStore(tmp_path)
    for cell in [(34, -115), (35, -115), (34, -114), (35, -114), (35, -113), (35, -112), (34, -111), (35, -111)]:
        store.save(chunks.Chunk(cell, datetime.now(timezone.utc), (),
                                layers=build_road_layers(elements, chunks.cell_box(cell))))
    return store


def test_the_route_66_map_draws_its_corridors_roads_and_water_offline(qtbot, make_view, road, route66, store,  # noqa: F811
                                                                       tmp_path):
    view = make_view()
    view.chunk_store = store
    view.show_itinerary(road, route=route66, online=False)
    qtbot.waitUntil(lambda: run_js(qtbot, view, "JSON.stringify(window.tripwright.cityMap() ? 1 : 0)") == 1, timeout=10_000)
    layers = view.city_map_document
    assert {s["name"] for s in layers["streets"]} == {"I 40"} and "Colorado River" in {r["name"] for r in layers["rivers"]}
    assert [w["name"] for w in layers["water"]] == ["Lake Havasu"]
    until_painted(qtbot, view, "/tmp/route66_corridor_map_whole.png")
    _go(qtbot, view, 34.45, -114.3, 9)
    until_painted(qtbot, view, "/tmp/route66_havasu_z9.png")
    lake, land = _pixel(qtbot, view, 34.42, -114.365), _pixel(qtbot, view, 34.42, -114.2)
    # the lake is water seen through the corridor's tinted band, the land beside it is not
    assert lake.blue() > lake.red() + 15 and land.red() > land.blue() + 15, (lake.name(), land.name())
    _go(qtbot, view, 35.2, -112.9, 8)
    until_painted(qtbot, view, "/tmp/route66_i40_z8.png")
    road_px, beside = _pixel(qtbot, view, 35.2575, -113.4636), _pixel(qtbot, view, 35.1075, -113.4636)
    # I-40 between Kingman and Seligman: grey at a road trip's zoom, darker than the land 10 mi south
    assert sum(road_px.getRgb()[:3]) + 60 < sum(beside.getRgb()[:3]), (road_px.name(), beside.name())
    _go(qtbot, view, 35.2575, -113.4636, 12)
    until_painted(qtbot, view, "/tmp/route66_i40_z12.png")
    road_px, beside = _pixel(qtbot, view, 35.2575, -113.4636), _pixel(qtbot, view, 35.2475, -113.4636)
    # closer in, white as a city's streets (through the band's tint): lighter than the land beside it
    assert sum(road_px.getRgb()[:3]) > sum(beside.getRgb()[:3]) + 20, (road_px.name(), beside.name())


def test_a_road_trip_with_no_chunk_map_draws_none_until_its_chunks_come(qtbot, make_view, road, route66,  # noqa: F811
                                                                         tmp_path):
    view = make_view()
    view.chunk_store = chunks.ChunkStore(tmp_path)  # nothing cached
    view.show_itinerary(road, route=route66, online=False)
    assert view.city_map_document is None
    elements = [Element.model_validate(e) for e in json.loads(ROUTE66_MAP.read_text(encoding="utf-8"))]
    cell = (35, -113)  # Seligman's: the plan fetched it since
    view.chunk_store.save(chunks.Chunk(cell, datetime.now(timezone.utc), (),
                                       layers=build_road_layers(elements, chunks.cell_box(cell))))
    view.show_itinerary(road, route=route66, online=False)
    assert {s["name"] for s in view.city_map_document["streets"]} == {"I 40"}
