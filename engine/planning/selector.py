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


TIER_WORDS = {Tier.budget: "budget", Tier.mid: "mid-range", Tier.luxury: "luxury"}


def _stay(plan: PlanV1, facts: TripFacts) -> tuple[str, str, Tier | None]:
    """(the airport, "the mid-range hotel, Hôtel Jeanne d'Arc Le Marais", its tier) of a branch."""
    airport = plan.branch.split("/")[0]
    slot = next((s for _, _, s in plan.slots() if s.role == "checkin"), None)
    lodging = facts.lodgings.get(slot.selected.option_ref) if slot is not None else None
    if lodging is None:
        return airport, slot.selected.label if slot is not None else "no hotel", None
    return airport, f"the {TIER_WORDS[lodging.tier]} hotel, {lodging.name}", lodging.tier


def selection_rationale(chosen: Scored, scored: list[Scored], facts: TripFacts) -> str:
    """Why this plan, in a traveller's words (issue 32 §5): "Chose the mid-range hotel, …, flying
    into CDG: $2,168.43 in all, about 72 min a day getting around. The budget hotel, …, would save
    $258.34 but leave 5 min more of getting around a day." — not "score 3.78 … CDG/budget 3.34".
    The runner-ups (two at most) are compared on what the traveller feels: money, time on the way
    and, when both are better, the comfort or the sights the score also weighs."""
    from engine.models import format_usd
    days = max(len(chosen.plan.days), 1)
    airport, stay, tier = _stay(chosen.plan, facts)
    said = [f"Chose {stay}, flying into {airport}: {format_usd(chosen.cost_cents)} in all, about "
            f"{round(chosen.travel_minutes / days)} min a day getting around."]
    for other in scored[1:3]:
        other_airport, other_stay, other_tier = _stay(other.plan, facts)
        if other_stay == stay:
            what = f"Flying into {other_airport}"
        else:
            what = other_stay[:1].upper() + other_stay[1:] + (f", flying into {other_airport}," if
                                                                other_airport != airport else ",")
        money, minutes = other.cost_cents - chosen.cost_cents, round((other.travel_minutes - chosen.travel_minutes) / days)
        good = " and ".join(([format_usd(-money)] if money < 0 else []) +
                            ([f"{-minutes} min of getting around a day"] if minutes < 0 else []))
        bad = ([f"cost {format_usd(money)} more"] if money > 0 else []) + \
            ([f"leave {minutes} min more of getting around a day"] if minutes > 0 else [])
        if not bad:
            lower = tier is not None and other_tier is not None and COMFORT[other_tier] < COMFORT[tier]
            bad = ["be a simpler stay" if lower else "fit your themes and the city's best-known sights less"]
        said.append(f"{what} would save {good} but {' and '.join(bad)}." if good
                    else f"{what} would {' and '.join(bad)}.")
    return " ".join(said)
