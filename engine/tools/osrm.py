"""Real driving routes from an OSRM-compatible service (issue 12 §2, SPEC_DECISIONS §3).

- Base URL from ``TRIPWRIGHT_ROUTING_URL`` (``{base}/route/v1/driving/{lon,lat;lon,lat…}``); unset
  means no routing at all (drives stay the 1.3 × straight-line estimate).
- The request asks for the full overview as GeoJSON (``overview=full&geometries=geojson``), so the
  geometry needs no polyline decoding; ``routes[0].distance`` (m), ``.duration`` (s) and the
  snapping distance of each waypoint (``waypoints[i].distance``, m) are read as documented.
- OSRM answers "no road" as an error body (``code`` ``NoRoute`` / ``NoSegment``, HTTP 400): that is
  a fact about the road network, returned as a :class:`DrivingRoute` with ``found=False`` (cached
  like any answer); 5xx / 429 are outages (retried once by the executor, then the breaker);
  anything else malformed is a ``ToolResponseError`` (never retried).
- Requests carry coordinates rounded to 4 decimals (~11 m): the executor's cache key, kept forever.
"""

from __future__ import annotations

import os
from typing import Any

from pydantic import Field, ValidationError

from engine.errors import ToolResponseError
from engine.models.common import Value
from engine.models.physical import Latitude, Longitude, RouteHours, RouteMiles
from engine.net.network import NetworkState, json_body

TOOL = "routing"
COORD_DECIMALS = 4
METERS_PER_MILE = 1609.344
NO_ROAD_CODES = frozenset({"NoRoute", "NoSegment"})


def routing_base() -> str | None:
    """The OSRM-compatible base URL, or None when routing is not configured."""
    return os.environ.get("TRIPWRIGHT_ROUTING_URL", "").strip().rstrip("/") or None


class RouteRequest(Value):
    """Waypoints in travel order as (lat, lon), rounded so that near-identical asks share a cache entry."""

    points: tuple[tuple[float, float], ...] = Field(min_length=2)

    @classmethod
    def through(cls, points: list[tuple[float, float]]) -> "RouteRequest":
        return cls(points=tuple((round(lat, COORD_DECIMALS), round(lon, COORD_DECIMALS)) for lat, lon in points))


class DrivingRoute(Value):
    """One routed drive: its road miles, hours and geometry, or why there is none."""

    found: bool
    reason: str = ""  # the service's code when ``found`` is False
    miles: RouteMiles = 0.0
    hours: RouteHours = 0.0
    geometry: tuple[tuple[Latitude, Longitude], ...] = ()  # (lat, lon) along the road
    snap_miles: tuple[RouteMiles, ...] = ()  # how far each waypoint was moved onto the road network


class OsrmRouter:
    name = TOOL

    def __init__(self, network: NetworkState, base: str) -> None:
        self._net = network
        self._base = base

    async def route(self, request: RouteRequest) -> DrivingRoute:
        where = ";".join(f"{lon:.{COORD_DECIMALS}f},{lat:.{COORD_DECIMALS}f}" for lat, lon in request.points)
        response = await self._net.get(TOOL, f"{self._base}/route/v1/driving/{where}",
                                       {"overview": "full", "geometries": "geojson", "steps": "false"})
        if 400 <= response.status_code < 500 and response.status_code != 429:
            code = _error_code(response)
            if code in NO_ROAD_CODES:
                return DrivingRoute(found=False, reason=code)
        return parse_route(json_body(TOOL, response))


def _error_code(response: Any) -> str | None:
    try:
        body = response.json()
    except ValueError:
        return None
    return body.get("code") if isinstance(body, dict) else None


def parse_route(body: Any) -> DrivingRoute:
    """The documented OSRM answer → :class:`DrivingRoute` (``ToolResponseError`` when it is not one)."""
    if not isinstance(body, dict):
        raise ToolResponseError(TOOL, "the routing answer is not a JSON object")
    code = body.get("code")
    if code in NO_ROAD_CODES:
        return DrivingRoute(found=False, reason=code)
    if code != "Ok":
        raise ToolResponseError(TOOL, f"the routing service answered code {str(code)[:40]!r}")
    try:
        best = body["routes"][0]
        coords = best["geometry"]["coordinates"]
        geometry = tuple((float(lat), float(lon)) for lon, lat, *_ in coords)
        snaps = tuple(float(w.get("distance", 0.0)) / METERS_PER_MILE for w in body.get("waypoints") or ())
        return DrivingRoute(found=True, miles=float(best["distance"]) / METERS_PER_MILE,
                            hours=float(best["duration"]) / 3600, geometry=geometry, snap_miles=snaps)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, ValidationError) as exc:
        raise ToolResponseError(TOOL, f"the routing answer lacks a usable route ({type(exc).__name__})") from exc
