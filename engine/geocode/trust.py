"""Geocoding trust boundaries (seed 000 §4.4) as pure functions.

Points are ``(lat, lon)`` in degrees throughout this module (route polylines in
``fixtures/routes`` are ``(lon, lat)``: swap before calling). Distances are WGS84 geodesics
(``pyproj.Geod``), never degrees.

* INV-GEO-01 — outside the region's Continental Trust Boundary (:data:`TRUST_BOXES`).
* INV-GEO-02 — null island: ``lat == 0 and lon == 0``.
* INV-GEO-03 — isolated: more than 500 miles from every other waypoint (:func:`isolated`).
* INV-GEO-04 — US trips only: ``lon > -50`` or ``lon < -170`` (Atlantic / Pacific), exactly as the
  seed states the bounds. Note these are looser than the box: a point such as ``(34.2, -160.1)``
  (Pacific, north-east of Hawaii) breaks INV-GEO-01 but not INV-GEO-04.
* INV-GEO-05 — fallback: :func:`interpolate` between the previous and next valid waypoints.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

__all__ = ["EUROPE_COUNTRIES", "METERS_PER_MILE", "TRUST_BOXES", "check_point", "geodesic_miles", "interpolate",
           "isolated"]

#: the European countries road trips cover (the US is the other region)
EUROPE_COUNTRIES = frozenset("AT BE CH CZ DE DK ES FI FR GB IE IT LU NL NO PL PT SE SI SK HR HU GR".split())

#: region → (lat_min, lat_max, lon_min, lon_max), bounds inclusive.
TRUST_BOXES: dict[str, tuple[float, float, float, float]] = {
    "us": (24.5, 49.5, -125.0, -66.0),
    "europe": (35.0, 71.0, -11.0, 40.0),
}
US_OCEAN_LON = (-170.0, -50.0)  # INV-GEO-04: reject lon < -170 or lon > -50
METERS_PER_MILE = 1609.344

Point = tuple[float, float]


@lru_cache(maxsize=1)
def _geod():
    from pyproj import Geod

    return Geod(ellps="WGS84")


def check_point(lat: float, lon: float, region: str) -> list[str]:
    """The ids of the invariants ``(lat, lon)`` violates for a trip in ``region`` (``[]`` = ok).

    A non-finite coordinate is outside every box (and, for the US, not shown to be on land).
    """
    if region not in TRUST_BOXES:
        raise ValueError(f"unknown trust region {region!r}; expected one of {sorted(TRUST_BOXES)}")
    finite = math.isfinite(lat) and math.isfinite(lon)
    lat_min, lat_max, lon_min, lon_max = TRUST_BOXES[region]
    violated: list[str] = []
    if not (finite and lat_min <= lat <= lat_max and lon_min <= lon <= lon_max):
        violated.append("INV-GEO-01")
    if lat == 0 and lon == 0:
        violated.append("INV-GEO-02")
    if region == "us" and not (finite and US_OCEAN_LON[0] <= lon <= US_OCEAN_LON[1]):
        violated.append("INV-GEO-04")
    return violated


def geodesic_miles(a: Point, b: Point) -> float:
    """WGS84 geodesic distance between two ``(lat, lon)`` points, in statute miles."""
    _, _, meters = _geod().inv(a[1], a[0], b[1], b[0])
    return meters / METERS_PER_MILE


def isolated(points: Sequence[Point], threshold_miles: float = 500.0) -> list[int]:
    """Indices of the points farther than ``threshold_miles`` from *every* other point (INV-GEO-03).

    With fewer than two points nothing can be judged isolated, so the answer is ``[]``.
    """
    n = len(points)
    if n < 2:
        return []
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    lons1 = [points[i][1] for i, _ in pairs]
    lats1 = [points[i][0] for i, _ in pairs]
    lons2 = [points[j][1] for _, j in pairs]
    lats2 = [points[j][0] for _, j in pairs]
    _, _, meters = _geod().inv(lons1, lats1, lons2, lats2)
    nearest = [math.inf] * n
    for (i, j), m in zip(pairs, meters):
        miles = m / METERS_PER_MILE
        nearest[i] = min(nearest[i], miles)
        nearest[j] = min(nearest[j], miles)
    return [i for i, d in enumerate(nearest) if d > threshold_miles]


def interpolate(prev: Point, next: Point, fraction: float) -> Point:  # noqa: A002 (brief's name)
    """The point ``fraction`` of the way from ``prev`` to ``next`` along the WGS84 geodesic.

    ``fraction`` is in [0, 1]; 0 gives ``prev``, 1 gives ``next``. Returns ``(lat, lon)``.
    """
    if not (math.isfinite(fraction) and 0.0 <= fraction <= 1.0):
        raise ValueError(f"fraction must be within [0, 1], got {fraction}")
    if fraction == 0.0:
        return (float(prev[0]), float(prev[1]))
    if fraction == 1.0:
        return (float(next[0]), float(next[1]))
    geod = _geod()
    azimuth, _, meters = geod.inv(prev[1], prev[0], next[1], next[0])
    lon, lat, _ = geod.fwd(prev[1], prev[0], azimuth, meters * fraction)
    return (lat, lon)
