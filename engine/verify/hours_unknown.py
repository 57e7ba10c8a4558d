"""Unknown opening hours (OSM city packs): a planned visit or meal at a place nobody published
hours for is allowed — only when the planner needed it — but never silently: each one is an
advisory ``venue_hours_unknown`` naming the place, and the itinerary shows it at low confidence."""

from __future__ import annotations

from engine.facts import TripFacts
from engine.models import IntentV1, PlanV1, Violation, ViolationKind
from engine.schedule import plan_schedule


def verify_hours_unknown(plan: PlanV1, intent: IntentV1, facts: TripFacts) -> list[Violation]:
    out = []
    for day in plan_schedule(plan, facts):
        for slot, choice, venue in zip(day.slots, day.choices, day.venues):
            if venue is None or venue.hours_known:
                continue
            out.append(Violation(kind=ViolationKind.venue_hours_unknown, node_ref=choice.choice_id, blocking=False,
                                 details={"reason": "hours_unknown", "date": day.date.isoformat(),
                                          "venue": venue.name, "source_url": venue.provenance.source_url,
                                          "message": f"{venue.name}: no published opening hours; "
                                                     f"check before going on {day.date:%a %Y-%m-%d}"}))
    return out
