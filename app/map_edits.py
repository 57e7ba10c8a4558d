"""What a gesture on the map means for the trip, as engine inputs (Qt-free).

* City trips: a marker action becomes an ``engine.edits`` edit. Each edit is *rebased* on the plan
  the user is looking at (the current version's final plan), so "lock the Louvre" locks the
  Louvre that is on screen, not whatever the selector would pick from scratch.
* Road trips: a dragged overnight anchor, a locked anchor, or "Add a stop here" as an overnight
  stop becomes a forced stop: the drop point snaps to the nearest route town inside the corridor,
  and the stop is inserted into ``intent.stops`` in travel order; the engine re-plans the other
  days around it. "Add a stop here" as a visit goes into ``intent.visits`` (nights unchanged).
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass
from typing import Callable

from engine.costs import plan_cost
from engine.day_move import move_to_day
from engine.edits import Lock, MoveToDay, Remove, Replace, Unlock
from engine.errors import InputError
from engine.kept_edits import mark_placed
from engine.geocode.trust import geodesic_miles
from engine.models import IntentV1, ItineraryV1, PlanV1, RoadTripIntent, TimeWindow
from engine.models.common import minutes_of
from engine.roadtrip.booked_night import keep_booked_night
from engine.verify import blocking, verify_plan
from engine.roadtrip.routes import Route, TownOnRoute

PlanEdit = Callable  # (PlanV1, TripFacts) -> PlanV1
DAY_START_MIN, DAY_END_MIN = 9 * 60, 21 * 60 + 30  # where a moved visit may land
TRANSFER_BUFFER_MIN = 30  # room for the walk or ride on either side of a moved visit
_DAY_ID = re.compile(r"^d(\d+)-")


# -- city trips ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rebased:
    """Apply ``edit`` to ``base`` (the plan on screen) instead of the selector's fresh pick."""

    base: PlanV1
    edit: PlanEdit

    def __call__(self, plan: PlanV1, facts) -> PlanV1:
        return self.edit(self.base, facts)


@dataclass(frozen=True)
class MoveToFreeTime:
    """Move a visit to day ``day_index``: with the trip's ``intent``, at the best place of that day
    the verifiers accept (free time, else trading places with a stop), or an InputError saying why;
    without, at the first free time that fits it, else trading places (no check)."""

    choice_id: str
    day_index: int
    intent: IntentV1 | None = None  # given (the app): the engine's verified placement, engine/day_move.py

    def __call__(self, plan: PlanV1, facts) -> PlanV1:
        return mark_placed(self._moved(plan, facts), self.choice_id)

    def _moved(self, plan: PlanV1, facts) -> PlanV1:
        if self.intent is not None and facts is not None:
            return move_to_day(plan, facts, self.intent, self.choice_id, self.day_index)
        found = plan.find(self.choice_id)
        if found is None:
            raise InputError("choice_id", f"no slot with choice {self.choice_id!r} in the plan")
        slot = plan.days[found[0]].slots[found[1]]
        if not 0 <= self.day_index < len(plan.days):
            raise InputError("day_index", f"must be a day of the trip (1-{len(plan.days)})")
        window = free_window(plan, self.day_index, slot.window.minutes, skip=self.choice_id)
        if window is not None:
            return MoveToDay(self.choice_id, self.day_index, window)(plan, facts)
        swapped = swap_into(plan, facts, found, self.day_index)  # a full day: trade places with one of its stops
        if swapped is None:
            raise InputError("day_index", f"day {self.day_index + 1} is full and none of its stops can trade "
                                          f"places with {slot.selected.label}; remove one of them first")
        return swapped


def swap_into(plan: PlanV1, facts, found: tuple[int, int], day_index: int) -> PlanV1 | None:
    """``plan`` with the visit at ``found`` and one unlocked stop of the same kind on ``day_index``
    trading places (each takes the other's time), both open then; the stop whose length is
    nearest the visit's is chosen. None when none can."""
    di, si = found
    slot = plan.days[di].slots[si]
    if slot.locked:
        return None
    options = []
    for sj, other in enumerate(plan.days[day_index].slots):
        if other.locked or other.role != slot.role:
            continue
        if not (_open(facts, slot, plan.days[day_index].date, other.window)
                and _open(facts, other, plan.days[di].date, slot.window)):
            continue
        # Nearest first: the stop that takes the visit's place keeps its walks and rides about as long.
        options.append((_miles(slot, other), abs(other.window.minutes - slot.window.minutes), sj, other))
    if not options:
        return None
    *_, sj, other = min(options, key=lambda o: o[:3])
    days = list(plan.days)
    there = [s if k != sj else slot.model_copy(update={"window": other.window})
             for k, s in enumerate(days[day_index].slots)]
    here = [s if k != si else other.model_copy(update={"window": slot.window}) for k, s in enumerate(days[di].slots)]
    days[day_index] = days[day_index].model_copy(update={"slots": there})
    days[di] = days[di].model_copy(update={"slots": here})
    return plan.model_copy(update={"days": days})


def _miles(a, b) -> float:
    ga, gb = a.selected.geo, b.selected.geo
    return geodesic_miles((ga.lat, ga.lon), (gb.lat, gb.lon)) if ga is not None and gb is not None else 0.0


def _open(facts, slot, day, window: TimeWindow) -> bool:
    venue = facts.venue(slot.selected.option_ref) if facts is not None else None
    return venue is None or venue.is_open(day, window)


def free_window(plan: PlanV1, day_index: int, minutes: int, *, skip: str = "") -> TimeWindow | None:
    """The earliest window of ``minutes`` on the day that overlaps no other slot (ideally with
    ``TRANSFER_BUFFER_MIN`` free on both sides), between 09:00 and 21:30."""
    busy = [(minutes_of(s.window.start), minutes_of(s.window.end)) for s in plan.days[day_index].slots
            if s.selected.choice_id != skip]
    for buffer in (TRANSFER_BUFFER_MIN, 0):
        for start in range(DAY_START_MIN, DAY_END_MIN - minutes + 1, 15):
            lo, hi = start - buffer, start + minutes + buffer
            if all(hi <= b0 or b1 <= lo for b0, b1 in busy):
                return TimeWindow.of_minutes(start, start + minutes)
    return None


@dataclass(frozen=True)
class Alternative:
    """A ranked fallback of a slot, with what choosing it changes."""

    venue_id: str
    label: str
    cost_delta_cents: int
    travel_delta_s: int | None  # None when either choice has no travel estimate
    exact: bool = True  # False: the day must be re-fitted around it, so the cost is an estimate


MAX_ALTERNATIVES = 8


def alternatives(plan: PlanV1 | None, choice_id: str, facts=None, intent: IntentV1 | None = None) -> list[Alternative]:
    """The slot's other choices (``Slot.choices[1:]``) that are not already in the plan; then,
    from ``facts`` (the trip's :class:`~engine.facts.TripFacts`), the city's other venues of the
    same kind (sights for a sight, restaurants for a meal), nearest first — the planner keeps only
    a few runners-up per slot, and a city has dozens of places (issue 22 §2.7).

    With ``facts``, each option's cost change is what the plan then costs (issue 32 §2): the
    replacement applied to the plan and priced whole by ``engine.costs.plan_cost`` — the same path
    the new version's total takes (admission for the party and the transfers to and from it).
    With the trip's ``intent`` too, the replaced plan is verified as the re-plan will verify it:
    an option the day must be re-fitted around (it does not fit the slot's time, its hours or the
    walk on) is marked not ``exact``, its cost an estimate."""
    options = _options(plan, choice_id, facts)
    if facts is None or plan is None:
        return options
    before = plan_cost(plan, facts).total
    return [_priced(plan, choice_id, option, facts, intent, before) for option in options]


def _priced(plan: PlanV1, choice_id: str, option: Alternative, facts, intent, before: int) -> Alternative:
    try:
        replaced = Replace(choice_id, option.venue_id)(plan, facts)
    except InputError:
        return option  # the edit itself will say why when chosen
    exact = intent is None or not blocking(verify_plan(replaced, intent, facts))
    return dataclasses.replace(option, cost_delta_cents=plan_cost(replaced, facts).total - before, exact=exact)


def _options(plan: PlanV1 | None, choice_id: str, facts) -> list[Alternative]:
    if plan is None or (found := plan.find(choice_id)) is None:
        return []
    slot = plan.days[found[0]].slots[found[1]]
    in_plan = {s.selected.option_ref for _, _, s in plan.slots()}
    chosen = slot.selected.features
    out = []
    for choice in slot.choices[1:]:
        if choice.option_ref in in_plan:
            continue
        f = choice.features
        travel = None if f.travel_seconds is None or chosen.travel_seconds is None \
            else f.travel_seconds - chosen.travel_seconds
        out.append(Alternative(choice.option_ref, choice.label, f.cost_usd_cents - chosen.cost_usd_cents, travel))
    if facts is not None and len(out) < MAX_ALTERNATIVES:
        out += _nearby_venues(slot, facts, in_plan | {a.venue_id for a in out}, plan.assumptions.travellers,
                              MAX_ALTERNATIVES - len(out))
    return out


def _nearby_venues(slot, facts, taken: set[str], travellers: int, limit: int) -> list[Alternative]:
    here = facts.venue(slot.selected.option_ref)
    if here is None:
        return []
    dining = here.provenance.tool == "dining"
    others = [v for v in facts.venues.values() if v.id not in taken and (v.provenance.tool == "dining") == dining]
    others.sort(key=lambda v: geodesic_miles((here.location.lat, here.location.lon), (v.location.lat, v.location.lon)))
    cost = slot.selected.features.cost_usd_cents
    return [Alternative(v.id, v.name, v.est_price_usd_cents * travellers - cost, None) for v in others[:limit]]


def city_edit(action: str, activity_id: str, base: PlanV1, intent: IntentV1 | None = None) -> PlanEdit:
    """The engine edit of a marker action (``lock``, ``unlock``, ``remove``, ``move:N``), rebased
    on ``base``. ``replace`` needs a venue: use :func:`replace_edit`."""
    if action == "lock":
        edit = Lock(activity_id)
    elif action == "unlock":
        edit = Unlock(activity_id)
    elif action == "remove":
        edit = Remove(activity_id)
    elif action.startswith("move:"):
        edit = MoveToFreeTime(activity_id, int(action.split(":", 1)[1]), intent)
    else:
        raise InputError("action", f"unknown map action {action!r}")
    return Rebased(base, edit)


def replace_edit(activity_id: str, venue_id: str, base: PlanV1) -> PlanEdit:
    return Rebased(base, Replace(activity_id, venue_id))


# -- road trips ---------------------------------------------------------------------------------
def nearest_town(route: Route, corridor_miles: float, lat: float, lon: float) -> TownOnRoute:
    """The route town inside the corridor nearest (geodesic) to the point."""
    towns = route.towns_in_corridor(corridor_miles)
    if not towns:
        raise InputError("stops", f"{route.name} has no town within {corridor_miles:.0f} miles")
    return min(towns, key=lambda t: geodesic_miles((lat, lon), (t.town.lat, t.town.lon)))


def town_label(town: TownOnRoute) -> str:
    return f"{town.town.name}, {town.town.admin1}"


def without_stop(intent: RoadTripIntent, itinerary: ItineraryV1, activity_id: str) -> tuple[RoadTripIntent, str]:
    """Remove (or replace) a stop along the way: the intent skips it, so the re-plan fills its
    day from what else the corridor offers. Returns the intent and the stop's name."""
    act = next((a for d in itinerary.days for a in d.activities if a.id == activity_id), None)
    if act is None or act.role != "activity" or not act.ref:
        raise InputError("stops", "only a stop along the way can be removed; drag an overnight stop instead")
    return intent.model_copy(update={"skip_stops": [*intent.skip_stops, act.ref]}), act.name


def anchor_day(activity_id: str) -> int | None:
    """0-based day of a road-trip marker id such as ``d3-overnight``."""
    match = _DAY_ID.match(activity_id)
    return int(match.group(1)) if match else None


def with_forced_stop(intent: RoadTripIntent, itinerary: ItineraryV1, route: Route, town: TownOnRoute,
                     replacing_day: int | None = None) -> RoadTripIntent:
    """``intent`` with ``town`` as a forced stop, in travel order. When the anchor of
    ``replacing_day`` was itself a forced stop, that stop gives way to the new one."""
    progress = _stop_progress(intent, itinerary, route)
    stops = list(intent.stops)
    if replacing_day is not None and 0 <= replacing_day < len(itinerary.days):
        keep_booked_night(intent, itinerary.days[replacing_day].date)  # a booked motel's night is not dragged
        anchor = itinerary.days[replacing_day].anchor
        if anchor is not None and anchor.source == "user":
            stops = [s for s in stops if not _same_place(s, anchor.name)]
    label = town_label(town)
    stops = [s for s in stops if not _same_place(s, label)] + [label]
    progress[label] = town.progress_miles
    forward = _travels_forward(itinerary, route)
    ordered = sorted(stops, key=lambda s: progress.get(s, math.inf if forward else -math.inf), reverse=not forward)
    return RoadTripIntent.model_validate({**intent.model_dump(), "stops": ordered})


def with_rest_day(intent: RoadTripIntent, itinerary: ItineraryV1, day: int) -> tuple[RoadTripIntent, str]:
    """``intent`` with a rest day after the night of ``day`` (issue 20 §3): the trip keeps its
    length, so it has one driving day fewer; the re-plan balances the rest."""
    anchor = itinerary.days[day].anchor if 0 <= day < len(itinerary.days) else None
    if anchor is None or day == len(itinerary.days) - 1:
        raise InputError("rest_days", "a rest day follows a night of the trip, not its end")
    town = ", ".join(p for p in (anchor.name.split(",")[0], anchor.admin1) if p)
    if len(intent.rest_days) + 1 >= intent.days:
        raise InputError("rest_days", f"a {intent.days}-day trip has no day left to drive with another rest day")
    return RoadTripIntent.model_validate({**intent.model_dump(), "rest_days": [*intent.rest_days, town]}), town


def with_visit(intent: RoadTripIntent, town: TownOnRoute) -> RoadTripIntent:
    """``intent`` with ``town`` as a place to visit on the way (not a night); once each."""
    label = town_label(town)
    if any(_same_place(v, label) for v in intent.visits):
        raise InputError("visits", f"{label} is already a visit of this trip")
    return RoadTripIntent.model_validate({**intent.model_dump(), "visits": [*intent.visits, label]})


def _stop_progress(intent: RoadTripIntent, itinerary: ItineraryV1, route: Route) -> dict[str, float]:
    """Progress along ``route`` of each requested stop: a route town of that name, else the
    forced anchor the planner made of it."""
    out: dict[str, float] = {}
    user_anchors = [d.anchor for d in itinerary.days if d.anchor is not None and d.anchor.source == "user"]
    for stop in intent.stops:
        town = next((t for t in route.towns if _same_place(stop, f"{t.name}, {t.admin1}")), None)
        if town is not None:
            out[stop] = route.progress_miles(town.lat, town.lon)
            continue
        anchor = next((a for a in user_anchors if a.geo is not None and _same_place(stop, a.name)), None)
        if anchor is not None:
            out[stop] = route.progress_miles(anchor.geo.lat, anchor.geo.lon)
    return out


def _travels_forward(itinerary: ItineraryV1, route: Route) -> bool:
    located = [d.anchor.geo for d in itinerary.days if d.anchor is not None and d.anchor.geo is not None]
    if len(located) < 2:
        return True
    return route.progress_miles(located[0].lat, located[0].lon) <= route.progress_miles(located[-1].lat,
                                                                                        located[-1].lon)


def _same_place(a: str, b: str) -> bool:
    """"Kingman" matches "Kingman, AZ"; a qualifier, when both have one, must agree."""
    ha, _, qa = (part.strip().casefold() for part in a.partition(","))
    hb, _, qb = (part.strip().casefold() for part in b.partition(","))
    return ha == hb and (not qa or not qb or qa == qb)
