"""What the standalone HTML map shows, as one JSON-ready dict (the page's only data).

It is the trip's map document (:func:`engine.maps.map_document.build_map_document`, the one the
app draws) built for a page to share — no edits, no airports (they would stretch a city map), the
names beside the pins at every zoom — plus what the itinerary list beside the map needs::

    {...the map document...,
     "dates": "Mon 10 May 2027 – Thu 13 May 2027", "total": "$1,234.56", "disclaimer": str,
     "days": [{...the document's day..., "items": [{"time": "14:50–15:35" (engine/export/times.py), "name": str,
               "kind": "attraction", "locked": bool, "marker": the id of its marker | null}]}]}

The city's own map (water, parks, main streets, rail: ``city_map``) is its pack's, as the app draws
it. Both are drawn by ``resources/trip_map.js``; ``engine/export/html_map.js`` adds the list.
Strings are plain text, never markup: the page inserts them with ``textContent``.
"""

from __future__ import annotations

from engine.maps.map_document import build_map_document
from engine.models import DayItinerary, ItineraryV1

from ._trip import day_zone, plain_text, trip_dates, trip_where
from .times import activity_times

MAX_TEXT = 160


def _text(value: str) -> str:
    text = " ".join(plain_text(str(value)).split())
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def map_document(itin: ItineraryV1) -> dict:
    document = build_map_document(itin, editable=False, airports=False, names_zoom=0, city_map=_city_map(itin))
    if itin.intent.mode == "road_trip":  # its main roads and water: the cached corridor cells along its drives
        from engine.maps.city_map import layers_document
        from engine.places.corridor_map import corridor_map
        paths = [day["path"]["coordinates"] for day in document["days"] if day["path"] is not None]
        document["city_map"] = layers_document(corridor_map([tuple(p) for path in paths for p in path]))
    drawn = {m["id"] for m in document["markers"]}
    for day, source in zip(document["days"], itin.days):
        day["items"] = _items(itin, source, drawn)
    first, last = trip_dates(itin)
    document.update(title=_text(_where(itin)), dates=f"{first:%a %d %b %Y} – {last:%a %d %b %Y}",
                    total=_money(itin.cost_breakdown.total_usd_cents), disclaimer=_text(itin.disclaimer))
    return document


def _city_map(itin: ItineraryV1):
    """The city's own map — water, parks, streets, rail — as the app's map draws it (its pack's)."""
    if itin.intent.mode != "city":
        return None
    from engine.places.pack_store import PackStore
    return PackStore().city_map(itin.intent.city)


def _where(itin: ItineraryV1) -> str:
    return trip_where(itin)


def _items(itin: ItineraryV1, day: DayItinerary, drawn: set[str]) -> list[dict]:
    zone = day_zone(itin, day)  # each end on its own clock: a flight's on the zones it leaves and lands in
    return [{"time": activity_times(day.date, act, zone), "name": _text(act.shown_name), "kind": act.kind.value, "locked": act.locked,
             "marker": act.id if act.id in drawn else None} for act in day.activities]


def _money(cents: int) -> str:
    sign = "−" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}${cents // 100:,}.{cents % 100:02d}"
