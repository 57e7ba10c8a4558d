"""The layer document the map page draws, built from an ItineraryV1 (pure Python, no Qt).

``build_layers(itinerary, ...)`` returns one JSON-ready dict; ``widgets/map_view.py`` sends it
to ``resources/map.js`` over the bridge as a JSON string. Shape (version 1)::

    {"version": 1, "mode": "city" | "road_trip" | "empty", "title": str, "online": bool,
     "days":     [{"index": 0, "label": "Day 1 · Mon 3 May", "colour": "#1f77b4",
                   "path": {"type": "LineString", "coordinates": [[lon, lat], ...]} | null}],
     "corridor": {"name": "Route 66", "width_miles": 50.0, "width_label": "±50 mi" (the user's unit),
                  "geometry": {"type": "Polygon" | "MultiPolygon", ...}} | null,
     "markers":  [{"id", "lat", "lon", "kind", "label", "day", "time", "confidence": "high"|"low",
                   "low_reason", "data_source", "locked", "draggable", "selectable",
                   "actions": ["lock", "remove", "replace", "move:2", ...],
                   "seq": 1 | null  (visits and meals: their order within the day)}],
     "banner":   str | null,
     "focus":    [[south, west], [north, east]] | null,
     "credits":  [str]  (whose data the places are: "© OpenStreetMap contributors (ODbL)"),
     "excluded": [{"id", "label", "reason"}]  (markers the pre-render check left off: map_checks),
     "revision": int, "keep_view": bool  (added by map_view: the page keeps the zoom on a redraw)}

Geometries are GeoJSON (lon, lat); markers carry plain ``lat``/``lon``. Marker ids are the
activity ids (``d1-overnight``, ``d2-activity-louvre``) except the road trip's start, ``origin``,
which is not selectable and has no actions.

``actions`` lists what the marker's context menu offers, following ``engine/edits.py``: a locked
slot can only be unlocked; visits and meals can be removed, replaced and (city trips) moved to
another day, ``move:<day_index>`` with the **0-based** day index of ``MoveToDay``; hotel desks and
road-trip overnight stops can be locked; flights and the road trip's terminus have no menu.
Only road-trip overnight stops are ``draggable``.

Nothing is HTML-escaped here: the page inserts every string with ``textContent``. Labels are
truncated to ``MAX_LABEL`` characters. Before anything is drawn, :mod:`widgets.map_checks` checks
every marker against the trust boundary again and leaves out (with a note) what fails.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import numpy as np
import shapely
from pyproj import Transformer
from shapely.geometry import LineString, mapping

from engine.maps.trip_map import NUMBERED_KINDS, bounds, day_lines, origin, stop_kind
from engine.models import Activity, DayItinerary, ItineraryV1
from engine.roadtrip.routes import METERS_PER_MILE, route_projection

from . import formatting as fmt
from .map_checks import exclusion_note, screen_line, screen_markers, valid_number_pair

LAYERS_VERSION = 1
MAX_LABEL = 120
BANNER_TEXT = "Limited data available. Some information is estimated."
DATA_SOURCES = ("real", "fixture", "computed", "omitted")
CORRIDOR_SIMPLIFY_M = 1500.0  # well under a pixel at the zoom a 100-mile band is looked at

_VISITS = ("activity", "meal")


def _label(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def _data_source(activity: Activity) -> str:
    source = activity.provenance.data_source if activity.provenance else "omitted"
    # The traveller's own input is first-hand; a cached real answer is still real data.
    return "real" if source in ("user", "cache") else source


# -- markers ------------------------------------------------------------------------------------
def _confidence(activity: Activity, day: DayItinerary, kind: str) -> tuple[str, str]:
    """("high" | "low", why): an anchor is low when its activity or the day's anchor is."""
    low = activity.confidence == "low"
    reason = ""
    anchor = day.anchor
    if kind == "anchor" and anchor is not None:
        low = low or anchor.confidence == "low"
        if anchor.note:
            reason = anchor.note
        elif anchor.source == "interpolated":
            reason = "no town found nearby; the position is interpolated along the route"
    if low and not reason:
        reason = "the location was resolved with low confidence"
    return ("low", _label(reason)) if low else ("high", "")


def _actions(activity: Activity, kind: str, road: bool, day_index: int, n_days: int) -> list[str]:
    if activity.kind.value == "flight" or (kind == "anchor" and activity.role == "arrival"):
        return []
    rest = ["rest"] if road and kind == "anchor" and activity.role == "checkin" else []  # issue 20 §3
    if activity.locked:
        return ["unlock", *rest]
    actions = ["lock", *rest]
    if activity.role in _VISITS:
        actions += ["remove", "replace"]
        if not road:
            actions += [f"move:{j}" for j in range(n_days) if j != day_index]
    return actions


def _activity_marker(activity: Activity, day: DayItinerary, day_index: int, n_days: int, road: bool) -> dict:
    kind = stop_kind(activity, road)
    confidence, reason = _confidence(activity, day, kind)
    return {
        "id": activity.id,
        "lat": activity.geo.lat,
        "lon": activity.geo.lon,
        "kind": kind,
        "label": _label(activity.name),
        "day": day_index,
        "time": activity.window.label(),
        "confidence": confidence,
        "low_reason": reason,
        "data_source": _data_source(activity),
        "locked": activity.locked,
        "draggable": kind == "anchor" and activity.role == "checkin",
        "selectable": True,
        "actions": _actions(activity, kind, road, day_index, n_days),
        "seq": None,
    }


def _origin_confidence(itinerary: ItineraryV1) -> tuple[str, str]:
    """The start's own confidence: the planner flags a low-confidence origin (INV-AMBIG-03)."""
    for v in itinerary.violations:
        if v.node_ref == "origin" and v.kind.value == "location_ambiguous":
            return "low", _label(str(v.details.get("message") or "the start was resolved with low confidence"))
    return "high", ""


def _origin_marker(itinerary: ItineraryV1) -> dict | None:
    found = origin(itinerary)
    if found is None:
        return None
    start, name = found
    confidence, reason = _origin_confidence(itinerary)
    return {"id": "origin", "lat": start.lat, "lon": start.lon, "kind": "origin",
            "label": _label(f"Start: {name}"), "day": 0, "time": "", "confidence": confidence,
            "low_reason": reason, "data_source": "computed", "locked": False, "draggable": False,
            "selectable": False, "actions": [], "seq": None}


def _markers(itinerary: ItineraryV1, road: bool) -> list[dict]:
    markers = []
    if road:
        origin = _origin_marker(itinerary)
        if origin is not None:
            markers.append(origin)
    n_days = len(itinerary.days)
    for di, day in enumerate(itinerary.days):
        markers += [_activity_marker(a, day, di, n_days, road) for a in day.activities if a.geo is not None]
    return markers


def _number(markers: list[dict]) -> list[dict]:
    """Visits and meals numbered in visiting order within their day (of those drawn)."""
    seq: dict[int, int] = {}
    for marker in markers:
        if marker["kind"] in NUMBERED_KINDS:
            seq[marker["day"]] = marker["seq"] = seq.get(marker["day"], 0) + 1
    return markers


# -- lines --------------------------------------------------------------------------------------
def _day_label(day: DayItinerary, index: int, unit: str) -> str:
    text = f"Day {index + 1} · {fmt.short_day_label(day.date)}"
    if day.anchor is not None:
        text += f" → {day.anchor.name}"
        if day.drive is not None:
            text += f" · {fmt.distance(day.drive.miles, unit)}"
    return _label(text)


def _days(itinerary: ItineraryV1, unit: str, region: str | None, drawn: set[str]) -> list[dict]:
    lines = day_lines(itinerary, keep=lambda a: a.id in drawn, screen=lambda points: screen_line(points, region))
    return [{"index": line["index"], "label": _day_label(day, line["index"], unit), "colour": line["colour"],
             "path": line["path"]} for line, day in zip(lines, itinerary.days)]


# -- corridor -----------------------------------------------------------------------------------
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
    """GeoJSON (Multi)Polygon of the band within ``width_miles`` of the (lon, lat) polyline.

    Buffered in the route's equidistant conic (the projection ``engine.roadtrip.routes``
    measures corridor offsets in), so the band is as wide as the verifier's corridor.
    """
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


def _corridor(route_polyline: Sequence[tuple[float, float]] | None, route_name: str | None,
              width_miles: float | None, unit: str) -> dict | None:
    if not route_polyline or len(route_polyline) < 2 or not width_miles or width_miles <= 0:
        return None
    polyline = tuple((float(lon), float(lat)) for lon, lat in route_polyline)
    return {"name": _label(route_name or "Route"), "width_miles": float(width_miles),
            "width_label": "\u00b1" + fmt.distance(float(width_miles), unit),
            "geometry": corridor_geometry(polyline, float(width_miles))}


# -- banner and focus ---------------------------------------------------------------------------
def _banner(itinerary: ItineraryV1, markers: list[dict], excluded: list[dict]) -> str | None:
    """Seed §12.2: shown when any tool fell back to fixtures or was omitted; and seed 000 §6:
    which places the pre-render check left off the map."""
    degraded = sorted(set(itinerary.degraded_tools))
    omitted = any(m["data_source"] == "omitted" for m in markers)
    parts = []
    if degraded or omitted:
        parts.append(BANNER_TEXT)
    if degraded:
        parts.append("Fell back: " + ", ".join(degraded) + ".")
    note = exclusion_note(excluded)
    if note:
        parts.append(note)
    return " ".join(parts) or None


def _focus(markers: list[dict], days: list[dict], road: bool) -> list[list[float]] | None:
    """Bounds to fit: every stop (and road-trip path); city trips leave the airports out when they can."""
    points = [(m["lat"], m["lon"]) for m in markers if m["kind"] != "flight"]
    if not points:
        points = [(m["lat"], m["lon"]) for m in markers]
    for day in days:
        if road and day["path"] is not None:
            points += [(lat, lon) for lon, lat in day["path"]["coordinates"]]
    return bounds(points)


# -- the document -------------------------------------------------------------------------------
def empty_layers(*, online: bool = False) -> dict:
    return {"version": LAYERS_VERSION, "mode": "empty", "title": "", "online": bool(online), "days": [],
            "corridor": None, "markers": [], "banner": None, "focus": None, "credits": [], "excluded": []}


def build_layers(itinerary: ItineraryV1, *, route_polyline: Sequence[tuple[float, float]] | None = None,
                 route_name: str | None = None, corridor_miles: float | None = None,
                 online: bool = False, distance_unit: str = "mi") -> dict:
    """The layer document for ``itinerary`` (see the module docstring).

    ``route_polyline`` is the named route's (lon, lat) centreline (``Route.polyline``); the
    corridor band is drawn ``corridor_miles`` either side of it, by default the road-trip
    intent's ``corridor_max_deviation_miles``. Distances in labels are in ``distance_unit``
    ("mi" or "km", the user's setting).
    """
    fmt.check_distance_unit(distance_unit)
    road = itinerary.intent.mode == "road_trip"
    if corridor_miles is None and road:
        corridor_miles = itinerary.intent.corridor_max_deviation_miles
    markers, excluded, region = screen_markers(_markers(itinerary, road), road)
    markers = _number(markers)
    days = _days(itinerary, distance_unit, region, {m["id"] for m in markers})
    if road:
        title = f"{itinerary.intent.origin} → {itinerary.intent.terminus}"
    else:
        title = itinerary.intent.city
    return {
        "version": LAYERS_VERSION,
        "mode": "road_trip" if road else "city",
        "title": _label(title),
        "online": bool(online),
        "days": days,
        "corridor": _corridor(route_polyline, route_name, corridor_miles, distance_unit),
        "markers": markers,
        "banner": _banner(itinerary, markers, excluded),
        "excluded": excluded,
        "focus": _focus(markers, days, road),
        "credits": [_label(credit) for credit in itinerary.attributions],
    }


def is_finite_lat_lon(lat: object, lon: object) -> bool:
    """True for real numbers (not bools) within [-90, 90] x [-180, 180]."""
    return valid_number_pair(lat, lon)
