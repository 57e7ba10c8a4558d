"""Selector (seed §5.3): score = −cost_z − travel_time_z + preference_fit + weather_score
(+ :data:`FAMOUS_WEIGHT` × the share of the city's best-known sights visited, issue 31 §1: a city
that names none scores as before).

The z-score constants are frozen from the fixtures (typical 5-day city trip) so a score never
depends on which other branches happen to be in the run.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.costs import plan_cost
from engine.facts import TripFacts
from engine.models import ChoiceKind, IntentV1, PlanV1, Tier
from engine.schedule import day_legs
from engine.verify.weather import is_bad_weather

from .famous import coverage

COST_MEAN_CENTS = 350_000
COST_STD_CENTS = 150_000
TRAVEL_MEAN_MIN_PER_DAY = 80.0
TRAVEL_STD_MIN_PER_DAY = 40.0
COMFORT = {Tier.budget: 0.0, Tier.mid: 0.5, Tier.luxury: 0.8}
FAMOUS_WEIGHT = 1.0  # all of the city's best-known sights visited: as much as every visit matching a theme


@dataclass(frozen=True)
class Scored:
    plan: PlanV1
    score: float
    cost_cents: int
    travel_minutes: int


def travel_minutes(plan: PlanV1, facts: TripFacts) -> int:
    return sum(leg.duration_seconds for di in range(len(plan.days)) for _, leg in day_legs(plan, di, facts)) // 60


def preference_fit(plan: PlanV1, intent: IntentV1, facts: TripFacts) -> float:
    themes = set(intent.prefs.themes)
    visits = [s.selected for _, _, s in plan.slots() if s.selected.kind is ChoiceKind.attraction]
    matched = sum(1 for c in visits if themes & set(c.features.themes)) / len(visits) if visits else 0.0
    hotel = next((facts.lodgings[s.selected.option_ref] for _, _, s in plan.slots() if s.role == "checkin"), None)
    return matched + (COMFORT[hotel.tier] if hotel else 0.0) + 0.1 * len(visits)


def weather_score(plan: PlanV1, facts: TripFacts) -> float:
    exposed = sum(1 for day in plan.days if is_bad_weather(facts.weather.get(day.date))
                  for s in day.slots if s.selected.features.indoor is False)
    return -float(exposed)


def score_plan(plan: PlanV1, intent: IntentV1, facts: TripFacts, famous: list[str] | None = None) -> Scored:
    cost = plan_cost(plan, facts).total
    travel = travel_minutes(plan, facts)
    cost_z = (cost - COST_MEAN_CENTS) / COST_STD_CENTS
    travel_z = (travel / len(plan.days) - TRAVEL_MEAN_MIN_PER_DAY) / TRAVEL_STD_MIN_PER_DAY
    score = -cost_z - travel_z + preference_fit(plan, intent, facts) + weather_score(plan, facts)
    if famous:
        score += FAMOUS_WEIGHT * coverage(plan, famous)
    return Scored(plan=plan, score=round(score, 4), cost_cents=cost, travel_minutes=travel)


def select(plans: list[PlanV1], intent: IntentV1, facts: TripFacts,
           famous: list[str] | None = None) -> tuple[Scored, list[Scored]]:
    """The best plan and every scored branch (best first); ties broken by branch label.
    ``famous``: the city's best-known sights (``famous.famous_ids``)."""
    scored = sorted((score_plan(p, intent, facts, famous) for p in plans), key=lambda s: (-s.score, s.plan.branch))
    return scored[0], scored
