"""Issue 32 §4: a city pack carries the city's own map — water and shore, parks, main streets with
their names, rail and stations — fetched with the pack from the Overpass stand-in (hand-made,
approximate Lisbon geometry: tests/data/osm/README.md), simplified and bounded, stored in the pack;
a pack written before it still reads."""

from __future__ import annotations

import asyncio
import gzip
import json
from pathlib import Path

import pytest
from shapely.geometry import Point, Polygon

from engine.geo import BBox
from engine.maps.city_layers import build_city_layers
from engine.places.city_spec import resolve_city
from engine.places.fetch import PackFetcher, city_box
from engine.places.overpass import Element, city_map_query, parse_answer
from engine.places.pack_store import PackStore
from engine.geocode import default_gazetteer
from engine.net.network import NetworkState
from engine.tools.executor import ToolExecutor
from tests.overpass_standin import OverpassStandIn, Reply, load_lisbon

LISBON_MAP = Path(__file__).parents[1] / "data" / "osm" / "lisbon_map.json"
TAGUS = (38.6950, -9.1600)       # mid-river between Cais do Sodré and Almada
BAIXA = (38.7110, -9.1370)       # the Baixa, on the north bank
ALMADA = (38.6700, -9.1600)      # the south bank


def lisbon_map() -> list[dict]:
    return json.loads(LISBON_MAP.read_text(encoding="utf-8"))


@pytest.fixture()
def server(monkeypatch):
    standin = OverpassStandIn(elements=load_lisbon() + lisbon_map()).start()
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)
    monkeypatch.setenv("TRIPWRIGHT_OVERPASS_URL", standin.interpreter_url)
    monkeypatch.setenv("TRIPWRIGHT_OVERPASS_TIMEOUT_S", "2")
    yield standin
    standin.stop()


def fetch(home):
    spec = resolve_city("Lisbon", default_gazetteer())
    return asyncio.run(PackFetcher(PackStore(home), NetworkState(), ToolExecutor()).ensure(spec)).pack


def _water(layers) -> list[Polygon]:
    return [Polygon(a.rings[0], a.rings[1:]) for a in layers.water]


def _wet(layers, lat: float, lon: float) -> bool:
    return any(p.contains(Point(lon, lat)) for p in _water(layers))


def test_the_standin_answers_out_geom_with_each_ways_points_and_bounds():
    standin = OverpassStandIn(elements=lisbon_map())
    box = BBox.from_swne(38.70, -9.16, 38.74, -9.12)
    try:
        answer = standin.answer(city_map_query(box))
    finally:
        standin.stop()
    liberdade = [e for e in answer["elements"] if e.get("tags", {}).get("name") == "Avenida da Liberdade"]
    assert len(liberdade) == 2 and all(set(e) == {"type", "id", "bounds", "geometry", "tags"} for e in liberdade)
    first = liberdade[0]
    assert first["geometry"][0] == {"lat": 38.7155, "lon": -9.1415}
    assert first["bounds"] == {"minlat": 38.7155, "minlon": -9.1461, "maxlat": 38.7210, "maxlon": -9.1415}
    # the coastline's centre lies outside this small box, but the line crosses it: Overpass finds it
    assert any(e.get("tags") == {"natural": "coastline"} for e in answer["elements"])
    stations = [e for e in answer["elements"] if e["type"] == "node"]
    assert {s["tags"]["name"] for s in stations} == {"Cais do Sodré", "Rossio", "Santa Apolónia"}
    assert all("lat" in s and "lon" in s for s in stations)
    parsed = parse_answer(json.dumps(answer).encode())
    assert parsed.elements[0].geometry and parsed.elements[0].geometry[0].lat > 38


def test_a_fetched_pack_carries_lisbons_water_park_streets_rail_and_stations(server, tmp_path):
    pack = fetch(tmp_path)
    layers = pack.city_map
    assert layers is not None
    assert _wet(layers, *TAGUS) and not _wet(layers, *BAIXA) and not _wet(layers, *ALMADA)
    assert [p.name for p in layers.parks] == ["Parque Eduardo VII"]
    streets = {s.name: s for s in layers.streets}
    assert set(streets) == {"Avenida da Liberdade", "Avenida 24 de Julho", "Avenida da República",
                            "Avenida Infante Dom Henrique"}  # the street without a name is left out
    # the avenue's two ways are joined into one line from Restauradores to the Marquês
    ends = streets["Avenida da Liberdade"].coordinates
    assert {ends[0], ends[-1]} == {(-9.1415, 38.7155), (-9.1497, 38.725)}
    assert {r.name for r in layers.rail} == {"Linha de Cascais", "Linha do Norte"}
    assert {s.name for s in layers.stations} == {"Cais do Sodré", "Rossio", "Santa Apolónia", "Oriente"}
    box = city_box(resolve_city("Lisbon", default_gazetteer()))
    for area in [*layers.water, *layers.parks]:  # everything cut to the pack's box
        xs, ys = zip(*area.rings[0])
        assert box.west - 1e-5 <= min(xs) and max(xs) <= box.east + 1e-5
        assert box.south - 1e-5 <= min(ys) and max(ys) <= box.north + 1e-5
    # two queries: the places, then the map (ways with their geometry, then the stations)
    asked = [s.ql for s in server.seen]
    assert len(asked) == 2 and "out geom" in asked[1] and "out geom" not in asked[0]
    stored = PackStore(tmp_path).load(pack.slug)
    assert stored is not None and stored.city_map == layers


def test_a_pack_written_before_the_map_still_reads(server, tmp_path):
    pack = fetch(tmp_path)
    store = PackStore(tmp_path)
    document = json.loads(pack.model_dump_json())
    del document["city_map"]
    store.path(pack.slug).write_bytes(gzip.compress(json.dumps(document).encode()))
    older = store.load(pack.slug)
    assert older is not None and older.city_map is None and len(older.places) == len(pack.places)


def test_a_map_that_cannot_be_had_leaves_a_pack_that_plans(server, tmp_path):
    server.then(Reply(), Reply(status=504), Reply(status=504))  # the places answer; the map twice refused
    pack = fetch(tmp_path)
    assert pack.city_map is None and pack.of_kind("sight")
    assert PackStore(tmp_path).load(pack.slug) is not None


def test_a_dense_city_map_is_simplified_to_its_vertex_bound():
    box = BBox.from_swne(0.0, 0.0, 0.1, 0.1)
    wiggly = []  # 200 streets of 400 points each: 80,000 points, most of them wiggles of ~20 m
    for n in range(200):
        lat = 0.001 + 0.00049 * n
        points = [{"lat": lat + (0.0002 if i % 2 else 0.0), "lon": 0.0002 * i} for i in range(400)]
        wiggly.append(Element.model_validate({"type": "way", "id": n + 1, "geometry": points,
                                              "tags": {"highway": "secondary", "name": f"Street {n}"}}))
    assert build_city_layers(wiggly, box, max_vertices=100_000).vertices() == 80_000  # within its bound: as given
    layers = build_city_layers(wiggly, box, max_vertices=5_000)
    assert layers.vertices() <= 5_000 and len(layers.streets) == 200
    assert all(len(s.coordinates) >= 2 for s in layers.streets)


def _coast(n: int, points: list[tuple[float, float]]) -> Element:
    return Element.model_validate({"type": "way", "id": n, "tags": {"natural": "coastline"},
                                   "geometry": [{"lat": lat, "lon": lon} for lat, lon in points]})


def test_the_sea_lies_right_of_the_coastline_and_a_broken_coast_floods_nothing():
    box = BBox.from_swne(0.0, 0.0, 1.0, 1.0)
    shore = build_city_layers([_coast(1, [(0.5, -0.1), (0.5, 1.1)])], box)  # west -> east: the sea is south
    assert _wet(shore, 0.25, 0.5) and not _wet(shore, 0.75, 0.5)
    island = build_city_layers([_coast(2, [(0.4, 0.4), (0.4, 0.6), (0.6, 0.6), (0.6, 0.4), (0.4, 0.4)])], box)
    assert _wet(island, 0.1, 0.1) and not _wet(island, 0.5, 0.5)  # counter-clockwise: land inside
    broken = build_city_layers([_coast(3, [(0.5, -0.1), (0.5, 0.5)])], box)  # ends in the middle of the box
    assert broken.water == []
