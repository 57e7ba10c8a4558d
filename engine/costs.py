"""What things cost, and the cost of a plan from its selected choices only (seed §6.1).

The one pricing path (SPEC_DECISIONS §2.9): the planner, repair, edits and verify price every
choice through the functions here. Per-person prices (flights, admissions, meals, transit) scale
with the party's ``travellers``; lodging scales with ``rooms`` (one per two travellers unless the
intent says otherwise). Planned meals are priced at their restaurant; a smaller daily allowance per
traveller covers the rest (breakfast, coffee, small things).

the one pricing path (SPEC_DECISIONS §2.9) the planner, repair, edits and verify share:
`flight_cost`/`venue_cost` per person × `travellers`, `lodging_cost` per night × rooms (`rooms_for`: the
intent's `rooms`, else one per two travellers), the daily allowance (35% of the fixture's daily spend, per
traveller, beside the priced meals), `plan_assumptions`; and the cost of the selected choices only (seed
§6.1)
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.facts import TripFacts
from engine.models import Assumptions, Attraction, ChoiceKind, FlightOption, Lodging, PlanV1
from engine.schedule import day_legs

ALLOWANCE_SHARE = 0.35  # of the fixture's "meals and incidentals" daily spend, now meals are priced
PEOPLE_PER_ROOM = 2


def rooms_for(travellers: int, rooms: int | None = None) -> int:
    """The intent's rooms, else one room per two travellers."""
    return rooms if rooms is not None else -(-travellers // PEOPLE_PER_ROOM)


def daily_allowance_cents(daily_spend_cents: int) -> int:
    """Per traveller per day, beside the planned meals."""
    return int(daily_spend_cents * ALLOWANCE_SHARE + 0.5)


def plan_assumptions(facts: TripFacts, intent) -> Assumptions:
    """The pricing assumptions a city plan for ``intent`` is built and verified with."""
    return Assumptions(local_currency=facts.currency, fx_rate_to_usd=facts.fx_rate_to_usd, fx_as_of=facts.fx_as_of,
                       daily_spend_est_cents=daily_allowance_cents(facts.daily_spend_cents),
                       travellers=intent.travellers, rooms=rooms_for(intent.travellers, intent.rooms))


def flight_cost(flight: FlightOption, travellers: int) -> int:
    """A booked fare is what the booking says, for everyone on it; a paid one costs nothing more."""
    if flight.booking in ("paid", "unpriced"):
        return 0
    return flight.price_usd_cents * (1 if flight.booking == "priced" else travellers)


def lodging_cost(hotel: Lodging, nights: int, rooms: int) -> int:
    """A booked stay is priced as booked (the whole stay); paid or unpriced costs nothing more."""
    if hotel.booking in ("paid", "unpriced"):
        return 0
    return hotel.price_per_night_usd_cents * nights * (1 if hotel.booking == "priced" else rooms)


def venue_cost(venue: Attraction, travellers: int) -> int:
    """Admission, or the meal at a restaurant, for the whole party."""
    return venue.est_price_usd_cents * travellers


@dataclass(frozen=True)
class PlanCost:
    flights: int
    lodging: int
    attractions: int
    transit: int
    daily_spend: int
    meals: int = 0

    @property
    def total(self) -> int:
        return self.flights + self.lodging + self.attractions + self.transit + self.daily_spend + self.meals


def plan_cost(plan: PlanV1, facts: TripFacts) -> PlanCost:
    by_kind = dict.fromkeys(ChoiceKind, 0)
    for day in plan.days:
        for slot in day.slots:
            choice = slot.choices[0]  # the selected option (seed §6.1)
            by_kind[choice.kind] += choice.features.cost_usd_cents
    people = plan.assumptions.travellers
    legs = sum(leg.cost_usd_cents for di in range(len(plan.days)) for _, leg in day_legs(plan, di, facts))
    return PlanCost(flights=by_kind[ChoiceKind.flight], lodging=by_kind[ChoiceKind.lodging],
                    attractions=by_kind[ChoiceKind.attraction], meals=by_kind[ChoiceKind.meal],
                    transit=legs * people + by_kind[ChoiceKind.transit],
                    daily_spend=plan.assumptions.daily_spend_est_cents * len(plan.days) * people)
