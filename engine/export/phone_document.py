"""What the phone file (``phone_export.py``) shows, as one JSON-ready dict: the page's only data.

::

    {"title": "Paris", "dates": "Tue 15 Jun 2027 – Sat 19 Jun 2027", "total": "$1,873.33",
     "disclaimer": str, "credits": [str], "city_map_note": str,
     "days": [{"index": 0, "number": 1, "date": "2027-06-15", "tz": "Europe/Paris",
               "label": "Day 1 · Tue 15 Jun", "summary": str, "colour": "#1f77b4",
               "items": [{"id", "kind", "role", "name", "time": "15:50–17:50" (times.py),
                          "start": ISO 8601 with its offset, "end": ISO, "clock": "15:50" (the start, local),
                          "address": str, "hours": str, "notes": str, "code": str, "locked": bool,
                          "marker": the id of its pin | null, "mark": the pin's glyph}]}],
     "map": the trip's map document (``engine/maps/map_document.py``, the city's own map included)}

The page decides Now and Next from ``start``/``end`` and the phone's own clock: an instant is the
same on every clock, so the phone's zone never shifts a plan; the local ``time``/``clock`` texts
are the plan's, on the clock where each thing happens. This file is the traveller's own: booking
codes are shown whole (``code``: the booked flight's or hotel's confirmation), as in the calendar.
Strings are plain text; the page inserts them with ``textContent``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from engine.maps.map_document import build_map_document
from engine.models import Activity, DayItinerary, ItineraryV1, format_usd

from ._bookings import confirmation_of
from ._trip import day_zone, local_span, plain_text, trip_dates, trip_where
from .text import traveller_text
from .times import activity_times

if TYPE_CHECKING:
    from engine.catalog.city_places import CityPlace
    from engine.maps.city_map import CityLayers

MAX_TEXT = 300
_RULE_COMMENT = re.compile(r'\s*"[^"]*"')  # an opening_hours rule's quoted comment
NAMES_ZOOM = 14  # a phone's map names the stops from street zoom on (a day's few pins are named)


def _text(value: str | None, limit: int = MAX_TEXT) -> str:
    text = " ".join(plain_text(str(value or "")).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def phone_document(itin: ItineraryV1, *, city_map: CityLayers | None = None,
                   places: dict[str, CityPlace] | None = None) -> dict:
    """The page's data. ``city_map``: the city's own map (its pack's); ``places``: the city's
    places by ref (their published opening hours and addresses), ``{}`` when not known."""
    places = places or {}
    document = build_map_document(itin, editable=False, airports=False, names_zoom=NAMES_ZOOM, city_map=city_map)
    drawn = {m["id"]: m for m in document["markers"]}
    first, last = trip_dates(itin)
    days = [_day(itin, day, number, drawn, places, document["days"][number - 1])
            for number, day in enumerate(itin.days, start=1)]
    where = trip_where(itin)
    return {"title": _text(where), "dates": f"{first:%a %d %b %Y} – {last:%a %d %b %Y}",
            "total": format_usd(itin.cost_breakdown.total_usd_cents), "disclaimer": _text(itin.disclaimer),
            "credits": document["credits"], "days": days, "map": document}


def _day(itin: ItineraryV1, day: DayItinerary, number: int, drawn: dict[str, dict], places: dict,
         map_day: dict) -> dict:
    zone = day_zone(itin, day)
    return {"index": number - 1, "number": number, "date": day.date.isoformat(), "tz": zone.key,
            "label": f"Day {number} · {day.date:%a} {day.date.day} {day.date:%b}"
                     + (f" → {_text(day.anchor.name)}" if day.anchor is not None else ""),
            "summary": map_day["summary"], "colour": map_day["colour"],
            "items": [_item(itin, day, act, zone, drawn.get(act.id), places.get(act.ref)) for act in day.activities]}


def _item(itin: ItineraryV1, day: DayItinerary, act: Activity, zone, marker: dict | None,
          place: CityPlace | None) -> dict:
    start, end = local_span(day.date, act, zone)
    return {"id": act.id, "kind": act.kind.value, "role": act.role, "name": _text(act.shown_name),
            "time": activity_times(day.date, act, zone), "start": start.isoformat(), "end": end.isoformat(),
            "clock": f"{start:%H:%M}", "address": _text(act.address or (place.address if place else None)),
            "hours": _hours(place),
            "notes": _text(traveller_text(act.notes), 600), "code": confirmation_of(itin, act) or "",
            "locked": act.locked, "marker": act.id if marker is not None else None,
            "mark": marker["mark"] if marker is not None else ""}


def _hours(place: CityPlace | None) -> str:
    """The place's published opening hours as its OpenStreetMap rule says them (its comments left
    out; "24/7" in words); "" when nobody published them (the plan then assumed hours)."""
    if place is None or not place.hours_known or not place.opening_hours:
        return ""
    rule = _text(_RULE_COMMENT.sub("", place.opening_hours)).strip(" ;")
    return "open at all hours" if rule == "24/7" else rule
