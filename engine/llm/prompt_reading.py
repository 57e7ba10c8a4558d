"""The configured model as a front door (``plan --llm``, the app's "Plan with AI"): its client
(``configured_client``), its reading of a prompt as an intent (``read_with_model``: an ``extract``
node in the run's events; the intent built by engine/frontend.py's rules, so the model's reading
and the parsers' make the same intent of the same facts), and the seed's ``llm_meta`` of a plan it
drafted. Both front ends call these; neither imports the other."""

from __future__ import annotations

import json
import os
from decimal import Decimal

from pydantic import ValidationError

from engine.errors import InputError, ModelOutputError
from engine.frontend import (budget_cents, check_not_past, city_intent_of, city_target, origin_airport, route_aliases,
                             say_on_stderr)


def stored_key(settings, secrets=None) -> str | None:
    """The key the app stored for the endpoint (OS keyring; ``secrets`` or the default store);
    ``OPENAI_API_KEY`` still wins, and offline nothing is looked up."""
    if os.environ.get("OPENAI_API_KEY", "").strip() or os.environ.get("TRIPWRIGHT_OFFLINE") == "1":
        return None
    from engine.settings import endpoint_or_default, stored_api_key
    if secrets is None:
        from engine.store.secret_store import SecretStore
        secrets = SecretStore()
    endpoint = os.environ.get("OPENAI_BASE_URL", "").strip() or settings.llm_endpoint
    return stored_api_key(endpoint_or_default(endpoint), secrets)


def configured_client(settings=None, secrets=None, *, executor=None):
    """The client of the effective config (``settings``, default the saved ones, under the
    environment), or ``ModelUnavailable`` with the reason. ``executor``: the session's tool
    executor, so the model's breaker and stats sit beside the tools'."""
    from engine.llm.client import LLMClient
    from engine.llm.config import config_from_env
    from engine.settings import apply_env, load_settings
    settings = apply_env(settings if settings is not None else load_settings().settings)
    return LLMClient(config_from_env(settings=settings, api_key=stored_key(settings, secrets)), executor=executor)


async def read_with_model(client, text: str, session, home: str | None, say=None):
    """The model's reading of ``text`` as an intent, recorded as an ``extract`` node in
    ``session.early_events``; None when a road reading is not usable (the road parser's turn).
    The prompt path's rules hold for it too: a trip starting before ``session.today`` is refused
    (``start``), and one that names no budget is planned with the default budget, which ``say``
    hears (by default a line on stderr, as the rules' reading says it).
    ``ModelUnavailable``, ``ModelOutputError`` (a city answer invalid twice) and ``InputError`` propagate."""
    from engine.intake import looks_like_road_trip
    from engine.llm.early_nodes import EarlyNode
    road = looks_like_road_trip(text, routes=route_aliases())
    node = EarlyNode(session.early_events, client, "extract")
    node.fallback = "rule-based parser"
    intent = await _extracted(node, text, session, home, road, say or say_on_stderr)
    if intent is not None:
        check_not_past(intent, session.today)
    return intent


async def _extracted(node, text: str, session, home: str | None, road: bool, say):
    from engine.llm.extraction import extract, extract_road, is_multi_city, multi_city_intent
    client, today = node.client, session.today
    async with node:
        if not road:
            found = await extract(client, text, airports=sorted(session.catalog.airport_names()), today=today,
                                  on_reject=node.rejected)
            if is_multi_city(found):  # several stays (issue 33)
                return multi_city_intent(found, session, home, say)
            return city_intent(found, session, home, say)
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


def city_intent(found, session, home: str | None, say=say_on_stderr):
    from engine.intake.vocabulary import DEFAULT_BUDGET_USD, NO_BUDGET_GIVEN
    from engine.llm.extraction import trip_dates
    catalog = session.catalog
    catalog.city(found.city)  # an injected "city" is only an unknown city: exit 2
    start, end = trip_dates(found)
    origin = origin_airport(found.origin_airport, home)
    if found.budget_amount is None:  # as the rules read a prompt without one: the default, said
        amount, currency = Decimal(DEFAULT_BUDGET_USD), "USD"
        say(NO_BUDGET_GIVEN)
    else:
        amount, currency = Decimal(str(found.budget_amount)), (found.budget_currency or "USD").upper()
    budget = budget_cents(amount, currency, session)
    return city_intent_of(city_target(catalog, found.city), start, end, budget, origin, found)


def invalid_output_document(exc: ModelOutputError) -> str:
    from engine.models.itinerary import SCHEMA_VERSION
    return json.dumps({"schema_version": SCHEMA_VERSION, "status": "error", "reason": exc.reason,
                       "message": str(exc), "node": exc.node, "errors": exc.errors}, indent=2)


def llm_meta(drafter, *, extracted: bool) -> dict:
    """Seed 001 llmMeta: counts only (this path has no ideas, feedback or chat)."""
    meter = drafter.client.meter
    return {"ideaCount": 0, "feedbackCount": 0, "reactionCount": 0, "chatMessageCount": 0, **drafter.meta,
            "intentExtracted": extracted, **meter.summary()}
