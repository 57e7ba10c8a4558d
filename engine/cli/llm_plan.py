"""``tripwright plan --llm``: the configured model extracts the intent (from ``--prompt``) and
proposes the choices; the engine schedules, verifies and repairs. An endpoint that cannot be used
→ the rule-based plan, exit 0, one warning line on stderr; an answer invalid twice → exit 3 with
``{"status": "error", "reason": "invalid_model_output", ...}`` in ``--out``. Road trips: the model
proposes the nights and stops among the corridor's towns (``engine/llm/road_drafting.py``)."""

from __future__ import annotations

import asyncio
import json
import os
import sys

from pydantic import ValidationError

from engine.errors import InputError, ModelOutputError, ModelUnavailable
from engine.models.itinerary import SCHEMA_VERSION



def warn(reason: str) -> None:
    print(f"tripwright: warning: model unavailable ({reason}); planned rule-based", file=sys.stderr)


def model_client(executor=None):
    """The client for the effective config, or None (and the warning) when it cannot work.
    ``executor``: the session's tool executor, so the model's breaker and stats sit beside the tools'."""
    from engine.llm.client import LLMClient
    from engine.llm.config import config_from_env
    from engine.settings import apply_env, load_settings
    try:
        settings = apply_env(load_settings().settings)
        return LLMClient(config_from_env(settings=settings, api_key=stored_key(settings)), executor=executor)
    except ModelUnavailable as exc:
        warn(exc.reason)
        return None


def stored_key(settings) -> str | None:
    """The key the app stored for the endpoint (OS keyring); ``OPENAI_API_KEY`` still wins."""
    if os.environ.get("OPENAI_API_KEY", "").strip() or os.environ.get("TRIPWRIGHT_OFFLINE") == "1":
        return None
    from engine.settings import endpoint_or_default, stored_api_key
    from engine.store.secret_store import SecretStore
    endpoint = os.environ.get("OPENAI_BASE_URL", "").strip() or settings.llm_endpoint
    return stored_api_key(endpoint_or_default(endpoint), SecretStore())


def intent_with_model(client, text: str, session, home: str | None):
    """(intent, model_used): the model's extraction (an ``extract`` node in the run's events), or
    the rule-based parsers when it is unavailable. A road trip the model could not read is the
    road parser's to read."""
    from .plan_cmd import intent_from_prompt
    if client is None:
        return intent_from_prompt(text, session, home), False
    try:
        intent = asyncio.run(_closing(client, read_with_model(client, text, session, home)))
    except ModelUnavailable as exc:
        warn(exc.reason)
        return intent_from_prompt(text, session, home), False
    if intent is None:
        return intent_from_prompt(text, session, home), False
    return intent, True


async def read_with_model(client, text: str, session, home: str | None):
    """The model's reading of ``text`` as an intent, recorded as an ``extract`` node in
    ``session.early_events``; None when a road reading is not usable (the road parser's turn).
    ``ModelUnavailable``, ``ModelOutputError`` (a city answer invalid twice) and ``InputError`` propagate."""
    from engine.intake import looks_like_road_trip
    from engine.llm.early_nodes import EarlyNode
    from .plan_cmd import route_aliases
    road = looks_like_road_trip(text, routes=route_aliases())
    node = EarlyNode(session.early_events, client, "extract")
    node.fallback = "rule-based parser"
    return await _extracted(node, text, session, home, road)


async def _extracted(node, text: str, session, home: str | None, road: bool):
    from engine.llm.extraction import extract, extract_road
    from .plan_cmd import route_aliases
    client, today = node.client, session.today
    async with node:
        if not road:
            found = await extract(client, text, airports=sorted(session.catalog.airport_names()), today=today,
                                  on_reject=node.rejected)
            return city_intent(found, session, home)
        try:
            found = await extract_road(client, text, routes=sorted(route_aliases()), today=today,
                                       on_reject=node.rejected)
            return road_intent(found)
        except (ModelOutputError, InputError) as exc:
            node.why_not = f"the model's reading is not usable ({' '.join(str(exc).split())[:160]})"
            return None


def road_intent(found):
    from engine.llm.extraction import road_intent_data
    from engine.models import RoadTripIntent
    try:
        return RoadTripIntent.model_validate(road_intent_data(found))
    except ValidationError as exc:
        raise InputError.from_validation(exc) from exc


def city_intent(found, session, home: str | None):
    from decimal import Decimal
    from engine.llm.extraction import trip_dates
    from .plan_cmd import _budget_cents, city_intent_of
    catalog = session.catalog
    city = catalog.city(found.city)  # an injected "city" is only an unknown city: exit 2
    start, end = trip_dates(found)
    origin = found.origin_airport or home or os.environ.get("TRIPWRIGHT_HOME_AIRPORT")
    if not origin:
        raise InputError("origin_airport", "say where you fly from (e.g. 'flying from JFK') or pass --from")
    if found.budget_amount is None:
        raise InputError("budget", "the text does not give a budget (e.g. '$3000')")
    budget = _budget_cents(Decimal(str(found.budget_amount)), (found.budget_currency or "USD").upper(), session)
    return city_intent_of(city, start, end, budget, origin, found)


async def _closing(client, coro):
    """Run ``coro`` and close the client on the same loop (each ``asyncio.run`` has its own)."""
    try:
        return await coro
    finally:
        await client.close()


def plan_with_drafter(session, intent, drafter, *, on_event=None, run_id: str | None = None):
    async def run():
        return await session.plan(intent, drafter=drafter, on_event=on_event, run_id=run_id)
    if drafter is None:
        return asyncio.run(run())
    return asyncio.run(_closing(drafter.client, run()))


def invalid_output_document(exc: ModelOutputError) -> str:
    return json.dumps({"schema_version": SCHEMA_VERSION, "status": "error", "reason": exc.reason,
                       "message": str(exc), "node": exc.node, "errors": exc.errors}, indent=2)


def llm_meta(drafter, *, extracted: bool) -> dict:
    """Seed 001 llmMeta: counts only (this path has no ideas, feedback or chat)."""
    meter = drafter.client.meter
    return {"ideaCount": 0, "feedbackCount": 0, "reactionCount": 0, "chatMessageCount": 0, **drafter.meta,
            "intentExtracted": extracted, **meter.summary()}


def run_plan_llm(args, session, outputs, today) -> int:
    from .plan_cmd import _save_diagnostics
    try:
        return _run_plan_llm(args, session, outputs, today)
    finally:
        _save_diagnostics(session)  # the model's calls, errors, invalid outputs and cost too


def _run_plan_llm(args, session, outputs, today) -> int:
    from engine.llm.drafting import Drafter
    from .plan_cmd import check_not_past, read_intent_file, report_plan
    client = model_client(session.toolbox.executor)
    extracted = False
    try:
        if args.intent is not None:
            intent = read_intent_file(args.intent)
        else:
            intent, extracted = intent_with_model(client, args.prompt, session, args.home_airport)
    except ModelOutputError as exc:
        return _invalid(outputs, exc)
    if args.route_file is not None:  # as the rule-based path: the imported track is the corridor
        from engine.roadtrip.route_file import follow_track
        intent = follow_track(intent, args.route_file)
    verbose = bool(getattr(args, "verbose", 0))
    if getattr(args, "places", None) is not None:  # as the rule-based path: the traveller's own places
        from .saved_places_cmd import with_saved_places
        intent = with_saved_places(intent, args.places, session, verbose=verbose)
    if getattr(args, "bookings", None):  # and bookings (a road trip's motel: that night's stop)
        from .bookings_cmd import with_bookings
        intent = with_bookings(intent, args.bookings, session, verbose=verbose)
    check_not_past(intent, today)
    drafter = None
    if client is not None and intent.mode == "road_trip":
        from engine.llm.road_drafting import RoadDrafter
        drafter = RoadDrafter(client)  # nights and stops from the corridor's towns; the invariants decide
    elif client is not None:
        ideas = _trip_ideas(args.trip) if args.save and args.trip else []
        brief, brief_meta = _chat_brief(client, args.trip if args.save else None, session)
        drafter = Drafter(client, ideas=ideas, brief=brief, brief_meta=brief_meta)
    meta_of = (lambda _result: llm_meta(drafter, extracted=extracted) if drafter.meta else None)
    if args.save:
        from .trips_cmd import plan_and_save
        result = plan_and_save(session, intent, trip_id=args.trip, name=args.name, drafter=drafter,
                               meta_of=meta_of if drafter else None)
    else:
        from .trips_cmd import plan_unsaved
        result = plan_unsaved(session, intent, drafter)  # the signed-in org's notes are cited too
    if drafter is not None and drafter.warning:
        warn(drafter.warning)
    if result.status != "completed" and result.failure is not None and result.failure.reason:
        outputs.write({"--events": lambda: "".join(e.model_dump_json() + "\n" for e in result.events),
                       "--out": lambda: result.failure.model_dump_json(indent=2)})
        print(f"tripwright: {result.failure.reason}: {result.failure.message}", file=sys.stderr)
        return 3
    meta = meta_of(result) if drafter is not None else None
    if drafter is not None:  # diagnostics: calls, invalid outputs, tokens and cost of this run
        import structlog
        structlog.get_logger("tripwright.llm").info("llm_usage", run_id=result.run_id,
                                                    **drafter.client.meter.summary())
    return report_plan(args, outputs, result, llm_meta=meta)


def _trip_ideas(trip_id: str) -> list[tuple[str, int]]:
    """The trip's ideas by priority: the v1 prompt takes the top 10 (5, 3 when too long)."""
    from .trips_cmd import org_scope
    with org_scope() as repo:
        return [(i.title, i.priority) for i in repo.group.ideas(trip_id)][:10]


def _chat_brief(client, trip_id: str | None, session) -> tuple[dict | None, dict]:
    """The brief when the flag is on and the trip has a chat (a ``summarize_chat`` node in the
    run's events); failures fall back (logged)."""
    from engine.llm import chat_brief
    if not chat_brief.enabled() or not trip_id:
        return None, {}
    from .trips_cmd import org_scope
    window = chat_brief.window_from_env()
    with org_scope() as repo:
        messages = repo.group.chat(trip_id, limit=window.max_messages)
    from engine.llm.early_nodes import brief_with_events
    brief, meta = asyncio.run(_closing(client, brief_with_events(session.early_events, client, messages,
                                                                 window=window)))
    return brief, {**meta, "chatMessageCount": meta["chatBriefMessageCount"]}


def _invalid(outputs, exc: ModelOutputError) -> int:
    outputs.write({"--out": lambda: invalid_output_document(exc)})
    print(f"tripwright: {exc.reason}: {exc}", file=sys.stderr)
    return 3
