"""Corridor measurement on a projected polyline: the projection fitted to a route and the miles
measured on it (``ProjectedLine``, shared by named routes and the direct corridor).

Distances are computed on the route's polyline projected to a plane with an **equidistant conic**
(``+proj=eqdc``, WGS84 ellipsoid) fitted to the route: standard parallels at 1/6 and 5/6 of the
route's latitude span, origin at the centre of its bounding box. An equidistant conic is exact
along meridians and exact along the two standard parallels; everywhere else its only distortion
is the scale along parallels, which depends on latitude alone (not on longitude). So one
projection serves a 2,200-mile east-west route such as Route 66 (latitude span ~8 degrees: scale
error within about +/-0.05%) as well as a compact one, where a single azimuthal-equidistant
projection centred on the midpoint would be ~1% off at the ends of Route 66. Lengths,
along-route progress and perpendicular offsets agree with ``pyproj.Geod(ellps="WGS84")`` to well
within 0.5% (``tests/engine/test_routes.py`` measures it). Straight projected segments stand in
for geodesic ones; the fixtures keep segments short (a few miles), where the two coincide to
metres.

Transformers are built once per projection string (``lru_cache``); a measurement is one pyproj
point transform plus one GEOS call on a prepared line, a few tens of microseconds.
"""

from __future__ import annotations

from functools import lru_cache

import shapely
from pyproj import Transformer
from shapely.geometry import Point
from shapely.ops import substring

METERS_PER_MILE = 1609.344


# -- projection ---------------------------------------------------------------------------------
def route_projection(lonlats: list[tuple[float, float]]) -> str:
    """PROJ string of the equidistant conic fitted to a (lon, lat) point set (see module doc)."""
    lons = [p[0] for p in lonlats]
    lats = [p[1] for p in lonlats]
    lat_min, lat_max = min(lats), max(lats)
    span = lat_max - lat_min
    lat_1 = lat_min + span / 6.0
    lat_2 = lat_max - span / 6.0
    lat_0 = (lat_min + lat_max) / 2.0
    lon_0 = (min(lons) + max(lons)) / 2.0
    if abs(lat_1 + lat_2) < 1.0:
        # a cone symmetric about the equator degenerates; near the equator the plate carree with
        # true scale at the mid-latitude is as good (no fixture needs this today)
        return f"+proj=eqc +lat_ts={lat_0:.6f} +lon_0={lon_0:.6f} +ellps=WGS84 +units=m +no_defs"
    return (f"+proj=eqdc +lat_0={lat_0:.6f} +lon_0={lon_0:.6f} +lat_1={lat_1:.6f} "
            f"+lat_2={lat_2:.6f} +ellps=WGS84 +units=m +no_defs")


@lru_cache(maxsize=64)
def transformers(proj: str) -> tuple[Transformer, Transformer]:
    """(lon, lat) degrees <-> projected metres. Written as PROJ pipelines rather than ``from_crs``
    ("EPSG:4326" → proj): the same operations and the same numbers, without opening PROJ's CRS
    database (~15-60 ms of a CLI process's first corridor)."""
    step = proj.replace(" +no_defs", "")
    fwd = Transformer.from_pipeline(f"+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad +step {step}")
    inv = Transformer.from_pipeline(f"+proj=pipeline +step +inv {step} +step +proj=unitconvert +xy_in=rad +xy_out=deg")
    return fwd, inv


# -- measurement on a projected polyline ---------------------------------------------------------
MEMO_POINTS = 50_000  # projections kept per line (a long session's towns and places)


class ProjectedLine:
    """Corridor measurements in miles on a polyline already projected to a plane; shared by named
    routes and the direct corridor. Needs ``_line`` (prepared LineString), ``_length_m``, and the
    ``_fwd``/``_inv`` transformers of its projection."""

    __slots__ = ()

    def length_miles(self) -> float:
        return self._length_m / METERS_PER_MILE

    def _xy(self, lat: float, lon: float) -> Point:
        x, y = self._fwd.transform(lon, lat)
        return Point(x, y)

    def _answers(self) -> dict:
        """Projections already made on this line (a GEOS projection on a long route walks every
        vertex, ~0.5 ms; a plan asks for the same towns' again and again), at most
        :data:`MEMO_POINTS` kept."""
        memo = self._memo if hasattr(self, "_memo") else self.__dict__
        found = memo.get("answers")
        if found is None or len(found) >= MEMO_POINTS:
            found = memo["answers"] = {}
        return found

    def progress_miles(self, lat: float, lon: float) -> float:
        """Distance along the route, from its start, of the point's projection onto the centreline."""
        answers = self._answers()
        found = answers.get((lat, lon))
        if found is None:
            found = answers[(lat, lon)] = self._line.project(self._xy(lat, lon)) / METERS_PER_MILE
        return found

    def offset_miles(self, lat: float, lon: float) -> float:
        """Shortest distance from the point to the centreline."""
        return self._line.distance(self._xy(lat, lon)) / METERS_PER_MILE

    def measure(self, lat: float, lon: float) -> tuple[float, float]:
        """``(progress_miles, offset_miles)`` with a single projection of the point."""
        p = self._xy(lat, lon)
        return (self._line.project(p) / METERS_PER_MILE, self._line.distance(p) / METERS_PER_MILE)

    def measure_many(self, lats, lons):
        """``(progress_miles, offset_miles)`` arrays for many points at once (numpy): each point
        measured on its nearest segment of the line (an STR tree of the segments, built once), so
        thousands of OpenStreetMap places take milliseconds, not a scan of every vertex each."""
        import numpy as np
        xs, ys = self._fwd.transform(np.asarray(lons, dtype=float), np.asarray(lats, dtype=float))
        points = shapely.points(xs, ys)
        if len(points) == 0:
            return np.zeros(0), np.zeros(0)
        segments, before, tree = self._segments()
        nearest = tree.query_nearest(points, all_matches=False)[1]
        along = before[nearest] + shapely.line_locate_point(segments[nearest], points)
        return along / METERS_PER_MILE, shapely.distance(segments[nearest], points) / METERS_PER_MILE

    def _segments(self):
        """The line's segments, the length before each and their STR tree (memoised)."""
        import numpy as np
        memo = self._memo if hasattr(self, "_memo") else self.__dict__
        found = memo.get("segments")
        if found is None:
            coords = shapely.get_coordinates(self._line)
            segments = shapely.linestrings(np.stack([coords[:-1], coords[1:]], axis=1))
            lengths = shapely.length(segments)
            before = np.concatenate([[0.0], np.cumsum(lengths)[:-1]])
            found = memo["segments"] = (segments, before, shapely.STRtree(segments))
        return found

    def point_at(self, progress_miles: float) -> tuple[float, float]:
        """``(lat, lon)`` of the centreline point at this progress (clamped to the route)."""
        answers = self._answers()
        found = answers.get(progress_miles)
        if found is None:
            d = min(max(progress_miles * METERS_PER_MILE, 0.0), self._length_m)
            p = self._line.interpolate(d)
            lon, lat = self._inv.transform(p.x, p.y)
            found = answers[progress_miles] = (lat, lon)
        return found

    def path(self, start_miles: float, end_miles: float, max_points: int = 200) -> list[tuple[float, float]]:
        """The centreline between two progress values as (lat, lon), in travel order, thinned to
        ``max_points``: the driven geometry of a road-trip day."""
        a, b = sorted((start_miles * METERS_PER_MILE, end_miles * METERS_PER_MILE))
        piece = substring(self._line, a, b)
        coords = list(piece.coords) if piece.geom_type == "LineString" else [piece.coords[0]]
        if len(coords) > max_points:
            step = len(coords) / max_points
            coords = [coords[int(i * step)] for i in range(max_points)] + [coords[-1]]
        lons, lats = self._inv.transform([c[0] for c in coords], [c[1] for c in coords])
        points = list(zip(lats, lons))
        return points if start_miles <= end_miles else points[::-1]
