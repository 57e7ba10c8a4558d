"""A model's road-trip proposal (``plan --llm``): what it may choose from, what is wrong with a
choice, and what the deterministic planner takes of it.

The model names overnight towns and stops by id (enums of the corridor's own candidates). The
planner fixes the proposed towns as nights — which day each falls on, and the nights between
them, stay its own — and prefers the proposed stops on the days that pass them. A proposal that
breaks a seed 000 rule at draft time (§6: a town behind the previous one, INV-DIR-04; more nights
than the trip has; hops the daily cap cannot fit in the days given) is re-asked once with those
problems; what is still wrong then is absorbed — nights put in driving order, repeats and towns
that do not fit dropped — each with a note, as the city builder absorbs an odd proposal.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from engine.geocode.trust import geodesic_miles

from .loop import AWAY_FROM_HOME_MILES
from .plan import Town

MAX_TOWNS = 80  # the most populous corridor towns; an enum of thousands helps no model
MAX_STOPS = 60
EDGE_MILES = 0.5  # a town this close to either end is that end, not a night on the way


@dataclass(frozen=True)
class TownChoice:
    id: str
    place: Town
    progress: float  # corridor miles from the route's start
    population: int = 0


@dataclass(frozen=True)
class StopChoice:
    id: str
    name: str
    kind: str
    progress: float


@dataclass(frozen=True)
class RoadCandidates:
    """The outbound stretch (a round trip's way out) and the ids a proposal may use."""

    origin: Town
    end: Town  # the terminus, or a round trip's turnaround
    route: str
    days: int  # days of the outbound stretch
    cap_miles: float
    factor: float  # road miles per corridor mile
    start_progress: float
    end_progress: float
    towns: tuple[TownChoice, ...]
    stops: tuple[StopChoice, ...]

    def town(self, town_id: str) -> TownChoice:
        return next(t for t in self.towns if t.id == town_id)


@dataclass
class RoadDraft:
    """What the planner takes: fixed nights (place, progress) and the stops it should prefer."""

    overnights: tuple[tuple[Town, float], ...] = ()
    stops: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)


def road_candidates(planner, p0: float) -> RoadCandidates:
    """From a prepared ``RoadTripPlanner``: corridor towns strictly between the ends (none near
    home: INV-DIR-03) and the sights and towns along the way."""
    end, end_p = planner.outbound_end
    lo, hi = sorted((p0, end_p))
    towns: dict[str, TownChoice] = {}
    for t in planner.stops.towns:
        away = geodesic_miles(planner.origin.point, (t.town.lat, t.town.lon)) > AWAY_FROM_HOME_MILES
        if lo + EDGE_MILES < t.progress_miles < hi - EDGE_MILES and away and t.town.id not in towns:
            towns[t.town.id] = TownChoice(t.town.id, planner.stops.place_of(t), t.progress_miles, t.town.population or 0)
    kept = sorted(towns.values(), key=lambda t: (-t.population, t.id))[:MAX_TOWNS]
    stops = {p.poi.id: StopChoice(p.poi.id, p.poi.name, p.poi.kind, p.progress_miles) for p in planner.stops.pois
             if lo <= p.progress_miles <= hi and p.poi.id not in planner.stops.used}
    for t in kept:
        stops.setdefault(t.id, StopChoice(t.id, f"Walk in {t.place.name}", "town", t.progress))
    intent = planner.intent
    days = intent.days if intent.trip_type == "one_way" else max(1, math.ceil(intent.days / 2))
    return RoadCandidates(origin=planner.origin, end=end, route=planner.corridor.name, days=days,
                          cap_miles=intent.max_daily_miles, factor=planner.factor, start_progress=p0,
                          end_progress=end_p, towns=tuple(sorted(kept, key=lambda t: (t.progress, t.id))),
                          stops=tuple(sorted(stops.values(), key=lambda s: (s.progress, s.id))[:MAX_STOPS]))


def days_needed(c: RoadCandidates, towns: list[TownChoice]) -> int:
    """Days the hops start → towns → end need under the daily cap (each hop at least one)."""
    marks = [c.start_progress, *(t.progress for t in towns), c.end_progress]
    return sum(max(1, math.ceil(abs(b - a) * c.factor / c.cap_miles - 1e-9)) for a, b in zip(marks, marks[1:]))


def problems(c: RoadCandidates, overnight_ids: list[str]) -> list[str]:
    """What the seed 000 draft checks find in a proposal's nights (empty: it can be planned as is)."""
    out: list[str] = []
    seen: set[str] = set()
    previous: TownChoice | None = None
    for town_id in overnight_ids:
        town = c.town(town_id)
        if town_id in seen:
            out.append(f"{town.place.name} ({town_id}) is proposed twice as a night")
            continue
        seen.add(town_id)
        if previous is not None and town.progress < previous.progress:
            out.append(f"INV-DIR-04: {town.place.name} (mile {town.progress:.0f}) lies behind {previous.place.name} "
                       f"(mile {previous.progress:.0f}) along {c.route}; list the nights in driving order")
        previous = town
    if len(seen) > c.days - 1:
        out.append(f"{len(seen)} overnight towns for {c.days} day(s): at most {c.days - 1}, since the last "
                   f"night is {c.end.name}")
    ordered = sorted((c.town(i) for i in seen), key=lambda t: t.progress)
    need = days_needed(c, ordered)
    if need > c.days:
        out.append(f"these nights need at least {need} days under the {c.cap_miles:.0f}-mile daily cap; "
                   f"the trip has {c.days}")
    return out


def absorb(c: RoadCandidates, overnight_ids: list[str], stop_ids: list[str]) -> RoadDraft:
    """The nights the planner can keep (driving order, each once, only while the days and the cap
    allow), the stops, and a note for every change made to the proposal."""
    notes: list[str] = []
    unique = list(dict.fromkeys(overnight_ids))
    if len(unique) < len(overnight_ids):
        notes.append("a night proposed more than once is kept once")
    ordered = sorted((c.town(i) for i in unique), key=lambda t: (t.progress, t.id))
    if [t.id for t in ordered] != unique:
        notes.append("the proposed nights were put in driving order: " + ", ".join(t.place.name for t in ordered))
    kept: list[TownChoice] = []
    for town in ordered:
        trial = [*kept, town]
        if len(trial) <= c.days - 1 and days_needed(c, trial) <= c.days:
            kept = trial
        else:
            notes.append(f"dropped the night in {town.place.name}: it does not fit {c.days} day(s) under the "
                         f"{c.cap_miles:.0f}-mile daily cap with the nights before it")
    return RoadDraft(overnights=tuple((t.place, t.progress) for t in kept),
                     stops=tuple(dict.fromkeys(stop_ids)), notes=notes)
