"""The one front door: what the CLI (engine/cli) and the app (app/, widgets/) both call to turn
what a traveller gives — a prompt, an intent file — into an intent, to name its place, and to
take a run's settled intent back. One rule each, so the same prompt gives the same intent and the
same one-line error in both.

- ``read_prompt``: a prompt read by the rule-based parsers against the catalog's cities (and the
  caller's cached ones). A city nothing covers ("4 days in Lisbon"), or a fixture city's name
  placed elsewhere ("Paris, Texas"), is read as the words that named it: its OSM pack is found or
  fetched by the run's ``city_pack`` node (engine/pipeline/city_pack_stage.py), a progress step of
  the run in both front ends.
- ``intent_from_prompt`` / ``city_intent_of`` / ``road_intent_of`` / ``multi_city_intent_of``: the reading as an intent (a
  city without a pack yet carries ``PENDING_AIRPORT``/``PENDING_TZ``, settled by that node).
- ``read_intent_file``, ``check_not_past``, ``planning_date``: the other inputs, checked alike.
- ``resolve_city`` / ``fetch_city_pack``: a city's pack now, before the run (engine/city_pack_now.py).
- ``signed_in``: the store and org a command-line run uses (engine/signed_in.py).
- ``planned_intent``: the intent a completed run planned (the pack city's airports and zone);
  ``settled_result``: a run's result that no run produced now (a saved version shown again, a run
  the traveller cancelled), as a run's would be.
- ``export_renderer`` / ``export``: an itinerary in one of engine/export/formats.py's formats (the
  PDF through the renderer the desktop registers), written atomically.
- Saved places and bookings merged into a trip: engine/trip_inputs.py (the same rules here too).

The model's reading of a prompt is engine/llm/prompt_reading.py; it builds its intent here too.
Imports are lazy: reading an intent file loads neither the parsers nor the pipeline."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.city_pack_now import fetch_city_pack as fetch_city_pack  # the front door's, in its own module
from engine.city_pack_now import resolve_city as resolve_city
from engine.errors import InputError, UnknownCityError
from engine.signed_in import signed_in as signed_in

if TYPE_CHECKING:
    from engine.intake import CityPromptResult, MultiCityPromptResult, RoadPromptResult
    from engine.models import IntentV1, MultiCityIntent, RoadTripIntent

# An IATA-shaped code no airport has, and a zone: what a city without a pack yet is sent with,
# until the run's city_pack node puts in the pack city's own.
PENDING_AIRPORT = "XXX"
PENDING_TZ = "UTC"
HOME_AIRPORT_ENV = "TRIPWRIGHT_HOME_AIRPORT"


# -- inputs -------------------------------------------------------------------------------------
def planning_date(text: str | None) -> date:
    """The planning date ("today" for FX as-of and the not-in-the-past check)."""
    if not text:
        return date.today()
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise InputError("today", f"{text!r} is not a YYYY-MM-DD date") from exc


def read_intent_file(path: str, arg: str = "--intent") -> IntentV1 | RoadTripIntent | MultiCityIntent:
    """The intent in a JSON file (a road trip or a multi-city trip when ``mode`` says so); one InputError
    otherwise."""
    from pydantic import ValidationError

    from engine.input_files import read_json_input
    from engine.models import IntentV1, MultiCityIntent, RoadTripIntent
    data = read_json_input(arg, path)
    if not isinstance(data, dict):
        kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(type(data), "a number")
        raise InputError(arg, f"must hold a JSON object (an intent), not {kind}")
    models: dict[object, type[IntentV1] | type[RoadTripIntent] | type[MultiCityIntent]] = {
        "road_trip": RoadTripIntent, "multi_city": MultiCityIntent}
    model = models.get(data.get("mode"), IntentV1)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InputError.from_validation(exc) from exc


def check_not_past(intent: IntentV1 | RoadTripIntent | MultiCityIntent, today: date) -> None:
    """A trip is planned ahead: prices, opening hours and FX are read as of ``today``. Refused as
    "start: …" (the traveller's word for it, on the CLI and the form's Start field alike)."""
    start = intent.date_window.start if intent.mode == "city" else intent.start_date
    if start < today:
        raise InputError("start", f"the trip starts {start}, before today ({today}); plan a trip from today on")


# -- prompts ------------------------------------------------------------------------------------
def route_aliases() -> dict[str, list[str]]:
    """Each named route's lower-case names, as the road parsers want them."""
    from engine.roadtrip.routes import load_routes
    return {r.name: [r.name.lower(), *(a.lower() for a in r.aliases)] for r in load_routes().values()}


@dataclass(frozen=True)
class PromptReading:
    """A prompt as the rule-based parsers read it: exactly one of ``city``, ``road`` and ``multi``."""

    city: CityPromptResult | None = None
    road: RoadPromptResult | None = None
    multi: MultiCityPromptResult | None = None  # several stays (issue 33)

    @property
    def assumed(self) -> tuple[str, ...]:
        """What the reading chose that the text left out, one line each (a city trip's default
        budget; the first full week of a month named without a day; nights shared among stays)."""
        return (self.city or self.road or self.multi).assumed  # type: ignore[union-attr]  # one of them is set


def read_prompt(text: str, catalog, *, today: date, known: Mapping[str, Sequence[str]] | None = None,
                gazetteer=None) -> PromptReading:
    """``text`` read as a road trip or a city trip. ``known``: more cities to read by name
    (the app's cached packs: name → lower-case names); ``gazetteer``: where "Paris, Texas" is
    looked up (the offline gazetteer by default). Raises InputError naming the first bad field."""
    from engine.intake import looks_like_road_trip, parse_road_prompt
    routes = route_aliases()
    road = looks_like_road_trip(text, routes=routes)
    try:
        multi = _read_multi_city(text, catalog, today, known or {}, gazetteer)
    except InputError:
        if not road:
            raise
        multi = None
    # A road trip's places read as stays ("LA to San Francisco via Big Sur") stay a road trip, unless
    # each stay has its own nights ("3 nights in Lisbon then drive to Porto for 2") and the text does
    # not call it a road trip, or a leg goes by train, bus, air or sea ("Rome to Venice via Florence by train").
    from engine.intake.road_words import ROAD_TRIP_WORDS
    by_public_transport = multi is not None and any(m not in ("best", "drive") for m in multi.modes)
    if multi is not None and (not road or by_public_transport or (multi.own_lengths == len(multi.stays)
                                                                  and not ROAD_TRIP_WORDS.search(text))):
        return PromptReading(multi=multi)
    if road:
        return PromptReading(road=parse_road_prompt(text, routes=routes, today=today))
    return PromptReading(city=_read_city(text, catalog, today, known or {}, gazetteer))


def _read_multi_city(text: str, catalog, today: date, known: Mapping[str, Sequence[str]], gazetteer=None):
    """The prompt as stays in several cities (None: fewer than two), each city named as a one-city
    prompt names it: a catalog (or ``known``) city by its name ("Rome, Italy" too), any other by the
    words that named it ("Paris, Texas")."""
    from dataclasses import replace

    from engine.intake import parse_multi_city_prompt
    cities = dict(catalog.city_aliases())
    for name, aliases in known.items():
        cities.setdefault(name, list(aliases))
    read = parse_multi_city_prompt(text, cities=cities, airports=catalog.airport_names(), today=today,
                                   known_airport=catalog.known_airport)
    if read is None:
        return None
    named = []
    for stay in read.stays:
        head, comma, _ = stay.city.partition(", ")
        if comma and catalog.has_city(head) and _placed_elsewhere(stay.city, catalog.city(head), gazetteer) is None:
            stay = replace(stay, city=catalog.city(head).name)
        named.append(stay)
    return replace(read, stays=tuple(named))


def _read_city(text: str, catalog, today: date, known: Mapping[str, Sequence[str]], gazetteer):
    """The city prompt read against the catalog's cities; a city none covers, or a fixture
    city's name placed elsewhere, read again as the words that named it."""
    from engine.intake import parse_city_prompt

    def parse(extra: tuple[str, list[str]] | None = None):
        cities = dict(catalog.city_aliases())
        for name, aliases in known.items():
            cities.setdefault(name, list(aliases))
        if extra is not None:
            cities[extra[0]] = list(dict.fromkeys([*cities.get(extra[0], []), *(a.lower() for a in extra[1] if a)]))
        return parse_city_prompt(text, cities=cities, airports=catalog.airport_names(), today=today,
                                 known_airport=catalog.known_airport)
    try:
        parsed = parse()
        if not catalog.has_city(parsed.city):
            return parsed  # one of ``known``
        query = _placed_elsewhere(text, catalog.city(parsed.city), gazetteer)
        if query is None:
            return parsed
        said = [query]
    except UnknownCityError as exc:
        query, said = exc.query or exc.city, [a for a in (exc.city, exc.query) if a]
    name = catalog.city(query).name if catalog.has_city(query) else query
    return parse((name, said))


def _placed_elsewhere(text: str, city, gazetteer=None) -> str | None:
    """"Paris, Texas": a fixture city's name followed by a region that is not the fixture's — the
    words to look up instead; None when the text means the fixture city ("Rome, Italy")."""
    from engine.geo import haversine_m
    from engine.intake.city_prompt import CAPITALISED
    for alias in sorted({city.name.lower(), *city.raw.aliases}, key=len, reverse=True):
        m = re.search(rf"(?<!\w)(?i:{re.escape(alias)}),\s*(?P<where>{CAPITALISED}(?: {CAPITALISED}){{0,2}})",
                      text)
        if m is None:
            continue
        query = f"{city.name}, {m['where']}"
        if gazetteer is None:
            from engine.geocode import default_gazetteer
            gazetteer = default_gazetteer()
        found = gazetteer.lookup(query, limit=1)
        if found and (found[0].country != city.raw.country
                      or haversine_m(city.center, type(city.center)(lat=found[0].lat, lon=found[0].lon)) > 50_000):
            return query
        return None
    return None


def intent_from_prompt(text: str, session, home: str | None,
                       say: Callable[[str], None] | None = None) -> IntentV1 | RoadTripIntent | MultiCityIntent:
    """The intent of a prompt read by the rules (``home``: the airport when the text names none;
    else ``TRIPWRIGHT_HOME_AIRPORT``). ``session``: its catalog, planning date and FX. ``say``
    hears each thing the reading chose for the traveller (the default budget, the first full week of
    a month named without a day); by default a line on stderr, as the CLI says its notes."""
    reading = read_prompt(text, session.catalog, today=session.today)
    for line in reading.assumed:
        (say or say_on_stderr)(line)
    if reading.road is not None:
        return road_intent_of(reading.road)
    if reading.multi is not None:
        multi = reading.multi
        budget = budget_cents(multi.budget_amount, multi.budget_currency, session)
        return multi_city_intent_of(multi, budget, origin_airport(multi.origin_airport, home))
    parsed = reading.city
    assert parsed is not None  # a reading is a road trip or a city trip
    origin = origin_airport(parsed.origin_airport, home)
    budget = budget_cents(parsed.budget_amount, parsed.budget_currency, session)
    return city_intent_of(city_target(session.catalog, parsed.city), parsed.start, parsed.end, budget, origin, parsed)


def say_on_stderr(line: str) -> None:
    print(f"tripwright: {line}", file=sys.stderr)


def origin_airport(said: str | None, home: str | None) -> str:
    origin = said or home or os.environ.get(HOME_AIRPORT_ENV)
    if not origin:
        raise InputError("origin_airport", "say where you fly from (e.g. 'flying from JFK') or pass --from")
    return origin


def city_target(catalog, name: str) -> tuple[str, list[str], str]:
    """(city, airports, zone) of the intent: a catalog city's own; placeholders for a city whose
    pack the run's city_pack node finds or fetches."""
    if catalog.has_city(name):
        city = catalog.city(name)
        return city.name, list(city.airports), city.tz
    return name, [PENDING_AIRPORT], PENDING_TZ


def city_intent_of(target: tuple[str, list[str], str], start: date, end: date, budget: int, origin: str,
                   read) -> IntentV1:
    """The IntentV1 of a prompt read by the rules or by the model (``read`` has themes,
    kid_friendly, avoid_overnight, travellers); a bad field is an InputError naming it."""
    from engine.models import IntentV1
    city, airports, tz = target
    data = {"city": city, "date_window": {"start": start, "end": end, "tz": tz},
            "budget_usd_cents": budget, "airports": airports, "origin_airport": origin.upper(),
            "prefs": {"themes": list(read.themes), "kid_friendly": read.kid_friendly,
                      "avoid_overnight": read.avoid_overnight, "pace": getattr(read, "pace", "balanced")}}
    if read.travellers is not None:
        data["travellers"] = read.travellers
    return _validated(IntentV1, data)


def multi_city_intent_of(read, budget: int, origin: str) -> MultiCityIntent:
    """The MultiCityIntent of a prompt read by the rules or by the model (``read``: stays of city and
    nights, a mode per leg, return_from, start, themes, kid_friendly, avoid_overnight, travellers, pace)."""
    from engine.models import MultiCityIntent
    data: dict[str, Any] = {
        "start_date": read.start,
        "stays": [{"city": s.city, "nights": s.nights, **({"tier": s.tier} if getattr(s, "tier", None) else {})}
                  for s in read.stays],
        "return_from": read.return_from, "budget_usd_cents": budget, "origin_airport": origin.upper(),
        "prefs": {"themes": list(read.themes), "kid_friendly": read.kid_friendly,
                  "avoid_overnight": read.avoid_overnight, "pace": read.pace}}
    if any(mode != "best" for mode in read.modes):
        data["legs"] = [{"mode": mode} for mode in read.modes]
    if read.travellers is not None:
        data["travellers"] = read.travellers
    return _validated(MultiCityIntent, data)  # a chain's rule names its field ("stays: a trip lasts …")


def road_intent_of(parsed: RoadPromptResult) -> RoadTripIntent:
    from engine.models import RoadTripIntent
    data: dict[str, Any] = {
        "origin": parsed.origin, "terminus": parsed.terminus, "days": parsed.days, "start_date": parsed.start_date,
        "trip_type": parsed.trip_type, "route": parsed.route, "stops": parsed.stops, "rest_days": parsed.rest_days,
        "prefs": {"themes": parsed.themes, "kid_friendly": parsed.kid_friendly}}
    if parsed.max_daily_miles is not None:
        data["max_daily_miles"] = parsed.max_daily_miles
    if parsed.travellers is not None:
        data["travellers"] = parsed.travellers
    return _validated(RoadTripIntent, data)


def _validated(model, data: dict):
    from pydantic import ValidationError

    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InputError.from_validation(exc) from exc


def budget_cents(amount: Decimal, currency: str, session) -> int:
    """The prompt's budget in USD cents; an unknown currency or an absurd sum names ``budget``."""
    from engine.models import format_usd
    from engine.models.intent import MAX_BUDGET_USD_CENTS
    from engine.tools.requests import FXRequest
    try:
        rate = session.toolbox.rate_now(FXRequest(from_currency=currency, as_of=session.today)).rate
    except InputError as exc:
        raise InputError("budget", exc.message) from None
    cents = int(amount * 100 * Decimal(str(rate)))
    if cents > MAX_BUDGET_USD_CENTS:
        amount_text = f"{amount:,.0f}" if amount < 10**15 else f"{amount:.2e}"
        raise InputError("budget", f"{amount_text} {currency} is more than any trip needs "
                                   f"(at most {format_usd(MAX_BUDGET_USD_CENTS)})")
    return cents


# -- the run ------------------------------------------------------------------------------------
def planned_intent(intent, result):
    """The intent a completed city run planned: a city the fixtures lack is asked for with
    placeholder airports and zone (and "Lisbon, PT" for "Lisbon"), which the run's city_pack node
    replaced with its pack city's; only those fields are taken from the itinerary."""
    from engine.models import IntentV1
    planned = getattr(result.itinerary, "intent", None)
    if intent.mode != "city" or not isinstance(planned, IntentV1):
        return intent
    settled = {"city": planned.city, "airports": planned.airports, "date_window": planned.date_window}
    return intent if all(getattr(intent, k) == v for k, v in settled.items()) else intent.model_copy(update=settled)


def settled_result(*, run_id: str, trace_id: str, status: str, events: list, itinerary=None, plan=None,
                   reuse: float = 0.0):
    """A ``PlanResult`` no run produced now: a saved version shown again (``completed``, reuse 1)
    or a run the traveller cancelled (``cancelled``, from the events it sent so far)."""
    from engine.pipeline import Checkpoints, PlanResult
    return PlanResult(run_id=run_id, trace_id=trace_id, status=status, itinerary=itinerary, failure=None, plan=plan,
                      events=events, checkpoints=Checkpoints(), reuse=reuse)


# -- exports ------------------------------------------------------------------------------------
def export_renderer(itinerary, key: str, **options: object) -> Callable[[], str | bytes]:
    """What draws ``itinerary`` in the format ``key`` (engine/export/formats.py): the engine's
    renderer with ``options`` (``ics``: ``transfers``), or the PDF renderer the desktop
    registered — an ``InputError`` naming ``--pdf`` now, before any work, when none is."""
    from functools import partial

    from engine.export.formats import BY_KEY
    if BY_KEY[key].renderer is None:
        from engine.export.pdf_registry import pdf_renderer
        return partial(pdf_renderer(), itinerary)
    from engine.export import render
    return partial(render, key, itinerary, **options)


def export(itinerary, key: str, path: str | Path, **options: object) -> Path:
    """Write ``itinerary`` as ``key`` to ``path`` atomically; returns the absolute path. Renders
    off the caller's thread if it is a GUI's (the HTML map takes most of a second)."""
    from engine.atomic import write_atomic
    target = Path(path).expanduser().resolve()
    if not target.parent.is_dir():
        raise FileNotFoundError(f"folder {target.parent} does not exist")
    write_atomic(target, export_renderer(itinerary, key, **options)())
    return target
