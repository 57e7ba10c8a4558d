"""Re-plan puts each day's free sights in their shortest order (issue 32 §2).

A re-plan starts from the plan on screen. After a move to another day, a removal or a repair's
fill, a day can cross the city back and forth; :class:`ReorderDays` re-orders, day by day, the
sights and meals the planner chose between the day's fixed points — flights, the hotel desk,
booked events, what the traveller locked and what they placed themselves (``Slot.placed``) — with
the day builder's own steps and the exact order search of ``day_order.py`` (every order up to
``EXACT_STOPS`` sights, each fitted to its opening window, the walk and buffer between them; the
meals found again when due, at the nearest table the budget carries). A stretch changes only when
the new order is shorter; the fixed points never move. The pipeline then verifies and repairs the
result like any edit.

:func:`reorder_note` says in a line what a re-plan changed ("day 2 reordered, 3.1 km less walking").
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.costs import plan_cost
from engine.facts import TripFacts
from engine.geo import haversine_m
from engine.models import Attraction, DayPlan, Geo, IntentV1, PlanV1, Slot, minutes_of

from .builder import MEAL_SHARE
from .day_builder import DayBuilder
from .day_order import reorder
from .day_state import DayState, Limit, snapshot

DAY_START = 9 * 60  # where a day with nothing fixed before its first sight starts (as the builder does)
DAY_END = 23 * 60 + 59
DINNER_FROM = 16 * 60  # a meal starting from then is the day's dinner, before it its lunch
_TRAVELLER_ROLES = ("arrival", "checkin", "checkout")  # the builder fills no gap before these


def movable(slot: Slot) -> bool:
    """A sight or meal the planner chose: neither locked nor placed by the traveller."""
    return slot.role in ("activity", "meal") and not slot.locked and not slot.placed


@dataclass(frozen=True)
class ReorderDays:
    """The plan with each day's movable sights in their shortest order (a plan edit)."""

    intent: IntentV1

    def __call__(self, plan: PlanV1, facts: TripFacts) -> PlanV1:
        hotel = _hotel(plan)
        if hotel is None:
            return plan
        days = [self._day(plan, facts, di, hotel) for di in range(len(plan.days))]
        if all(new is old for new, old in zip(days, plan.days)):
            return plan
        return plan.model_copy(update={"days": days})

    def _day(self, plan: PlanV1, facts: TripFacts, di: int, hotel: Geo) -> DayPlan:
        day = plan.days[di]
        slots = sorted(day.slots, key=lambda s: s.window.start)
        lengths = {s.selected.option_ref: s.window.minutes for s in slots if movable(s) and s.role == "activity"}
        builder = _KeptLengths(facts, self.intent, plan, hotel, lengths)
        restaurants = sorted((v for v in facts.venues.values() if v.provenance.tool == "dining"), key=lambda v: v.id)
        out: list[Slot] = []
        stretch: list[Slot] = []
        state = DayState(di=di, day=day.date, cursor=DAY_START, geo=hotel, prev_museum=False, used=set())
        changed = False
        for slot in slots:
            if movable(slot) and facts.venue(slot.selected.option_ref) is not None:
                stretch.append(slot)
                continue
            if stretch:
                limit = Limit(end=minutes_of(slot.window.start), geo=slot.selected.geo)
                placed = self._stretch(builder, plan, state, limit, stretch, facts, restaurants) \
                    if slot.role not in (*_TRAVELLER_ROLES, "departure") else None
                changed |= placed is not None
                out += placed or stretch
                stretch = []
            out.append(slot)
            state = _after(state, slot, hotel, facts)
        if stretch:
            placed = self._stretch(builder, plan, state, Limit(end=DAY_END, geo=None), stretch, facts, restaurants)
            changed |= placed is not None
            out += placed or stretch
        if not changed:
            return day
        return day.model_copy(update={"slots": sorted(out, key=lambda s: s.window.start)})

    @staticmethod
    def _stretch(builder: DayBuilder, plan: PlanV1, state: DayState, limit: Limit, stretch: list[Slot],
                 facts: TripFacts, restaurants: list[Attraction]) -> list[Slot] | None:
        """The stretch's sights in their shortest order with its meals found again on the way (new
        windows), or None when the day on screen is already the shortest that fits."""
        sights = [s for s in stretch if s.role == "activity"]
        venues = [v for s in sights if (v := facts.venue(s.selected.option_ref)) is not None]
        if len(venues) < 2:
            return None
        mine = {s.selected.option_ref for s in stretch}
        start = snapshot(state)
        start.used = {s.selected.option_ref for _dj, _sj, s in plan.slots()} - mine  # the trip's other places
        start.cursor = min(start.cursor, minutes_of(stretch[0].window.start))
        meals = [minutes_of(s.window.start) for s in stretch if s.role == "meal"]
        start.had_lunch = not any(m < DINNER_FROM for m in meals)
        start.had_dinner = not any(m >= DINNER_FROM for m in meals)
        current = snapshot(start)
        for slot in stretch:
            current.metres += haversine_m(current.geo, slot.selected.geo) if slot.selected.geo else 0.0
            current.geo = slot.selected.geo or current.geo
        best = reorder(builder, start, limit, venues, restaurants, current)
        if best is current or len(best.slots) != len(stretch):
            return None
        by_ref = {s.selected.option_ref: s for s in stretch}
        return [by_ref[s.selected.option_ref].model_copy(update={"window": s.window})
                if s.selected.option_ref in by_ref else s for s in best.slots]


class _KeptLengths(DayBuilder):
    """The day builder, each sight kept at the length it has on screen; a meal no dearer per
    person than the plan builder allows (``engine/planning/builder.py``: a share of what the budget
    leaves once flights, beds and the daily allowance are paid)."""

    def __init__(self, facts: TripFacts, intent: IntentV1, plan: PlanV1, hotel: Geo, lengths: dict[str, int]) -> None:
        a = plan.assumptions
        cost = plan_cost(plan, facts)
        left = intent.budget_usd_cents - cost.flights - cost.lodging - cost.daily_spend
        cap = max(0, int(left * MEAL_SHARE / (2 * len(plan.days) * a.travellers)))
        super().__init__(facts, themes=intent.prefs.themes, kid=intent.prefs.kid_friendly, hotel=hotel,
                         transit_buffer=a.transit_buffer_minutes, museum_buffer=a.museum_buffer_minutes,
                         airport_buffer=a.airport_buffer_minutes, ranking={}, travellers=a.travellers,
                         meal_cap_cents=cap, pace=intent.prefs.pace)
        self.lengths = lengths

    def length(self, v: Attraction) -> int:
        return self.lengths.get(v.id) or super().length(v)


def _hotel(plan: PlanV1) -> Geo | None:
    return next((s.selected.geo for _di, _si, s in plan.slots() if s.role == "checkin"), None)


def _after(state: DayState, slot: Slot, hotel: Geo, facts: TripFacts) -> DayState:
    """The cursor once ``slot`` (a fixed point) is done: its end, its place."""
    venue = facts.venue(slot.selected.option_ref)
    nxt = snapshot(state)
    nxt.cursor = max(state.cursor, minutes_of(slot.window.end))
    nxt.geo = hotel if slot.role == "arrival" else (slot.selected.geo or state.geo)
    nxt.prev_museum = venue is not None and venue.venue_type.value == "museum"
    return nxt


# -- what a re-plan changed ---------------------------------------------------------------------
def day_metres(day: DayPlan, hotel: Geo | None = None) -> float:
    """A day's route as the crow flies: from place to place in the order of its slots, from and
    back to ``hotel`` when given (what the order search weighs)."""
    geos = [s.selected.geo for s in sorted(day.slots, key=lambda s: s.window.start) if s.selected.geo is not None]
    if hotel is not None:
        geos = [hotel, *geos, hotel]
    return sum(haversine_m(a, b) for a, b in zip(geos, geos[1:]))


def reorder_note(before: PlanV1, after: PlanV1) -> str | None:
    """"day 2 reordered, 3.1 km less walking": the days whose visits changed order or place, and
    how much shorter (or longer) their route is; None when no day changed."""
    changed = [di for di, (a, b) in enumerate(zip(before.days, after.days)) if _order(a) != _order(b)]
    if not changed:
        return None
    hotel = _hotel(after)
    saved = sum(day_metres(before.days[di], hotel) - day_metres(after.days[di], hotel) for di in changed) / 1000
    days = ("day " if len(changed) == 1 else "days ") + _and(changed)
    verb = "reordered" if all(sorted(_order(before.days[di])) == sorted(_order(after.days[di]))
                              for di in changed) else "changed"
    if saved >= 0.05:
        return f"{days} {verb}, {saved:.1f} km less walking"
    if saved <= -0.05:
        return f"{days} {verb}, {-saved:.1f} km more walking"
    return f"{days} {verb}"


def _order(day: DayPlan) -> list[str]:
    return [s.selected.option_ref for s in sorted(day.slots, key=lambda s: s.window.start)
            if s.role in ("activity", "meal")]


def _and(days: list[int]) -> str:
    names = [str(di + 1) for di in days]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


__all__ = ["ReorderDays", "day_metres", "movable", "reorder_note"]
