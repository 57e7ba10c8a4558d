"""Small geodesy helpers for in-city distances (road trips use pyproj geodesics)."""

from __future__ import annotations

from math import asin, cos, radians, sin, sqrt

from engine.models import Geo

EARTH_RADIUS_M = 6_371_008.8


def haversine_m(a: Geo, b: Geo) -> float:
    lat1, lon1, lat2, lon2 = map(radians, (a.lat, a.lon, b.lat, b.lon))
    h = sin((lat2 - lat1) / 2) ** 2 + cos(lat1) * cos(lat2) * sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_M * asin(min(1.0, sqrt(h)))
