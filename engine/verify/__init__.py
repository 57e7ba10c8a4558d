"""Verifiers: pure functions ``(plan, intent, facts) -> list[Violation]``, one module per family."""

from __future__ import annotations

from engine.facts import TripFacts
from engine.models import IntentV1, PlanV1, Violation

from .budget import verify_budget
from .hours_unknown import verify_hours_unknown
from .must_see import verify_must_see
from .last_train import verify_last_train
from .lodging_windows import verify_lodging_windows
from .preferences import verify_preferences
from .timing import verify_timing
from .venue_hours import verify_venue_hours
from .weather import is_bad_weather, verify_weather

VERIFIERS = (verify_budget, verify_timing, verify_venue_hours, verify_weather, verify_preferences,
             verify_lodging_windows, verify_last_train, verify_hours_unknown,
             verify_must_see)


def verify_plan(plan: PlanV1, intent: IntentV1, facts: TripFacts) -> list[Violation]:
    """Every family's findings, blocking first, in a stable order."""
    found = [v for verifier in VERIFIERS for v in verifier(plan, intent, facts)]
    return sorted(found, key=lambda v: (not v.blocking, v.kind.value, v.node_ref))


def blocking(violations: list[Violation]) -> list[Violation]:
    return [v for v in violations if v.blocking]


__all__ = ["VERIFIERS", "blocking", "is_bad_weather", "verify_budget", "verify_last_train",
           "verify_lodging_windows", "verify_plan", "verify_preferences", "verify_timing",
           "verify_venue_hours", "verify_weather"]
