"""What the standalone HTML map shows, as one JSON-ready dict (the page's only data).

Shape::

    {"title": str, "dates": str, "mode": "city" | "road_trip", "total": "$1,234.56",
     "disclaimer": str,
     "days":  [{"number": 1, "label": "Day 1 · Mon 10 May", "summary": str, "colour": "#1f77b4",
                "path": {"type": "LineString", "coordinates": [[lon, lat], ...]} | null, "driven": bool,
                "items": [{"time": "14:50-15:35", "name": str, "kind": "attraction",
                           "locked": bool, "stop": index into "stops" | null}]}],
     "stops": [{"day": 1, "lat", "lon", "name": str, "time": str, "kind": str,
                "mark": "3" | "H" | "S" | "⌂", "label": str, "locked": bool,
                "note": str (why the position is uncertain, or "")}],
     "bounds": [[south, west], [north, east]] | null}

Stops are what the map marks: located activities except flights (airports would stretch a city
map). Attractions and meals are numbered in visiting order within their day; hotels are "H",
a road trip's overnight stops and arrival "⌂", its start "S". ``label`` is the short name shown
beside the marker: every city stop's, and on road trips the towns' (other stops are numbered
only; their names are in the tooltip and the list). Road-trip days carry their driven ``path``;
a city day's path joins its stops in order. The palette, the day lines (GeoJSON), the stops' kinds,
the start and the bounds come from :mod:`engine.maps.trip_map`, as the app map's do.

Strings are plain text, never markup: the page inserts them with ``textContent``.
"""

from __future__ import annotations

from engine.maps.trip_map import ANCHOR_ROLES, bounds, day_colour, day_line, origin
from engine.models import Activity, ChoiceKind, DayItinerary, ItineraryV1

from ._trip import plain_text, trip_dates

MAX_TEXT = 160
KM_PER_MILE = 1.609344
_NUMBERED = (ChoiceKind.attraction, ChoiceKind.meal)


def _text(value: str) -> str:
    text = " ".join(plain_text(str(value)).split())
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def map_document(itin: ItineraryV1) -> dict:
    road = itin.intent.mode == "road_trip"
    origin = _origin(itin) if road else None
    stops: list[dict] = [origin] if origin else []
    days = [_day(day, number, road, stops) for number, day in enumerate(itin.days, start=1)]
    first, last = trip_dates(itin)
    return {"title": _text(_where(itin)), "dates": f"{first:%a %d %b %Y} – {last:%a %d %b %Y}",
            "mode": "road_trip" if road else "city",
            "total": _money(itin.cost_breakdown.total_usd_cents),
            "disclaimer": _text(itin.disclaimer), "days": days, "stops": stops,
            "bounds": _bounds(stops, days), "credits": [_text(c) for c in itin.attributions]}


def _where(itin: ItineraryV1) -> str:
    if itin.intent.mode == "city":
        return itin.intent.city
    return f"{itin.intent.origin} → {itin.intent.terminus}"


def _day(day: DayItinerary, number: int, road: bool, stops: list[dict]) -> dict:
    items, seq = [], 0
    for act in day.activities:
        stop = None
        if act.geo is not None and act.kind is not ChoiceKind.flight:
            seq += act.kind in _NUMBERED
            stop = len(stops)
            stops.append(_stop(act, day, number, road, str(seq) if act.kind in _NUMBERED else _glyph(act, road)))
        items.append({"time": act.window.label(), "name": _text(act.name), "kind": act.kind.value,
                      "locked": act.locked, "stop": stop})
    return {"number": number, "label": f"Day {number} · {day.date:%a} {day.date.day} {day.date:%b}",
            "summary": _drive_summary(day), "colour": day_colour(number - 1), "path": day_line(day),
            "driven": bool(day.path), "items": items}


def _glyph(act: Activity, road: bool) -> str:
    if road and act.role in ANCHOR_ROLES:
        return "⌂"
    return "H" if act.kind is ChoiceKind.lodging else ""


def _stop(act: Activity, day: DayItinerary, number: int, road: bool, mark: str) -> dict:
    anchor = road and act.role in ANCHOR_ROLES
    if anchor:
        label = day.anchor.name if day.anchor is not None else act.name
    else:
        label = "" if road else act.name
    return {"day": number, "lat": act.geo.lat, "lon": act.geo.lon, "name": _text(act.name),
            "time": act.window.label(), "kind": "anchor" if anchor else act.kind.value, "mark": mark,
            "label": _text(label), "locked": act.locked,
            "note": _uncertainty(act, day if anchor else None)}


def _uncertainty(act: Activity, day: DayItinerary | None) -> str:
    """Why a stop's position is uncertain (the app map's low-confidence mark), or ""."""
    town = day.anchor if day is not None else None
    if act.confidence != "low" and (town is None or town.confidence != "low"):
        return ""
    reason = town.note if town is not None and town.note else "located with low confidence"
    return _text(f"Approximate position: {reason}")


def _origin(itin: ItineraryV1) -> dict | None:
    found = origin(itin)
    if found is None:
        return None
    start, name = found
    return {"day": 1, "lat": start.lat, "lon": start.lon, "name": _text(f"Start: {name}"),
            "time": "", "kind": "origin", "mark": "S", "label": _text(name),
            "locked": False, "note": ""}


def _drive_summary(day: DayItinerary) -> str:
    if day.drive is None:
        return ""
    miles = day.drive.miles
    hours, minutes = divmod(round(day.drive.hours * 60), 60)
    return _text(f"{day.drive.from_name} → {day.drive.to_name} · {miles:,.0f} mi "
                 f"({miles * KM_PER_MILE:,.0f} km) · {hours} h {minutes:02d} min driving")


def _money(cents: int) -> str:
    sign = "−" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}${cents // 100:,}.{cents % 100:02d}"


def _bounds(stops: list[dict], days: list[dict]) -> list[list[float]] | None:
    points = [(s["lat"], s["lon"]) for s in stops]
    points += [(lat, lon) for d in days if d["driven"] and d["path"] for lon, lat in d["path"]["coordinates"]]
    return bounds(points)
