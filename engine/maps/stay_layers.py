"""A multi-city trip on the map (issue 33 §4): every stay's city as a pin with its nights and dates, the box
to zoom to one stay, and the legs between them as lines styled by mode (an estimated leg dashed), with the
one line that names a leg everywhere ("Train Lisboa Santa Apolónia → Porto Campanhã 10:30–13:29, estimated").

``stays_document`` and ``legs_document`` are the ``stays`` and ``legs`` of the map document
(engine/maps/map_document.py), written only for a multi-city itinerary; ``resources/trip_map.js`` draws them.
"""

from __future__ import annotations

from datetime import timedelta

from engine.geo import distance_km
from engine.models import ItineraryV1, PlannedLeg

from .trip_map import bounds, line

# A leg's line by mode: dark enough over the basemap and the day colours, each its own dash when estimated.
LEG_STYLES = {"train": "#4a148c", "flight": "#01579b", "bus": "#1b5e20", "drive": "#bf360c", "ferry": "#006064"}
MODE_WORDS = {"train": "Train", "flight": "Flight", "bus": "Bus", "drive": "Drive", "ferry": "Ferry"}
SOURCE_WORDS = {"router": "from the timetable", "booked": "booked", "routed": "routed", "estimated": "estimated"}
STAY_RADIUS_KM = 60.0  # the stops within this of a stay's pin are the stay's (its box to zoom to)
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def leg_label(leg: PlannedLeg) -> str:
    """The leg in one line, as the map, the itinerary and the exports say it: mode, ends, local times (the
    arrival's day when it is another), and where the times came from."""
    start, end = leg.departure, leg.arrival
    later = (end.date() - start.date()).days
    arrives = f"{end:%H:%M}" + (f" (+{later} day{'s' if later > 1 else ''})" if later else "")
    return (f"{MODE_WORDS[leg.mode]} {leg.from_name} \u2192 {leg.to_name} {start:%H:%M}\u2013{arrives}, "
            f"{SOURCE_WORDS.get(leg.source, leg.source)}")


def _day(d) -> str:
    return f"{_WEEKDAYS[d.weekday()]} {d.day} {_MONTHS[d.month - 1]}"


def _centre(itinerary: ItineraryV1, index: int, markers: list[dict]) -> tuple[float, float] | None:
    """Where the stay's pin goes: its hotel (the check-in of a night there), else the station or airport of a
    leg arriving or leaving there, else the middle of its days' stops."""
    days = {k for k, d in enumerate(itinerary.days) if d.stay == index}
    for k in sorted(days):
        for a in itinerary.days[k].activities:
            if a.role == "checkin" and a.geo is not None:
                return a.geo.lat, a.geo.lon
    for leg in itinerary.legs:
        end = leg.to_geo if leg.to_city == itinerary.intent.stays[index].city else (
            leg.from_geo if leg.from_city == itinerary.intent.stays[index].city else None)
        if end is not None:
            return end.lat, end.lon
    points = [(m["lat"], m["lon"]) for m in markers if m["day"] in days and m["kind"] != "flight"]
    if not points:
        return None
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


def stays_document(itinerary: ItineraryV1, markers: list[dict]) -> list[dict]:
    """``[{"index", "number", "city", "nights", "lat", "lon", "label", "days", "focus"}]``; a stay whose place
    is unknown yet (nothing located) is left out."""
    intent = itinerary.intent
    stays = []
    for i, stay in enumerate(intent.stays):
        centre = _centre(itinerary, i, markers)
        if centre is None:
            continue
        first = intent.stay_first_day(i)
        near = [(m["lat"], m["lon"]) for m in markers if m["kind"] != "flight"
                and distance_km(centre[0], centre[1], m["lat"], m["lon"]) <= STAY_RADIUS_KM]
        nights = f"{stay.nights} night{'s' if stay.nights != 1 else ''}"
        stays.append({
            "index": i, "number": i + 1, "city": stay.city, "nights": stay.nights, "lat": centre[0], "lon": centre[1],
            "label": f"{stay.city} \u00b7 {nights} \u00b7 {_day(first)} \u2013 {_day(first + timedelta(days=stay.nights))}",
            "days": [k for k, d in enumerate(itinerary.days) if d.stay == i],
            "focus": bounds(near or [centre])})
    return stays


def legs_document(itinerary: ItineraryV1, stays: list[dict]) -> list[dict]:
    """``[{"index", "mode", "label", "why", "estimated", "source", "colour", "day", "path"}]``: each leg from
    its departure point to its arrival point (its own drawn path when it has one)."""
    pins = {s["city"]: (s["lat"], s["lon"]) for s in stays}
    start = itinerary.days[0].date if itinerary.days else None
    legs = []
    for leg in itinerary.legs:
        if leg.path:
            points = [(g.lon, g.lat) for g in leg.path]
        else:
            ends = [(g.lat, g.lon) if g is not None else pins.get(city)
                    for g, city in ((leg.from_geo, leg.from_city), (leg.to_geo, leg.to_city))]
            points = [(p[1], p[0]) for p in ends if p is not None]
        legs.append({
            "index": leg.index, "mode": leg.mode, "label": leg_label(leg), "why": leg.why,
            "estimated": leg.source == "estimated", "source": leg.source, "colour": LEG_STYLES[leg.mode],
            "day": (leg.departure.date() - start).days if start is not None else 0, "path": line(points)})
    return legs


def legs_legend(legs: list[dict]) -> list[dict]:
    """The legend's legs: each mode drawn, solid, and the dashed line of an estimate when there is one."""
    modes = list(dict.fromkeys(leg["mode"] for leg in legs))
    rows = [{"colour": LEG_STYLES[m], "dashed": False, "text": MODE_WORDS[m]} for m in modes]
    if any(leg["estimated"] for leg in legs):
        rows.append({"colour": "#555555", "dashed": True, "text": "Dashed: estimated times"})
    return rows


def leg_day_away(itinerary: ItineraryV1, stays: list[dict]) -> list[str]:
    """Ids of the stops a day's line leaves out: the leg itself and, on a leg's day, those in the city left
    behind (the day's line joins the stops of the city where its night is; the leg draws the way there)."""
    pins = {s["index"]: (s["lat"], s["lon"]) for s in stays}
    away = []
    for day in itinerary.days:
        pin = pins.get(day.stay) if day.stay is not None else None
        for a in day.activities:
            if a.role == "leg" or (pin is not None and a.geo is not None
                                   and distance_km(pin[0], pin[1], a.geo.lat, a.geo.lon) > STAY_RADIUS_KM):
                away.append(a.id)
    return away
