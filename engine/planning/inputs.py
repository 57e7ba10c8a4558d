"""Gathers what the planner needs from the tools, through the executor, and builds TripFacts."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import date, timedelta

import structlog

from engine.catalog.catalog import City
from engine.errors import InfeasiblePlan, InputError, ToolError
from engine.facts import TripFacts
from engine.models import Attraction, FlightOption, Geo, IntentV1, Lodging, TIER_ORDER, WeatherDay
from engine.tools.requests import (AirportTransferRequest, AttractionsRequest, DiningRequest, FlightRequest,
                                   LodgingRequest, TransitRequest, VenueRequest)
from engine.tools.computed import Computation
from engine.tools.transit import omitted_leg
from engine.tools.toolbox import Toolbox
from engine.tools.provenance import usd_cents

from .booked import booked_flights, booked_lodging
from .booked_events import booked_event_venues
from .must_see import must_see_venues, with_must_see_first

MAX_AIRPORTS = 2
log = structlog.get_logger("tripwright.planning")


@dataclass(frozen=True)
class PlannerInputs:
    intent: IntentV1
    city: City
    flights: list[FlightOption]
    lodgings: list[Lodging]
    attractions: list[Attraction]
    restaurants: list[Attraction]
    weather: dict[date, WeatherDay]
    facts: TripFacts
    cache_hits: int
    calls: int
    degraded: list[str] = field(default_factory=list)  # tools that fell below their real rung
    must_see: list[str] = field(default_factory=list)  # the traveller's saved places, as attraction ids


def trip_dates(intent: IntentV1) -> list[date]:
    return [intent.date_window.start + timedelta(days=i) for i in range(intent.days)]


def validate_against_catalog(intent: IntentV1, toolbox: Toolbox) -> City:
    city = toolbox.catalog.city(intent.city)
    unknown = [a for a in intent.airports if a not in city.airports]
    if unknown:
        raise InputError("airports", f"{', '.join(unknown)} not serving {city.name}; "
                                     f"use {', '.join(city.airports)}")
    if toolbox.catalog.known_airport(intent.origin_airport) is None:
        raise InputError("origin_airport", f"unknown airport {intent.origin_airport}")
    if intent.date_window.tz != city.tz:
        raise InputError("date_window.tz", f"{city.name} is in {city.tz}, not {intent.date_window.tz}")
    return city


async def gather(intent: IntentV1, toolbox: Toolbox) -> PlannerInputs:
    """Every tool call through the executor; independent calls run concurrently. Flights and
    lodging have no fallback (seed §12): their failure ends the plan ("Flight data unavailable").
    Attractions and dining do (§12.1, "omit day's activities"): an outage leaves their list empty
    and names the tool in ``degraded`` (the synthesizer marks each day's omitted activities)."""
    city = validate_against_catalog(intent, toolbox)
    ex = toolbox.executor
    counts = {"calls": 0, "hits": 0}

    async def call(tool: str, fn, request):
        result, hit = await ex.call(tool, fn, request)
        counts["calls"] += 1
        counts["hits"] += hit
        return result

    dates = trip_dates(intent)
    omitted: list[str] = []  # tools whose outage the ladder absorbs (seed §12.1: omit the day's activities)

    async def omittable(tool: str, fn, request):
        try:
            return await call(tool, fn, request)
        except ToolError as exc:
            log.warning("tool_omitted", tool=tool, reason=exc.kind)
            omitted.append(tool)
            return []

    try:
        async with asyncio.TaskGroup() as tg:
            flights_t = tg.create_task(_flights(call, toolbox, intent))
            lodging_t = tg.create_task(_lodging(call, toolbox, intent, city))
            attractions_t = tg.create_task(omittable("attractions", toolbox.attractions.search, AttractionsRequest(
                city=city.name, themes=intent.prefs.themes, kid_friendly=intent.prefs.kid_friendly,
                count=AttractionsRequest.count_for(intent.days))))
            restaurants_t = tg.create_task(omittable("dining", toolbox.dining.search,
                                                     DiningRequest(city=city.name, kid_friendly=intent.prefs.kid_friendly)))
            weather_t = tg.create_task(toolbox.weather.for_place(city.center, dates))
    except BaseExceptionGroup as group:  # the first failure, as itself (no group on the CLI)
        raise _first(group) from None
    flights, lodgings, weather = flights_t.result(), lodging_t.result(), weather_t.result()
    flights, lodgings = _with_bookings(intent, toolbox, city, flights, lodgings)
    attractions = attractions_t.result()
    if "attractions" not in omitted:  # no venue can be looked up while the tool is down
        attractions += await _locked_venues(call, intent, toolbox, city, attractions)
    must, must_eat = (await must_see_venues(call, intent, toolbox, city, attractions)
                      if intent.prefs.must_see and "attractions" not in omitted else ([], []))
    attractions = with_must_see_first(must, attractions)
    restaurants = with_must_see_first(must_eat, restaurants_t.result())
    counts["calls"] += weather.calls
    counts["hits"] += weather.hits
    events = booked_event_venues(intent, city, intent.travellers)  # places of their own, never candidates
    facts = build_facts(intent, city, toolbox, flights, lodgings, attractions + restaurants + events, weather.days)
    return PlannerInputs(intent=intent, city=city, flights=flights, lodgings=lodgings,
                         attractions=attractions, restaurants=restaurants, weather=weather.days, facts=facts,
                         cache_hits=counts["hits"], calls=counts["calls"],
                         degraded=(["weather"] if weather.degraded else []) + sorted(omitted)
                         + (["fx"] if city.currency in toolbox.fx_omitted else []),
                         must_see=[m.id for m in [*must, *must_eat]])


def _with_bookings(intent: IntentV1, toolbox: Toolbox, city: City, flights, lodgings):
    """The traveller's booked flights and hotel replace the tools' options for what they cover."""
    if intent.bookings is None or intent.bookings.empty:
        return flights, lodgings
    booked = booked_flights(intent, city, lambda code: toolbox.catalog.airport(code).tz)
    covered = {f.direction for f in booked}
    flights = [f for f in flights if f.direction not in covered] + booked
    hotel = booked_lodging(intent, city)
    return flights, ([hotel] if hotel is not None else lodgings)


def _first(group: BaseExceptionGroup) -> BaseException:
    first = group.exceptions[0]
    return _first(first) if isinstance(first, BaseExceptionGroup) else first


async def _flights(call, toolbox: Toolbox, intent: IntentV1) -> list[FlightOption]:
    requests = [FlightRequest(origin=intent.origin_airport, dest=airport, date_window=intent.date_window,
                              avoid_overnight=intent.prefs.avoid_overnight) for airport in intent.airports]
    try:
        answers = await asyncio.gather(*(call("flights", toolbox.flights.search, r) for r in requests))
    except ToolError as exc:
        raise InfeasiblePlan(f"Flight data unavailable: {exc.reason}") from exc
    return _top_airports([f for answer in answers for f in answer])


async def _lodging(call, toolbox: Toolbox, intent: IntentV1, city: City) -> list[Lodging]:
    try:
        lodgings = await call("lodging", toolbox.lodging.search, LodgingRequest(
            city=city.name, checkin=intent.date_window.start, checkout=intent.date_window.end,
            tier_prefs=list(reversed(TIER_ORDER)), kid_friendly=intent.prefs.kid_friendly))
        return lodgings + await _more_lodging(call, toolbox, intent, city, lodgings)
    except ToolError as exc:
        raise InfeasiblePlan(f"Lodging data unavailable: {exc.reason}") from exc


def _top_airports(flights: list[FlightOption]) -> list[FlightOption]:
    """Seed §5.2: with more than two airports, keep the two with the cheapest round trip."""
    cheapest: dict[str, int] = {}
    for f in flights:
        code = f.dest if f.direction == "outbound" else f.origin
        cheapest[code] = min(cheapest.get(code, 10**12), f.price_usd_cents)
    keep = sorted(cheapest, key=lambda c: (cheapest[c], c))[:MAX_AIRPORTS]
    return [f for f in flights if (f.dest if f.direction == "outbound" else f.origin) in keep]


async def _more_lodging(call, toolbox: Toolbox, intent: IntentV1, city: City, have: list[Lodging]):
    """The tool caps one answer at 4 hotels; ask per tier so repair can always step down."""
    seen = {h.lodging_id for h in have}
    extra = []
    for tier in TIER_ORDER:
        req = LodgingRequest(city=city.name, checkin=intent.date_window.start,
                             checkout=intent.date_window.end, tier_prefs=[tier],
                             kid_friendly=intent.prefs.kid_friendly)
        for h in await call("lodging", toolbox.lodging.search, req):
            if h.lodging_id not in seen:
                seen.add(h.lodging_id)
                extra.append(h)
    return extra


async def _locked_venues(call, intent: IntentV1, toolbox: Toolbox, city: City,
                         have: list[Attraction]) -> list[Attraction]:
    ids = {a.id for a in have}
    out = []
    for i, lock in enumerate(intent.prefs.locked_slots):
        if lock.activity_id in ids:
            continue
        venue = await call("attractions", toolbox.attractions.by_id,
                           VenueRequest(city=city.name, venue_id=lock.activity_id))
        if venue is None:
            raise InputError(f"prefs.locked_slots[{i}].activity_id",
                             f"{lock.activity_id!r} is not a known venue in {city.name}")
        ids.add(venue.id)
        out.append(venue)
    return out


def build_facts(intent: IntentV1, city: City, toolbox: Toolbox, flights, lodgings, venues, weather) -> TripFacts:
    transit = toolbox.transit
    computed = Computation(toolbox.executor, "transit")  # the executor's cache and accounting, a leg's cost
    legs: dict[tuple, object] = {}  # verifiers ask for the same legs many times: skip request building
    omitted: set[str] = set()

    def through(fn, request, a: Geo, b: Geo):
        """Through the executor like every tool (as a computation: no per-call sha256, metrics
        window or log line); once transit fails, the rest of this trip's legs take the ladder's
        last rung at once (seed §12.1: times kept, notes omitted)."""
        if "transit" not in omitted:
            try:
                return computed(fn, request)
            except ToolError:
                omitted.add("transit")
        return omitted_leg(a, b)

    def leg(a: Geo, b: Geo, day: date):
        key = (a.lat, a.lon, b.lat, b.lon, day.weekday())
        found = legs.get(key)
        if found is None:
            found = legs[key] = through(transit.leg, TransitRequest(city=city.name, from_geo=a, to_geo=b, day=day),
                                        a, b)
        return found

    def airport_leg(code: str, place: Geo, day: date):
        key = (code, place.lat, place.lon, day.weekday())
        found = legs.get(key)
        if found is None:
            request = AirportTransferRequest(city=city.name, airport=code, hotel=place, day=day)
            found = legs[key] = through(transit.airport_leg_of, request, toolbox.catalog.airport(code).geo, place)
        return found

    rate = toolbox.rates_to_usd.get(city.currency, 1.0)
    local = getattr(city.raw, "local_currency", None) or city.currency  # a pack keeps USD prices
    local_rate = toolbox.rates_to_usd.get(local)
    if local_rate is None:
        local, local_rate = "USD", 1.0
    return TripFacts(
        city=city.name, tz=city.tz, currency=city.currency,
        flights={f.flight_id: f for f in flights}, lodgings={h.lodging_id: h for h in lodgings},
        venues={v.id: v for v in venues}, weather=weather, leg=leg, airport_leg=airport_leg,
        last_metro_minutes=city.last_metro_minutes,
        daily_spend_cents=usd_cents(city.raw.daily_spend, rate), fx_rate_to_usd=rate,
        fx_as_of=toolbox.fx_as_of, airport_zones=_airport_zones(toolbox, flights),
        city_estimated=city.raw.transit.estimated, omitted_tools=omitted, local_currency=local,
        local_rate_to_usd=local_rate)


def _airport_zones(toolbox: Toolbox, flights: list[FlightOption]) -> dict[str, str]:
    codes = {f.origin for f in flights} | {f.dest for f in flights}
    found = {code: toolbox.catalog.known_airport(code) for code in sorted(codes)}
    return {code: airport.tz for code, airport in found.items() if airport is not None}
