"""Is a plan GOOD, not only feasible (issue 31 §6)? Pure measures over an itinerary (city or road
trip) and the OSM elements of the place data it was planned from.

Each measure reads what the traveller is shown — the activities' names, windows, places and the
OpenStreetMap element each one links to (``provenance.source_url``) — and nothing the planner
computed for itself. The targets the benchmark reports against are in ``TARGETS``; nothing here
asserts them (``bench/plan_quality.py`` prints them, later work must reach them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Iterable, Sequence

from engine.geocode.trust import geodesic_miles
from engine.models.dated_hours import dated_hours
from engine.models.itinerary import Activity, DayItinerary

from .route_order import Reference, Stop, hours_of_stop, plan_pace, set_off

Point = tuple[float, float]

TARGETS = {"coverage": 0.70, "largest_hole_h": 3.0, "route_ratio": 1.05, "meals_at_restaurants": 1.0,
           "nights_at_bed": 1.0, "fastest_mph": 70.0}
DAY_START, DAY_END = time(9, 0), time(18, 0)  # the window a full day's holes are looked for in
BED_REACH_MILES = 15.0
LUNCH_FROM = time(10, 30)  # a meal starting at or after this is lunch or dinner, not breakfast
LUNCH_UNTIL = time(15, 30)  # ...and one starting by this is lunch
RESTAURANT_AMENITIES = frozenset({"restaurant", "food_court"})
BED_TOURISM = frozenset({"hotel", "motel", "guest_house", "hostel", "apartment", "camp_site", "chalet"})
EXACT_STOPS = 9  # the best order is searched exhaustively (Held-Karp: exact) up to this many free stops
_OSM_URL = re.compile(r"openstreetmap\.org/(node|way|relation)/(\d+)")
_VISIT_KINDS = ("attraction", "meal", "lodging")


# --- the place data ---------------------------------------------------------------------------

def element_point(e: dict) -> Point | None:
    if "lat" in e and "lon" in e:
        return float(e["lat"]), float(e["lon"])
    c = e.get("center")
    return (float(c["lat"]), float(c["lon"])) if c else None


class PlaceData:
    """The OSM elements a plan was made from, found by OSM identity or by a shown name."""

    def __init__(self, elements: Iterable[dict]) -> None:
        self.elements = [e for e in elements if e.get("tags", {}).get("name")]
        self._by_key = {(e["type"], int(e["id"])): e for e in self.elements}
        self._by_name: dict[str, dict] = {}
        for e in self.elements:
            for key, value in e["tags"].items():
                if key == "name" or key.startswith("name:"):
                    self._by_name.setdefault(value.casefold(), e)

    def named(self, name: str) -> dict:
        """The element whose ``name`` tag is ``name`` (a famous-sight list names them so)."""
        for e in self.elements:
            if e["tags"]["name"] == name:
                return e
        raise KeyError(f"no element named {name!r} in the place data")

    def of(self, activity: Activity) -> dict | None:
        """The element an activity stands for: its OSM link, else its name (or a name it contains)."""
        url = activity.provenance.source_url if activity.provenance else None
        match = _OSM_URL.search(url or "")
        if match:
            found = self._by_key.get((match.group(1), int(match.group(2))))
            if found:
                return found
        shown = activity.name.casefold()
        if shown in self._by_name:
            return self._by_name[shown]
        hits = [e for n, e in self._by_name.items() if len(n) >= 4 and n in shown]
        return max(hits, key=lambda e: len(e["tags"]["name"]), default=None)

    def beds(self) -> list[dict]:
        return [e for e in self.elements if e["tags"].get("tourism") in BED_TOURISM]


def _visits(day: DayItinerary, kinds: Sequence[str] = _VISIT_KINDS) -> list[Activity]:
    return [a for a in day.activities if a.kind.value in kinds and a.role != "omitted"]


# --- 1. the famous sights ----------------------------------------------------------------------

@dataclass(frozen=True)
class Coverage:
    famous_open: tuple[str, ...]  # of the famous list: those open on at least one day of the trip
    visited: tuple[str, ...]      # of those: the ones the plan visits
    closed: tuple[str, ...]       # famous but closed on every day of the trip

    @property
    def share(self) -> float | None:
        return len(self.visited) / len(self.famous_open) if self.famous_open else None


def open_on_some_day(element: dict, days: Sequence[date], country: str | None) -> bool:
    """Unknown hours count as open (unknown is not closed)."""
    rule = element["tags"].get("opening_hours")
    if not rule:
        return True
    hours = dated_hours(rule, country)
    return any(hours.windows_on(d) for d in days)


def famous_coverage(days: Sequence[DayItinerary], data: PlaceData, famous: Sequence[str],
                    country: str | None = None) -> Coverage:
    dates = [d.date for d in days]
    visited_ids = {id(e) for d in days for a in _visits(d, ("attraction",)) if (e := data.of(a)) is not None}
    open_, seen, closed = [], [], []
    for name in famous:
        element = data.named(name)
        if not open_on_some_day(element, dates, country):
            closed.append(name)
            continue
        open_.append(name)
        if id(element) in visited_ids:
            seen.append(name)
    return Coverage(tuple(open_), tuple(seen), tuple(closed))


# --- 2. idle hours on full days ------------------------------------------------------------------

def _minutes(t: time) -> int:
    return t.hour * 60 + t.minute


@dataclass(frozen=True)
class Idle:
    date: date
    largest_hole_h: float
    total_idle_h: float


def day_idle(day: DayItinerary, start: time = DAY_START, end: time = DAY_END) -> Idle:
    """Holes between ``start`` and ``end`` that no activity (visit, meal, transfer, drive) fills."""
    lo, hi = _minutes(start), _minutes(end)
    spans = sorted((max(lo, _minutes(a.window.start)), min(hi, _minutes(a.window.end)))
                   for a in day.activities if a.role != "omitted")
    cursor, largest, idle = lo, 0, 0
    for s, e in spans:
        if e <= s:
            continue
        if s > cursor:
            largest, idle = max(largest, s - cursor), idle + (s - cursor)
        cursor = max(cursor, e)
    if hi > cursor:
        largest, idle = max(largest, hi - cursor), idle + (hi - cursor)
    return Idle(day.date, round(largest / 60, 2), round(idle / 60, 2))


def full_days(days: Sequence[DayItinerary]) -> list[DayItinerary]:
    """Days with no flight and no rest or travel-only exemption: the traveller's whole day to fill."""
    return [d for d in days if d.exemption is None and not any(a.kind.value == "flight" for a in d.activities)]


# --- 3. the day's route against the best order of the same stops ---------------------------------

def path_miles(points: Sequence[Point]) -> float:
    return sum(geodesic_miles(a, b) for a, b in zip(points, points[1:]))


def best_path_miles(stops: Sequence[Point], start: Point | None = None, end: Point | None = None) -> float:
    """The shortest path through every stop once, from ``start`` and to ``end`` when given (either
    end free otherwise): exact (Held-Karp dynamic programming over subsets)."""
    n = len(stops)
    if n == 0:
        return geodesic_miles(start, end) if start and end else 0.0
    d = [[geodesic_miles(a, b) for b in stops] for a in stops]
    full = (1 << n) - 1
    cost: dict[tuple[int, int], float] = {}
    for j in range(n):
        cost[(1 << j, j)] = geodesic_miles(start, stops[j]) if start else 0.0
    for mask in range(1, full + 1):
        for j in range(n):
            here = cost.get((mask, j))
            if here is None:
                continue
            for k in range(n):
                if mask & (1 << k):
                    continue
                key = (mask | (1 << k), k)
                step = here + d[j][k]
                if step < cost.get(key, float("inf")):
                    cost[key] = step
    return min(cost[(full, j)] + (geodesic_miles(stops[j], end) if end else 0.0) for j in range(n))


@dataclass(frozen=True)
class Route:
    date: date
    stops: int
    planned_miles: float
    best_miles: float  # the shortest feasible order of the same stops (``route_order``)

    @property
    def ratio(self) -> float | None:
        return self.planned_miles / self.best_miles if self.best_miles > 0.05 else None


def day_route(day: DayItinerary, start: Point | None = None, end: Point | None = None,
              data: PlaceData | None = None, country: str | None = None) -> Route | None:
    """The day's located visits in plan order, from ``start`` (where the day begins: last night's
    bed) to ``end`` (tonight's), against the shortest order of the same stops a traveller could
    have walked that day (``route_order``: the meals where they are, every sight inside its hours
    in ``data``, at the plan's own pace). None when the day has more than ``EXACT_STOPS`` sights or
    fewer than two places to link."""
    visits = [a for a in _visits(day, ("attraction", "meal")) if a.geo]
    sights = [a for a in visits if a.kind.value == "attraction"]
    start = set_off(day, visits, start)
    if len(sights) > EXACT_STOPS or len(visits) + (start is not None) + (end is not None) < 3:
        return None
    stops = [Stop((a.geo.lat, a.geo.lon), _minutes(a.window.start), _minutes(a.window.end), a.kind.value == "meal",
                  hours_of_stop(a, data.of(a) if data else None, country)) for a in visits]
    pace = plan_pace(day, visits)
    planned = path_miles([p for p in (start, *(s.point for s in stops), end) if p is not None])
    leave = stops[0].start - pace.minutes(start, stops[0].point) if start is not None else None
    home = stops[-1].end + pace.minutes(stops[-1].point, end) if end is not None else None
    best = Reference(day.date, stops, pace, start, end, leave, home).shortest(planned)
    return Route(day.date, len(stops), round(planned, 3), round(best, 3))


def bed_points(days: Sequence[DayItinerary]) -> list[Point | None]:
    """Where each day's night is spent: its lodging activity's place, else its road-trip anchor."""
    out: list[Point | None] = []
    for day in days:
        beds = [a for a in day.activities if a.kind.value == "lodging" and a.geo and a.role != "checkout"]
        if beds:
            out.append((beds[-1].geo.lat, beds[-1].geo.lon))
        elif day.anchor and day.anchor.geo:
            out.append((day.anchor.geo.lat, day.anchor.geo.lon))
        else:
            out.append(out[-1] if out else None)
    return out


def routes(days: Sequence[DayItinerary], data: PlaceData | None = None, country: str | None = None) -> list[Route]:
    nights = bed_points(days)
    found = []
    for i, day in enumerate(days):
        start = nights[i - 1] if i else None
        route = day_route(day, start, nights[i], data, country)
        if route is not None and route.ratio is not None:
            found.append(route)
    return found


@dataclass(frozen=True)
class DayMiles:
    date: date
    drive_miles: float      # the day's driving as the plan states it (``DayItinerary.drive``)
    straight_miles: float   # the straight line from last night's bed through the stops to tonight's

    @property
    def short(self) -> bool:
        """Fewer miles than the straight line: some detour to a stop was not counted."""
        return self.drive_miles + 0.05 < self.straight_miles


def day_miles(days: Sequence[DayItinerary]) -> list[DayMiles]:
    """Road days: the stated drive against the straight line through the day's places, in order."""
    nights = bed_points(days)
    out = []
    for i, day in enumerate(days):
        if day.drive is None:
            continue
        stops = [(a.geo.lat, a.geo.lon) for a in _visits(day, ("attraction", "meal")) if a.geo]
        points = [p for p in ((nights[i - 1] if i else None), *stops, nights[i]) if p is not None]
        out.append(DayMiles(day.date, round(day.drive.miles, 1), round(path_miles(points), 1)))
    return out


# --- 4. meals at restaurants ---------------------------------------------------------------------

@dataclass(frozen=True)
class Meal:
    date: date
    at: time
    name: str
    amenity: str | None  # of the linked element; None when the meal links to no element

    @property
    def at_restaurant(self) -> bool:
        return self.amenity in RESTAURANT_AMENITIES


def main_meals(days: Sequence[DayItinerary], data: PlaceData) -> list[Meal]:
    """Lunches and dinners (meals from ``LUNCH_FROM``) with the kind of place each is at."""
    out = []
    for day in days:
        for a in _visits(day, ("meal",)):
            if a.window.start < LUNCH_FROM:
                continue
            e = data.of(a)
            tags = e["tags"] if e else {}
            out.append(Meal(day.date, a.window.start, a.name, tags.get("amenity") or tags.get("shop")))
    return out


def lunched(day: DayItinerary) -> bool:
    """Whether a day has a lunch: a meal starting between ``LUNCH_FROM`` and ``LUNCH_UNTIL``."""
    return any(LUNCH_FROM <= a.window.start <= LUNCH_UNTIL for a in _visits(day, ("meal",)))


# --- 5. nights at a named bed -----------------------------------------------------------------------

@dataclass(frozen=True)
class Night:
    date: date
    town: str
    at_bed: bool            # the night's lodging is a mapped bed of the data
    nearest_bed_miles: float | None  # from the night's place to the closest bed of the data

    @property
    def bed_in_reach(self) -> bool:
        return self.nearest_bed_miles is not None and self.nearest_bed_miles <= BED_REACH_MILES


def nights(days: Sequence[DayItinerary], data: PlaceData) -> list[Night]:
    """Each night that ends a day away from home (the last day of a trip has none): where it is
    spent is that day's lodging, else its road-trip anchor, else the last lodging before it."""
    beds = [p for e in data.beds() if (p := element_point(e))]
    out: list[Night] = []
    lodging: Activity | None = None
    for day in days[:-1]:
        today = [a for a in day.activities if a.kind.value == "lodging" and a.role != "checkout"]
        lodging = today[-1] if today else (None if day.anchor else lodging)
        here = lodging.geo if lodging and lodging.geo else (day.anchor.geo if day.anchor else None)
        town = day.anchor.name if day.anchor else (lodging.name if lodging else "")
        element = data.of(lodging) if lodging else None
        at_bed = element is not None and element["tags"].get("tourism") in BED_TOURISM
        nearest = min((geodesic_miles((here.lat, here.lon), p) for p in beds), default=None) if here else None
        out.append(Night(day.date, town, at_bed, None if nearest is None else round(nearest, 2)))
    return out


# --- 6. the fastest implied drive --------------------------------------------------------------------

@dataclass(frozen=True)
class Hop:
    date: date
    from_name: str
    to_name: str
    miles: float       # straight line
    minutes: int       # from leaving the one to arriving at the other, as scheduled
    mph: float         # miles over that time; infinite when the next visit starts before the last ends

def _clock(day: DayItinerary, a: Activity, end: bool) -> datetime:
    at = a.end if end else a.start
    if at is not None:
        return at.replace(tzinfo=None)
    return datetime.combine(day.date, a.window.end if end else a.window.start)


def hops(days: Sequence[DayItinerary], min_miles: float = 0.5) -> list[Hop]:
    """Consecutive located places of each day (last night's bed, visits, meals, beds, an arrival)
    and the speed their schedule implies. A day that opens with a transfer (a road day's first
    drive) leaves last night's bed when it starts; a day that opens with a visit leaves it unscheduled."""
    out = []
    nights = bed_points(days)
    for i, day in enumerate(days):
        placed = [(a.name, a.geo.lat, a.geo.lon, _clock(day, a, False), _clock(day, a, True))
                  for a in day.activities if a.geo and a.kind.value != "flight" and a.role != "omitted"]
        if i and nights[i - 1] and day.activities and day.activities[0].kind.value == "transit":
            leave = _clock(day, day.activities[0], False)
            placed.insert(0, ("last night's bed", *nights[i - 1], leave, leave))
        for (name_a, lat_a, lon_a, _, left), (name_b, lat_b, lon_b, arrived, _) in zip(placed, placed[1:]):
            miles = geodesic_miles((lat_a, lon_a), (lat_b, lon_b))
            if miles < min_miles:
                continue
            minutes = int((arrived - left).total_seconds() // 60)
            mph = miles / (minutes / 60) if minutes > 0 else float("inf")
            out.append(Hop(day.date, name_a, name_b, round(miles, 2), minutes, round(mph, 1)))
    return out


# --- 7. names in the traveller's language --------------------------------------------------------------

@dataclass(frozen=True)
class Names:
    shown: int      # activities whose element has name:<lang> and whose shown name carries it
    possible: int   # activities whose element has name:<lang> different from its local name
    missing: tuple[str, ...] = field(default=())

    @property
    def share(self) -> float | None:
        return self.shown / self.possible if self.possible else None


def names_in_language(days: Sequence[DayItinerary], data: PlaceData, language: str) -> Names:
    shown, possible, missing = 0, 0, []
    for day in days:
        for a in _visits(day):
            e = data.of(a)
            if e is None:
                continue
            local, wanted = e["tags"]["name"], e["tags"].get(f"name:{language}")
            if not wanted or wanted == local:
                continue
            possible += 1
            if wanted.casefold() in a.name.casefold():
                shown += 1
            else:
                missing.append(a.name)
    return Names(shown, possible, tuple(missing))
