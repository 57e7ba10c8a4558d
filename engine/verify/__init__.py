"""Verifiers: pure functions ``(plan, intent, facts) -> list[Violation]``, one module per family.

pure verifiers, one module per family: budget, timing, venue hours, weather, preferences (kids, red-eyes,
locked slots), lodging windows, last train, unknown hours (`hours_unknown.py`: an advisory
`venue_hours_unknown` per planned place with no published hours) — each iterating the shared
`plan_schedule`; `labels.py` caches window texts for messages. A saved itinerary (`tripwright verify`):
`engine/verify_saved.py` rebuilds the toolbox as-of the file's `planning_date` (older files: `created_at`,
with a note) and `engine/planning/integrity.py` re-derives the plan from the catalog — every `ref` looked
up, prices from the planner's own choice constructors, outbound/return flights and their clock times, the
cost breakdown through `plan_cost` — reporting blocking `fact_mismatch` violations (`mismatch.py`); the
rebuilt plan (catalog facts, the file's times) then goes through the families above. Verifiers import no
planner: the planner imports them (timing, weather)

Plan conventions (what verifiers and repair rely on):

- Day 1 is `date_window.start`, the day the outbound flight lands; the last day is `date_window.end`, the
  day the return flight leaves. Nights = days − 1.

- Day 1 holds the `arrival` flight slot (its window in city-local time, starting 00:00 for a flight that
  left the day before) and the hotel `checkin` slot; the whole stay's lodging cost sits on the check-in
  choice. Arriving after 20:00 → day 1 holds nothing else. A landing too late to reach the hotel by midnight
  (e.g. 22:40 at CDG) gives a **late check-in**: day 1 ends with the arrival and the ride (day 1's
  `overnight` leg, costed and shown), day 2 opens with the `checkin` (by 03:00, desk open to midnight; the
  night before is booked and held), and the timing verifier checks the gap across midnight
  (`engine/schedule.late_checkin`). The last day holds `checkout` (done by the window's close; an express
  checkout before the desk opens is allowed) and the `departure` flight; leaving before 10:00 → nothing else
  that day.

- Required gap between consecutive slots = transfer time + buffer: 120 min before a departure flight, 30 min
  after landing (deplaning; the transfer is added), 20 min after a museum, else 15.

- A flight is **overnight** (red-eye) when it is airborne at 03:00 local time at either end.

- Meals are `meal` slots at fixture restaurants, priced at the restaurant's per-person price × travellers on
  the choice (`cost_breakdown.meals_usd_cents`); a daily allowance per traveller covers the rest. Their
  opening hours are verified like any venue. Intents carry `travellers` (default 1) and optional `rooms`
  (default one per two travellers): flights, admissions, meals, transit and the allowance scale with the
  party, lodging with rooms; road trips: meals per person, motels per room, fuel per car.

- Activities keep `window` (`HH:MM`, clipped to the day) and carry `start`/`end` (ISO 8601 with the offset
  of where each happens) and `start_tz`/`end_tz`: a flight departs on its origin's clock and lands on its
  destination's; the app, the PDF and the ICS show the true span.

- Money is integer USD cents; fixture prices are local and converted once with the FX rate as-of T-1 of the
  planning day (`--today`), which the itinerary records as `planning_date`.
"""

from __future__ import annotations

from engine.facts import TripFacts
from engine.models import IntentV1, PlanV1, Violation

from .budget import verify_budget
from .chain import CHAIN_VERIFIERS, verify_chain  # a multi-city trip's chain, over its stitched itinerary
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


__all__ = ["CHAIN_VERIFIERS", "VERIFIERS", "blocking", "verify_chain", "is_bad_weather", "verify_budget", "verify_last_train",
           "verify_lodging_windows", "verify_plan", "verify_preferences", "verify_timing",
           "verify_venue_hours", "verify_weather"]
