"""A road trip's own map (issue 32 §4): each corridor chunk keeps the main roads and water of its
cell, fetched in the same Overpass query as its sights and beds, and the road trip's map document
carries the layers of the chunks along its route; a chunk written before maps were still reads.
The Overpass stand-in on 127.0.0.1 serves ``tests/data/osm/colorado_corridor_map.json`` (hand-made,
coarse, from published coordinates: see tests/data/osm/README.md) beside ``colorado_utah.json``."""

from __future__ import annotations

import asyncio
import gzip
import json
import os
from datetime import date, datetime, timezone
from pathlib import Path

import pytest

from engine.export.html_document import map_document
from engine.geo import BBox
from engine.maps.city_map import CityLayers
from engine.models import RoadTripIntent
from engine.pipeline import PlanningSession
from engine.places import corridor as chunks
from engine.places.corridor_map import corridor_map
from engine.places.overpass_query import corridor_query
from tests.overpass_standin import OverpassStandIn

DATA = Path(__file__).resolve().parents[1] / "data" / "osm"
TODAY = date(2026, 11, 23)
I70_TRACK = [(39.7392, -104.9903), (39.7555, -105.2211), (39.6797, -105.9222), (39.5744, -106.0975),
             (39.6403, -106.3742), (39.6553, -106.8287), (39.5505, -107.3248), (39.5347, -107.7831),
             (39.1103, -108.3509), (39.0639, -108.5506), (39.2230, -108.8634), (38.9697, -109.3207),
             (38.5733, -109.5498), (38.9491, -109.8245), (39.2700, -110.3400), (39.5994, -110.8107),
             (39.9297, -111.0796), (40.1149, -111.6549), (40.5649, -111.8389), (40.7608, -111.8910)]
GLENWOOD, DILLON = (39.5505, -107.3248), (39.61, -106.06)


def load(name: str) -> list[dict]:
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


@pytest.fixture()
def planned(tmp_path_factory, monkeypatch):
    """Denver to Salt Lake City planned online against the stand-in, in a data dir of its own."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("TRIPWRIGHT_HOME", str(home))
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)
    monkeypatch.delenv("TRIPWRIGHT_ROUTING_URL", raising=False)
    with OverpassStandIn(elements=load("colorado_utah") + load("colorado_corridor_map")) as server:
        monkeypatch.setenv("TRIPWRIGHT_OVERPASS_URL", server.interpreter_url)
        monkeypatch.setenv("TRIPWRIGHT_OVERPASS_TIMEOUT_S", "2")
        from engine.geocode import GazetteerIndex
        intent = RoadTripIntent(origin="Denver", terminus="Salt Lake City", days=3, start_date=date(2027, 5, 3),
                                route_track=I70_TRACK, route_track_name="I-70 and US-6 via Moab",
                                stops=["Grand Junction, CO", "Moab, UT"])
        session = PlanningSession(today=TODAY, geocoder=GazetteerIndex.open(os.environ["TRIPWRIGHT_HOME"]))
        result = asyncio.run(session.plan(intent))
        assert result.status == "completed", result.failure and result.failure.message
        yield result, server


def test_the_corridor_query_asks_the_main_roads_and_water_with_their_geometry() -> None:
    ql = corridor_query([BBox.from_swne(39.0, -108.0, 40.0, -105.0)])
    assert 'way["highway"~"^(motorway|trunk)$"](39.0' in ql and 'way["waterway"="river"](39.0' in ql
    assert ql.count("out geom tags") == 3 and ql.count("out bb tags") == 3


def test_each_chunk_keeps_its_cells_roads_and_water_cut_to_the_cell(planned) -> None:
    result, server = planned
    assert len(server.seen) <= 6  # the map came in the corridor queries: no request more
    store = chunks.ChunkStore()
    glenwood = store.load(chunks.cell_of(*GLENWOOD)).layers
    assert {(s.kind, s.name) for s in glenwood.streets} == {("motorway", "I 70")}  # labelled by its ref
    assert [r.name for r in glenwood.rivers] == ["Colorado River"]
    dillon = store.load(chunks.cell_of(*DILLON)).layers
    assert [(w.kind, w.name) for w in dillon.water] == [("reservoir", "Dillon Reservoir")]  # not the pond
    assert not dillon.parks and not dillon.rail and not dillon.stations
    assert "Main Street" not in {s.name for s in dillon.streets}  # a residential street is no main road
    for cell in (chunks.cell_of(*GLENWOOD), chunks.cell_of(*DILLON)):
        box = chunks.cell_box(cell)
        layers = store.load(cell).layers
        points = [p for line in [*layers.streets, *layers.rivers] for p in line.coordinates]
        points += [p for area in layers.water for ring in area.rings for p in ring]
        assert points and all(box.west - 1e-5 <= lon <= box.east + 1e-5 and box.south - 1e-5 <= lat <= box.north + 1e-5
                              for lon, lat in points)
    # the sights and beds of the same chunk are as before: a map way is no place
    assert not any(p.name in ("Colorado River", "Dillon Reservoir") for p in store.load(chunks.cell_of(*GLENWOOD)).places)


def test_the_road_trips_map_document_carries_the_layers_along_its_route(planned) -> None:
    result, _ = planned
    document = map_document(result.itinerary)
    layers = document["city_map"]
    assert layers is not None
    assert {s["name"] for s in layers["streets"]} >= {"I 70", "US 6"}
    assert "Colorado River" in {r["name"] for r in layers["rivers"]}
    assert "Dillon Reservoir" in {w["name"] for w in layers["water"]}
    i70 = [p for s in layers["streets"] if s["name"] == "I 70" for p in s["coordinates"]]
    assert min(lon for lon, _ in i70) < -108.3 and max(lon for lon, _ in i70) > -105.3  # cells all along


def _old_chunk(home: Path, cell: chunks.Cell) -> None:
    """A chunk file as written before maps were: format 1, no ``layers``."""
    doc = {"format": 1, "cell": list(cell), "fetched_at": datetime.now(timezone.utc).isoformat(),
           "osm_base": "2026-11-20T10:00:00Z", "source_url": "http://127.0.0.1/api/interpreter", "truncated": False,
           "places": [["node", 42, "sight", "osm_node_42", "viewpoint", "Old Overlook", 39.55, -107.3,
                       json.dumps({"tourism": "viewpoint", "name": "Old Overlook"}), 1.0]]}
    folder = home / chunks.FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{chunks.cell_key(cell)}.json.gz").write_bytes(gzip.compress(json.dumps(doc).encode()))


def test_a_chunk_written_before_maps_were_still_reads_without_a_map(tmp_path) -> None:
    cell = chunks.cell_of(*GLENWOOD)
    _old_chunk(tmp_path, cell)
    store = chunks.ChunkStore(tmp_path)
    old = store.load(cell)
    assert old is not None and [p.name for p in old.places] == ["Old Overlook"] and old.layers is None
    assert corridor_map([(GLENWOOD[1], GLENWOOD[0]), (GLENWOOD[1] + 0.1, GLENWOOD[0])], store=store) is None


def test_a_chunk_saved_with_its_map_reads_it_back(tmp_path) -> None:
    cell = chunks.cell_of(*GLENWOOD)
    layers = CityLayers.model_validate({"rivers": [{"kind": "river", "name": "Colorado River",
                                                    "coordinates": [[-107.33, 39.55], [-107.54, 39.57]]}]})
    store = chunks.ChunkStore(tmp_path)
    store.save(chunks.Chunk(cell, datetime.now(timezone.utc), (), layers=layers))
    assert store.load(cell).layers == layers
    assert corridor_map([(-107.4, 39.56)], store=store) == layers
