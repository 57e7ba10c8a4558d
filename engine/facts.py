"""TripFacts: the tool results a plan is checked against (what verifiers and repair read).

`TripFacts`: every tool answer a plan is checked against, plus memoised leg functions (`city_estimated`: a
pack city, whose fares and daily spend are estimates)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Callable, Mapping

from engine.models import Attraction, FlightOption, Geo, Lodging, TransitLeg, WeatherDay

LegFn = Callable[[Geo, Geo, date], TransitLeg]
AirportLegFn = Callable[[str, Geo, date], TransitLeg]


@dataclass(frozen=True)
class TripFacts:
    city: str
    tz: str
    currency: str
    flights: Mapping[str, FlightOption]
    lodgings: Mapping[str, Lodging]
    venues: Mapping[str, Attraction]  # attractions and restaurants
    weather: Mapping[date, WeatherDay]
    leg: LegFn
    airport_leg: AirportLegFn
    last_metro_minutes: Callable[[date], int]
    daily_spend_cents: int
    fx_rate_to_usd: float = 1.0
    fx_as_of: date | None = None
    # The currency prices are paid in on the spot and its rate to USD, for the traveller's notes
    # ("€12 (≈ $13)"): the city's own currency, also for a city pack whose prices are kept in USD.
    local_currency: str = "USD"
    local_rate_to_usd: float = 1.0
    alternatives: Mapping[str, list[str]] = field(default_factory=dict)  # theme pools for repair
    airport_zones: Mapping[str, str] = field(default_factory=dict)  # IATA -> IANA zone (flight clocks)
    city_estimated: bool = False  # fares and daily spend estimated by price level (an OSM city pack)
    # Per-plan schedules (engine.schedule.plan_schedule), keyed by id(plan) with the plan kept alive
    # in the value so an id can never be reused while its entry exists. Not an init field: a copy
    # made with dataclasses.replace (other legs, venues, weather) starts with its own, empty.
    schedule_memo: dict = field(default_factory=dict, init=False, compare=False, repr=False)
    day_legs_memo: dict = field(default_factory=dict, init=False, compare=False, repr=False)  # by day route
    # Tools that failed while these facts were being read, lazily (transit legs are asked as the
    # planner needs them): the itinerary's ``degraded_tools`` include them. Shared by copies.
    omitted_tools: set[str] = field(default_factory=set, compare=False, repr=False)

    def venue(self, ref: str) -> Attraction | None:
        return self.venues.get(ref)
