"""Importing a route: a GPX or KML track becomes the trip's corridor, like a named route.

GPX (tracks first, then routes) and KML are read with the standard library's ElementTree, which
never fetches external entities, after a size cap; entity declarations are refused. The polyline is thinned (shapely) to at
most ``MAX_TRACK_POINTS`` and carried in the intent (``route_track``), so a saved plan re-derives
its corridor without the file.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

from engine.errors import InputError
from engine.export.gpx_export import simplified

MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_TRACK_POINTS = 2000
FIELD = "route_file"


def read_route_file(path: str | Path) -> list[tuple[float, float]]:
    """The track's (lat, lon) points, in order; InputError naming ``route_file`` when unusable."""
    p = Path(path)
    if not p.exists():
        raise InputError(FIELD, f"{p}: no such file")
    suffix = p.suffix.casefold()
    if suffix not in (".gpx", ".kml"):
        raise InputError(FIELD, f"{p.name}: give a .gpx or .kml track")
    from engine.imports.untrusted import read_regular
    try:
        text = read_regular(p, MAX_FILE_BYTES, FIELD)  # at most the cap + 1 bytes, regular files only
    except InputError as exc:
        raise InputError(FIELD, f"{p.name} {exc.message}".replace("is larger than", "is over")) from None
    points = _gpx(text, p.name) if suffix == ".gpx" else _kml(text, p.name)
    points = [pt for k, pt in enumerate(points) if k == 0 or pt != points[k - 1]]
    if len(points) < 2:
        raise InputError(FIELD, f"{p.name} holds no track or route with at least two points")
    if any(not (-90 <= lat <= 90 and -180 <= lon <= 180) for lat, lon in points):
        raise InputError(FIELD, f"{p.name} has coordinates outside latitude/longitude ranges")
    return simplified(points, MAX_TRACK_POINTS)


def _gpx(data: bytes, name: str) -> list[tuple[float, float]]:
    """Track points (``trkpt``), else route points (``rtept``), of GPX 1.0 or 1.1, read with the
    standard library's parser: gpxpy built an object per point and took 14 s on a 19 MB track."""
    if b"<!ENTITY" in data:
        raise InputError(FIELD, f"{name}: GPX with entity declarations is not read")
    track, route, root = [], [], None
    try:
        for event, el in ET.iterparse(io.BytesIO(data), events=("start", "end")):
            tag = el.tag.rsplit("}", 1)[-1]
            if root is None:
                root = tag
                if tag != "gpx":
                    raise InputError(FIELD, f"{name} is not valid GPX (its root is not <gpx>)")
            if event == "end" and tag in ("trkpt", "rtept"):
                try:
                    point = (float(el.attrib["lat"]), float(el.attrib["lon"]))
                except (KeyError, ValueError):
                    raise InputError(FIELD, f"{name}: a {tag} without a usable lat/lon") from None
                (track if tag == "trkpt" else route).append(point)
                el.clear()  # a point's element is dropped once read: 400,000 of them stay small
    except ET.ParseError as exc:
        raise InputError(FIELD, f"{name} is not valid GPX ({str(exc)[:80]})") from None
    return track or route


def _kml(data: bytes, name: str) -> list[tuple[float, float]]:
    if b"<!ENTITY" in data:
        raise InputError(FIELD, f"{name}: KML with entity declarations is not read")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise InputError(FIELD, f"{name} is not valid KML ({exc})") from None
    out: list[tuple[float, float]] = []
    for el in root.iter():
        tag = el.tag.rsplit("}", 1)[-1]
        if tag == "LineString":
            coords = next((c for c in el if c.tag.rsplit("}", 1)[-1] == "coordinates"), None)
            out += _kml_coordinates(coords.text if coords is not None else "", name)
        elif tag == "coord":  # gx:Track: "lon lat alt"
            out += _kml_coordinates((el.text or "").replace(" ", ","), name)
    return out


def _kml_coordinates(text: str, name: str) -> list[tuple[float, float]]:
    out = []
    for tuple_text in (text or "").split():
        parts = tuple_text.split(",")
        try:
            lon, lat = float(parts[0]), float(parts[1])
        except (ValueError, IndexError):
            raise InputError(FIELD, f"{name}: bad coordinate {tuple_text[:40]!r}") from None
        out.append((lat, lon))
    return out


def follow_track(intent, path: str | Path):
    """The road-trip intent re-aimed along an imported track (the named route, if any, dropped)."""
    from pydantic import ValidationError

    from engine.models import RoadTripIntent
    if not isinstance(intent, RoadTripIntent):
        raise InputError(FIELD, "a route file is for road trips")
    track = read_route_file(path)
    try:
        return RoadTripIntent.model_validate(intent.model_dump() | {"route": None, "route_track": track,
                                                                     "route_track_name": Path(path).stem[:120]})
    except ValidationError as exc:
        first = exc.errors()[0]
        raise InputError(".".join(str(p) for p in first["loc"]) or FIELD, first["msg"]) from None
