"""Finding a window for one slot between its neighbours that every verifier accepts."""

from __future__ import annotations

from engine.facts import TripFacts
from engine.models import Attraction, DayPlan, PlanV1, Slot, TimeWindow, TransitMode, minutes_of
from engine.planning.day_builder import DAY_END, ceil5
from engine.schedule import hotel_geo, pair_leg
from engine.verify.last_train import cutoff_minutes
from engine.verify.timing import required_gap

MIN_SHARE = 0.6  # a visit may be shortened to 60% of its usual length


def _bounds(plan: PlanV1, di: int, si: int, slot: Slot, facts: TripFacts, kid: bool) -> tuple[int, int]:
    day = plan.days[di]
    lo, hi = 6 * 60, DAY_END[kid]
    if si > 0:
        prev = day.slots[si - 1]
        leg = pair_leg(prev, slot, day.date, facts)
        lo = ceil5(minutes_of(prev.window.end) + required_gap(prev, slot, plan, facts,
                                                                 leg.duration_seconds / 60 if leg else 0))
    if si + 1 < len(day.slots):
        nxt = day.slots[si + 1]
        leg = pair_leg(slot, nxt, day.date, facts)
        hi = min(hi, minutes_of(nxt.window.start) - int(required_gap(slot, nxt, plan, facts,
                                                                       leg.duration_seconds / 60 if leg else 0)) - 1)
    else:
        hi = min(hi, _last_train_end(plan, di, slot, facts))
    return lo, hi


def _last_train_end(plan: PlanV1, di: int, slot: Slot, facts: TripFacts) -> int:
    hotel = hotel_geo(plan)
    if hotel is None or slot.selected.geo is None or di == len(plan.days) - 1:
        return 24 * 60
    leg = facts.leg(slot.selected.geo, hotel, plan.days[di].date)
    if leg.mode is not TransitMode.metro:
        return 24 * 60
    return int(cutoff_minutes(facts.last_metro_minutes(plan.days[di].date), leg.duration_seconds / 60,
                              plan.assumptions.transit_buffer_minutes))


def fit_window(plan: PlanV1, di: int, si: int, slot: Slot, venue: Attraction | None, facts: TripFacts,
               kid: bool) -> TimeWindow | None:
    """The window closest to the slot's current start that fits neighbours and opening hours."""
    lo, hi = _bounds(plan, di, si, slot, facts, kid)
    want = slot.window.minutes
    current = minutes_of(slot.window.start)
    opening = venue.windows_on(plan.days[di].date) if venue else [TimeWindow.of_minutes(0, 24 * 60 - 1)]
    best = None
    for length in (want, int(want * 0.8), int(want * MIN_SHARE)):
        for w in opening:
            start_lo, end_hi = max(lo, minutes_of(w.start)), min(hi, minutes_of(w.end))
            if end_hi - start_lo < length:
                continue
            start = min(max(current, start_lo), end_hi - length)
            cand = (abs(start - current), start, length)
            best = min(best, cand) if best else cand
        if best:
            return TimeWindow.of_minutes(best[1], best[1] + best[2])
    return None


def fit_inserted(plan: PlanV1, di: int, at: int, probe: Slot, venue: Attraction | None, facts: TripFacts,
                 kid: bool, earliest: int = 9 * 60) -> TimeWindow | None:
    """The window for ``probe`` put in at position ``at`` of day ``di`` (between the slots now at
    ``at - 1`` and ``at``): as ``fit_window``, starting no earlier than ``earliest``."""
    day = plan.days[di]
    slots = [*day.slots[:at], probe, *day.slots[at:]]
    trial = plan.model_copy(update={"days": [*plan.days[:di], DayPlan.model_construct(date=day.date, slots=slots),
                                             *plan.days[di + 1:]]})
    window = fit_window(trial, di, at, probe, venue, facts, kid)
    return None if window is None or minutes_of(window.start) < earliest else window
