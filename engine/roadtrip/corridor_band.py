"""The road trip's corridor as a map draws it: the band within a width of the named route's centreline
(``corridor_band`` gives it to ``engine.maps.map_document.build_map_document``).

Buffered in the route's equidistant conic (the projection ``engine.roadtrip.routes`` measures
corridor offsets in), so the band drawn is as wide as the verifier's corridor.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import shapely
from pyproj import Transformer
from shapely.geometry import LineString, mapping

from .routes import METERS_PER_MILE, route_projection

CORRIDOR_SIMPLIFY_M = 1500.0  # well under a pixel at the zoom a 100-mile band is looked at


@lru_cache(maxsize=64)
def _transformers(proj: str) -> tuple[Transformer, Transformer]:
    return (Transformer.from_crs("EPSG:4326", proj, always_xy=True),
            Transformer.from_crs(proj, "EPSG:4326", always_xy=True))


def _rounded(coords, decimals: int):
    if isinstance(coords[0], (int, float)):
        return [round(coords[0], decimals), round(coords[1], decimals)]
    return [_rounded(c, decimals) for c in coords]


@lru_cache(maxsize=16)
def corridor_geometry(polyline: tuple[tuple[float, float], ...], width_miles: float) -> dict:
    """GeoJSON (Multi)Polygon of the band within ``width_miles`` of the (lon, lat) polyline."""
    fwd, inv = _transformers(route_projection(list(polyline)))
    xs, ys = fwd.transform([p[0] for p in polyline], [p[1] for p in polyline])
    band = LineString(list(zip(xs, ys))).buffer(width_miles * METERS_PER_MILE, quad_segs=8)
    band = shapely.simplify(band, CORRIDOR_SIMPLIFY_M, preserve_topology=True)
    lonlat = shapely.transform(band, lambda xy: _inverse(inv, xy))
    geo = mapping(lonlat)
    return {"type": geo["type"], "coordinates": _rounded(geo["coordinates"], 4)}


def _inverse(inv: Transformer, xy: np.ndarray) -> np.ndarray:
    lon, lat = inv.transform(xy[:, 0], xy[:, 1])
    return np.column_stack([lon, lat])


def corridor_band(route_polyline, route_name: str | None, width_miles: float | None) -> dict | None:
    """``{"name", "width_miles", "geometry"}`` of the band ``width_miles`` either side of the route's
    (lon, lat) centreline, or None without a line of two points or a positive width."""
    if not route_polyline or len(route_polyline) < 2 or not width_miles or width_miles <= 0:
        return None
    polyline = tuple((float(lon), float(lat)) for lon, lat in route_polyline)
    return {"name": route_name or "Route", "width_miles": float(width_miles),
            "geometry": corridor_geometry(polyline, float(width_miles))}
