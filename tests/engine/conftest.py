"""Shared helpers for the engine tests: real fixture catalog, real tools, hand-built plans.

Nothing here mocks the engine: intents are validated IntentV1 values, planner inputs and
TripFacts come from ``engine.planning.inputs.gather`` over a real fixture toolbox, and the
hand-built plans use the planner's own choice constructors so verifiers see what they would
see in a real run.
"""

from __future__ import annotations

import asyncio
import copy
from datetime import date, time, timedelta
from typing import Any

import pytest

from engine.catalog import Catalog, default_catalog
from engine.facts import TripFacts
from engine.models import (Assumptions, Attraction, Choice, ChoiceFeatures, ChoiceKind, DayPlan,
                           FlightOption, IntentV1, Lodging, PlanV1, Provenance, Slot, TimeWindow)
from engine.planning.builder import flight_choice, lodging_choice, venue_choice
from engine.planning.inputs import PlannerInputs, gather
from engine.tools import ToolOverrides, build_toolbox
from engine.tools.executor import ToolExecutor

from .standin_server import StandIn

TODAY = date(2026, 11, 23)


# -- the stand-in HTTP server ---------------------------------------------------------------------
@pytest.fixture()
def server(request, monkeypatch):
    """A real HTTP server on 127.0.0.1 (``standin_server.StandIn``). Subprocess tests pass its URL in
    the child's environment. A module marked ``pytest.mark.standin_urls("TRIPWRIGHT_OPEN_METEO_URL",
    ...)`` points those variables of this process at it and clears ``TRIPWRIGHT_OFFLINE``."""
    standin = StandIn().start()
    marker = request.node.get_closest_marker("standin_urls")
    if marker is not None:
        monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)
        if "TRIPWRIGHT_ROUTING_URL" not in marker.args:
            monkeypatch.delenv("TRIPWRIGHT_ROUTING_URL", raising=False)  # unset: estimated road miles
        for variable in marker.args:
            monkeypatch.setenv(variable, standin.url)
    yield standin
    standin.stop()

# city -> (tz, destination airports, an origin with daily flights to them)
CITY_SETUP: dict[str, tuple[str, list[str], str]] = {
    "Paris": ("Europe/Paris", ["CDG", "ORY"], "JFK"),
    "Rome": ("Europe/Rome", ["FCO", "CIA"], "JFK"),
    "New York": ("America/New_York", ["JFK", "EWR"], "LAX"),
    "Tokyo": ("Asia/Tokyo", ["HND", "NRT"], "LAX"),
}

PARIS_DEMO: dict[str, Any] = {
    "city": "Paris",
    "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
    "budget_usd_cents": 400000,
    "airports": ["CDG", "ORY"],
    "origin_airport": "JFK",
    "prefs": {"kid_friendly": False, "themes": ["art", "food"], "avoid_overnight": False},
}


# -- intents ------------------------------------------------------------------------------------
def intent_dict(city: str = "Paris", start: date | str = date(2027, 6, 15), days: int = 5, *,
                budget: int = 400000, origin: str | None = None, airports: list[str] | None = None,
                themes: list[str] | None = None, kid: bool = False, avoid_overnight: bool = False,
                locked: list[dict] | None = None) -> dict[str, Any]:
    tz, default_airports, default_origin = CITY_SETUP[city]
    start = date.fromisoformat(start) if isinstance(start, str) else start
    return {
        "city": city,
        "date_window": {"start": start.isoformat(), "end": (start + timedelta(days=days - 1)).isoformat(),
                        "tz": tz},
        "budget_usd_cents": budget,
        "airports": list(airports or default_airports),
        "origin_airport": origin or default_origin,
        "prefs": {"kid_friendly": kid, "themes": list(themes if themes is not None else ["art", "food"]),
                  "avoid_overnight": avoid_overnight, "locked_slots": list(locked or [])},
    }


def make_intent(city: str = "Paris", start: date | str = date(2027, 6, 15), days: int = 5,
                **kw: Any) -> IntentV1:
    return IntentV1.model_validate(intent_dict(city, start, days, **kw))


def paris_demo(**changes: Any) -> IntentV1:
    data = copy.deepcopy(PARIS_DEMO)
    for key, value in changes.items():
        if key in ("kid_friendly", "themes", "avoid_overnight", "locked_slots"):
            data["prefs"][key] = value
        else:
            data[key] = value
    return IntentV1.model_validate(data)


# -- tools and facts ----------------------------------------------------------------------------
def new_toolbox(overrides: ToolOverrides | None = None, executor: ToolExecutor | None = None):
    return build_toolbox(default_catalog(), today=TODAY, overrides=overrides, executor=executor)


def gather_inputs(intent: IntentV1, overrides: ToolOverrides | None = None) -> PlannerInputs:
    """PlannerInputs (with TripFacts) for ``intent`` through the real fixture tools."""
    return asyncio.run(gather(intent, new_toolbox(overrides)))


_INPUTS_CACHE: dict[str, PlannerInputs] = {}


def cached_inputs(intent: IntentV1) -> PlannerInputs:
    """Same as gather_inputs without overrides, memoised per intent for the session."""
    key = intent.model_dump_json()
    if key not in _INPUTS_CACHE:
        _INPUTS_CACHE[key] = gather_inputs(intent)
    return _INPUTS_CACHE[key]


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return default_catalog()


@pytest.fixture(scope="session")
def paris_intent() -> IntentV1:
    return paris_demo()


@pytest.fixture(scope="session")
def paris_inputs(paris_intent: IntentV1) -> PlannerInputs:
    return cached_inputs(paris_intent)


@pytest.fixture(scope="session")
def paris_facts(paris_inputs: PlannerInputs) -> TripFacts:
    return paris_inputs.facts


@pytest.fixture(scope="session")
def rome_intent() -> IntentV1:
    # 2027-06-16 is a Wednesday: Rome's metro stops at 23:30 on weekdays.
    return make_intent("Rome", date(2027, 6, 14), 5)


@pytest.fixture(scope="session")
def rome_inputs(rome_intent: IntentV1) -> PlannerInputs:
    return cached_inputs(rome_intent)


# -- hand-built plans ---------------------------------------------------------------------------
def hm(text: str) -> time:
    return time.fromisoformat(text)


def win(start: str, end: str) -> TimeWindow:
    return TimeWindow(start=hm(start), end=hm(end))


def venue_slot(facts: TripFacts, venue_id: str, start: str, end: str, *, di: int = 0,
               kind: ChoiceKind | None = None, locked: bool = False) -> Slot:
    """A visit (or a meal, for restaurants) at a real fixture venue."""
    venue = facts.venue(venue_id)
    assert venue is not None, f"{venue_id} is not in these facts"
    if kind is None:
        kind = ChoiceKind.meal if venue.provenance.tool == "dining" else ChoiceKind.attraction
    role = "meal" if kind is ChoiceKind.meal else "activity"
    choice = venue_choice(di, venue, kind)
    choice = choice.model_copy(update={"choice_id": f"d{di}-{role}-{venue.id}"})  # as the day builder names it
    return Slot(window=win(start, end), role=role, locked=locked, choices=[choice])


def attraction_slot(venue: Attraction, start: str, end: str, *, di: int = 0) -> Slot:
    return Slot(window=win(start, end), role="activity", choices=[venue_choice(di, venue)])


def flight_slot(flight: FlightOption, role: str, start: str, end: str, *, di: int = 0) -> Slot:
    airport = flight.dest if flight.direction == "outbound" else flight.origin
    geo = default_catalog().airport(airport).geo
    return Slot(window=win(start, end), role=role, choices=[flight_choice(di, role, flight, geo)])


def lodging_slot(hotel: Lodging, role: str, start: str, end: str, *, di: int = 0, nights: int = 4) -> Slot:
    return Slot(window=win(start, end), role=role, choices=[lodging_choice(di, role, hotel, nights)])


def placeless_slot(label: str, start: str, end: str, *, di: int = 0,
                   kind: ChoiceKind = ChoiceKind.attraction, cost: int = 0,
                   indoor: bool | None = None, role: str = "activity") -> Slot:
    """A slot whose option is not a fixture venue and has no place (so no transfer time)."""
    from datetime import datetime, timezone
    prov = Provenance(source="user", tool="test", call_ts=datetime(2026, 11, 23, tzinfo=timezone.utc),
                      response_digest="0" * 64, data_source="user")
    choice = Choice(choice_id=f"d{di}-{role}-{label}", kind=kind, option_ref=label, label=label, geo=None,
                    features=ChoiceFeatures(cost_usd_cents=cost, indoor=indoor), provenance=prov)
    return Slot(window=win(start, end), role=role, choices=[choice])


def plan_of(start: date, days: list[list[Slot]], *, daily_spend: int = 0) -> PlanV1:
    return PlanV1(days=[DayPlan(date=start + timedelta(days=i), slots=slots) for i, slots in enumerate(days)],
                  assumptions=Assumptions(daily_spend_est_cents=daily_spend), rng_seed=7)
