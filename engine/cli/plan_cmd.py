"""``tripwright plan``: intent file or prompt → pipeline → itinerary, GPX, iCal, events."""

from __future__ import annotations

import os
import sys
from datetime import date
from decimal import Decimal
from functools import partial

import structlog
from pydantic import ValidationError

from engine.catalog import default_catalog
from engine.errors import InputError
from engine.export import render
from engine.models import IntentV1, RoadTripIntent, format_usd
from engine.models.intent import MAX_BUDGET_USD_CENTS
from engine.pipeline import PlanningSession
from engine.tools.requests import FXRequest

from .live_events import LiveEvents
from .paths import Outputs, read_json_input

log = structlog.get_logger("tripwright.cli")


def _today(text: str | None) -> date:
    if not text:
        return date.today()
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise InputError("today", f"{text!r} is not a YYYY-MM-DD date") from exc


def read_intent_file(path: str) -> IntentV1 | RoadTripIntent:
    data = read_json_input("--intent", path)
    if not isinstance(data, dict):
        kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(type(data), "a number")
        raise InputError("--intent", f"must hold a JSON object (an intent), not {kind}")
    model = RoadTripIntent if data.get("mode") == "road_trip" else IntentV1
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InputError.from_validation(exc) from exc


def check_not_past(intent: IntentV1 | RoadTripIntent, today: date) -> None:
    """A trip is planned ahead: prices, opening hours and FX are read as of ``today``."""
    field, start = (("start_date", intent.start_date) if intent.mode == "road_trip"
                    else ("date_window", intent.date_window.start))
    if start < today:
        raise InputError(field, f"the trip starts {start}, before today ({today}); plan a trip from today on")


def route_aliases() -> dict[str, list[str]]:
    from engine.roadtrip.routes import load_routes
    return {r.name: [r.name.lower(), *(a.lower() for a in r.aliases)] for r in load_routes().values()}


def road_intent_from_prompt(text: str, session: PlanningSession) -> RoadTripIntent:
    from engine.intake import parse_road_prompt
    parsed = parse_road_prompt(text, routes=route_aliases(), today=session.today)
    data = {"origin": parsed.origin, "terminus": parsed.terminus, "days": parsed.days,
            "start_date": parsed.start_date, "trip_type": parsed.trip_type, "route": parsed.route,
            "stops": parsed.stops, "rest_days": parsed.rest_days,
            "prefs": {"themes": parsed.themes, "kid_friendly": parsed.kid_friendly}}
    if parsed.max_daily_miles is not None:
        data["max_daily_miles"] = parsed.max_daily_miles
    if parsed.travellers is not None:
        data["travellers"] = parsed.travellers
    try:
        return RoadTripIntent.model_validate(data)
    except ValidationError as exc:
        raise InputError.from_validation(exc) from exc


def _read_city_prompt(text: str, session: PlanningSession, verbose: bool):
    """The prompt read against the catalog's cities. A city no fixture covers ("4 days in
    Lisbon"), or a fixture city's name placed elsewhere ("Paris, Texas"), is looked up, its OSM
    pack joined to the catalog, and the prompt read again with the words that named it."""
    from engine.errors import UnknownCityError
    from engine.intake import parse_city_prompt

    def parse(extra: tuple[str, list[str]] | None = None):
        cities = dict(session.catalog.city_aliases())
        if extra is not None:
            cities[extra[0]] = [*cities.get(extra[0], []), *(a.lower() for a in extra[1] if a)]
        return parse_city_prompt(text, cities=cities, airports=session.catalog.airport_names(),
                                 today=session.today, known_airport=session.catalog.known_airport)
    try:
        parsed = parse()
        query = _placed_elsewhere(text, session.catalog.city(parsed.city))
        if query is None:
            return parsed
        said = [query]
    except UnknownCityError as exc:
        query, said = exc.query or exc.city, [exc.city, exc.query]
    from .cities_cmd import city_for_plan
    name = city_for_plan(session, query, verbose=verbose)
    return parse((name, said))


def _placed_elsewhere(text: str, city) -> str | None:
    """"Paris, Texas": a fixture city's name followed by a region that is not the fixture's — the
    words to look up instead; None when the text means the fixture city ("Rome, Italy")."""
    import re
    from engine.geo import haversine_m
    from engine.intake.city_prompt import CAPITALISED
    for alias in sorted({city.name.lower(), *city.raw.aliases}, key=len, reverse=True):
        m = re.search(rf"(?<!\w)(?i:{re.escape(alias)}),\s*(?P<where>{CAPITALISED}(?: {CAPITALISED}){{0,2}})",
                      text)
        if m is None:
            continue
        query = f"{city.name}, {m['where']}"
        from engine.geocode import default_gazetteer
        found = default_gazetteer().lookup(query, limit=1)
        if found and (found[0].country != city.raw.country
                      or haversine_m(city.center, type(city.center)(lat=found[0].lat, lon=found[0].lon)) > 50_000):
            return query
        return None
    return None


def intent_from_prompt(text: str, session: PlanningSession, home: str | None,
                       verbose: bool = False) -> IntentV1 | RoadTripIntent:
    from engine.intake import looks_like_road_trip
    if looks_like_road_trip(text, routes=route_aliases()):
        return road_intent_from_prompt(text, session)
    parsed = _read_city_prompt(text, session, verbose)
    origin = parsed.origin_airport or home or os.environ.get("TRIPWRIGHT_HOME_AIRPORT")
    if not origin:
        raise InputError("origin_airport", "say where you fly from (e.g. 'flying from JFK') or pass --from")
    city = session.catalog.city(parsed.city)
    budget = _budget_cents(parsed.budget_amount, parsed.budget_currency, session)
    return city_intent_of(city, parsed.start, parsed.end, budget, origin, parsed)


def city_intent_of(city, start, end, budget: int, origin: str, read) -> IntentV1:
    """The IntentV1 of a prompt read by the rules or by the model (``read`` has themes,
    kid_friendly, avoid_overnight, travellers); a bad field is an InputError naming it."""
    data = {"city": city.name, "date_window": {"start": start, "end": end, "tz": city.tz},
            "budget_usd_cents": budget, "airports": city.airports, "origin_airport": origin.upper(),
            "prefs": {"themes": list(read.themes), "kid_friendly": read.kid_friendly,
                      "avoid_overnight": read.avoid_overnight}}
    if read.travellers is not None:
        data["travellers"] = read.travellers
    try:
        return IntentV1.model_validate(data)
    except ValidationError as exc:
        raise InputError.from_validation(exc) from exc


def _budget_cents(amount: Decimal, currency: str, session: PlanningSession) -> int:
    """The prompt's budget in USD cents; an unknown currency or an absurd sum names ``budget``."""
    try:
        rate = session.toolbox.rate_now(FXRequest(from_currency=currency, as_of=session.today)).rate
    except InputError as exc:
        raise InputError("budget", exc.message) from None
    cents = int(amount * 100 * Decimal(str(rate)))
    if cents > MAX_BUDGET_USD_CENTS:
        raise InputError("budget", f"{_amount_text(amount)} {currency} is more than any trip needs "
                                   f"(at most {format_usd(MAX_BUDGET_USD_CENTS)})")
    return cents


def _amount_text(amount: Decimal) -> str:
    return f"{amount:,.0f}" if amount < 10**15 else f"{amount:.2e}"


def run_plan(args) -> int:
    today = _today(args.today)
    outputs = Outputs.check({"--out": args.out, "--gpx": args.gpx, "--ics": args.ics, "--events": args.events},
                            inputs={"--intent": args.intent, "--places": getattr(args, "places", None),
                                    **{f"--bookings {p}": p for p in getattr(args, "bookings", None) or []}})
    session = PlanningSession(default_catalog(), today=today)
    live = args.live_events = LiveEvents(outputs.paths["--events"]) if "--events" in outputs.paths else None
    session.event_tap = live
    try:
        return _run_plan(args, session, outputs, today)
    except BaseException:
        if live is not None:
            live.rollback()
        raise


def _run_plan(args, session: PlanningSession, outputs: Outputs, today: date) -> int:
    if args.llm:
        from .llm_plan import run_plan_llm
        return run_plan_llm(args, session, outputs, today)
    verbose = bool(getattr(args, "verbose", 0))
    intent = (read_intent_file(args.intent) if args.intent is not None
              else intent_from_prompt(args.prompt, session, args.home_airport, verbose))
    if args.route_file is not None:
        from engine.roadtrip.route_file import follow_track
        intent = follow_track(intent, args.route_file)
    if getattr(args, "places", None) is not None:
        from .saved_places_cmd import with_saved_places
        intent = with_saved_places(intent, args.places, session, verbose=verbose)
    if getattr(args, "bookings", None):
        from .bookings_cmd import with_bookings
        intent = with_bookings(intent, args.bookings, session, verbose=verbose)
    check_not_past(intent, today)
    try:
        if args.save:
            from .trips_cmd import plan_and_save
            result = plan_and_save(session, intent, trip_id=args.trip, name=args.name)
        else:
            from .trips_cmd import plan_unsaved
            result = plan_unsaved(session, intent)  # the signed-in org's notes are cited too
    finally:
        _save_diagnostics(session)
    return report_plan(args, outputs, result)


def report_plan(args, outputs, result, *, llm_meta: dict | None = None) -> int:
    """Write the outputs of a finished run and print its summary; the exit code. ``--events``
    was written as the run went (``LiveEvents``) unless no event streamed (a stored version reused)."""
    live = getattr(args, "live_events", None)
    if live is not None:
        live.close()
    events = partial(_events_jsonl, result.events)
    if live is not None and live.count:
        outputs = Outputs({k: v for k, v in outputs.paths.items() if k != "--events"})
    if result.status != "completed":
        outputs.write({"--events": events, "--out": partial(result.failure.model_dump_json, indent=2)})
        _print_report(args, result)
        print(f"tripwright: {result.failure.message}", file=sys.stderr)
        for diff in result.failure.attempts:
            moves = ", ".join(f"{m.move_type.value} {m.old_value} → {m.new_value}" for m in diff.moves) or "no move applied"
            print(f"  cycle {diff.cycle}: {moves}", file=sys.stderr)
        return 3
    itinerary = result.itinerary
    if llm_meta:
        itinerary = itinerary.model_copy(update={"llm_meta": llm_meta})
    exports = {f"--{kind}": partial(render, kind, itinerary) for kind in ("out", "gpx", "ics")}
    outputs.write({**exports, "--events": events})
    _print_report(args, result)
    _summary(itinerary, args.out)
    return 0


def _save_diagnostics(session: PlanningSession) -> None:
    """For ``tripwright diagnostics``: a failure to write it never fails the plan."""
    from engine import diagnostics
    try:
        diagnostics.save(diagnostics.collect(session.toolbox.executor))
    except OSError as exc:
        log.debug("diagnostics_not_saved", error=str(exc))  # the plan's own message is what matters


def _when(activity, day) -> str:
    """A flight's true span, each end on its own clock and with its date when not the day's
    ("20:35 EDT Mon 14 Jun-09:50 CEST"); anything else its window on the day."""
    if activity.kind.value != "flight" or activity.start is None or activity.end is None:
        return activity.window.label()
    from zoneinfo import ZoneInfo
    ends = []
    for moment, zone in ((activity.start, activity.start_tz), (activity.end, activity.end_tz)):
        local = moment.astimezone(ZoneInfo(zone)) if zone else moment
        ends.append(f"{local:%H:%M} {local.tzname()}" + ("" if local.date() == day else f" {local:%a %d %b}"))
    return "-".join(ends)


def _events_jsonl(events) -> str:
    return "".join(e.model_dump_json() + "\n" for e in events)


def _print_report(args, result) -> None:
    if getattr(args, "report", False) and "report" in result.extra:
        print(result.extra["report"], end="")


def _summary(itinerary, out: str | None) -> None:
    cost = itinerary.cost_breakdown
    if itinerary.intent.mode == "road_trip":
        miles = sum(d.drive.miles for d in itinerary.days if d.drive)
        print(f"{itinerary.intent.origin} → {itinerary.intent.terminus}: {len(itinerary.days)} days, "
              f"{miles:.0f} mi, about {format_usd(cost.total_usd_cents)}; {len(itinerary.violations)} advisory")
        for day in itinerary.days if out is None else []:
            print(f"  {day.date:%a %Y-%m-%d}  {day.drive.miles:.0f} mi → {day.anchor.name}"
                  f"{'' if day.anchor.confidence == 'high' else ' (low confidence)'}")
        return
    print(f"{itinerary.intent.city}: {len(itinerary.days)} days, total {format_usd(cost.total_usd_cents)} "
          f"of {format_usd(itinerary.intent.budget_usd_cents)}; {len(itinerary.violations)} advisory, "
          f"{len(itinerary.repairs)} repair cycle(s), {len(itinerary.citations)} citations")
    if out is None:
        for day in itinerary.days:
            print(f"  {day.date:%a %Y-%m-%d}")
            for a in day.activities:
                if a.kind.value != "transit":
                    print(f"    {_when(a, day.date)}  {a.name}")
