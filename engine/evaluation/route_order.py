"""The fair reference for a planned day's route (issue 31 §2, ``quality.day_route``): the shortest
order of the same stops that a traveller could really have walked that day.

The shortest path through a day's stops as the crow flies is no fair yardstick: it may visit a
museum after it closed, or eat lunch at four in the afternoon. The reference here keeps what the
plan fixed and reorders only what it was free to reorder:

* the meals stay where they are — the same restaurant at the same time (the plan chose lunch and
  dinner for the hour; a shorter day without them is no better day);
* every sight is visited once, for as long as the plan visits it, inside its opening hours as
  OpenStreetMap states them — or, where none are published, inside the window the plan told the
  traveller it guessed ("planned within 10:00-17:00"); a visit arriving before opening waits for it;
* the day leaves last night's bed no earlier, and reaches tonight's bed no later, than the plan;
* a leg takes as long as the plan's own legs take: its transfers' minutes per mile, plus the
  shortest wait the plan itself leaves between arriving and starting the next visit (so the
  reference is never slower than the plan, and never given slack the plan did not have).

The search is exact (depth first over every order, pruned by the shortest found so far); the plan's
own order is always a candidate, so the reference is never longer than the plan.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, time
from typing import Callable, Sequence

from engine.geocode.trust import geodesic_miles
from engine.models.dated_hours import dated_hours
from engine.models.itinerary import Activity, DayItinerary

Point = tuple[float, float]
Hours = Callable[[date], Sequence[tuple[int, int]]]  # a date → its open (from, to) minutes


@dataclass(frozen=True)
class Stop:
    """One located visit of the plan, in plan order."""

    point: Point
    start: int        # as planned, minutes from midnight
    end: int
    meal: bool        # a meal: fixed in place and time
    hours: Hours | None = None  # a sight's opening windows (None: unknown, open)

    @property
    def minutes(self) -> int:
        return self.end - self.start


def minutes_of(t: time) -> int:
    return t.hour * 60 + t.minute


@dataclass(frozen=True)
class Pace:
    """How long a leg of ``miles`` takes at the plan's own pace."""

    per_mile: float   # the plan's transfer minutes per mile
    overhead: float   # the shortest wait the plan leaves between a transfer's end and the next visit

    def minutes(self, a: Point, b: Point) -> float:
        return self.overhead + self.per_mile * geodesic_miles(a, b)


class Reference:
    """The shortest feasible order of a day's stops (see the module doc)."""

    def __init__(self, day: date, stops: Sequence[Stop], pace: Pace, start: Point | None, end: Point | None,
                 leave_at: float | None, home_by: float | None) -> None:
        self.day, self.stops, self.pace = day, list(stops), pace
        self.start, self.end = start, end
        self.leave_at, self.home_by = leave_at, home_by
        self.meals = [i for i, s in enumerate(self.stops) if s.meal]
        self.sights = [i for i, s in enumerate(self.stops) if not s.meal]
        self.best = float("inf")
        self.order: tuple[int, ...] = tuple(range(len(self.stops)))  # the shortest order found (plan's first)

    def shortest(self, planned: float) -> float:
        """The shortest feasible route's miles (``planned`` when nothing feasible is shorter)."""
        self.best = planned + 1e-9
        first = self.start
        clock = self.leave_at if self.leave_at is not None else float(self.stops[0].start) if self.stops else 0.0
        self._walk(first, clock, 0.0, frozenset(self.sights), 0, ())
        return min(self.best, planned)

    def _visit(self, here: Point | None, clock: float, stop: Stop) -> float | None:
        """When ``stop`` is left if reached from ``here`` at ``clock`` (None: it cannot be visited)."""
        arrive = clock + (self.pace.minutes(here, stop.point) if here is not None else 0.0)
        if stop.hours is None:
            return arrive + stop.minutes
        for opens, closes in stop.hours(self.day):
            begin = max(arrive, opens)
            if begin + stop.minutes <= closes:
                return begin + stop.minutes
        return None

    def _walk(self, here: Point | None, clock: float, miles: float, left: frozenset[int], meal: int,
              order: tuple[int, ...]) -> None:
        if miles >= self.best:
            return
        if meal < len(self.meals):  # the next fixed meal: go there now, or visit a sight first
            fixed = self.stops[self.meals[meal]]
            arrive = clock + (self.pace.minutes(here, fixed.point) if here is not None else 0.0)
            if arrive <= fixed.start + 1e-6:
                step = geodesic_miles(here, fixed.point) if here is not None else 0.0
                self._walk(fixed.point, float(fixed.end), miles + step, left, meal + 1, (*order, self.meals[meal]))
        elif not left:
            home = geodesic_miles(here, self.end) if here is not None and self.end is not None else 0.0
            back = clock + (self.pace.minutes(here, self.end) if here is not None and self.end is not None else 0.0)
            if (self.home_by is None or back <= self.home_by + 1e-6) and miles + home < self.best:
                self.best, self.order = miles + home, order
            return
        for i in sorted(left):
            stop = self.stops[i]
            done = self._visit(here, clock, stop)
            if done is None:
                continue
            step = geodesic_miles(here, stop.point) if here is not None else 0.0
            self._walk(stop.point, done, miles + step, left - {i}, meal, (*order, i))


def set_off(day: DayItinerary, visits: Sequence[Activity], start: Point | None) -> Point | None:
    """Where the day's visits set off from: a place the plan reaches before its first visit (the
    hotel checked into on arrival), else ``start``."""
    if not visits:
        return start
    first = next(i for i, a in enumerate(day.activities) if a is visits[0])
    before = [a for a in day.activities[:first] if a.geo and a.kind.value in ("lodging", "transit")]
    return (before[-1].geo.lat, before[-1].geo.lon) if before else start


_GUESSED = re.compile(r"planned within (\d\d):(\d\d)-(\d\d):(\d\d)")


def hours_of_stop(activity: Activity, element: dict | None, country: str | None):
    """A stop's opening windows by date: OpenStreetMap's hours; for a place whose hours are not
    published, the window the plan told the traveller it guessed ("planned within 10:00-17:00");
    else open (unknown hours count as open)."""
    rule = element["tags"].get("opening_hours") if element else None
    guessed = _GUESSED.search(activity.notes or "")
    if not rule and guessed:
        h1, m1, h2, m2 = (int(g) for g in guessed.groups())
        return lambda on: [(h1 * 60 + m1, h2 * 60 + m2)]
    if not rule:
        return None
    hours = dated_hours(rule, country)
    return lambda on: [(minutes_of(w.start), minutes_of(w.end) if w.end > w.start else 24 * 60)
                       for w in hours.windows_on(on)]


def plan_pace(day: DayItinerary, visits: Sequence[Activity]) -> Pace:
    """The plan's own pace between its visits: transfer minutes per mile, and the shortest wait it
    leaves between a transfer's end and the next sight's start."""
    index = {id(a): i for i, a in enumerate(day.activities)}
    minutes, miles, waits = 0.0, 0.0, []
    for a, b in zip(visits, visits[1:]):
        between = [t for t in day.activities[index[id(a)] + 1:index[id(b)]] if t.kind.value == "transit"]
        gap = minutes_of(b.window.start) - minutes_of(a.window.end)
        moving = sum(minutes_of(t.window.end) - minutes_of(t.window.start) for t in between) if between else gap
        leg = geodesic_miles((a.geo.lat, a.geo.lon), (b.geo.lat, b.geo.lon))
        if leg >= 0.05:
            minutes, miles = minutes + moving, miles + leg
        if b.kind.value == "attraction":
            waits.append(max(0, gap - moving))
    return Pace(per_mile=minutes / miles if miles else 0.0, overhead=float(min(waits, default=0)))
