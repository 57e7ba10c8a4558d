"""Legs between the stays of a multi-city trip (issue 33 §2): what joins one city to the next.

``plan_leg(query)`` answers one :class:`engine.models.PlannedLeg`: a booked ticket as a fact, else the
mode a traveller would take (or the one asked for) with its times, price and the reason, estimated from
distance here (``estimate.py``) and labelled ``source="estimated"`` until a router answers.
"""

from .estimate import LegQuery, plan_leg

__all__ = ["LegQuery", "plan_leg"]
