"""ItineraryV1 as KML 2.2 for Google Earth, Organic Maps and OsmAnd: a Document named after the
trip, one Folder per day ("Day 1 – 2027-05-10"), a Placemark per located activity (its local
times and notes as the description, a UTC TimeSpan from its true ``start``/``end`` when the
itinerary has them) and the day's route as a LineString — the activities' points in order, or
on a road trip the driven ``day.path`` simplified to at most ``MAX_PATH_POINTS``.

Built with ElementTree, so every name and note is escaped as XML; descriptions are HTML in KML
(readers render them), so their text is HTML-escaped first and lines joined with ``<br>``.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from datetime import datetime
from zoneinfo import ZoneInfo

from engine.models import Activity, DayItinerary, ItineraryV1

from ._bookings import masked_itinerary
from ._trip import as_utc, day_zone, leg_label, leg_points, plain_text, trip_title
from .times import activity_times
from engine.atomic import StrPath, write_atomic

KML_NS = "http://www.opengis.net/kml/2.2"
MAX_PATH_POINTS = 500
ROUTE_STYLE = "day-route"
ROUTE_COLOUR = "ffd18b1f"  # aabbggrr: an opaque blue that reads on satellite and street maps


def itinerary_to_kml(itin: ItineraryV1) -> str:
    """KML text; activities without a point are left out, every day keeps its folder. Booking
    confirmation codes are masked (a map file is shared; the itinerary JSON keeps them)."""
    itin = masked_itinerary(itin)
    root = ET.Element("kml", {"xmlns": KML_NS})
    document = _sub(root, "Document")
    _sub(document, "name", trip_title(itin))
    if itin.attributions:
        _sub(document, "description", _html_lines(itin.attributions))
    _route_style(document)
    for number, day in enumerate(itin.days, start=1):
        _day_folder(document, itin, day, number)
    if itin.legs:
        _legs_folder(document, itin)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_kml(itin: ItineraryV1, path: StrPath) -> None:
    """Write the trip's KML atomically (the old file or the new one, never half)."""
    write_atomic(path, itinerary_to_kml(itin))


def _sub(parent: ET.Element, tag: str, text: str | None = None) -> ET.Element:
    element = ET.SubElement(parent, tag)
    if text is not None:
        element.text = text
    return element


def _route_style(document: ET.Element) -> None:
    style = ET.SubElement(document, "Style", {"id": ROUTE_STYLE})
    line = _sub(style, "LineStyle")
    _sub(line, "color", ROUTE_COLOUR)
    _sub(line, "width", "4")


def _day_folder(document: ET.Element, itin: ItineraryV1, day: DayItinerary, number: int) -> None:
    folder = _sub(document, "Folder")
    _sub(folder, "name", f"Day {number} – {day.date.isoformat()}")
    zone = day_zone(itin, day)
    located = [act for act in day.activities if act.geo is not None]
    for act in located:
        _placemark(folder, day, act, zone)
    route = _route_points(day, located)
    if len(route) >= 2:
        mark = _sub(folder, "Placemark")
        _sub(mark, "name", f"Day {number} route")
        _sub(mark, "styleUrl", f"#{ROUTE_STYLE}")
        line = _sub(mark, "LineString")
        _sub(line, "tessellate", "1")
        _sub(line, "coordinates", " ".join(_lon_lat(lat, lon) for lat, lon in route))


def _legs_folder(document: ET.Element, itin: ItineraryV1) -> None:
    """A multi-city trip's legs: a line each, with its times."""
    folder = _sub(document, "Folder")
    _sub(folder, "name", "Legs")
    for leg in itin.legs:
        points = leg_points(leg)
        if len(points) < 2:
            continue
        mark = _sub(folder, "Placemark")
        _sub(mark, "name", leg_label(leg))
        _sub(mark, "description", _html_lines([f"{leg.departure:%Y-%m-%d %H:%M} – {leg.arrival:%H:%M}", leg.why]))
        span = _sub(mark, "TimeSpan")
        _sub(span, "begin", _utc(leg.departure))
        _sub(span, "end", _utc(leg.arrival))
        _sub(mark, "styleUrl", f"#{ROUTE_STYLE}")
        line = _sub(mark, "LineString")
        _sub(line, "tessellate", "1")
        _sub(line, "coordinates", " ".join(_lon_lat(lat, lon) for lat, lon in points))


def _placemark(folder: ET.Element, day: DayItinerary, act: Activity, zone: ZoneInfo) -> None:
    mark = _sub(folder, "Placemark")
    _sub(mark, "name", plain_text(act.shown_name))
    _sub(mark, "description", _html_lines([activity_times(day.date, act, zone), *act.notes.splitlines()]))
    if act.start is not None and act.end is not None:
        span = _sub(mark, "TimeSpan")
        _sub(span, "begin", _utc(act.start))
        _sub(span, "end", _utc(act.end))
    point = _sub(mark, "Point")
    _sub(point, "coordinates", _lon_lat(act.geo.lat, act.geo.lon))


def _utc(moment: datetime) -> str:
    return as_utc(moment).strftime("%Y-%m-%dT%H:%M:%SZ")


def _route_points(day: DayItinerary, located: list[Activity]) -> list[tuple[float, float]]:
    if day.path:
        from .gpx_export import simplified  # shapely: loaded only for road trips' driven paths
        return simplified([(g.lat, g.lon) for g in day.path], MAX_PATH_POINTS)
    points = [(act.geo.lat, act.geo.lon) for act in located]
    return [p for k, p in enumerate(points) if k == 0 or p != points[k - 1]]


def _lon_lat(lat: float, lon: float) -> str:
    return f"{lon:.6f},{lat:.6f}"


def _html_lines(lines: list[str]) -> str:
    """Text lines as KML's HTML description: each escaped, joined by ``<br>``."""
    return "<br>".join(html.escape(plain_text(line)) for line in lines if line.strip())
