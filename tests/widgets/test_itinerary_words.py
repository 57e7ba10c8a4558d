"""Issue 32 §5: an advisory names its place or its day in words, never the engine's node id or
its kind's code name."""

from __future__ import annotations

from engine.models import Violation, ViolationKind
from widgets.itinerary_details import violation_text


def _violation(kind: ViolationKind, node: str, message: str, blocking: bool = False) -> Violation:
    return Violation(kind=kind, node_ref=node, blocking=blocking, details={"message": message})


def test_an_advisory_names_its_place_or_day_not_its_id():
    user = "d1-activity-user_4235d2b86fc1"
    named = violation_text(_violation(ViolationKind.venue_hours_unknown, user, "no published opening hours"),
                           {user: "Shakespeare and Company"})
    assert named == "Advisory \u00b7 hours unknown (Shakespeare and Company): no published opening hours"
    unnamed = violation_text(_violation(ViolationKind.venue_closed, user, "closed on Wednesday"), {})
    assert unnamed == "Advisory \u00b7 closed (day 2): closed on Wednesday"  # no name known: its day
    road = violation_text(_violation(ViolationKind.pacing_violated, "day:1", "day 2 has 1 activities (at least 2)",
                                     blocking=True), {})
    assert road == "Blocking \u00b7 pace: day 2 has 1 activities (at least 2)"  # the day is in the message: once
    for text in (named, unnamed, road):
        assert "user_" not in text and "_" not in text and "day:" not in text
