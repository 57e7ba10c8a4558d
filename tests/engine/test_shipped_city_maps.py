"""Issue 32 §4: the four shipped cities carry their own map — main streets with their names, parks,
Tokyo's JR Yamanote Line and stations — hand-made from published coordinates
(fixtures/cities/maps/, fixtures/README.md), in the layer format a fetched pack keeps. Held here
against facts the repository already has: each park holds the fixture venue of its name, the
streets pass their landmarks, and nothing lies in the basemap's GSHHG water. The app's map view and
the HTML export find them like a pack's (PackStore.city_map)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from shapely.geometry import LineString, Point, Polygon, shape

from engine.catalog.catalog import default_catalog
from engine.export.html_document import map_document
from engine.geo import distance_m
from engine.maps.city_map import CityLayers, shipped_city_layers
from engine.places.pack_store import PackStore

ROOT = Path(__file__).resolve().parents[2]
WATER = json.loads((ROOT / "resources" / "basemap" / "water.geojson").read_text(encoding="utf-8"))["features"]
CITIES = ("Paris", "Rome", "New York", "Tokyo")
# (city, street, landmark venue of the fixtures, at most metres from the street)
ON_THE_STREET = [("Paris", "Avenue des Champs-Élysées", "Arc de Triomphe", 150),
                 ("Paris", "Avenue de l'Opéra", "Palais Garnier (Opéra)", 200),
                 ("Rome", "Via del Corso", "Galleria Doria Pamphilj", 100),
                 ("Rome", "Via dei Fori Imperiali", "Colosseum", 200),  # it ends at the amphitheatre
                 ("New York", "Broadway", "Times Square", 100),
                 ("New York", "Fifth Avenue", "Empire State Building Observatory", 100),
                 ("New York", "42nd Street", "Grand Central Terminal", 150),
                 ("Tokyo", "Chuo-dori", "Ginza shopping district", 150),
                 ("Tokyo", "JR Yamanote Line", "Tokyo Station Marunouchi Building", 150)]


def _metres(line: LineString, lat: float, lon: float) -> float:
    nearest = line.interpolate(line.project(Point(lon, lat)))
    return distance_m(lat, lon, nearest.y, nearest.x)


@pytest.fixture(scope="module")
def catalog():
    return default_catalog()


@pytest.mark.parametrize("name", CITIES)
def test_each_shipped_city_has_named_streets_and_parks(name):
    layers = shipped_city_layers(name)
    assert isinstance(layers, CityLayers) and not layers.is_empty()
    assert len(layers.streets) >= 5 and all(s.name and len(s.coordinates) >= 2 for s in layers.streets)
    assert len(layers.parks) >= 2 and all(Polygon(p.rings[0]).is_valid for p in layers.parks)
    assert layers.water == [] and layers.rivers == []  # the basemap's GSHHG water is drawn under them


@pytest.mark.parametrize("name", CITIES)
def test_each_park_holds_the_fixture_venue_of_its_name(catalog, name):
    venues = {v.name: v for v in catalog.city(name).raw.venues}
    held = 0
    for park in shipped_city_layers(name).parks:
        area = Polygon(park.rings[0])
        for venue_name, venue in venues.items():
            if park.name.split(" and ")[0].lower() in venue_name.lower():
                assert area.contains(Point(venue.geo.lon, venue.geo.lat)), (park.name, venue_name)
                held += 1
    assert held >= 2


@pytest.mark.parametrize("name, street, landmark, metres", ON_THE_STREET)
def test_the_streets_pass_their_landmarks(catalog, name, street, landmark, metres):
    layers = shipped_city_layers(name)
    line = next(LineString(s.coordinates) for s in [*layers.streets, *layers.rail] if s.name == street)
    venue = next(v for v in catalog.city(name).raw.venues if v.name == landmark)
    assert _metres(line, venue.geo.lat, venue.geo.lon) <= metres


@pytest.mark.parametrize("name", CITIES)
def test_nothing_lies_in_the_water_or_outside_the_citys_box(name):
    layers = shipped_city_layers(name)
    land = next(shape(f["geometry"]) for f in WATER if f["properties"] == {"kind": "land", "city": name})
    water = [shape(f["geometry"]) for f in WATER if f["properties"]["city"] == name and f["properties"]["kind"] == "water"]
    points = [Point(c) for s in [*layers.streets, *layers.rail] for c in s.coordinates]
    points += [Point(c) for p in layers.parks for c in p.rings[0]] + [Point(s.lon, s.lat) for s in layers.stations]
    assert all(land.contains(p) for p in points)
    assert not any(w.contains(p) for w in water for p in points)


@pytest.mark.parametrize("name", CITIES)
def test_no_street_or_railway_runs_through_a_park(name):
    """A street may run along a park's edge (Fifth Avenue along Central Park), never across its
    inside: each park less a 20 m margin meets none of them."""
    layers = shipped_city_layers(name)
    for line in [*layers.streets, *layers.rail]:
        for park in layers.parks:
            assert LineString(line.coordinates).intersection(Polygon(park.rings[0]).buffer(-0.0002)).is_empty, \
                (line.name, park.name)


def test_a_city_with_neither_pack_nor_shipped_map_has_none(tmp_path):
    assert shipped_city_layers("Lisbon") is None
    assert PackStore(tmp_path).city_map("Lisbon") is None
    assert PackStore(tmp_path).city_map("paris") == shipped_city_layers("Paris")  # by the catalog's name


def test_the_html_export_of_a_paris_trip_carries_its_streets_and_parks():
    from tests.widgets.test_map_layers import city_trip
    document = map_document(city_trip())
    assert {s["name"] for s in document["city_map"]["streets"]} >= {"Rue de Rivoli", "Avenue des Champs-Élysées"}
    assert "Jardin du Luxembourg" in {p["name"] for p in document["city_map"]["parks"]}
