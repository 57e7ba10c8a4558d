"""Budget (SPEC_DECISIONS §2.1): blocking over budget; advisory when headroom < 10%."""

from __future__ import annotations

from engine.costs import plan_cost
from engine.facts import TripFacts
from engine.models import IntentV1, PlanV1, Violation, ViolationKind, format_usd

SLIPPAGE_FRACTION = 0.10


def verify_budget(plan: PlanV1, intent: IntentV1, facts: TripFacts) -> list[Violation]:
    total = plan_cost(plan, facts).total
    budget = intent.budget_usd_cents
    if total > budget:
        return [Violation(kind=ViolationKind.budget_exceeded, node_ref="trip", blocking=True, details={
            "total_usd_cents": total, "budget_usd_cents": budget, "over_usd_cents": total - budget,
            "message": f"total {format_usd(total)} exceeds budget {format_usd(budget)}"})]
    headroom = budget - total
    if headroom < budget * SLIPPAGE_FRACTION:
        return [Violation(kind=ViolationKind.slippage_risk, node_ref="trip", blocking=False, details={
            "total_usd_cents": total, "headroom_usd_cents": headroom,
            "message": f"only {format_usd(headroom)} headroom (<10% of budget): prices may slip"})]
    return []
