"""ItineraryV1 as GPX 1.1: a waypoint per located activity, a route and a track per day."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import gpxpy.gpx

from engine.models import Activity, DayItinerary, Geo, ItineraryV1

from ._trip import as_utc, day_zone, local_span, plain_text, trip_title

CREATOR = "Tripwright"


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
    characters XML cannot carry at all.
    """
    gpx = gpxpy.gpx.GPX()
    gpx.creator = CREATOR
    gpx.name = trip_title(itin)
    gpx.time = as_utc(itin.created_at)
    for number, day in enumerate(itin.days, start=1):
        stops = _stops(itin, day)
        if not stops:
            continue
        label = f"Day {number} – {day.date.isoformat()}"
        gpx.waypoints.extend(_waypoint(stop) for stop in stops)
        gpx.routes.append(_route(label, stops))
        gpx.tracks.append(_driven_track(label, day, stops) if day.path else _track(label, stops))
    return gpx.to_xml(version="1.1")


def _stops(itin: ItineraryV1, day: DayItinerary) -> list[_Stop]:
    zone = day_zone(itin, day)
    return [_Stop(act, act.geo, plain_text(act.name), as_utc(local_span(day.date, act, zone)[0]))
            for act in day.activities if act.geo is not None]


def _waypoint(stop: _Stop) -> gpxpy.gpx.GPXWaypoint:
    return gpxpy.gpx.GPXWaypoint(
        latitude=stop.geo.lat, longitude=stop.geo.lon, time=stop.start_utc, name=stop.name,
        description=plain_text(stop.activity.notes) or None, type=stop.activity.kind.value)


def _route(label: str, stops: list[_Stop]) -> gpxpy.gpx.GPXRoute:
    route = gpxpy.gpx.GPXRoute(name=label)
    route.points.extend(
        gpxpy.gpx.GPXRoutePoint(latitude=stop.geo.lat, longitude=stop.geo.lon,
                                time=stop.start_utc, name=stop.name)
        for stop in stops)
    return route


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
    """A road-trip day's track is the driven geometry; its ends carry the day's first and last times."""
    segment = gpxpy.gpx.GPXTrackSegment()
    segment.points.extend(gpxpy.gpx.GPXTrackPoint(latitude=g.lat, longitude=g.lon) for g in day.path)
    segment.points[0].time = stops[0].start_utc
    segment.points[-1].time = max(stops[-1].start_utc, stops[0].start_utc)
    track = gpxpy.gpx.GPXTrack(name=label)
    track.segments.append(segment)
    return track
