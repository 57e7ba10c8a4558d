"""Planner fan-out (seed §5.2): ≤ 4 branches = ≤ 2 airports × 2 hotel tiers."""

from __future__ import annotations

from engine.errors import InfeasiblePlan
from engine.models import TIER_ORDER, FlightOption, Lodging, Tier
from engine.verify.timing import DEPLANE_MINUTES

from .builder import CHECKIN_MINUTES, CHECKOUT_MINUTES, EARLIEST_CHECKOUT, Branch, local_minutes
from .inputs import PlannerInputs

MAX_BRANCHES = 4
LODGING_SHARE = 0.40  # a budget spends ~40% on beds: picks the tier the traveller can afford
LATE_ARRIVAL_PENALTY = 15000  # cents-equivalent: losing the arrival evening
EARLY_DEPARTURE_PENALTY = 8000
LAST_CHECKIN = 23 * 60 + 59 - CHECKIN_MINUTES
AIRPORT_BUFFER = 120


def target_tiers(inputs: PlannerInputs) -> list[Tier]:
    nights = max(1, inputs.intent.days - 1)
    allowance = inputs.intent.budget_usd_cents * LODGING_SHARE / nights
    affordable = [t for t in TIER_ORDER if _median_price(inputs.lodgings, t) <= allowance]
    target = affordable[-1] if affordable else Tier.budget
    i = TIER_ORDER.index(target)
    neighbour = TIER_ORDER[i - 1] if i > 0 else TIER_ORDER[i + 1]
    return [target, neighbour]


def _tiers_with_hotels(inputs: PlannerInputs) -> list[Tier]:
    """The target tiers that have a hotel; else the tiers there are (a booked hotel, a city
    whose mapped beds are all of one tier)."""
    have = {h.tier for h in inputs.lodgings}
    wanted = [t for t in target_tiers(inputs) if t in have]
    return wanted or [t for t in TIER_ORDER if t in have][:2]


def _median_price(lodgings: list[Lodging], tier: Tier) -> float:
    prices = sorted(h.price_per_night_usd_cents for h in lodgings if h.tier is tier)
    return prices[len(prices) // 2] if prices else float("inf")


def flight_rank(f: FlightOption, tz: str) -> int:
    """Price plus what a bad hour costs the traveller (late arrival, dawn departure)."""
    penalty = 0
    if f.direction == "outbound" and local_minutes(f.arrival, tz)[1] > 20 * 60:
        penalty += LATE_ARRIVAL_PENALTY
    if f.direction == "return" and local_minutes(f.departure, tz)[1] < 10 * 60:
        penalty += EARLY_DEPARTURE_PENALTY
    return f.price_usd_cents + penalty


def fits_hotel(f: FlightOption, hotel: Lodging, inputs: PlannerInputs) -> bool:
    """Can the traveller check in after landing (same day) / check out and still make the flight?"""
    tz = inputs.city.tz
    if f.direction == "outbound":
        transfer = inputs.facts.airport_leg(f.dest, hotel.geo, inputs.intent.date_window.start)
        return local_minutes(f.arrival, tz)[1] + DEPLANE_MINUTES + transfer.duration_seconds // 60 <= LAST_CHECKIN
    transfer = inputs.facts.airport_leg(f.origin, hotel.geo, inputs.intent.date_window.end)
    earliest_out = EARLIEST_CHECKOUT + CHECKOUT_MINUTES
    return local_minutes(f.departure, tz)[1] >= earliest_out + transfer.duration_seconds // 60 + AIRPORT_BUFFER


def best_flight(inputs: PlannerInputs, airport: str, direction: str, hotel: Lodging) -> FlightOption | None:
    options = [f for f in inputs.flights if f.direction == direction
               and (f.dest if direction == "outbound" else f.origin) == airport
               and (f.booking is not None or fits_hotel(f, hotel, inputs))]  # a booked flight is a fact
    return min(options, key=lambda f: (flight_rank(f, inputs.city.tz), f.flight_id), default=None)


def enumerate_branches(inputs: PlannerInputs) -> list[Branch]:
    airports = sorted({f.dest for f in inputs.flights if f.direction == "outbound"})
    branches = []
    for airport in airports:
        for tier in _tiers_with_hotels(inputs):
            hotel = next((h for h in inputs.lodgings if h.tier is tier), None)
            if hotel is None:
                continue
            out, back = best_flight(inputs, airport, "outbound", hotel), best_flight(inputs, airport, "return", hotel)
            if out is not None and back is not None:
                branches.append(Branch(airport=airport, outbound=out, back=back, hotel=hotel))
    if not branches:
        raise InfeasiblePlan(f"Flight data unavailable: no outbound and return flights between "
                             f"{inputs.intent.origin_airport} and {inputs.city.name} on these dates")
    return branches[:MAX_BRANCHES]
