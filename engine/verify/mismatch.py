"""The finding of ``tripwright verify`` when a saved itinerary states what its sources do not say
again: a blocking ``fact_mismatch`` (city re-derivation: engine/planning/integrity.py; road:
engine/roadtrip/integrity.py)."""

from __future__ import annotations

from engine.models import Violation, ViolationKind


def mismatch(node: str, message: str, **details) -> Violation:
    return Violation(kind=ViolationKind.fact_mismatch, node_ref=node, blocking=True,
                     details={"message": message, **details})
