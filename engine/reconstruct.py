"""Reading a saved itinerary back into a PlanV1 so it can be verified again (``tripwright verify``)."""

from __future__ import annotations

from engine.errors import InputError
from engine.facts import TripFacts
from engine.models import (Assumptions, Choice, ChoiceFeatures, ChoiceKind, DayPlan, ItineraryV1, PlanV1,
                           Provenance, Slot)

ROLES = ("arrival", "checkin", "activity", "meal", "checkout", "departure")


def plan_from_itinerary(itin: ItineraryV1, facts: TripFacts, assumptions: Assumptions) -> PlanV1:
    days = []
    for di, day in enumerate(itin.days):
        slots = []
        for ai, act in enumerate(day.activities):
            if act.kind is ChoiceKind.transit:
                continue
            if act.role not in ROLES or not act.ref:
                raise InputError(f"days.{di}.activities.{ai}.role", "missing role/ref: not a Tripwright itinerary")
            slots.append(Slot(window=act.window, role=act.role, locked=act.locked,
                              choices=[_choice(act, facts)]))
        days.append(DayPlan(date=day.date, slots=slots))
    return PlanV1(days=days, assumptions=assumptions, rng_seed=0, branch="saved")


def _choice(act, facts: TripFacts) -> Choice:
    venue = facts.venue(act.ref)
    indoor = venue.indoor if venue else (True if act.kind is ChoiceKind.lodging else None)
    themes = list(venue.themes) if venue else []
    provenance = act.provenance or Provenance(source="user", tool="itinerary", call_ts=_epoch(),
                                              response_digest="0" * 64, data_source="user")
    return Choice(choice_id=act.id, kind=act.kind, option_ref=act.ref, label=act.name, geo=act.geo,
                  features=ChoiceFeatures(cost_usd_cents=act.cost_usd_cents, indoor=indoor, themes=themes),
                  provenance=provenance)


def _epoch():
    from datetime import datetime, timezone
    return datetime(1970, 1, 1, tzinfo=timezone.utc)
