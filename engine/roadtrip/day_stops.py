"""Choosing each day's substantive activities along its stretch of the corridor, and timing them."""

from __future__ import annotations

import math
from dataclasses import replace

from .plan import Place, RoadStop

DEPART_MIN = 8 * 60 + 30
ANCHOR_RADIUS_MILES = 12.0  # a POI this close (along the route) to the anchor is "in town"
MIN_SPACING_MILES = 25.0
TOWN_BREAK_MINUTES = 45
EXPLORE_MINUTES = 90
CHECKIN_MINUTES = 30  # the overnight (or arrival) event; town activities follow it
LATEST_END_MIN = 22 * 60


class DayStopPicker:
    def __init__(self, corridor, corridor_miles: float, speed_mph: float, factor: float, towns=None) -> None:
        self.corridor = corridor
        self.speed = speed_mph
        self.factor = factor
        self.towns = towns if towns is not None else corridor.towns_in_corridor(corridor_miles)
        self.pois = corridor.pois_in_corridor(corridor_miles) if hasattr(corridor, "pois_in_corridor") else []
        self.used: set[str] = set()

    # -- overnight towns -----------------------------------------------------------------------
    def town_near(self, target: float, *, lo: float, hi: float) -> Place | None:
        inside = [t for t in self.towns if lo <= t.progress_miles <= hi]
        if not inside:
            return None
        best = min(inside, key=lambda t: (abs(t.progress_miles - target) - 8 * math.log10(1 + (t.town.population or 0)),
                                          t.town.id))
        t = best.town
        source = "gazetteer" if t.id.startswith("geonames_") else "route_town"
        return Place(name=t.name, lat=t.lat, lon=t.lon, admin1=t.admin1, country=t.country, source=source)

    # -- activities ----------------------------------------------------------------------------
    def pick(self, start_p: float, anchor_p: float, anchor: Place, day: int) -> tuple[list[RoadStop], int, int]:
        lo, hi = sorted((start_p, anchor_p))
        forward = anchor_p >= start_p
        en_route = [p for p in self.pois if lo + 1 < p.progress_miles < hi - ANCHOR_RADIUS_MILES * (1 if forward else 0)
                    and (forward or p.progress_miles > lo + ANCHOR_RADIUS_MILES) and p.poi.id not in self.used]
        at_anchor = [p for p in self.pois if abs(p.progress_miles - anchor_p) <= ANCHOR_RADIUS_MILES
                     and p.poi.id not in self.used]
        chosen = self._spaced(en_route, start_p, anchor_p, want=2)
        chosen += [p for p in at_anchor if p not in chosen][: max(1, 3 - len(chosen))]
        stops = [self._poi_stop(p, day, en_route=p not in at_anchor) for p in chosen]
        stops += self._fill(stops, start_p, anchor_p, anchor, day)
        self.used |= {s.id for s in stops}
        return self._schedule(stops, start_p, anchor_p)

    def _spaced(self, cands, start_p: float, anchor_p: float, want: int):
        if not cands:
            return []
        marks = [start_p + (anchor_p - start_p) * f for f in (1 / 3, 2 / 3)][:want]
        picked = []
        for mark in marks:
            free = [c for c in cands if c not in picked
                    and all(abs(c.progress_miles - p.progress_miles) >= MIN_SPACING_MILES for p in picked)]
            if free:
                picked.append(min(free, key=lambda c: (abs(c.progress_miles - mark), c.poi.id)))
        return sorted(picked, key=lambda c: abs(c.progress_miles - start_p))

    def _poi_stop(self, p, day: int, *, en_route: bool) -> RoadStop:
        poi = p.poi
        return RoadStop(id=poi.id, name=poi.name, lat=poi.lat, lon=poi.lon, kind=poi.kind, start_min=0,
                        end_min=poi.duration_minutes, progress_miles=p.progress_miles, offset_miles=p.offset_miles,
                        indoor=poi.indoor, description=poi.description, en_route=en_route)

    def _fill(self, stops: list[RoadStop], start_p: float, anchor_p: float, anchor: Place, day: int) -> list[RoadStop]:
        """Town breaks on the way (and a walk in the overnight town) until the day has two."""
        extra: list[RoadStop] = []
        drive_h = abs(anchor_p - start_p) * self.factor / self.speed
        need_break = drive_h > 6 and not any(s.en_route for s in stops)
        lo, hi = sorted((start_p, anchor_p))
        middle = (start_p + anchor_p) / 2
        towns = sorted((t for t in self.towns if lo + 20 < t.progress_miles < hi - 20
                        and f"break_{t.town.id}" not in self.used),
                       key=lambda t: (abs(t.progress_miles - middle), t.town.id))
        while towns and (need_break or len(stops) + len(extra) < 2):
            t = towns.pop(0)
            extra.append(RoadStop(id=f"break_{t.town.id}", name=f"Break in {t.town.name}", lat=t.town.lat,
                                  lon=t.town.lon, kind="town", start_min=0, end_min=TOWN_BREAK_MINUTES,
                                  progress_miles=t.progress_miles, offset_miles=t.offset_miles,
                                  description=f"Stretch, refuel and eat in {t.town.name}, {t.town.admin1}."))
            need_break = False
        if len(stops) + len(extra) < 2:
            extra.append(RoadStop(id=f"explore_d{day}", name=f"Explore {anchor.name}", lat=anchor.lat,
                                  lon=anchor.lon, kind="town", start_min=0, end_min=EXPLORE_MINUTES,
                                  progress_miles=anchor_p, offset_miles=0.0, en_route=False,
                                  description=f"Walk the centre of {anchor.name} and have dinner there."))
        return extra

    def _schedule(self, stops: list[RoadStop], start_p: float, anchor_p: float) -> tuple[list[RoadStop], int, int]:
        """Depart 08:30, drive to each en-route stop in order, then to the anchor; town
        activities follow the arrival."""
        on_way = sorted((s for s in stops if s.en_route), key=lambda s: abs(s.progress_miles - start_p))
        in_town = [s for s in stops if not s.en_route]
        t, at, out = DEPART_MIN, start_p, []
        for s in on_way:
            t += self._drive_min(at, s.progress_miles)
            at = s.progress_miles
            out.append(_timed(s, t, t + s.end_min))
            t += s.end_min
        arrive = t + self._drive_min(at, anchor_p)
        t = arrive + CHECKIN_MINUTES
        for s in in_town:
            out.append(_timed(s, t, t + s.end_min))
            t += s.end_min
        return out, DEPART_MIN, arrive

    def _drive_min(self, a: float, b: float) -> int:
        return int(round(abs(b - a) * self.factor / self.speed * 60))


def _timed(stop: RoadStop, start: int, end: int) -> RoadStop:
    """Minutes on the day's timeline; past midnight they run on (the itinerary clips only its
    windows), so events never pile up at 23:59."""
    return replace(stop, start_min=start, end_min=end)
