"""Real sights for each road-trip day from the corridor's OpenStreetMap cells (issue 20 §1).

The road run fetches the trip's cells before planning (``engine/places/corridor.py``, through the
session's executor); the planner stays synchronous and only reads them here. Each driving day gets
up to :data:`OSM_PER_DAY` real sights within :data:`SIGHT_REACH_MILES` of the corridor on its
stretch — spread along it (the best-ranked of each half of the drive first), open on that date
and at the time the day reaches them (OSM's own ``opening_hours`` evaluated by date and the
country's holidays; an outdoor place with no gate and no hours is open; a place with unknown hours
is visited inside 10:00–17:00), the day still reaching its night's town by 20:00 — and one more
in the night's town when the day then ends by 19:00. Ranking: the kind of place (a national park
over a memorial), Wikidata/Wikipedia, a ``tourism`` tag, known hours (``places.ranking.road_rank``), the
traveller's themes, and nearness to the road. A sight that is
one of the named route's curated points of interest is that POI, never a second stop.

Each stop keeps its OSM identity (``ref`` ``osm_n123``, ``source_url``) and a visit length by its
kind. The day learns how many real sights were within reach (INV-PACE-01 then never counts a town
walk that a real sight could have replaced) and a note when OpenStreetMap had nothing there, or
no data (offline: "offline: sights limited to the shipped data").
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cached_property
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import numpy as np

from engine.geo import haversine_rad
from engine.geocode.zones import zone_at
from engine.models.dated_hours import RULE_ERRORS, dated_hours
from engine.models.place import ASSUMED_SIGHT_WINDOW, Place, traveller_name
from engine.places.corridor import CorridorData
from engine.places.identity import name_key
from engine.places.osm_reader import PlaceRow, open_when_untagged, reread
from engine.places.osm_tags import ROAD_SIGHT_TAGS

from .detours import DetourRoom
from .day_stops import ANCHOR_RADIUS_MILES, CHECKIN_MINUTES, DAY_TRIP_MILES, schedule_stops
from .loop import AWAY_FROM_HOME_MILES
from .osm_beds import BedPicker
from .plan import RoadStop, Town

SIGHT_REACH_MILES = 25.0
BAND_MILES = 35.0  # the cells fetched: a sight's reach, where corridor towns lie, and a bed's radius
OSM_PER_DAY = 2
FILL_PER_DAY = 4  # sights a day may take while it still ends by :data:`EXTRA_END_MIN`
AT_ANCHOR_MILES = 6.0  # a sight visited after check-in is in or next to the night's town
DUPLICATE_MILES = 0.5  # an OSM sight this near a curated route POI (or a stop of the day) is that stop
SAME_NAME_MILES = 5.0
SPACING_MILES = 10.0
LATEST_END_MIN = 20 * 60  # the day's sights leave the evening free: the night's town by 20:00
EXTRA_END_MIN = 19 * 60  # a third sight only when the day still ends by 19:00
CAUTIOUS = ASSUMED_SIGHT_WINDOW  # a place whose hours nobody published is visited inside these
MAX_TRIES = 16
TOP_N = 24  # candidates looked at per half of the drive and in the night's town
MIN_SIGHTS = 2  # = invariants.MIN_ACTIVITIES (INV-PACE-01)
THEMES = {kv: set(v[1]) for kv, v in ROAD_SIGHT_TAGS.items()}
LABEL = {"national_park": "National park", "protected_area": "Park", "nature_reserve": "Nature reserve",
         "place_of_worship": "Historic church", "archaeological_site": "Archaeological site"}


@dataclass
class _Sight:
    """A corridor sight as a day sees it: its chunk row, how far along and off the route it is, and
    its score; the :class:`Place` the row is (read once, when a day first needs what it is)."""

    row: PlaceRow
    progress: float
    offset: float
    score: float

    @cached_property
    def place(self) -> Place:
        return self.row.place()


@dataclass
class _Day:
    note: str = ""
    sights_in_reach: int | None = None


def osm_stops_for(data: CorridorData | None, corridor, intent, *, home, pois=()) -> "OsmStops | None":
    return None if data is None else OsmStops(data, corridor, intent, home=home, pois=pois)


class OsmStops:
    """The corridor's sights measured along it once (numpy); each one read, ranked and its hours
    evaluated only when a day looks at it."""

    def __init__(self, data: CorridorData, corridor, intent, *, home: tuple[float, float], pois=()) -> None:
        self.data, self.corridor, self.intent = data, corridor, intent
        self.active = bool(data.cells)
        self.reach = min(SIGHT_REACH_MILES, intent.corridor_max_deviation_miles)
        self.themes = {t.lower() for t in intent.prefs.themes}
        self._places = list(data.sights)
        self._measure(home, pois)
        self._sights: dict[int, _Sight] = {}
        self._hours: dict[tuple[int, date], _Hours] = {}
        self.beds = BedPicker(data, intent)
        self._days: dict[int, _Day] = {}

    # -- set-up --------------------------------------------------------------------------------
    def _measure(self, home, pois) -> None:
        """Each sight within reach of the corridor that is not one of the route's curated POIs, as
        arrays sorted by progress: ``_index`` into ``_places``, ``_progress``, ``_home`` (miles from
        home), ``_rank`` (the place's own rank, the trip's themes, minus its distance off the road)."""
        places = self._places
        points = self.data.sight_points
        if points is None or len(points) != len(places):
            points = np.array([(p.lat, p.lon, p.rank) for p in places], dtype=float).reshape(-1, 3)  # built by hand
        lats, lons = points[:, 0], points[:, 1]
        progress, offset = self.corridor.measure_many(lats, lons)
        index = np.flatnonzero(offset <= self.reach)
        index = index[np.argsort(progress[index], kind="stable")]
        along = progress[index]
        drop = np.zeros(len(index), dtype=bool)
        for poi in pois:  # the route's own stop, mapped in OpenStreetMap too
            a, b = np.searchsorted(along, [poi.progress_miles - SAME_NAME_MILES, poi.progress_miles + SAME_NAME_MILES])
            near = _miles(lats[index[a:b]], lons[index[a:b]], poi.poi.lat, poi.poi.lon)
            for j in np.flatnonzero(near <= SAME_NAME_MILES):
                drop[a + j] |= near[j] <= DUPLICATE_MILES or _name(places[index[a + j]].name) == _name(poi.poi.name)
        self._index = index[~drop]
        self._progress, offset = progress[self._index], offset[self._index]
        self._lat, self._lon = lats[self._index], lons[self._index]
        self._home = _miles(self._lat, self._lon, *home)
        rank = points[self._index, 2] - 0.04 * offset
        if self.themes:
            rank += np.fromiter((bool(self.themes & THEMES.get((places[i].key, places[i].category), set()))
                                 for i in self._index), float, len(self._index))
        self._rank, self._offset = rank, offset

    def _sight(self, k: int) -> _Sight:
        found = self._sights.get(k)
        if found is None:
            p = self._places[self._index[k]]
            found = self._sights[k] = _Sight(p, float(self._progress[k]), float(self._offset[k]), float(self._rank[k]))
        return found

    def _hours_of(self, k: int, on: date, country: str) -> "_Hours":
        found = self._hours.get((k, on))
        if found is None:
            found = self._hours[(k, on)] = _Hours.of(self._sight(k).row, on, country)
        return found

    # -- a day ---------------------------------------------------------------------------------
    def pick(self, have: list[RoadStop], start_p: float, anchor_p: float, anchor: Town, day: int,
             used: set[str], drive_min, start: Town | None = None,
             room: DetourRoom | None = None) -> list[RoadStop]:
        """The day's OSM sights beside ``have`` (its route POIs and the traveller's visits)."""
        on = self.intent.start_date + timedelta(days=day)
        lo, hi = sorted((start_p, anchor_p))
        covered = self.active and self._covered(lo, hi)
        cands = self._candidates(have, start_p, anchor_p, anchor, day, used, room) if self.active else []
        start_tz = zone_at(*(start or anchor).point) if cands else ""
        order = self._preferred(cands, start_p, anchor_p)
        chosen = self._fit(have, order, (start or anchor).point, start_p, anchor, anchor_p, drive_min, start_tz, on,
                           room)
        real = sum(1 for s in have if s.kind not in ("town", "break")) + len(chosen)
        info = self._days[day] = _Day()
        if not covered:
            info.note = self.data.why_missing()
        else:  # the real sights there were, counted as far as INV-PACE-01 needs (two)
            more = 0
            for k, _ in order:
                if real + more >= MIN_SIGHTS:
                    break
                more += self._sight(k).row.ref not in {c.id for c in chosen} and \
                    not self._hours_of(k, on, anchor.country).closed
            info.sights_in_reach = real + more
            if real == 0:
                info.note = f"no sights mapped in OpenStreetMap within {self.reach:.0f} mi of this day's drive"
        used |= {s.id for s in chosen}
        return chosen

    def day_facts(self, day: int, anchor: Town, *, last: bool) -> dict:
        """The RoadDay fields of OpenStreetMap: note, real sights in reach, the night's bed."""
        info = self._days.get(day, _Day())
        bed, bed_note = (None, "") if last else self.beds.bed_for(anchor, self.intent.start_date + timedelta(days=day))
        return {"note": info.note, "sights_in_reach": info.sights_in_reach, "bed": bed, "bed_note": bed_note}

    def walk(self, stop: RoadStop) -> RoadStop:
        """A town walk beside OpenStreetMap's sights says it is one."""
        if self.active and stop.kind == "town" and not stop.id.startswith("visit_user_"):
            return replace(stop, name=f"{stop.name} (town walk)")
        return stop

    def _covered(self, lo: float, hi: float) -> bool:
        steps = max(1, int((hi - lo) // 10))
        return all(self.data.covers(*self.corridor.point_at(lo + (hi - lo) * k / steps), self.reach)
                   for k in range(steps + 1))

    def _candidates(self, have, start_p, anchor_p, anchor: Town, day: int, used: set[str],
                    room: DetourRoom | None = None) -> list:
        """(index, en route) of the sights a day may stop at — on its stretch, or in the night's
        town; never one used, one at home after the first day, or one of the day's own stops — the
        best :data:`TOP_N` of each half of the drive and of the night's town."""
        lo, hi = sorted((start_p, anchor_p))
        stay = hi - lo < 1
        reach = DAY_TRIP_MILES if stay else ANCHOR_RADIUS_MILES
        a, b = lo - reach, hi + reach
        i0, i1 = np.searchsorted(self._progress, [a, b])
        p = self._progress[i0:i1]
        at = ~np.full(len(p), stay) & (np.abs(p - anchor_p) <= ANCHOR_RADIUS_MILES) & (
            _miles(self._lat[i0:i1], self._lon[i0:i1], *anchor.point) <= AT_ANCHOR_MILES)
        if stay:
            en = np.ones(len(p), dtype=bool)
        elif anchor_p >= start_p:  # up to the night's town: a park just short of it is on the way
            # at the corridor's end, a sight past it (Grand Teton beyond Jackson) measures at the end:
            # on the way too, its miles there and back counted as the leg's detour
            end = anchor_p >= self.corridor.length_miles() - 0.5
            en = (p > lo + 1) & ((p < hi) | (end & (p <= hi + 0.5))) & ~at
        else:
            en = (p > lo) & (p < hi - 1) & ~at
        if room is not None and not stay:  # a detour the daily cap leaves room for
            en &= room.allows(self._lat[i0:i1], self._lon[i0:i1])
        ok = (en | at) & ((day == 0) | (self._home[i0:i1] > AWAY_FROM_HOME_MILES))
        first = np.abs(p - start_p) <= abs(anchor_p - start_p) / 2
        out = []
        for group, en_route in ((ok & en & ~at & first, True), (ok & en & ~at & ~first, True), (ok & at, False)):
            ks = i0 + np.flatnonzero(group)
            taken = 0
            for k in ks[np.argsort(-self._rank[ks], kind="stable")]:
                place = self._places[self._index[k]]
                if place.ref in used or any(_flat_miles(place.lat, place.lon, h.lat, h.lon) <= DUPLICATE_MILES
                                            for h in have):
                    continue
                out.append((int(k), en_route))
                taken += 1
                if taken >= TOP_N:
                    break
        return out

    def _fit(self, have, order, start_pt, start_p, anchor: Town, anchor_p, drive_min, start_tz: str, on: date,
             room: DetourRoom | None = None) -> list[RoadStop]:
        """Greedy in order of preference — spaced apart first, then not, then one more (the
        night's town's first) — each sight kept only if the day, timed again, reaches every chosen
        sight while it is open and ends in time, and the day's detours stay within the cap's room."""
        chosen: list[tuple[RoadStop, _Hours]] = []
        tries = [0]

        def add(k: int, en_route: bool, latest: int) -> None:
            s = self._sight(k)
            hours = self._hours_of(k, on, anchor.country)
            if hours.closed or tries[0] >= MAX_TRIES or any(s.row.ref == x.id for x, _ in chosen):
                return
            tries[0] += 1
            hours.shift = hours.shift_from(start_tz, s.row, on)
            trial = chosen + [(self._stop(s, en_route, hours), hours)]
            if room is not None and not room.fits([*have, *(x for x, _ in trial)]):
                return
            timed, _, arrive = schedule_stops([*have, *(x for x, _ in trial)], start_p, anchor_p, drive_min,
                                              start_pt=start_pt, anchor_pt=anchor.point)
            times = {t.id: t for t in timed}
            if max([arrive + CHECKIN_MINUTES, *(t.end_min for t in timed)]) <= latest and \
                    all(h.fits(times[x.id].start_min, times[x.id].end_min) for x, h in trial):
                chosen.append(trial[-1])

        def spaced(k: int) -> bool:
            marks = [x.progress_miles for x in [*have, *(x for x, _ in chosen)] if x.en_route]
            return all(abs(float(self._progress[k]) - m) >= SPACING_MILES for m in marks)

        for wanted in (spaced, lambda k: True):
            for k, en_route in order:
                if len(chosen) < OSM_PER_DAY and wanted(k):
                    add(k, en_route, LATEST_END_MIN)
        # more while the day has light, the night's town's first; a round trip comes back the same
        # way, so its road's sights are left for the days that pass them again
        shared = self.intent.trip_type == "round_trip"
        for k, en_route in sorted(order, key=lambda c: c[1]):
            if OSM_PER_DAY <= len(chosen) < (OSM_PER_DAY + 1 if shared and en_route else FILL_PER_DAY):
                add(k, en_route, EXTRA_END_MIN)
        return [x for x, _ in chosen]

    def _preferred(self, cands, start_p: float, anchor_p: float) -> list:
        """The best en-route sight of each half of the drive in driving order, then the rest by
        rank (en route before the night's town)."""
        mid = (start_p + anchor_p) / 2
        halves: tuple[list, list] = ([], [])
        for c in cands:
            if c[1]:
                halves[abs(float(self._progress[c[0]]) - start_p) > abs(mid - start_p)].append(c)
        first = [max(h, key=lambda c: (self._sight(c[0]).score, -c[0])) for h in halves if h]
        rest = sorted((c for c in cands if c not in first), key=lambda c: (not c[1], -self._sight(c[0]).score, c[0]))
        return first + rest

    def _stop(self, s: _Sight, en_route: bool, hours: "_Hours") -> RoadStop:
        p = s.place
        what = _label(p)
        where = "by the road" if s.offset < 1 else f"{s.offset:.0f} mi off the road"
        text = f"{what} mapped in OpenStreetMap, {where}. {hours.text}"
        name, local_name = traveller_name(p.name, p.names)  # issue 31 §3
        return RoadStop(id=p.ref, name=name, local_name=local_name, lat=p.lat, lon=p.lon, kind=p.venue_type, start_min=0,
                        end_min=p.minutes, progress_miles=s.progress, offset_miles=s.offset, indoor=p.indoor,
                        description=text[:300], en_route=en_route, source_url=p.source_url, hours_known=hours.known,
                        opens_min=hours.opens())


class _Hours:
    """A sight's opening on one date, in minutes of its own clock; ``fits`` takes the day's
    timeline minutes (the start town's clock) and moves them onto the sight's."""

    def __init__(self, windows, known: bool, text: str, shift: int = 0, closed: bool = False) -> None:
        self.windows, self.known, self.text, self.shift, self.closed = windows, known, text, shift, closed

    @classmethod
    def of(cls, p: PlaceRow, on: date, country: str) -> "_Hours":
        """Read from the chunk's row (many sights are looked at, few are taken: no Place for each)."""
        rule = p.tags.get("opening_hours", "").strip()
        if rule:
            try:
                spans = dated_hours(rule, country or None).day(on).spans
            except RULE_ERRORS:
                spans = None
            if spans is not None:
                if not spans:
                    return cls((), True, "", closed=True)
                windows = tuple((t0.hour * 60 + t0.minute, t1.hour * 60 + t1.minute) for t0, t1 in spans)
                said = ", ".join(f"{a // 60:02d}:{a % 60:02d}–{b // 60:02d}:{b % 60:02d}" for a, b in windows)
                return cls(windows, True, f"Open {said} on {on:%a %d %b %Y} (OpenStreetMap hours).")
        if not rule and open_when_untagged(reread(p.tags, p.name, p.key, p.category, road=True), p.tags):
            return cls(None, True, "No opening hours in OpenStreetMap: an outdoor place with no gate, "
                                   "treated as always open.")
        return cls((CAUTIOUS,), False, "Opening hours not published in OpenStreetMap: visited between 10:00 "
                                       "and 17:00; check before going.")

    def shift_from(self, start_tz: str, p: PlaceRow, on: date) -> int:
        """Minutes the sight's clock is ahead of the day's (the start town's) on that date."""
        if not self.windows or self.windows == (CAUTIOUS,):
            return 0
        here = zone_at(p.lat, p.lon)
        if here == start_tz:
            return 0
        noon = datetime(on.year, on.month, on.day, 12)
        ahead = noon.replace(tzinfo=ZoneInfo(here)).utcoffset() - noon.replace(tzinfo=ZoneInfo(start_tz)).utcoffset()
        return int(ahead.total_seconds() // 60)

    def opens(self) -> int:
        """The first opening on the day's clock (0: always open): a visit reached earlier waits."""
        return max(0, self.windows[0][0] - self.shift) if self.windows else 0

    def fits(self, start: int, end: int) -> bool:
        if self.windows is None:
            return True
        return any(a <= start + self.shift and end + self.shift <= b for a, b in self.windows)


def _label(p: Place) -> str:
    title = p.tags.get("protection_title") or (p.tags.get("designation", "").replace("_", " ").capitalize())
    if p.key == "boundary" and title:
        return title
    return LABEL.get(p.category, p.category.replace("_", " ").capitalize())


def _flat_miles(lat: float, lon: float, lat0: float, lon0: float) -> float:
    """Miles between two near points (equirectangular: within 0.1% at these distances)."""
    return math.hypot(lat - lat0, (lon - lon0) * math.cos(math.radians(lat0))) * 69.05


def _name(text: str) -> str:
    return name_key(text)


def _miles(lats, lons, lat0: float, lon0: float):
    return haversine_rad(np.radians(lat0), np.radians(lon0), np.radians(lats), np.radians(lons))
