"""Geodesy helpers: one Earth radius, one great-circle distance, one bounding box (issue 30 §4).

Distances are the haversine formula on the IUGG mean Earth radius. It is written here rather than
called from a library on purpose: it runs on hot paths (every transit leg of a city plan; every
candidate stop and bed of a road trip, in numpy over whole arrays). bench/geo_bench.py, on this
2-core machine under a load of ~12: per pair, this function 2.1–2.7 µs, ``pyproj.Geod.inv`` 4.5 µs,
``geopy``'s ``great_circle`` 31 µs and ``geodesic`` 480 µs; over numpy arrays, :func:`haversine_rad`
0.045 µs a point against ``Geod.inv``'s 3.7–4.1 µs (~85×). It agrees with ``geopy.great_circle``
on the same radius to 1e-14. ``pyproj.Geod`` stays what road trips measure along routes with
(engine/roadtrip/routes.py, engine/geocode/trust.py), where the ellipsoid matters.

The numpy form :func:`haversine_rad` takes radians and a radius, so the road-trip code can keep
its arrays in radians and its answers in miles. Road trips used 3958.8 mi (detours) and 3958.76 mi
(beds, sights) before; :data:`EARTH_RADIUS_MILES` (3958.7613 mi, the same mean radius) replaced
both without changing any eval-scenario or road-trip itinerary (they show miles to 0.1).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import asin, cos, radians, sin, sqrt

from engine.models import Geo

EARTH_RADIUS_M = 6_371_008.8  # IUGG mean radius
METRES_PER_MILE = 1609.344
EARTH_RADIUS_KM = EARTH_RADIUS_M / 1000
EARTH_RADIUS_MILES = EARTH_RADIUS_M / METRES_PER_MILE


def _central_angle(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, l1, p2, l2 = radians(lat1), radians(lon1), radians(lat2), radians(lon2)
    h = sin((p2 - p1) / 2) ** 2 + cos(p1) * cos(p2) * sin((l2 - l1) / 2) ** 2
    return 2 * asin(min(1.0, sqrt(h)))


def distance_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle metres between two points given in degrees."""
    return EARTH_RADIUS_M * _central_angle(lat1, lon1, lat2, lon2)


def distance_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle kilometres between two points given in degrees."""
    return EARTH_RADIUS_KM * _central_angle(lat1, lon1, lat2, lon2)


def haversine_m(a: Geo, b: Geo) -> float:
    """Great-circle metres between two ``Geo`` points."""
    return distance_m(a.lat, a.lon, b.lat, b.lon)


def haversine_rad(lat1, lon1, lat2, lon2, radius: float = EARTH_RADIUS_MILES):
    """Great-circle distance between points in **radians** (floats or numpy arrays, broadcast),
    in the unit of ``radius`` (miles by default)."""
    import numpy as np  # its callers hold arrays already; a module that only needs metres stays numpy-free
    h = np.sin((lat2 - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
    return 2 * radius * np.arcsin(np.sqrt(np.minimum(1.0, h)))


@dataclass(frozen=True)
class BBox:
    """A latitude/longitude box in degrees. Fields are named, so build it with keywords or with
    :meth:`from_swne` (Overpass's order) / :meth:`from_wsen` (GeoJSON's and PMTiles' order)."""

    south: float
    west: float
    north: float
    east: float

    @classmethod
    def from_swne(cls, south: float, west: float, north: float, east: float) -> BBox:
        return cls(south=south, west=west, north=north, east=east)

    @classmethod
    def from_wsen(cls, west: float, south: float, east: float, north: float) -> BBox:
        return cls(south=south, west=west, north=north, east=east)

    def swne(self) -> tuple[float, float, float, float]:
        return self.south, self.west, self.north, self.east

    def wsen(self) -> tuple[float, float, float, float]:
        return self.west, self.south, self.east, self.north

    def contains(self, lat: float, lon: float) -> bool:
        return self.south <= lat <= self.north and self.west <= lon <= self.east

    def ql(self) -> str:
        """Overpass QL's ``(south,west,north,east)``, five decimals."""
        return f"{self.south:.5f},{self.west:.5f},{self.north:.5f},{self.east:.5f}"

    def label(self) -> str:
        """For a traveller: ``south,west – north,east``, three decimals."""
        return f"{self.south:.3f},{self.west:.3f} – {self.north:.3f},{self.east:.3f}"
