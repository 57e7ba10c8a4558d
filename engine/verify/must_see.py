"""The traveller's saved places (issue 21 §2): one the plan could not fit is never silently
dropped — an advisory ``must_see_unplanned`` names it with the reason: closed on every day of
the trip, too far from the rest of the trip, or no room left on the days it is open."""

from __future__ import annotations

from engine.facts import TripFacts
from engine.geo import haversine_m
from engine.models import IntentV1, PlanV1, Violation, ViolationKind

TOO_FAR_M = 40_000  # beyond a day trip's reach from every other place the plan visits


def verify_must_see(plan: PlanV1, intent: IntentV1, facts: TripFacts) -> list[Violation]:
    if not intent.prefs.must_see:
        return []
    planned = {s.selected.option_ref for d in plan.days for s in d.slots}
    places = [s.selected.geo for d in plan.days for s in d.slots if s.selected.geo is not None]
    out = []
    for place in intent.prefs.must_see:
        if place.place_id in planned:
            continue
        reason, why = _why(place, facts, [d.date for d in plan.days], places)
        out.append(Violation(kind=ViolationKind.must_see_unplanned, node_ref="trip", blocking=False, details={
            "reason": reason, "place": place.name, "message": f"{place.name}: not planned — {why}"}))
    return out


def _why(place, facts: TripFacts, dates, places) -> tuple[str, str]:
    venue = facts.venue(place.place_id)
    if venue is not None and not any(venue.windows_on(d) for d in dates):
        return "closed_every_day", "closed on every day of the trip"
    nearest = min((haversine_m(place.geo, g) for g in places), default=0.0)
    if nearest > TOO_FAR_M:
        return "too_far", f"{nearest / 1000:.0f} km from every other place of the trip"
    return "did_not_fit", "no room on the days it is open, after the trip's fixed times and other must-sees"
