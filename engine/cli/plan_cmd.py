"""``tripwright plan``: intent file or prompt → pipeline → itinerary, GPX, iCal, events."""

from __future__ import annotations

import sys
from datetime import date

from engine.catalog import default_catalog
from engine.frontend import check_not_past, intent_from_prompt, planning_date, read_intent_file
from engine.pipeline import PlanningSession

from .live_events import LiveEvents
from .paths import Outputs
from .plan_inputs import with_trip_files
from .plan_report import report_plan
from .run_store import plan_and_save, plan_unsaved, save_diagnostics


def run_plan(args) -> int:
    today = planning_date(args.today)
    outputs = Outputs.check({"--out": args.out, "--gpx": args.gpx, "--ics": args.ics, "--events": args.events},
                            inputs={"--intent": args.intent, "--places": getattr(args, "places", None),
                                    **{f"--bookings {p}": p for p in getattr(args, "bookings", None) or []}})
    session = PlanningSession(default_catalog(), today=today)
    live = args.live_events = LiveEvents(outputs.paths["--events"]) if "--events" in outputs.paths else None
    session.event_tap = both_taps(live, say_city_pack if getattr(args, "verbose", 0) else None)
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
    intent = (read_intent_file(args.intent) if args.intent is not None
              else intent_from_prompt(args.prompt, session, args.home_airport))
    intent = with_trip_files(intent, args, session)
    check_not_past(intent, today)
    try:
        if args.save:
            result = plan_and_save(session, intent, trip_id=args.trip, name=args.name)
        else:
            result = plan_unsaved(session, intent)  # the signed-in org's notes are cited too
    finally:
        save_diagnostics(session)
    return report_plan(args, outputs, result)


def both_taps(*taps):
    """One event tap calling each given one (None: none given)."""
    given = [tap for tap in taps if tap is not None]
    if len(given) <= 1:
        return given[0] if given else None

    def tap(event) -> None:
        for each in given:
            each(event)
    return tap


def say_city_pack(event) -> None:
    """``-v``: the run's city_pack steps (a city's places found or fetched) on stderr."""
    if event.node == "city_pack" and event.decision_note and event.status.value != "started":
        print(f"tripwright: {event.decision_note}", file=sys.stderr)
