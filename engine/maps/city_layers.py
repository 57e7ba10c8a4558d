"""A city's own map (issue 32 §4): its water and shore, parks, main streets with their names, rail
lines and stations, read from OpenStreetMap with the city pack and drawn by the built-in map.

``build_city_layers(elements, box)`` takes the elements of ``engine.places.overpass.city_map_query``
(ways with their ``geometry``, station nodes) and keeps what a planner reads at city zoom:

- ``water``: lakes and river areas (``natural=water``), and the sea, made from the coastline (OSM
  draws the coastline with the land on its left: the pieces of the box on its right are water);
- ``rivers``: river and canal lines; ``parks``: named parks and gardens;
- ``streets``: the named motorways, trunk, primary and secondary roads, one street's ways merged;
- ``rail``: rail, subway, light-rail and tram lines; ``stations``: named stations and halts.

Every geometry is cut to the pack's box, simplified (``TOLERANCE_DEG``, ~5 m, doubled until the
whole map holds at most ``MAX_VERTICES`` points) and rounded to 5 decimals (~1 m), so a large city's
map stays a few hundred KB in its pack. Coordinates are GeoJSON's order, ``[lon, lat]``.
The layers' model and ``layers_document`` (the part of the map document the page draws) live in
``city_map.py``, free of shapely.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any, Protocol

import shapely
from shapely.geometry import LineString, MultiLineString, Polygon, box as shapely_box
from shapely.geometry.base import BaseGeometry
from shapely.ops import linemerge, polygonize, unary_union

from engine.geo import BBox

from .city_map import CityLayers, Coords, MapArea, MapLine, MapStation

TOLERANCE_DEG = 0.00005
MAX_VERTICES = 60_000
MIN_AREA_DEG2 = 2e-7  # ~0.2 ha at mid-latitudes: smaller ponds and squares are not drawn
STREET_KINDS = ("motorway", "trunk", "primary", "secondary")
RAIL_KINDS = ("rail", "subway", "light_rail", "tram")
# A road trip's corridor chunk keeps less, coarser (``build_road_layers``): read at region zoom.
ROAD_KINDS = ("motorway", "trunk", "primary")
ROAD_TOLERANCE_DEG = 0.0005  # ~50 m
ROAD_MAX_VERTICES = 12_000  # per 1° cell
ROAD_MIN_AREA_DEG2 = 1e-5  # ~10 ha: the lakes and reservoirs seen from the road, not the ponds



class MapElement(Protocol):
    """What is read of an Overpass element (``engine.places.overpass.Element`` is one)."""

    @property
    def type(self) -> str: ...
    @property
    def lat(self) -> float | None: ...
    @property
    def lon(self) -> float | None: ...
    @property
    def tags(self) -> dict[str, str]: ...
    @property
    def geometry(self) -> Any: ...  # points with ``lat``/``lon`` (None where Overpass left one out)


def _line(element: MapElement) -> LineString | None:
    points = [(p.lon, p.lat) for p in element.geometry or () if p is not None]
    return LineString(points) if len(points) >= 2 else None


def _area(line: LineString) -> Polygon | None:
    if not line.is_closed or len(line.coords) < 4:
        return None
    polygon = Polygon(line.coords)
    return polygon if polygon.is_valid else polygon.buffer(0)


def _sea(coast: list[LineString], frame: Polygon) -> list[Polygon]:
    """The pieces of ``frame`` the coastline leaves on its right: OSM draws it with land on the left."""
    if not coast:
        return []
    merged = linemerge(MultiLineString(coast)) if len(coast) > 1 else coast[0]
    inside = merged.intersection(frame)
    if inside.is_empty:
        return []
    segments = [seg for part in getattr(inside, "geoms", [inside]) if isinstance(part, LineString)
                for seg in _segments(part)]
    faces = list(polygonize(unary_union([frame.boundary, inside])))
    sea = []
    for face in faces:
        if face.boundary.intersection(inside).length < 1e-9:
            continue  # not bounded by the coast (a coastline broken off inside the box floods nothing)
        probe = face.representative_point()
        start, end = min(segments, key=lambda s: LineString(s).distance(probe))
        cross = (end[0] - start[0]) * (probe.y - start[1]) - (end[1] - start[1]) * (probe.x - start[0])
        if cross < 0:  # right of the coastline's direction
            sea.append(face)
    return sea


def _segments(line: LineString) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    coords = list(line.coords)
    return [(coords[i], coords[i + 1]) for i in range(len(coords) - 1)]


def _coords(geometry: BaseGeometry) -> Coords:
    return [(round(x, 5), round(y, 5)) for x, y in geometry.coords]


def _polygons(geometry: BaseGeometry, min_area: float = MIN_AREA_DEG2) -> list[Polygon]:
    parts = getattr(geometry, "geoms", [geometry])
    return [p for p in parts if isinstance(p, Polygon) and p.area >= min_area]


def _lines(geometry: BaseGeometry) -> list[LineString]:
    parts = getattr(geometry, "geoms", [geometry])
    return [p for p in parts if isinstance(p, LineString) and len(p.coords) >= 2]


class _Raw:
    """The clipped, unsimplified shapes, simplified together until the map fits its bound."""

    def __init__(self) -> None:
        self.areas: dict[str, list[tuple[str, str, Polygon]]] = {"water": [], "parks": []}
        self.lines: dict[str, list[tuple[str, str, LineString]]] = {"rivers": [], "streets": [], "rail": []}
        self.stations: list[MapStation] = []

    def vertices(self, tolerance: float, min_area: float) -> int:
        """``self.layers(tolerance, min_area).vertices()`` without making the layers (the bound's loop)."""
        count = len(self.stations)
        for items in self.areas.values():
            for _, _, shape in items:
                count += sum(len(p.exterior.coords) + sum(len(r.coords) for r in p.interiors)
                             for p in _polygons(shape.simplify(tolerance), min_area))
        for items in self.lines.values():
            shapes = [shape for _, _, shape in items]
            simple = shapely.simplify(shapes, tolerance) if shapes else []
            for shape in simple:
                if isinstance(shape, (LineString, MultiLineString)):
                    count += int(shapely.get_num_coordinates(shape)) if not shape.is_empty else 0
                else:
                    count += sum(len(p.coords) for p in _lines(shape))
        return count

    def layers(self, tolerance: float, min_area: float = MIN_AREA_DEG2) -> CityLayers:
        areas = {layer: [MapArea(kind=kind, name=name,
                                 rings=[_coords(poly.exterior), *(_coords(ring) for ring in poly.interiors)])
                         for kind, name, shape in items
                         for poly in _polygons(shape.simplify(tolerance), min_area)]
                 for layer, items in self.areas.items()}
        lines = {layer: [MapLine(kind=kind, name=name, coordinates=_coords(part))
                         for kind, name, shape in items for part in _lines(shape.simplify(tolerance))]
                 for layer, items in self.lines.items()}
        return CityLayers(water=areas["water"], parks=areas["parks"], rivers=lines["rivers"],
                          streets=lines["streets"], rail=lines["rail"], stations=self.stations)


def build_city_layers(elements: Iterable[MapElement], box: BBox, *, max_vertices: int = MAX_VERTICES) -> CityLayers:
    return _build(elements, box, road=False, max_vertices=max_vertices)


def build_road_layers(elements: Iterable[MapElement], box: BBox, *,
                      max_vertices: int = ROAD_MAX_VERTICES) -> CityLayers:
    """A corridor cell's map (``engine.places.overpass_query.CORRIDOR_MAP_STATEMENTS``): water, the
    sea, rivers and the motorways, trunk and primary roads labelled by their ref ("I 40") or name,
    coarser than a city's (``ROAD_TOLERANCE_DEG``, lakes from ``ROAD_MIN_AREA_DEG2``)."""
    return _build(elements, box, road=True, max_vertices=max_vertices)


def _build(elements: Iterable[MapElement], box: BBox, *, road: bool, max_vertices: int) -> CityLayers:
    frame = shapely_box(box.west, box.south, box.east, box.north)
    raw = _Raw()
    coast: list[LineString] = []
    streets: dict[tuple[str, str], list[LineString]] = defaultdict(list)
    for element in elements:
        tags = element.tags
        if element.type == "node":
            if not road and tags.get("name") and element.lat is not None and element.lon is not None \
                    and box.contains(element.lat, element.lon):
                raw.stations.append(MapStation(name=tags["name"], lat=round(element.lat, 5), lon=round(element.lon, 5)))
            continue
        line = _line(element)
        if line is None:
            continue
        name = tags.get("name", "")
        if tags.get("natural") == "coastline":
            coast.append(line)
        elif tags.get("natural") == "water" or (not road and tags.get("leisure") in ("park", "garden")):
            area = _area(line)
            if area is not None:
                layer = "water" if tags.get("natural") == "water" else "parks"
                kind = tags.get("water", "water") if layer == "water" else tags["leisure"]
                raw.areas[layer].append((kind, name, area.intersection(frame)))
        elif tags.get("waterway") in (("river",) if road else ("river", "canal")):
            raw.lines["rivers"].append((tags["waterway"], name, line.intersection(frame)))
        elif road and tags.get("highway") in ROAD_KINDS:
            streets[(tags["highway"], tags.get("ref") or name)].append(line)
        elif road:
            continue  # a road map keeps no parks nor rail
        elif tags.get("highway") in STREET_KINDS and name:
            streets[(tags["highway"], name)].append(line)
        elif tags.get("railway") in RAIL_KINDS:
            raw.lines["rail"].append((tags["railway"], name, line.intersection(frame)))
    raw.areas["water"] += [("sea", "", piece) for piece in _sea(coast, frame)]
    for (kind, name), ways in streets.items():  # one street's ways, joined where they meet
        merged = linemerge(MultiLineString(ways)) if len(ways) > 1 else ways[0]
        raw.lines["streets"].append((kind, name, merged.intersection(frame)))
    tolerance, min_area = (ROAD_TOLERANCE_DEG, ROAD_MIN_AREA_DEG2) if road else (TOLERANCE_DEG, MIN_AREA_DEG2)
    while raw.vertices(tolerance, min_area) > max_vertices and tolerance < 0.01:
        tolerance *= 2
    return raw.layers(tolerance, min_area)
