"""What a map of a trip draws, whoever draws it (issue 30 §4): the day palette, the data-source ring
colours, the marker kinds' glyphs and words, each day's line as GeoJSON, the road trip's start and
the bounds to fit.

One document is built from these pieces (``engine/maps/map_document.py``) and drawn by one
renderer (``resources/trip_map.js``), in the app (``resources/map.js`` adds the edits) and in the
HTML export (``engine/export/html_map.js`` adds the itinerary list).

Day colours and ring colours are two palettes on one marker (fill = day, ring = data source):
every day colour is at least ``MIN_PALETTE_DISTANCE`` (CIE76 ΔE) from every ring colour, so a day
is never read as a source (issue 32 §4); ``tests/engine/test_trip_map.py`` measures it.

Day lines are GeoJSON ``LineString`` (``[lon, lat]`` pairs, ``LINE_DECIMALS`` decimals, repeated
points dropped), ``None`` when fewer than two distinct points remain. A road-trip day follows its
driven ``path``; a city day joins its located stops in visiting order, flights left out (a line to
the airport would only stretch the day's drawing).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.models import Activity, DayItinerary, Geo, ItineraryV1

# Distinct on the light basemap and against each other, and far from every ring colour below:
# no green (real data), amber (fixture), slate (computed), grey, purple (OSM) or brown (estimated).
DAY_COLOURS = ("#1f77b4", "#d62728", "#ff7f0e", "#17becf", "#e377c2",
               "#393b79", "#827717", "#ad1457", "#00897b", "#4fc3f7")
# A marker's ring: where its data came from (seed 002 §12.2), with the legend's words.
SOURCE_COLOURS = {"real": "#1e9e49", "fixture": "#e8b100", "computed": "#455a64", "omitted": "#9a9a9a",
                  "osm": "#7e57c2", "estimated": "#8d6e63"}
SOURCE_TEXT = {"real": "Real data", "fixture": "Fixture data", "computed": "Computed", "omitted": "Omitted",
               "osm": "OpenStreetMap", "estimated": "Estimated"}
ALWAYS_LISTED_SOURCES = ("real", "fixture", "computed", "omitted")  # the others only when used
MIN_PALETTE_DISTANCE = 30.0
# Marker kinds: the glyph on the pin ("" = the visit number, or nothing) and the legend's words.
KIND_GLYPHS = {"anchor": "\u2302", "origin": "S", "lodging": "H", "attraction": "", "meal": "",
               "flight": "\u2708", "transit": ""}
KIND_TEXT = {"anchor": "Overnight stop", "origin": "Start", "lodging": "Hotel",
             "attraction": "Sight / stop (visit order)", "meal": "Meal", "flight": "Airport (flight)",
             "transit": "Transit"}
LINE_DECIMALS = 5
ANCHOR_ROLES = ("checkin", "arrival")  # a road trip's night in town, and its arrival
NUMBERED_KINDS = ("attraction", "meal")  # numbered in visiting order within their day

LonLat = tuple[float, float]


def day_colour(index: int) -> str:
    """The colour of the day at 0-based ``index``."""
    return DAY_COLOURS[index % len(DAY_COLOURS)]


def stop_kind(activity: Activity, road: bool) -> str:
    """``"anchor"`` for a road trip's overnight town and arrival, else the activity's kind."""
    return "anchor" if road and activity.role in ANCHOR_ROLES else activity.kind.value


def line(points: Iterable[LonLat]) -> dict | None:
    """A GeoJSON LineString through the ``(lon, lat)`` points, or None with fewer than two."""
    coords: list[list[float]] = []
    for lon, lat in points:
        c = [round(lon, LINE_DECIMALS), round(lat, LINE_DECIMALS)]
        if not coords or coords[-1] != c:
            coords.append(c)
    return {"type": "LineString", "coordinates": coords} if len(coords) > 1 else None


def day_line(day: DayItinerary, *, keep: Callable[[Activity], bool] | None = None,
             screen: Callable[[Iterable[LonLat]], Iterable[LonLat]] | None = None) -> dict | None:
    """The day's line: its driven path (through ``screen``, when given), else its located stops
    other than flights (those ``keep`` accepts, when given) in visiting order."""
    if day.path:
        points: Iterable[LonLat] = ((g.lon, g.lat) for g in day.path)
        return line(screen(points) if screen is not None else points)
    return line((a.geo.lon, a.geo.lat) for a in day.activities
                if a.geo is not None and a.kind.value != "flight" and (keep is None or keep(a)))


def day_lines(itinerary: ItineraryV1, **how) -> list[dict]:
    """``{"index", "colour", "path"}`` of every day (0-based index; ``how`` as :func:`day_line`)."""
    return [{"index": di, "colour": day_colour(di), "path": day_line(day, **how)}
            for di, day in enumerate(itinerary.days)]


def origin(itinerary: ItineraryV1) -> tuple[Geo, str] | None:
    """A road trip's start: where its first driven day begins, and the name it leaves from."""
    first = itinerary.days[0] if itinerary.days else None
    if first is None or not first.path:
        return None
    name = first.drive.from_name if first.drive else getattr(itinerary.intent, "origin", "Start")
    return first.path[0], name


def bounds(points: Iterable[tuple[float, float]]) -> list[list[float]] | None:
    """``[[south, west], [north, east]]`` of the ``(lat, lon)`` points, or None when there are none."""
    pts = list(points)
    if not pts:
        return None
    lats, lons = [p[0] for p in pts], [p[1] for p in pts]
    return [[min(lats), min(lons)], [max(lats), max(lons)]]
