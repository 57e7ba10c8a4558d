"""Greedy, deterministic filling of one day's free time with venues and meals, then the best order.

Each step looks at every unused venue from where the traveller is, waits for it to open if
needed, and keeps only visits that fit: opening hours, the weather, the kid-friendly evening,
the transfer and buffer to whatever comes next, and the last metro home. A day is filled by
time, not by a count: sights while the traveller's pace has sight time left (``DAY_VISIT_BUDGET``)
and the sights' evening end is not reached, meals at meal times. The chosen sights are then
put in the shortest order that still fits every opening window
(``engine/planning/day_order.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.costs import venue_cost
from engine.facts import TripFacts
from engine.geo import haversine_m
from engine.models import (Attraction, Choice, ChoiceFeatures, ChoiceKind, Geo, Slot, TimeWindow,
                           VenueType, minutes_of)
from engine.verify.weather import is_bad_weather
from engine.models.visit_time import DAY_VISIT_BUDGET, MEAL_MINUTES, SIGHTS_END, paced_minutes
from engine.places.osm_tags import meal_use_of_label

from .day_order import reorder
from .day_state import DayState, Limit, restore, snapshot

LUNCH = (12 * 60, 14 * 60 + 30)
LUNCH_BY = 13 * 60 + 45  # a morning sight ends by then, so lunch still starts in its window after the walk
DINNER_START = {False: 19 * 60, True: 17 * 60 + 45}
DINNER_SLACK = {False: 45, True: 15}  # a sight before dinner ends by its usual start plus this (a kids' evening ends at 20:00)
MEAL_STARTS = {"lunch": (11 * 60 + 30, 14 * 60 + 30), "dinner": (17 * 60 + 30, 21 * 60 + 30)}
EARLY_DINNER_TRAVEL = 20  # minutes kept for getting from dinner to an evening booking
DAY_END = {False: 22 * 60 + 30, True: 20 * 60}
ALTERNATIVES = 3
REPEAT_CUISINE_MINUTES = 5  # a cuisine already eaten on the trip weighs like this much more travel, per time
GENERIC_CUISINES = frozenset({"", "restaurant", "food court"})  # labels that name no cuisine


def cuisine_of(table: Attraction) -> str:
    """A table's cuisine label: the word after "food" in its themes (the dining tool's)."""
    return next((t for t in table.themes if t != "food"), "")


def ceil5(minutes: float) -> int:
    return int(-(-int(round(minutes)) // 5) * 5)


@dataclass(frozen=True)
class Candidate:
    venue: Attraction
    start: int
    end: int
    travel_min: int
    score: float


MUST_SEE_BONUS = 20.0  # outweighs themes, prominence and an hour's travel: a saved place comes first
# one of the city's best-known sights (issue 31 §1: ``planning/famous.py``): outweighs a matching theme
# and half an hour's travel, so themes choose among the rest and never bury what the city is known for
FAMOUS_BONUS = 6.0
THEME_WEIGHT = 3.0  # a sight per theme of the traveller's it matches
FAMOUS_RANK_WEIGHT = 3.0  # the best-known of them over the tenth
FAMOUS_TRAVEL_MINUTES = 30  # the minutes of travel that cost a best-known sight a point (others: 10)


EVENING_MINUTES = 45  # an evening visit after dinner: a view, a lit-up square, a late museum hour
EVENING_TRAVEL_MINUTES = 20  # near the dinner table
EVENING_DETOUR_M = 1_200  # and not far out of the way back to the hotel
EVENING_END = 22 * 60
EVENING_LATE = 21 * 60  # published hours running this late make an indoor sight an evening one


def _evening_kind(v: Attraction, day) -> bool:
    """A place for an evening: a view or an outdoor landmark (a square, a monument) open then, or a
    sight under a roof whose published hours run to 21:00 or later that day (a tower, a museum's
    late opening) — not a park or a garden in the dark."""
    if not v.hours_known:
        return False
    if v.indoor is False:
        return "views" in v.themes or v.venue_type is VenueType.landmark
    return any(minutes_of(w.end) >= EVENING_LATE for w in v.windows_on(day))


class DayBuilder:
    def __init__(self, facts: TripFacts, *, themes: list[str], kid: bool, hotel: Geo,
                 transit_buffer: int, museum_buffer: int, airport_buffer: int,
                 ranking: dict[str, int], travellers: int = 1, meal_cap_cents: int | None = None,
                 must: frozenset[str] = frozenset(), famous: tuple[str, ...] = (),
                 pace: str = "balanced", tables_again: bool = False) -> None:
        self.facts = facts
        self.themes = set(themes)
        self.kid = kid
        self.hotel = hotel
        self.transit_buffer = transit_buffer
        self.museum_buffer = museum_buffer
        self.airport_buffer = airport_buffer
        self.ranking = ranking
        self.travellers = travellers
        self.meal_cap = meal_cap_cents  # per person; None = no budget to respect
        self.must = must  # the traveller's saved places: first wherever they are open and fit
        self.famous = {ref: i for i, ref in enumerate(famous)}  # the city's best-known sights, best first
        self.pace = pace
        self.tables_again = tables_again  # every table eaten at: one of an earlier day again (a stay's)
        self.visit_budget = DAY_VISIT_BUDGET[pace]
        self.sights_end = SIGHTS_END[pace]
        self.light = False  # the order search's replays: the state moves, no slots are written
        self.meal_memo: dict[tuple, list[Candidate]] = {}  # the search's ranked tables by moment

    def length(self, v: Attraction) -> int:
        """A visit's planned length at the traveller's pace."""
        return paced_minutes(v.duration_minutes, self.pace)

    def fill(self, state: DayState, limit: Limit, venues: list[Attraction], restaurants: list[Attraction]) -> None:
        start = snapshot(state)
        first = len(state.slots)
        self.run(state, limit, venues, restaurants)
        by_id = {v.id: v for v in venues}
        chosen = [by_id[s.selected.option_ref] for s in state.slots[first:] if s.role == "activity"]
        best = reorder(self, start, limit, chosen, restaurants, state)
        if best is not state:
            restore(state, best)
        if limit.geo is None and limit.airport is None:  # the day's open end: back to the hotel
            self._evening(state, limit, venues)

    def _evening(self, s: DayState, limit: Limit, venues: list[Attraction]) -> None:
        """An evening after dinner (issue 31 §2): one short visit near the table to a place that is
        still open — a viewpoint or an outdoor landmark with no gate, or a sight whose published
        hours run late — when the day has nothing after dinner. Not with children (their day ends
        at 20:00), not when nothing of the kind is open and near."""
        if not s.had_dinner or self.kid or not s.slots or s.slots[-1].role != "meal":
            return
        options = []
        for v in venues:
            if v.id in s.used or not _evening_kind(v, s.day):
                continue
            cand = self._fit(s, v, min(self.length(v), EVENING_MINUTES), limit)
            if cand is not None and cand.travel_min <= EVENING_TRAVEL_MINUTES and cand.end <= EVENING_END \
                    and self._detour_m(s.geo, v.location) <= EVENING_DETOUR_M:
                options.append(cand)
        if options:  # the best-known, then the least out of the way home
            best = min(options, key=lambda c: (c.venue.id not in self.famous, self._detour_m(s.geo, c.venue.location),
                                               c.venue.id))
            s.used.add(best.venue.id)
            s.visits += 1
            self._append(s, best, "activity", ChoiceKind.attraction, [])

    def _detour_m(self, here: Geo, there: Geo) -> float:
        """What going by ``there`` adds to the way from ``here`` back to the hotel."""
        return haversine_m(here, there) + haversine_m(there, self.hotel) - haversine_m(here, self.hotel)

    def run(self, state: DayState, limit: Limit, venues: list[Attraction], restaurants: list[Attraction], *,
            one_visit: bool = False, budget: bool = True) -> bool:
        """Fill from the cursor: meals when due, sights while the pace's sight time lasts. With
        ``one_visit``: stop (True) once a sight of ``venues`` is placed, False when none can be."""
        dinner_by = self._dinner_before(state, limit)  # an evening booking: dinner goes before it
        visits = Limit(end=dinner_by, geo=None, airport=None) if dinner_by is not None else limit
        while True:
            meal = self._meal_due(state)
            if meal and self._place_meal(state, meal, limit, restaurants):
                continue
            if (not budget or state.visit_minutes < self.visit_budget) and self._place_visit(state, visits, venues,
                                                                                             restaurants, limit):
                if one_visit:
                    return True
                continue
            if dinner_by is not None and not state.had_dinner and self._early_dinner(state, dinner_by, limit,
                                                                                    restaurants):
                continue
            nxt = self._next_meal_time(state)
            if nxt is None or nxt <= state.cursor or not self._place_meal_at(state, nxt, limit, restaurants):
                return False

    def home_metres(self, s: DayState, limit: Limit) -> float:
        """The last leg of a free stretch: to the fixed slot that ends it, or back to the hotel."""
        if limit.airport is not None:
            return 0.0  # the same airport whatever the order
        return haversine_m(s.geo, limit.geo or self.hotel)

    # -- meals ---------------------------------------------------------------------------------
    def _dinner_before(self, s: DayState, limit: Limit) -> int | None:
        """When a fixed slot in town (a locked visit, a booked show) starts too early for dinner at
        the usual time after it but late enough for one before it: the minute visits must end by."""
        length = MEAL_MINUTES["dinner"] - (15 if self.kid else 0)
        if s.had_dinner or limit.airport is not None or limit.geo is None:
            return None
        usual_after = DINNER_START[self.kid] + length + 2 * self.transit_buffer
        reserve = length + 2 * self.transit_buffer + EARLY_DINNER_TRAVEL
        if not MEAL_STARTS["dinner"][0] + length + self.transit_buffer + 10 <= limit.end <= usual_after:
            return None
        return limit.end - reserve

    def _early_dinner(self, s: DayState, at: int, limit: Limit, restaurants: list[Attraction]) -> bool:
        saved = s.cursor
        s.cursor = max(s.cursor, at - self.transit_buffer)
        if self._place_meal(s, "dinner", limit, restaurants):
            return True
        s.cursor = saved
        return False

    def _meal_due(self, s: DayState) -> str | None:
        t = s.cursor + self.transit_buffer
        if not s.had_lunch and LUNCH[0] <= t <= LUNCH[1]:
            return "lunch"
        if not s.had_dinner and t >= DINNER_START[self.kid]:
            return "dinner"
        return None

    def _next_meal_time(self, s: DayState) -> int | None:
        if not s.had_lunch and s.cursor < LUNCH[0]:
            return LUNCH[0] - self.transit_buffer
        if not s.had_dinner and s.cursor < DINNER_START[self.kid]:
            return DINNER_START[self.kid] - self.transit_buffer
        return None

    def _place_meal_at(self, s: DayState, at: int, limit: Limit, restaurants: list[Attraction]) -> bool:
        saved = s.cursor
        s.cursor = at
        meal = self._meal_due(s)
        if meal and self._place_meal(s, meal, limit, restaurants):
            return True
        s.cursor = saved
        return False

    def _place_meal(self, s: DayState, meal: str, limit: Limit, restaurants: list[Attraction]) -> bool:
        if self.light:  # the order search meets the same moment often: the tables found once
            key = (meal, s.cursor, s.geo.lat, s.geo.lon, s.prev_museum, limit)
            found = self.meal_memo.get(key)
            if found is None:
                found = self.meal_memo[key] = self._tables(s, meal, limit, restaurants, set())
            options = [c for c in found if c.venue.id not in s.used]
        else:
            options = self._tables(s, meal, limit, restaurants, s.used)
        if not options and self._all_eaten_at(s, meal, restaurants):
            options = self._again(s, meal, limit, restaurants)
        eaten = self._cuisines_eaten(s, restaurants)
        options.sort(key=lambda c: self._rank(c, eaten))
        if not options:
            return False
        best = options[0]
        s.used.add(best.venue.id)
        setattr(s, f"had_{meal}", True)
        if meal == "lunch":
            s.lunch_at = best.venue.id
        self._append(s, best, "meal", ChoiceKind.meal, options[1:1 + ALTERNATIVES])
        return True

    def _all_eaten_at(self, s: DayState, meal: str, restaurants: list[Attraction]) -> bool:
        """Every table of the city that seats ``meal`` this day is eaten at already (a long stay in
        a fixture city, whose tables are a curated handful): only then is one eaten at on an
        earlier day chosen again, so a day still has its meals."""
        earliest, latest = MEAL_STARTS[meal]
        length = MEAL_MINUTES[meal]
        return self.tables_again and all(r.id in s.used for r in restaurants if self._serves_meals(r) and any(
            minutes_of(w.start) <= latest and minutes_of(w.end) >= earliest + length for w in r.windows_on(s.day)))

    def _again(self, s: DayState, meal: str, limit: Limit, restaurants: list[Attraction]) -> list[Candidate]:
        """The tables eaten at on an earlier day (never today's) that fit ``meal`` from the cursor."""
        today = {slot.selected.option_ref for slot in s.slots if slot.role == "meal"} | {s.lunch_at or ""}
        return self._tables(s, meal, limit, restaurants, today)

    def _tables(self, s: DayState, meal: str, limit: Limit, restaurants: list[Attraction],
                used: set[str]) -> list[Candidate]:
        """The tables not in ``used`` that fit ``meal`` from the cursor, best first."""
        length = MEAL_MINUTES[meal] - (15 if self.kid and meal == "dinner" else 0)
        options = []
        earliest, latest = MEAL_STARTS[meal]
        for r in restaurants:
            if r.id in used or not self._serves_meals(r):
                continue
            cand = self._fit(s, r, length, limit)
            if cand is not None and earliest <= cand.start <= latest:
                options.append(cand)
        return options

    def _rank(self, c: Candidate, eaten: dict[str, int]) -> tuple:
        """Affordable first, then a saved table, then one with published hours (an OSM place without
        them only when needed), then the nearest — at an OSM table, a cuisine already eaten on the trip
        counting as ``REPEAT_CUISINE_MINUTES`` more of travel for each time, so the trip's meals vary
        (a fixture city's tables are a curated handful the seed's scenarios are written against)."""
        repeat = REPEAT_CUISINE_MINUTES * eaten.get(cuisine_of(c.venue), 0) if c.venue.provenance.data_source == "osm" else 0
        return (self._over_cap(c.venue), c.venue.id not in self.must, not c.venue.hours_known,
                c.travel_min + repeat, c.start, c.venue.id)

    def _serves_meals(self, r: Attraction) -> bool:
        """A café, a coffee stand, a bakery or a pastry shop of OpenStreetMap is for breakfast or a
        snack, never a planned lunch or dinner unless the traveller saved it (issue 31 §3). A
        fixture's tables are curated rows that each serve the meals their hours allow."""
        if r.id in self.must or r.provenance.data_source != "osm":
            return True
        return meal_use_of_label(cuisine_of(r)) != "snack"

    def _cuisines_eaten(self, s: DayState, restaurants: list[Attraction]) -> dict[str, int]:
        """How often each cuisine was eaten so far on the trip (the tables in the trip's ``used``)."""
        eaten: dict[str, int] = {}
        for r in restaurants:
            if r.id in s.used:
                word = cuisine_of(r)
                if word not in GENERIC_CUISINES:
                    eaten[word] = eaten.get(word, 0) + 1
        return eaten

    def _over_cap(self, restaurant: Attraction) -> int:
        """How far a meal is over what the budget can carry: the nearest affordable table wins,
        else the least dear one (repair still checks the total)."""
        if self.meal_cap is None:
            return 0
        return max(0, restaurant.est_price_usd_cents - self.meal_cap)

    # -- visits --------------------------------------------------------------------------------
    def _place_visit(self, s: DayState, limit: Limit, venues: list[Attraction],
                     restaurants: list[Attraction] = (), meal_limit: Limit | None = None) -> bool:
        options = []
        ends_by = self._sights_end_before_meal(s)
        for v in venues:
            if v.id in s.used:
                continue
            cand = self._fit(s, v, self.length(v), limit)
            if cand is None or cand.end > ends_by:
                continue
            if cand.end <= self.sights_end or v.id in self.must:
                options.append(cand)
        if not options:
            return False
        options.sort(key=lambda c: (-c.score, c.start, c.venue.id))
        best = next((c for c in options if self._keeps_lunch(s, c, restaurants, meal_limit or limit)), None)
        if best is None:
            return False
        s.used.add(best.venue.id)
        s.visits += 1
        s.visit_minutes += best.end - best.start
        self._append(s, best, "activity", ChoiceKind.attraction, options[1:1 + ALTERNATIVES])
        return True

    def _keeps_lunch(self, s: DayState, c: Candidate, restaurants: list[Attraction], limit: Limit) -> bool:
        """Whether a lunch table can still be reached after a sight ending into the lunch hours:
        a table whose hours are not published is assumed to seat lunch until 14:30, so a morning
        sight ending at ``LUNCH_BY`` may leave the day with no lunch at all. Not asked of the
        morning before a flight."""
        if s.had_lunch or not restaurants or c.end <= LUNCH[0] - self.transit_buffer or c.end > LUNCH[1]:
            return True
        if limit.airport is not None:  # the morning before a flight: a sight over a sit-down lunch
            return True
        if not any(self._serves_meals(r) for r in restaurants):
            return True
        after = replace(s, cursor=c.end, geo=c.venue.location, prev_museum=c.venue.venue_type is VenueType.museum)
        return bool(self._tables(after, "lunch", limit, restaurants, s.used) or
                    self._all_eaten_at(s, "lunch", restaurants) and self._again(after, "lunch", limit, restaurants))

    def _sights_end_before_meal(self, s: DayState) -> int:
        """When a sight must end so the next meal keeps its window: before lunch (not yet due) a
        sight that would run past ``LUNCH_BY`` waits until after lunch; before dinner likewise
        past ``DINNER_START + DINNER_SLACK``. A meal that was due and found no table binds nothing."""
        if self._meal_due(s) is not None:
            return 24 * 60
        if not s.had_lunch and s.cursor < LUNCH_BY:
            return LUNCH_BY
        if not s.had_dinner:
            return DINNER_START[self.kid] + DINNER_SLACK[self.kid]
        return 24 * 60

    def _fit(self, s: DayState, v: Attraction, length: int, limit: Limit) -> Candidate | None:
        if v.indoor is False and is_bad_weather(self.facts.weather.get(s.day)):
            return None
        buffer = self.museum_buffer if s.prev_museum else self.transit_buffer
        travel = self.facts.leg(s.geo, v.location, s.day).duration_seconds // 60
        earliest = ceil5(s.cursor + buffer + travel)
        for window in v.windows_on(s.day):
            start = max(earliest, minutes_of(window.start))
            end = start + length
            if end <= minutes_of(window.end) and self._fits_after(s, v, end, limit):
                return Candidate(v, start, end, travel, self._score(s, v, travel, start - earliest))
        return None

    def _fits_after(self, s: DayState, v: Attraction, end: int, limit: Limit) -> bool:
        if self.kid and end > DAY_END[True]:
            return False
        after = self.museum_buffer if v.venue_type is VenueType.museum else self.transit_buffer
        if limit.airport is not None:
            travel = self.facts.airport_leg(limit.airport, v.location, s.day).duration_seconds // 60
            return end + self.airport_buffer + travel <= limit.end
        if limit.geo is not None:
            travel = self.facts.leg(v.location, limit.geo, s.day).duration_seconds // 60
            return end + after + travel <= limit.end
        if end > min(limit.end, DAY_END[self.kid]):
            return False
        back = self.facts.leg(v.location, self.hotel, s.day)
        if back.mode.value == "metro":
            cutoff = self.facts.last_metro_minutes(s.day) - back.duration_seconds // 60 - self.transit_buffer
            return end <= cutoff
        return True

    def _score(self, s: DayState, v: Attraction, travel: int, wait: int) -> float:
        # a best-known sight is worth the trip whatever its themes: full theme credit, so the
        # themes never bury it (they choose among the rest) and the famous compete by fame and travel
        theme = THEME_WEIGHT * len(self.themes if v.id in self.famous else self.themes & set(v.themes))
        prominence = 2.0 * (1 - self.ranking.get(v.id, 50) / 50)
        uncertain = -2.0 if v.indoor is None and is_bad_weather(self.facts.weather.get(s.day)) else 0.0
        must = MUST_SEE_BONUS if v.id in self.must else FAMOUS_BONUS if v.id in self.famous else 0.0
        if v.id in self.famous and v.id not in self.must:  # the better known first: Giza before a fifth mosque
            must += FAMOUS_RANK_WEIGHT * (1 - self.famous[v.id] / len(self.famous))
        # ten minutes' travel cost a point; a best-known sight is worth a longer trip (Giza from
        # central Cairo), or the nearer lesser sights would win every step of the greedy fill
        per_point = FAMOUS_TRAVEL_MINUTES if v.id in self.famous and v.id not in self.must else 10
        return must + theme + prominence + uncertain - travel / per_point - wait / 30

    def _append(self, s: DayState, best: Candidate, role: str, kind: ChoiceKind, alts: list[Candidate]) -> None:
        if not self.light:
            choices = [self._choice(s, c, role, kind) for c in [best, *alts]]
            s.slots.append(Slot(window=TimeWindow.of_minutes(best.start, best.end), role=role, choices=choices))
        s.metres += haversine_m(s.geo, best.venue.location)
        s.cursor, s.geo = best.end, best.venue.location
        s.travel += best.travel_min
        s.prev_museum = best.venue.venue_type is VenueType.museum

    def _choice(self, s: DayState, c: Candidate, role: str, kind: ChoiceKind) -> Choice:
        cost = venue_cost(c.venue, self.travellers)
        return Choice(choice_id=f"d{s.di}-{role}-{c.venue.id}", kind=kind, option_ref=c.venue.id,
                      label=c.venue.name, geo=c.venue.location, score=round(c.score, 3),
                      features=ChoiceFeatures(cost_usd_cents=cost, travel_seconds=c.travel_min * 60,
                                              indoor=c.venue.indoor, themes=list(c.venue.themes)),
                      provenance=c.venue.provenance)

