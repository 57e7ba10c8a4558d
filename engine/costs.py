"""Cost of a plan from its selected choices only (seed §6.1: ``choices[0]`` per slot)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.facts import TripFacts
from engine.models import ChoiceKind, PlanV1
from engine.schedule import day_legs


@dataclass(frozen=True)
class PlanCost:
    flights: int
    lodging: int
    attractions: int
    transit: int
    daily_spend: int

    @property
    def total(self) -> int:
        return self.flights + self.lodging + self.attractions + self.transit + self.daily_spend


def plan_cost(plan: PlanV1, facts: TripFacts) -> PlanCost:
    by_kind = dict.fromkeys(ChoiceKind, 0)
    for day in plan.days:
        for slot in day.slots:
            choice = slot.choices[0]  # the selected option (seed §6.1)
            by_kind[choice.kind] += choice.features.cost_usd_cents
    transit = sum(leg.cost_usd_cents for di in range(len(plan.days)) for _, leg in day_legs(plan, di, facts))
    return PlanCost(flights=by_kind[ChoiceKind.flight], lodging=by_kind[ChoiceKind.lodging],
                    attractions=by_kind[ChoiceKind.attraction] + by_kind[ChoiceKind.meal],
                    transit=transit + by_kind[ChoiceKind.transit],
                    daily_spend=plan.assumptions.daily_spend_est_cents * len(plan.days))
