"""Build water.geojson: sea, lakes and rivers at city zoom around the fixture cities (README.md here).

Not part of the app: a one-off tool. It reads GSHHG (full resolution shorelines, WDBII rivers) through
the Generic Mapping Tools, both Debian packages, with the project's venv (shapely)::

    apt-get install gmt gmt-gshhg-full
    .venv/bin/python resources/basemap/make_water.py resources/basemap/water.geojson

GMT dumps the shoreline pieces inside a box (``gmt coast -W -M``); the pieces and the box's edge are
polygonised into faces, and each face is wet or dry by where GMT's own land mask puts a point inside
it (``gmt select -N``), so lakes and islands come out right. Rivers are GMT's permanent rivers and
canals (``-Ir -Ic``) clipped to the box.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from shapely import polygonize, simplify, unary_union
from shapely.geometry import LineString, MultiLineString, box, mapping

# Each fixture city with its airports, and the coast when it is near (west, south, east, north).
CITIES = {
    "Paris": (2.00, 48.66, 2.70, 49.08),
    "Rome": (12.10, 41.65, 12.75, 42.08),
    "New York": (-74.35, 40.45, -73.60, 41.00),
    "Tokyo": (139.40, 35.40, 140.10, 35.90),
}
TOLERANCE_DEG = 0.00005  # ~5 m: far below a pixel at street zoom, a third of the points
DECIMALS = 5


def _region(bounds) -> str:
    west, south, east, north = bounds
    return f"-R{west}/{east}/{south}/{north}"


def _segments(text: str) -> list[list[tuple[float, float]]]:
    lines, current = [], []
    for row in text.splitlines():
        if row.startswith(">"):
            if len(current) > 1:
                lines.append(current)
            current = []
        elif row.strip():
            lon, lat = (float(v) for v in row.split()[:2])
            current.append((lon, lat))
    if len(current) > 1:
        lines.append(current)
    return lines


def _gmt(*args: str, stdin: str | None = None) -> str:
    return subprocess.run(["gmt", *args], input=stdin, capture_output=True, text=True, check=True).stdout


def water_of(bounds) -> object:
    frame = box(*bounds)
    shore = [LineString(s) for s in _segments(_gmt("coast", _region(bounds), "-Df", "-W", "-M"))]
    faces = list(polygonize([unary_union([frame.exterior, *shore])]).geoms)
    probes = "".join(f"{p.x} {p.y} {i}\n" for i, p in enumerate(f.representative_point() for f in faces))
    dry = {int(row.split()[2]) for row in _gmt("select", _region(bounds), "-Df", "-Ns/k/s/k/s",
                                              stdin=probes).splitlines() if row.strip()}
    wet = [face for i, face in enumerate(faces) if i not in dry]
    return unary_union(wet).intersection(frame) if wet else None


def rivers_of(bounds) -> object:
    frame = box(*bounds)
    lines = _segments(_gmt("coast", _region(bounds), "-Df", "-Ir", "-Ic", "-M"))
    clipped = MultiLineString(lines).intersection(frame)
    return None if clipped.is_empty else clipped


def _rounded(geometry) -> dict:
    def walk(value):
        if isinstance(value, (list, tuple)):
            if value and isinstance(value[0], float):
                return [round(v, DECIMALS) for v in value]
            return [walk(v) for v in value]
        return value

    shape = mapping(simplify(geometry, TOLERANCE_DEG, preserve_topology=True))
    return {"type": shape["type"], "coordinates": walk(shape["coordinates"])}


def main(target: str) -> int:
    features = []
    for city, bounds in CITIES.items():
        features.append({"type": "Feature", "properties": {"kind": "land", "city": city},
                         "geometry": _rounded(box(*bounds))})
        for kind, geometry in (("water", water_of(bounds)), ("river", rivers_of(bounds))):
            if geometry is not None and not geometry.is_empty:
                features.append({"type": "Feature", "properties": {"kind": kind, "city": city},
                                 "geometry": _rounded(geometry)})
    Path(target).write_text(json.dumps({"type": "FeatureCollection", "features": features},
                                       separators=(",", ":")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
