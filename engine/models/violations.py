"""Violations found by the verifiers (seed §3.5 + SPEC_DECISIONS §2.1 slippage advisory)."""

from __future__ import annotations

from enum import Enum
from typing import Any

from pydantic import Field

from .common import Value


class ViolationKind(str, Enum):
    budget_exceeded = "budget_exceeded"
    slippage_risk = "slippage_risk"
    timing_infeasible = "timing_infeasible"
    venue_closed = "venue_closed"
    weather_unsuitable = "weather_unsuitable"
    pref_violated = "pref_violated"
    # road trips (seed 000): details carry the invariant id, e.g. "INV-DIR-04"
    direction_violated = "direction_violated"
    pacing_violated = "pacing_violated"
    corridor_violated = "corridor_violated"
    geocode_rejected = "geocode_rejected"
    location_ambiguous = "location_ambiguous"
    # tripwright verify: a saved fact (ref, price, total, flight, anchor) that the catalog does not back
    fact_mismatch = "fact_mismatch"
    # a planned place whose opening hours nobody published (OSM packs): an advisory, never blocking
    venue_hours_unknown = "venue_hours_unknown"
    # a place the traveller saved that the plan could not fit (details: reason, why in words)
    must_see_unplanned = "must_see_unplanned"


class Violation(Value):
    kind: ViolationKind
    node_ref: str  # the slot's choice_id, or "day:N" / "trip"
    details: dict[str, Any] = Field(default_factory=dict)
    blocking: bool

    @property
    def reason(self) -> str:
        return str(self.details.get("reason", self.kind.value))

    def describe(self) -> str:
        tag = "blocking" if self.blocking else "advisory"
        return f"[{tag}] {self.kind.value} at {self.node_ref}: {self.details.get('message', self.reason)}"
