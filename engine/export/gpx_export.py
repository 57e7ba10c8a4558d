"""ItineraryV1 as GPX 1.1 fit for devices: a waypoint per located activity (overnight stops with
the ``Lodging`` symbol), and per day a route of at most 50 points and a timed track of at most 500
(the driven path simplified with shapely until it fits) — the limits Garmin-class units import.
A device file is shared: booking confirmation codes are masked in it."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

import gpxpy.gpx
from shapely.geometry import LineString

from engine.models import Activity, DayItinerary, Geo, ItineraryV1

from ._bookings import masked_itinerary
from ._trip import as_utc, day_zone, leg_label, leg_points, local_span, plain_text, trip_title

CREATOR = "Tripwright"
MAX_ROUTE_POINTS = 50
MAX_TRACK_POINTS = 500
DP_MAX_POINTS = 5000  # Douglas–Peucker's input, at most (see ``simplified``)
LODGING_ROLES = ("checkin", "arrival")


@dataclass(frozen=True)
class _Stop:
    """A located activity, its writable label and its start in UTC (GPX times must be UTC)."""

    activity: Activity
    geo: Geo
    name: str
    start_utc: datetime


def itinerary_to_gpx(itin: ItineraryV1) -> str:
    """GPX text; activities without a geo are left out, and so are days with none located.

    gpxpy writes elements in the schema's order and escapes markup; ``plain_text`` drops the few
    characters XML cannot carry at all. Booking confirmation codes are masked (``masked_itinerary``).
    """
    itin = masked_itinerary(itin)
    gpx = gpxpy.gpx.GPX()
    gpx.creator = CREATOR
    gpx.name = trip_title(itin)
    gpx.time = as_utc(itin.created_at)
    if itin.attributions:  # places from OpenStreetMap: GPX 1.1's metadata copyright (ODbL)
        gpx.copyright_author = "OpenStreetMap contributors"
        gpx.copyright_license = "https://opendatacommons.org/licenses/odbl/"
        gpx.copyright_year = str(itin.created_at.year)
    for number, day in enumerate(itin.days, start=1):
        stops = _stops(itin, day)
        if not stops:
            continue
        label = f"Day {number} – {day.date.isoformat()}"
        gpx.waypoints.extend(_waypoint(stop) for stop in stops)
        gpx.routes.append(_route(label, stops))
        gpx.tracks.append(_driven_track(label, day, stops) if day.path else _track(label, stops))
    gpx.tracks.extend(_leg_track(leg) for leg in itin.legs if len(leg_points(leg)) >= 2)
    return gpx.to_xml(version="1.1")


def _leg_track(leg) -> gpxpy.gpx.GPXTrack:
    """A multi-city leg as a track of its own, timed from its departure to its arrival (at most 500 points)."""
    points = simplified(leg_points(leg), MAX_TRACK_POINTS)
    segment = gpxpy.gpx.GPXTrackSegment()
    start, end = as_utc(leg.departure), as_utc(leg.arrival)
    for n, (lat, lon) in enumerate(points):
        when = start + (end - start) * (n / (len(points) - 1))
        segment.points.append(gpxpy.gpx.GPXTrackPoint(latitude=lat, longitude=lon, time=when.replace(microsecond=0)))
    track = gpxpy.gpx.GPXTrack(name=leg_label(leg))
    track.segments.append(segment)
    return track


def _stops(itin: ItineraryV1, day: DayItinerary) -> list[_Stop]:
    zone = day_zone(itin, day)
    return [_Stop(act, act.geo, plain_text(act.shown_name), as_utc(local_span(day.date, act, zone)[0]))
            for act in day.activities if act.geo is not None]


def itinerary_to_gpx_days(itin: ItineraryV1) -> list[tuple[str, str]]:
    """One GPX file per day with located activities: ``[(file name, GPX text)]``."""
    out = []
    itin = masked_itinerary(itin)
    for number, day in enumerate(itin.days, start=1):
        one = itin.model_copy(update={"days": [day]})
        if _stops(itin, day):
            out.append((f"day-{number:02d}-{day.date.isoformat()}.gpx", itinerary_to_gpx(one)))
    return out


def _waypoint(stop: _Stop) -> gpxpy.gpx.GPXWaypoint:
    lodging = stop.activity.role in LODGING_ROLES and stop.activity.kind.value == "lodging"
    return gpxpy.gpx.GPXWaypoint(
        latitude=stop.geo.lat, longitude=stop.geo.lon, time=stop.start_utc, name=stop.name,
        description=plain_text(stop.activity.notes) or None, type=stop.activity.kind.value,
        symbol="Lodging" if lodging else None)


def _route(label: str, stops: list[_Stop]) -> gpxpy.gpx.GPXRoute:
    route = gpxpy.gpx.GPXRoute(name=label)
    route.points.extend(
        gpxpy.gpx.GPXRoutePoint(latitude=stop.geo.lat, longitude=stop.geo.lon,
                                time=stop.start_utc, name=stop.name)
        for stop in _thin(stops, MAX_ROUTE_POINTS))
    return route


def _thin(items: list, limit: int) -> list:
    """At most ``limit`` items, evenly spread, first and last kept."""
    if len(items) <= limit:
        return items
    step = (len(items) - 1) / (limit - 1)
    return [items[round(k * step)] for k in range(limit)]


def simplified(points: list[tuple[float, float]], limit: int) -> list[tuple[float, float]]:
    """The polyline (lat, lon) with at most ``limit`` vertices: Douglas–Peucker (shapely) at the
    smallest tolerance that fits (doubled until it does, then bisected), so bends are kept and
    straight stretches lose their points.

    A long line is first thinned linearly to ``DP_MAX_POINTS`` (issue 25): GEOS's Douglas–Peucker
    recurses once per kept vertex and is quadratic on a zig-zag — 200,000 points crashed the
    process (SIGSEGV), 50,000 took two minutes."""
    if len(points) <= limit:
        return points
    points = decimated(points, max(limit, DP_MAX_POINTS))
    if len(points) <= limit:
        return points
    line = LineString([(lon, lat) for lat, lon in points])

    def at(tolerance: float) -> list:
        return list(line.simplify(tolerance, preserve_topology=False).coords)

    lo, hi = 0.0, 1e-5
    while len(at(hi)) > limit:
        lo, hi = hi, hi * 2
    for _ in range(16):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if len(at(mid)) > limit else (lo, mid)
    return [(lat, lon) for lon, lat in at(hi)]


def decimated(points: list[tuple[float, float]], most: int) -> list[tuple[float, float]]:
    """At most ``most`` of ``points``, evenly spaced by index, the first and the last kept."""
    if len(points) <= most:
        return points
    step = (len(points) - 1) / (most - 1)
    return [points[round(k * step)] for k in range(most)]


def _track(label: str, stops: list[_Stop]) -> gpxpy.gpx.GPXTrack:
    # Devices recalculate routes but replay tracks exactly, so the day's order is also a track.
    segment = gpxpy.gpx.GPXTrackSegment()
    segment.points.extend(
        gpxpy.gpx.GPXTrackPoint(latitude=stop.geo.lat, longitude=stop.geo.lon,
                                time=stop.start_utc, name=stop.name)
        for stop in stops)
    track = gpxpy.gpx.GPXTrack(name=label)
    track.segments.append(segment)
    return track


def _driven_track(label: str, day: DayItinerary, stops: list[_Stop]) -> gpxpy.gpx.GPXTrack:
    """A road-trip day's track is the driven geometry (at most 500 points); every point is timed,
    by distance along the day between its first and last times."""
    points = simplified([(g.lat, g.lon) for g in day.path], MAX_TRACK_POINTS)
    segment = gpxpy.gpx.GPXTrackSegment()
    segment.points.extend(gpxpy.gpx.GPXTrackPoint(latitude=lat, longitude=lon) for lat, lon in points)
    first, last = stops[0].start_utc, max(stops[-1].start_utc, stops[0].start_utc)
    along = [0.0]
    for a, b in zip(points, points[1:]):
        along.append(along[-1] + math.dist(a, b))
    for point, d in zip(segment.points, along):
        point.time = (first + (last - first) * (d / along[-1] if along[-1] else 0.0)).replace(microsecond=0)
    track = gpxpy.gpx.GPXTrack(name=label)
    track.segments.append(segment)
    return track
