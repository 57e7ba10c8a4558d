"""The one map document of a trip (issue 30 §4), built from an ItineraryV1 (pure Python, no Qt).

``build_map_document(itinerary, ...)`` returns one JSON-ready dict that ``resources/trip_map.js``
draws, in the app (``widgets/map_view.py`` sends it over the bridge; ``resources/map.js`` adds the
edits) and in the HTML export (``engine/export/html_document.py`` adds the itinerary list).
Shape (version 2)::

    {"version": 2, "mode": "city" | "road_trip" | "multi_city" | "empty", "title": str, "online": bool,
     "editable": bool  (the app: context menus and drag; the export: false),
     "names_zoom": int  (names beside the pins from this zoom on; 0 = always),
     "days":     [{"index": 0, "number": 1, "label": "Day 1 · Mon 3 May → Needles, CA · 294 mi",
                   "summary": "Los Angeles, CA → Needles, CA · 294 mi (472 km) · 5 h 20 min driving" | "",
                   "colour": "#1f77b4", "driven": bool,
                   "path": {"type": "LineString", "coordinates": [[lon, lat], ...]} | null}],
     "corridor": {"name": "Route 66", "width_miles": 50.0, "width_label": "±50 mi" (the user's unit),
                  "geometry": {"type": "Polygon" | "MultiPolygon", ...}} | null,
     "markers":  [{"id", "lat", "lon", "kind", "label", "tag" (the short name beside the pin, or ""),
                   "mark" (the pin's glyph: "3", "H", "⌂", "S", "✈" or ""), "day", "time",
                   "confidence": "high"|"low", "low_reason", "data_source", "ring" (its colour),
                   "locked", "draggable", "selectable",
                   "actions": ["lock", "remove", "replace", "move:2", ...]  ([] unless editable),
                   "seq": 1 | null  (visits and meals: their order within the day)}],
     "legend":   {"days": [{"colour", "label"}], "corridor": str | null,
                  "kinds": [{"kind", "mark", "text"}], "sources": [{"source", "colour", "text"}],
                  "marks": [{"what": "low" | "locked", "text"}], "hint": str},
     "banner":   str | null,
     "focus":    [[south, west], [north, east]] | null,
     "credits":  [str]  (whose data the places are: "© OpenStreetMap contributors (ODbL)"),
     "excluded": [{"id", "label", "reason"}]  (markers the pre-render check left off: map_checks),
     "stays":    [{"index", "number", "city", "nights", "lat", "lon", "label", "days", "focus"}]  (multi-city only)
     "legs":     [{"index", "mode", "label", "why", "estimated", "source", "colour", "day", "path"}]  (multi-city
                 only: engine/maps/stay_layers.py; the legend then has "legs": [{"colour", "dashed", "text"}])
     "city_map": {"water", "rivers", "parks", "streets", "rail", "stations"} | null
                 (the city's own map from its pack, ``engine/maps/city_layers.py``; drawn under the
                  trip, street and park names from ``CITY_NAMES_ZOOM`` on)}

The app adds ``revision``, ``keep_view`` and its street-map fields (widgets/map_view.py).
Geometries are GeoJSON (lon, lat); markers carry plain ``lat``/``lon``. Marker ids are the
activity ids (``d1-overnight``, ``d2-activity-louvre``) except the road trip's start, ``origin``,
which is not selectable and has no actions.

``actions`` lists what the marker's context menu offers, following ``engine/edits.py``: a locked
slot can only be unlocked; visits and meals can be removed, replaced and moved to another day,
``move:<day_index>`` with the **0-based** day index of ``MoveToDay``; hotel desks can be locked;
flights and the road trip's terminus have no menu. A road trip offers only what its re-plan does
(``_road_actions``): a night kept or rested at, a stop along the way removed or replaced.
Only road-trip overnight stops are ``draggable``.

Nothing is HTML-escaped here: the page inserts every string with ``textContent``. Labels are
truncated to ``MAX_LABEL`` characters. Before anything is drawn, :mod:`engine.maps.map_checks`
checks every marker against the trust boundary again and leaves out (with a note) what fails.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from engine.models import Activity, DayItinerary, ItineraryV1
from engine.settings import DISTANCE_UNITS

from .city_map import CityLayers, layers_document
from .map_checks import exclusion_note, screen_line, screen_markers, valid_number_pair
from .map_legend import legend
from .stay_layers import leg_day_away, legs_document, legs_legend, stays_document
from .trip_map import (DAY_COLOURS, KIND_GLYPHS, NUMBERED_KINDS, SOURCE_COLOURS, bounds, day_lines, origin,
                       stop_kind)

__all__ = ["BANNER_TEXT", "DAY_COLOURS", "MAX_LABEL", "build_map_document", "empty_map_document",
           "is_finite_lat_lon"]

DOCUMENT_VERSION = 2
MAX_LABEL = 120
NAMES_ZOOM = 13  # the app names the stops from city zoom on (names that would cover another hide)
BANNER_TEXT = "Limited data available. Some information is estimated."
KM_PER_MILE = 1.609344
_VISITS = ("activity", "meal")
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _label(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def _distance(miles: float, unit: str) -> str:
    return f"{miles:,.0f} mi" if unit == "mi" else f"{miles * KM_PER_MILE:,.0f} km"


def _data_source(activity: Activity) -> str:
    source = activity.provenance.data_source if activity.provenance else "omitted"
    # The traveller's own input is first-hand; a cached real answer is still real data.
    source = "real" if source in ("user", "cache") else source
    return source if source in SOURCE_COLOURS else "omitted"


# -- markers ------------------------------------------------------------------------------------
HOURS_UNKNOWN = "Opening hours unknown"  # the start of a road stop's note when no hours are published


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
    if low and not reason and HOURS_UNKNOWN in activity.notes:
        reason = "its opening hours are not published: check before going"
    if low and not reason:
        reason = "the location was resolved with low confidence"
    return ("low", _label(reason)) if low else ("high", "")


def _actions(activity: Activity, kind: str, itinerary: ItineraryV1, day_index: int) -> list[str]:
    if activity.kind.value == "flight" or (kind == "anchor" and activity.role == "arrival"):
        return []
    n_days = len(itinerary.days)
    if itinerary.intent.mode == "road_trip":
        return _road_actions(activity, kind, itinerary, day_index)
    if activity.role == "leg":
        return []  # the leg between two cities is the chain's: changed from the stay's row, not here
    if activity.locked:
        return ["unlock"]
    actions = ["lock"]
    if activity.role in _VISITS:
        # a multi-city trip's edits stay inside the stay: a visit moves only to another day in that city
        stay = itinerary.days[day_index].stay
        actions += ["remove", "replace", *(f"move:{j}" for j in range(n_days)
                                           if j != day_index and itinerary.days[j].stay == stay)]
    return actions


def _road_actions(activity: Activity, kind: str, itinerary: ItineraryV1, day_index: int) -> list[str]:
    """Only what a road trip's re-plan will do (app/map_edit_flow.py), so nothing offered is then
    refused: a night is kept ("lock") by making its town a requested stop of a named route, and
    once kept or booked it stays (no "unlock"); a rest day there while a day is left to drive
    (issue 20 §3); a stop along the way is skipped ("remove") or swapped for another ("replace").
    A road stop is never locked: a re-plan keeps the sights of the days it does not change."""
    intent = itinerary.intent
    if kind == "anchor" and activity.role == "checkin":
        keep = ["lock"] if not activity.locked and intent.route else []
        return keep + (["rest"] if _rest_fits(itinerary, day_index) else [])
    return ["remove", "replace"] if activity.role == "activity" and activity.ref else []


def _rest_fits(itinerary: ItineraryV1, night: int) -> bool:
    """Whether a rest day at the town of ``night`` (a day index) leaves the trip drivable, as the
    re-plan judges it: the rest town splits the drive like a requested stop, each leg takes whole
    days under the daily cap, and between the nights whose dates are fixed (the start, a booked
    night, the end) the legs and the rest days must fit the days there are. The re-plan refuses
    it otherwise ("… need at least 7 day(s) under the 400-mile daily cap; 6 given")."""
    intent, days = itinerary.intent, itinerary.days
    if len(intent.rest_days) + 1 >= intent.days:
        return False
    hotel = intent.bookings.hotel if intent.bookings else None
    rests = [k for k, d in enumerate(days) if d.exemption == "rest"]
    kept = {k for k, d in enumerate(days[:-1]) if any(a.locked and a.role == "checkin" for a in d.activities)}
    booked = [k for k in sorted(kept) if hotel and hotel.checkin <= days[k].date < hotel.checkout]
    splits = kept | {night} | {k - 1 for k in rests}
    fixed = [-1, *booked, len(days) - 1]
    for first, last in zip(fixed, fixed[1:]):
        points = [first, *sorted(k for k in splits if first < k < last), last]
        legs = [sum(d.drive.miles for d in days[a + 1: b + 1] if d.drive is not None) for a, b in zip(points, points[1:])]
        driving = sum(math.ceil(miles / intent.max_daily_miles - 1e-9) for miles in legs)
        resting = sum(first < k <= last for k in rests) + (first <= night < last)
        if driving + resting > last - first:
            return False
    return True


def _tag(activity: Activity, day: DayItinerary, kind: str, road: bool) -> str:
    """The name beside the pin: every city stop's; on road trips the towns' (the rest are numbered)."""
    if kind == "anchor":
        return _label(day.anchor.name if day.anchor is not None else activity.name)
    return "" if road else _label(activity.shown_name)


def _activity_marker(activity: Activity, day: DayItinerary, day_index: int, itinerary: ItineraryV1) -> dict:
    road = itinerary.intent.mode == "road_trip"
    kind = stop_kind(activity, road)
    confidence, reason = _confidence(activity, day, kind)
    source = _data_source(activity)
    return {
        "id": activity.id, "lat": activity.geo.lat, "lon": activity.geo.lon, "kind": kind,
        "label": _label(activity.shown_name), "tag": _tag(activity, day, kind, road), "mark": KIND_GLYPHS.get(kind, ""),
        "day": day_index, "time": activity.window.label(), "confidence": confidence, "low_reason": reason,
        "data_source": source, "ring": SOURCE_COLOURS[source], "locked": activity.locked,
        "draggable": kind == "anchor" and activity.role == "checkin", "selectable": True,
        "actions": _actions(activity, kind, itinerary, day_index), "seq": None,
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
            "label": _label(f"Start: {name}"), "tag": _label(name), "mark": KIND_GLYPHS["origin"],
            "day": 0, "time": "", "confidence": confidence, "low_reason": reason, "data_source": "computed",
            "ring": SOURCE_COLOURS["computed"], "locked": False, "draggable": False, "selectable": False,
            "actions": [], "seq": None}


def _markers(itinerary: ItineraryV1, road: bool, airports: bool) -> list[dict]:
    markers = []
    if road:
        start = _origin_marker(itinerary)
        if start is not None:
            markers.append(start)
    for di, day in enumerate(itinerary.days):
        markers += [_activity_marker(a, day, di, itinerary) for a in day.activities
                    if a.geo is not None and (airports or a.kind.value != "flight")]
    return markers


def _number(markers: list[dict]) -> list[dict]:
    """Visits and meals numbered in visiting order within their day (of those drawn)."""
    seq: dict[int, int] = {}
    for marker in markers:
        if marker["kind"] in NUMBERED_KINDS:
            seq[marker["day"]] = marker["seq"] = seq.get(marker["day"], 0) + 1
            marker["mark"] = str(marker["seq"])
    return markers


# -- days ---------------------------------------------------------------------------------------
def _day_label(day: DayItinerary, index: int, unit: str) -> str:
    d = day.date
    text = f"Day {index + 1} · {_WEEKDAYS[d.weekday()]} {d.day} {_MONTHS[d.month - 1]}"
    if day.anchor is not None:
        text += f" → {day.anchor.name}"
        if day.drive is not None:
            text += f" · {_distance(day.drive.miles, unit)}"
    return _label(text)


def _drive_summary(day: DayItinerary) -> str:
    if day.drive is None:
        return ""
    miles = day.drive.miles
    hours, minutes = divmod(round(day.drive.hours * 60), 60)
    return _label(f"{day.drive.from_name} → {day.drive.to_name} · {miles:,.0f} mi "
                  f"({miles * KM_PER_MILE:,.0f} km) · {hours} h {minutes:02d} min driving")


def _days(itinerary: ItineraryV1, unit: str, region: str | None, drawn: set[str]) -> list[dict]:
    lines = day_lines(itinerary, keep=lambda a: a.id in drawn, screen=lambda points: screen_line(points, region))
    return [{"index": line["index"], "number": line["index"] + 1, "label": _day_label(day, line["index"], unit),
             "summary": _drive_summary(day), "colour": line["colour"], "driven": bool(day.path),
             "path": line["path"]} for line, day in zip(lines, itinerary.days)]


# -- corridor, banner, focus --------------------------------------------------------------------
def _corridor(band: Mapping | None, unit: str) -> dict | None:
    if not band:
        return None
    width = float(band["width_miles"])
    return {"name": _label(band["name"]), "width_miles": width, "width_label": "\u00b1" + _distance(width, unit),
            "geometry": band["geometry"]}


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
def empty_map_document(*, online: bool = False, editable: bool = True) -> dict:
    return {"version": DOCUMENT_VERSION, "mode": "empty", "title": "", "online": bool(online),
            "editable": editable, "names_zoom": NAMES_ZOOM, "days": [], "corridor": None, "markers": [],
            "legend": legend("empty", [], [], None, editable), "banner": None, "focus": None, "credits": [],
            "excluded": [], "city_map": None}


def build_map_document(itinerary: ItineraryV1, *, corridor: Mapping | None = None, online: bool = False,
                       distance_unit: str = "mi", editable: bool = True, airports: bool = True,
                       names_zoom: int = NAMES_ZOOM, city_map: CityLayers | None = None) -> dict:
    """The map document of ``itinerary`` (see the module docstring).

    ``corridor`` is the road trip's band, ``{"name", "width_miles", "geometry"}`` as
    ``engine.roadtrip.corridor_band.corridor_band`` makes it (the road trip's own package: the
    map document does not reach into it). Distances in labels are in ``distance_unit``
    ("mi" or "km", the user's setting). ``editable`` gives markers their context-menu actions
    and drag (the app); ``airports=False`` leaves flights off the map (the shared page).
    ``city_map``: the city's own map from its pack (a city trip's), or a road trip's main roads and
    water from its corridor chunks (``engine.places.corridor_map``).
    """
    if distance_unit not in DISTANCE_UNITS:
        raise ValueError(f"unknown distance unit {distance_unit!r}; expected one of {', '.join(DISTANCE_UNITS)}")
    road, multi = itinerary.intent.mode == "road_trip", itinerary.intent.mode == "multi_city"
    markers, excluded, region = screen_markers(_markers(itinerary, road, airports), road)
    markers = _number(markers)
    if not editable:
        for marker in markers:
            marker.update(actions=[], draggable=False)
    stays = stays_document(itinerary, markers) if multi else []
    days = _days(itinerary, distance_unit, region, {m["id"] for m in markers} - set(leg_day_away(itinerary, stays)))
    band = _corridor(corridor, distance_unit)
    if road:
        title = f"{itinerary.intent.origin} → {itinerary.intent.terminus}"
    else:
        title = " → ".join(s.city for s in itinerary.intent.stays) if multi else itinerary.intent.city
    mode = "road_trip" if road else "multi_city" if multi else "city"
    document = {
        "version": DOCUMENT_VERSION, "mode": mode, "title": _label(title), "online": bool(online),
        "editable": editable, "names_zoom": names_zoom, "days": days, "corridor": band,
        "markers": markers, "legend": legend(mode, days, markers, band, editable),
        "banner": _banner(itinerary, markers, excluded), "excluded": excluded,
        "focus": _focus(markers, days, road), "credits": [_label(credit) for credit in itinerary.attributions],
        "city_map": layers_document(city_map),
    }
    if multi:  # every stay's city and the legs between them (written only here: other documents stay as they were)
        document["stays"] = stays
        document["legs"] = legs_document(itinerary, stays)
        document["legend"]["legs"] = legs_legend(document["legs"])
    return document


def is_finite_lat_lon(lat: object, lon: object) -> bool:
    """True for real numbers (not bools) within [-90, 90] x [-180, 180]."""
    return valid_number_pair(lat, lon)
