"""Choosing each day's substantive activities along its stretch of the corridor, and timing them."""

from __future__ import annotations

import math
from collections.abc import Iterator
from itertools import chain
from dataclasses import replace
from datetime import date, timedelta

from engine.geocode.trust import geodesic_miles
from engine.models.visit_time import EXPLORE_MINUTES, REST_MINUTES, TOWN_VISIT_MINUTES

from .detours import DetourRoom, Point, day_points, detour_miles, driving_order, leg_detour_miles
from .loop import AWAY_FROM_HOME_MILES
from .plan import RoadStop, Town
from .resolve import region_name
from .route_schema import RouteTown
from .routes import TownOnRoute
from .stop_hours import UNKNOWN_TEXT, day_windows, hours_text, open_then, wait_for_opening

DEPART_MIN = 8 * 60 + 30
ANCHOR_RADIUS_MILES = 12.0  # a POI this close (along the route) to the anchor is "in town"
MIN_SPACING_MILES = 25.0
DAY_TRIP_MILES = 50.0
SMALL_PLACE_MILES = 30.0
QUIET_LIMIT = 8  # places asked for at each point of a stretch (the village picker reads the first six)
VILLAGE_LIMIT = 6
REST_REACH_MILES = 5.0  # a rest day's sights: in town, not a drive away
TOWN_MARGIN_MILES = 10.0  # a town this close to either end belongs to the start or the night
CHECKIN_MINUTES = 30  # the overnight (or arrival) event; town activities follow it
LATEST_END_MIN = 22 * 60


class DayStopPicker:
    def __init__(self, corridor, corridor_miles: float, speed_mph: float, factor: float, towns=None, *,
                 home: tuple[float, float] | None = None, geocoder=None) -> None:
        self.corridor = corridor
        self.corridor_miles = corridor_miles
        self.home = home  # INV-DIR-03: no visit within reach of home after day 1
        self.geocoder = geocoder  # small places for stretches the town list leaves empty
        self.speed = speed_mph
        self.factor = factor
        self.towns = towns if towns is not None else corridor.towns_in_corridor(corridor_miles)
        self.pois = corridor.pois_in_corridor(corridor_miles) if hasattr(corridor, "pois_in_corridor") else []
        self.used: set[str] = set()
        self.preferred: set[str] = set()  # sights and town ids a model proposed: first on the days passing them
        self.required: list[tuple[Town, float]] = []  # the traveller's visits (place, progress)
        self.osm = None  # the corridor's OpenStreetMap sights (:mod:`.osm_stops`), when the run has them
        self.cap_miles = math.inf  # the daily cap: detours to stops must leave the day under it
        self.room = DetourRoom((0.0, 0.0), (0.0, 0.0), math.inf)  # the day's detour budget (:meth:`pick`)
        self.exemption: str | None = None  # the last picked day's INV-PACE-01 exemption
        self.start_date: date | None = None  # the trip's first day: a stop's published hours are read on its date
        self._near: dict[tuple[float, float], list] = {}  # the gazetteer's answers by point (:meth:`places_near`)

    # -- overnight towns -----------------------------------------------------------------------
    def town_near(self, target: float, *, lo: float, hi: float, prefer=None) -> Town | None:
        """The town nearest ``target`` (larger ones first) between ``lo`` and ``hi``; among those
        ``prefer`` (a test on the :class:`Town`) accepts, when it accepts any."""
        inside = [t for t in self.towns if lo <= t.progress_miles <= hi]
        if prefer is not None:
            inside = [t for t in inside if prefer(self.place_of(t))] or inside
        if not inside:
            return None
        best = min(inside, key=lambda t: (abs(t.progress_miles - target) - 8 * math.log10(1 + (t.town.population or 0)),
                                          t.town.id))
        return self.place_of(best)

    @staticmethod
    def place_of(town_on_route) -> Town:
        t = town_on_route.town
        source = "gazetteer" if t.id.startswith("geonames_") else "route_town"
        return Town(name=t.name, lat=t.lat, lon=t.lon, admin1=t.admin1, country=t.country, source=source)

    # -- activities ----------------------------------------------------------------------------
    def pick(self, start_p: float, anchor_p: float, anchor: Town, day: int, start: Town | None = None) -> tuple[list[RoadStop], int, int]:
        lo, hi = sorted((start_p, anchor_p))
        forward = anchor_p >= start_p
        ends = detour_miles(self.corridor, [p.point for p in (start, anchor) if p is not None])
        self.room = DetourRoom((start or anchor).point, anchor.point, self.cap_miles - (hi - lo) * self.factor - ends,
                               start_p, self.corridor)
        en_route = [p for p in self.pois if lo + 1 < p.progress_miles < hi - ANCHOR_RADIUS_MILES * (1 if forward else 0)
                    and (forward or p.progress_miles > lo + ANCHOR_RADIUS_MILES) and p.poi.id not in self.used
                    and self.room.allows(p.poi.lat, p.poi.lon)]
        at_anchor = sorted((p for p in self.pois if abs(p.progress_miles - anchor_p) <= ANCHOR_RADIUS_MILES
                            and p.poi.id not in self.used), key=lambda p: p.poi.id not in self.preferred)
        stops = self._required(lo, hi)
        chosen = self._spaced(en_route, start_p, anchor_p, want=max(0, 2 - len(stops)))
        chosen += [p for p in at_anchor if p not in chosen][: max(1 if not stops else 0, 3 - len(chosen) - len(stops))]
        begin = start.point if start else anchor.point
        stops += [self._poi_stop(p, day, en_route=p not in at_anchor, day_from=begin) for p in chosen]
        while len(stops) > 1 and not self.room.fits(stops):  # together they must keep the day under the cap
            stops.pop()
        if self.osm is not None:
            stops += self.osm.pick(stops, start_p, anchor_p, anchor, day, self.used, self._drive_min, start,
                                   room=self.room)
        stops += [self.osm.walk(s) if self.osm is not None else s
                  for s in self._fill(stops, start_p, anchor_p, anchor, day, start)]
        self.used |= {s.id for s in stops}
        quiet = sum(s.kind != "break" for s in stops) < 2 and quiet_stretch(
            self.corridor, self.geocoder, start_p, anchor_p, [p.point for p in (start, anchor) if p is not None],
            near=self.places_near)
        self.exemption = "travel_only" if quiet else None
        off = detour_miles(self.corridor, day_points(begin, stops, anchor.point, start_p))
        total = int(round((abs(anchor_p - start_p) * self.factor + off) / self.speed * 60))
        timed = schedule_stops(stops, start_p, anchor_p, self._drive_min, start_pt=begin, anchor_pt=anchor.point,
                               drive_total_min=total)
        self.used -= {s.id for s in stops} - {s.id for s in timed[0]}  # closed when the day reaches it: another day may
        return timed

    def pick_rest(self, town: Town, p: float, day: int) -> tuple[list[RoadStop], int, int]:
        """A rest day's activities: the town's own sights — the route's points of interest and
        OpenStreetMap's within walking reach of it — and a slow walk round it; no driving."""
        near = [q for q in self.pois if abs(q.progress_miles - p) <= ANCHOR_RADIUS_MILES and q.poi.id not in self.used
                and geodesic_miles((q.poi.lat, q.poi.lon), town.point) <= REST_REACH_MILES]
        stops = [self._poi_stop(q, day, en_route=False, day_from=town.point) for q in near[:3]]
        if self.osm is not None:
            found = self.osm.pick(stops, p, p, town, day, self.used, self._drive_min, town)
            stops += [replace(s, en_route=False) for s in found
                      if geodesic_miles((s.lat, s.lon), town.point) <= REST_REACH_MILES]
        if len(stops) < 2:
            stops.append(self._town_visit(town, p, 0.0, f"rest_d{day}", EXPLORE_MINUTES, en_route=False,
                                          name=f"A slow day in {town.name}"))
        self.used |= {s.id for s in stops}
        self.exemption = "rest"
        timed, depart, _ = schedule_stops(stops, p, p, self._drive_min, start_pt=town.point, anchor_pt=town.point)
        return timed, depart, depart

    def _required(self, lo: float, hi: float) -> list[RoadStop]:
        """The traveller's visits that this day's drive passes (each once, on the first such day)."""
        out = []
        for place, p in self.required:
            ident = f"visit_user_{place.name}_{p:.0f}"
            if lo - 0.5 <= p <= hi + 0.5 and ident not in self.used:
                self.used.add(ident)
                out.append(self._town_visit(place, p, self.corridor.offset_miles(*place.point), ident,
                                            TOWN_VISIT_MINUTES, en_route=True))
        return out

    def _spaced(self, cands, start_p: float, anchor_p: float, want: int):
        if not cands:
            return []
        marks = [start_p + (anchor_p - start_p) * f for f in (1 / 3, 2 / 3)][:want]
        picked = []
        for mark in marks:
            free = [c for c in cands if c not in picked
                    and all(abs(c.progress_miles - p.progress_miles) >= MIN_SPACING_MILES for p in picked)]
            if free:
                picked.append(min(free, key=lambda c: (c.poi.id not in self.preferred,
                                                       abs(c.progress_miles - mark), c.poi.id)))
        return sorted(picked, key=lambda c: abs(c.progress_miles - start_p))

    def _poi_stop(self, p, day: int, *, en_route: bool, day_from: Point) -> RoadStop:
        """A route POI as the day's stop: with its published hours on the day's clock when it has
        them (the visit fits inside them: :func:`schedule_stops`); a meal place without them says
        its hours are unknown and is shown at low confidence."""
        poi = p.poi
        stop = RoadStop(id=poi.id, name=poi.name, lat=poi.lat, lon=poi.lon, kind=poi.kind, start_min=0,
                        end_min=poi.duration_minutes, progress_miles=p.progress_miles, offset_miles=p.offset_miles,
                        indoor=poi.indoor, description=poi.description, en_route=en_route)
        if poi.opening_hours is not None and self.start_date is not None:
            on = self.start_date + timedelta(days=day)
            windows = day_windows(poi.opening_hours, on, (poi.lat, poi.lon), day_from)
            return replace(stop, open_windows=windows, hours_known=True,
                           description=f"{poi.description} {hours_text(windows, on)}")
        if poi.kind == "food":
            return replace(stop, hours_known=False, description=f"{poi.description} {UNKNOWN_TEXT}")
        return stop

    def _fill(self, stops: list[RoadStop], start_p: float, anchor_p: float, anchor: Town, day: int,
              start: Town | None = None) -> list[RoadStop]:
        """Where the corridor has no curated sights, the towns on the way are the day's visits (a
        walk through each, spaced along the drive), then the overnight town and the morning's town;
        a plain rest stop is added only for a long drive with nothing on the way, and is never
        counted as a sight."""
        extra: list[RoadStop] = []
        drive_h = abs(anchor_p - start_p) * self.factor / self.speed
        need_break = drive_h > 6 and not any(s.en_route for s in stops)
        for t in self._towns_on_the_way(start_p, anchor_p, day):
            if not need_break and len(stops) + len(extra) >= 2:
                break
            if all(abs(t.progress_miles - s.progress_miles) >= MIN_SPACING_MILES for s in stops + extra):
                visit = self._town_visit(t.town, t.progress_miles, t.offset_miles, f"visit_{t.town.id}",
                                         TOWN_VISIT_MINUTES, en_route=True)
                if self.room.fits([*stops, *extra, visit]):
                    extra.append(visit)
                    need_break = False
        if len(stops) + len(extra) < 2 and anchor.source != "interpolated":
            extra.append(self._town_visit(anchor, anchor_p, 0.0, f"explore_d{day}", EXPLORE_MINUTES, en_route=False,
                                          name=f"Explore {anchor.name}"))
        if len(stops) + len(extra) < 2 and start is not None and start.source != "interpolated":
            extra.append(self._town_visit(start, start_p, 0.0, f"morning_d{day}", TOWN_VISIT_MINUTES, en_route=True,
                                          name=f"Morning walk in {start.name}"))
        here = {anchor.name, start.name if start else ""}
        for t in chain(self._towns_nearby(start_p, anchor_p, day), self._small_places(start_p, anchor_p, day)):
            if len(stops) + len(extra) >= 2:
                break  # the gazetteer is asked for villages only when the towns run out
            if t.town.name not in here and all(s.id != f"visit_{t.town.id}" for s in extra):
                visit = self._town_visit(t.town, t.progress_miles, t.offset_miles, f"visit_{t.town.id}",
                                         TOWN_VISIT_MINUTES, en_route=True)
                if self.room.fits([*stops, *extra, visit]):
                    extra.append(visit)
        if need_break:
            mid = (start_p + anchor_p) / 2
            lat, lon = self.corridor.point_at(mid)
            extra.append(RoadStop(id=f"rest_d{day}", name=f"Rest stop near mile {mid:.0f}", lat=lat, lon=lon,
                                  kind="break", start_min=0, end_min=REST_MINUTES, progress_miles=mid,
                                  offset_miles=0.0, description="A rest area on the way: stretch and refuel."))
        self.used |= {s.id for s in extra}
        return extra

    def places_near(self, lat: float, lon: float) -> list:
        """The gazetteer's places of any size within :data:`SMALL_PLACE_MILES` of a point, largest
        first, asked once per point: the village picker and :func:`quiet_stretch` ask at the same
        points of a day (the answer's first six are what a limit of six gives: it is sorted first)."""
        key = (round(lat, 5), round(lon, 5))
        if key not in self._near:
            self._near[key] = self.geocoder.nearby(lat, lon, radius_miles=SMALL_PLACE_MILES, min_population=0,
                                                   limit=QUIET_LIMIT)
        return self._near[key]

    def _away(self, town, day: int) -> bool:
        return day == 0 or self.home is None or geodesic_miles(self.home, (town.lat, town.lon)) > AWAY_FROM_HOME_MILES

    def _small_places(self, start_p: float, anchor_p: float, day: int) -> Iterator:
        """Villages (any population) near the day's stretch, from the gazetteer, lazily."""
        if getattr(self.geocoder, "nearby", None) is None:
            return
        for p in (anchor_p, *(start_p + (anchor_p - start_p) * k / 4 for k in (2, 1, 3))):
            lat, lon = self.corridor.point_at(p)
            for c in self.places_near(lat, lon)[:VILLAGE_LIMIT]:
                progress, offset = self.corridor.measure(c.lat, c.lon)
                town = RouteTown(id=f"geonames_{c.feature_id.split(':')[-1]}"[:64], name=c.name,
                                 admin1=region_name(c), country=c.country, lat=c.lat, lon=c.lon,
                                 population=c.population)
                if offset <= self.corridor_miles and f"visit_{town.id}" not in self.used and self._away(town, day):
                    yield TownOnRoute(town, progress, offset)

    def _towns_on_the_way(self, start_p: float, anchor_p: float, day: int) -> list:
        lo, hi = sorted((start_p, anchor_p))
        middle = (start_p + anchor_p) / 2
        stay = hi - lo < 1
        if stay:  # a second night in the same town: day trips to the towns around it
            lo, hi = lo - DAY_TRIP_MILES, hi + DAY_TRIP_MILES
        towns = [t for t in self.towns if lo + TOWN_MARGIN_MILES < t.progress_miles < hi - TOWN_MARGIN_MILES
                 and (stay or self.room.allows(t.town.lat, t.town.lon))
                 and not (stay and abs(t.progress_miles - middle) < TOWN_MARGIN_MILES / 2)
                 and f"visit_{t.town.id}" not in self.used and self._away(t.town, day)]
        # Larger towns have more to see; the middle of the drive breaks it best.
        return sorted(towns, key=lambda t: (t.town.id not in self.preferred,
                                            abs(t.progress_miles - middle) / 50 + t.offset_miles / 25
                                            - math.log10(1 + (t.town.population or 0)),
                                            t.town.id))

    def _towns_nearby(self, start_p: float, anchor_p: float, day: int) -> list:
        """For an empty stretch (an interpolated night; a direct line over water until real
        routing lands): the corridor towns nearest to it, however far along."""
        lo, hi = sorted((start_p, anchor_p))
        gap = [(max(lo - t.progress_miles, t.progress_miles - hi, 0.0), t) for t in self.towns
               if f"visit_{t.town.id}" not in self.used and self._away(t.town, day)]
        return [t for g, t in sorted(gap, key=lambda x: (x[0], x[1].town.id))]

    @staticmethod
    def _town_visit(town, progress: float, offset: float, ident: str, minutes: int, *, en_route: bool,
                    name: str = "") -> RoadStop:
        region = getattr(town, "admin1", "")
        where = f"{town.name}, {region}" if region and not region.isdigit() else town.name
        return RoadStop(id=ident, name=name or f"Walk in {town.name}", lat=town.lat, lon=town.lon, kind="town",
                        start_min=0, end_min=minutes, progress_miles=progress, offset_miles=offset, en_route=en_route,
                        description=f"Walk the centre of {where}: its main street, landmarks and a meal.")

    def _drive_min(self, a: float, a_pt: Point, b: float, b_pt: Point) -> int:
        """One leg's minutes: its road miles along the corridor and its own detour off it."""
        return math.ceil(self._leg_miles(a, a_pt, b, b_pt) / self.speed * 60 - 1e-9)  # never a minute short

    def _leg_miles(self, a: float, a_pt: Point, b: float, b_pt: Point) -> float:
        return abs(b - a) * self.factor + leg_detour_miles(self.corridor, a_pt, b_pt)


def quiet_stretch(corridor, geocoder, start_p: float, anchor_p: float, own: list[tuple[float, float]],
                  near=None) -> bool:
    """No place of any size within :data:`SMALL_PLACE_MILES` of the day's stretch but the day's
    own (its start and night): a travel-only day (INV-PACE-01's exemption), as the Nevada desert
    between Tonopah and Beaver. The planner and ``tripwright verify`` ask the same question
    (``near``: the planner's memo of the gazetteer's answers, :meth:`DayStopPicker.places_near`)."""
    if getattr(geocoder, "nearby", None) is None:
        return False
    near = near or (lambda lat, lon: geocoder.nearby(lat, lon, radius_miles=SMALL_PLACE_MILES, min_population=0,
                                                     limit=QUIET_LIMIT))
    for k in (0, 1, 2, 3, 4):
        lat, lon = corridor.point_at(start_p + (anchor_p - start_p) * k / 4)
        for c in near(lat, lon):
            if all(geodesic_miles((c.lat, c.lon), p) > TOWN_MARGIN_MILES for p in own):
                return False
    return True


def schedule_stops(stops, start_p: float, anchor_p: float, leg_min, *, start_pt: Point, anchor_pt: Point,
                   drive_total_min: int = 0) -> tuple[list[RoadStop], int, int]:
    """Depart 08:30, drive to each en-route stop in order, then to the anchor; town activities
    follow the arrival, with the short hop to each. ``leg_min(a_p, a_pt, b_p, b_pt)`` gives the
    minutes of one leg from its ends' progress and points (the estimate with the leg's own detour
    off the corridor, or a routed day's real time shared out over its legs), so every visit starts
    once its drive has ended and no leg is faster than the road. ``drive_total_min``: the day's
    whole drive as the planner counts it; the arrival is never before it has been driven. A stop
    with published hours that the day reaches when it is closed is left out, and the day timed again."""
    out, depart, arrive = _schedule(stops, start_p, anchor_p, leg_min, start_pt=start_pt, anchor_pt=anchor_pt,
                                    drive_total_min=drive_total_min)
    closed = next((s.id for s in out if not open_then(s.open_windows, s.start_min, s.end_min)), None)
    if closed is None:
        return out, depart, arrive
    return schedule_stops([s for s in stops if s.id != closed], start_p, anchor_p, leg_min, start_pt=start_pt,
                          anchor_pt=anchor_pt, drive_total_min=drive_total_min)


def _schedule(stops, start_p: float, anchor_p: float, leg_min, *, start_pt: Point, anchor_pt: Point,
              drive_total_min: int) -> tuple[list[RoadStop], int, int]:
    on_way = driving_order(stops, start_p, start_pt, anchor_pt)
    in_town = [s for s in stops if not s.en_route]
    t, at, at_pt, out = DEPART_MIN, start_p, start_pt, []
    for s in on_way:
        t += leg_min(at, at_pt, s.progress_miles, (s.lat, s.lon))
        at, at_pt = s.progress_miles, (s.lat, s.lon)
        out.append(_timed(s, t, t + (s.end_min - s.start_min)))
        t = out[-1].end_min
    visiting = sum(s.end_min - s.start_min + s.wait_min for s in out)
    arrive = max(t + leg_min(at, at_pt, anchor_p, anchor_pt), DEPART_MIN + visiting + drive_total_min)
    t, at, at_pt = arrive + CHECKIN_MINUTES, anchor_p, anchor_pt
    for s in in_town:
        t += leg_min(at, at_pt, s.progress_miles, (s.lat, s.lon))
        at, at_pt = s.progress_miles, (s.lat, s.lon)
        out.append(_timed(s, t, t + (s.end_min - s.start_min)))
        t = out[-1].end_min
    return out, DEPART_MIN, arrive


def _timed(stop: RoadStop, start: int, end: int) -> RoadStop:
    """Minutes on the day's timeline, waiting for the place to open when it is reached earlier;
    past midnight they run on (the itinerary clips only its windows), so events never pile up at
    23:59."""
    wait = wait_for_opening(stop.open_windows, stop.opens_min, start, end - start)
    return replace(stop, start_min=start + wait, end_min=end + wait, wait_min=wait)
