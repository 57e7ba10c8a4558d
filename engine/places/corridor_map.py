"""A road trip's own offline map (issue 32 §4): the main roads and water of the corridor cells along
its route, as the corridor chunks keep them (``corridor.Chunk.layers``), merged into one ``CityLayers``
the map draws as it draws a city's. Only cached cells answer: nothing is fetched here."""

from __future__ import annotations

import math
from collections.abc import Iterable

from engine.maps.city_map import CityLayers, merged_layers

from .corridor import ChunkStore, cells_along

ROUTE_BAND_MILES = 10.0  # the cells within this of the road: the map a driver reads along it
STEP_DEG = 0.25  # a long straight stretch (a day's line from town to town) is walked in steps of this


def corridor_map(route_polyline: Iterable[tuple[float, float]], *, store: ChunkStore | None = None,
                 band_miles: float = ROUTE_BAND_MILES) -> CityLayers | None:
    """The merged layers of the cached cells along ``route_polyline`` ((lon, lat) pairs, as the
    route keeps them), or None when none of them has a map (not fetched, or fetched before maps were)."""
    points = _dense([(float(lat), float(lon)) for lon, lat in route_polyline])
    if not points:
        return None
    store = store or ChunkStore()
    chunks = [store.load(cell) for cell in cells_along(points, band_miles)]
    return merged_layers([c.layers for c in chunks if c is not None and c.layers is not None])


def _dense(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The points with any stretch longer than ``STEP_DEG`` cut, so no cell it crosses is skipped."""
    out = points[:1]
    for (lat0, lon0), (lat1, lon1) in zip(points, points[1:]):
        steps = max(1, math.ceil(max(abs(lat1 - lat0), abs(lon1 - lon0)) / STEP_DEG))
        out += [(lat0 + (lat1 - lat0) * k / steps, lon0 + (lon1 - lon0) * k / steps) for k in range(1, steps + 1)]
    return out
