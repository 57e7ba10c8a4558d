"""``tripwright plan --llm``: the configured model extracts the intent (from ``--prompt``) and
proposes the choices; the engine schedules, verifies and repairs. An endpoint that cannot be used
→ the rule-based plan, exit 0, one warning line on stderr; an answer invalid twice → exit 3 with
``{"status": "error", "reason": "invalid_model_output", ...}`` in ``--out``. Road trips: the model
proposes the nights and stops among the corridor's towns (``engine/llm/road_drafting.py``). The
model's reading and client are engine/llm/prompt_reading.py's, as the app's "Plan with AI"."""

from __future__ import annotations

import asyncio
import sys

from engine.errors import ModelOutputError, ModelUnavailable
from engine.frontend import check_not_past, intent_from_prompt, read_intent_file
from engine.llm.prompt_reading import configured_client, invalid_output_document, llm_meta, read_with_model

from .plan_inputs import with_trip_files
from .plan_report import report_plan
from .run_store import closing, org_scope, plan_and_save, plan_unsaved, save_diagnostics


def warn(reason: str) -> None:
    print(f"tripwright: warning: model unavailable ({reason}); planned rule-based", file=sys.stderr)


def model_client(executor=None):
    """The client for the effective config, or None (and the warning) when it cannot work."""
    try:
        return configured_client(executor=executor)
    except ModelUnavailable as exc:
        warn(exc.reason)
        return None


def intent_with_model(client, text: str, session, home: str | None):
    """(intent, model_used): the model's extraction (an ``extract`` node in the run's events), or
    the rule-based parsers when it is unavailable. A road trip the model could not read is the
    road parser's to read."""
    if client is None:
        return intent_from_prompt(text, session, home), False
    try:
        intent = asyncio.run(closing(client, read_with_model(client, text, session, home)))
    except ModelUnavailable as exc:
        warn(exc.reason)
        return intent_from_prompt(text, session, home), False
    if intent is None:
        return intent_from_prompt(text, session, home), False
    return intent, True


def run_plan_llm(args, session, outputs, today) -> int:
    try:
        return _run_plan_llm(args, session, outputs, today)
    finally:
        save_diagnostics(session)  # the model's calls, errors, invalid outputs and cost too


def _run_plan_llm(args, session, outputs, today) -> int:
    from engine.llm.drafting import Drafter
    client = model_client(session.toolbox.executor)
    extracted = False
    try:
        if args.intent is not None:
            intent = read_intent_file(args.intent)
        else:
            intent, extracted = intent_with_model(client, args.prompt, session, args.home_airport)
    except ModelOutputError as exc:
        return _invalid(outputs, exc)
    intent = with_trip_files(intent, args, session)  # as the rule-based path
    check_not_past(intent, today)
    drafter = None
    if client is not None and intent.mode == "road_trip":
        from engine.llm.road_drafting import RoadDrafter
        drafter = RoadDrafter(client)  # nights and stops from the corridor's towns; the invariants decide
    elif client is not None:
        ideas = _trip_ideas(args.trip) if args.save and args.trip else []
        brief, brief_meta = _chat_brief(client, args.trip if args.save else None, session)
        from engine.llm.chat_brief import with_brief_pace
        intent = with_brief_pace(intent, brief)  # the group's agreed pace, unless the traveller set one
        drafter = Drafter(client, ideas=ideas, brief=brief, brief_meta=brief_meta)
    meta_of = (lambda _result: llm_meta(drafter, extracted=extracted) if drafter.meta else None)
    if args.save:
        result = plan_and_save(session, intent, trip_id=args.trip, name=args.name, drafter=drafter,
                               meta_of=meta_of if drafter else None)
    else:
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
    with org_scope() as repo:
        return [(i.title, i.priority) for i in repo.group.ideas(trip_id)][:10]


def _chat_brief(client, trip_id: str | None, session) -> tuple[dict | None, dict]:
    """The brief when the flag is on and the trip has a chat (a ``summarize_chat`` node in the
    run's events); failures fall back (logged)."""
    from engine.llm import chat_brief
    if not chat_brief.enabled() or not trip_id:
        return None, {}
    window = chat_brief.window_from_env()
    with org_scope() as repo:
        messages = repo.group.chat(trip_id, limit=window.max_messages)
    from engine.llm.early_nodes import brief_with_events
    brief, meta = asyncio.run(closing(client, brief_with_events(session.early_events, client, messages,
                                                                window=window)))
    return brief, {**meta, "chatMessageCount": meta["chatBriefMessageCount"]}


def _invalid(outputs, exc: ModelOutputError) -> int:
    outputs.write({"--out": lambda: invalid_output_document(exc)})
    print(f"tripwright: {exc.reason}: {exc}", file=sys.stderr)
    return 3
