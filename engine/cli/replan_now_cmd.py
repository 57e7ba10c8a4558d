"""``tripwright replan-now TRIP_ID --now ISO_DATETIME`` with one of ``--late MINUTES``, ``--closed
PLACE``, ``--rain-from HH:MM``, ``--done-for-today``, ``--skip PLACE``, ``--at LAT,LON``, ``--bookings
FILE``: the trip's latest version re-planned from now on around that change
(``engine/replan_now``; a city trip's new version cites the org's notes as ``plan --save`` does),
saved as its next version (org-scoped, like ``revise``), ``--out`` written;
the change printed in one line. Bad input: one line, exit 2, nothing saved; a change the bounded
repair cannot settle: exit 3, nothing saved."""

from __future__ import annotations

import sys
from datetime import datetime

from engine.errors import InputError

OPTIONS = (("late", "--late"), ("closed", "--closed"), ("rain_from", "--rain-from"),
           ("done_for_today", "--done-for-today"), ("skip", "--skip"), ("at", "--at"), ("bookings", "--bookings"))


def run_replan_now(args) -> int:
    from engine.replan_now import load_trip_state, parse_disruption, replan_from_now

    from engine.frontend import signed_in
    from engine.notes.lookup import StoreNotesLookup

    from .paths import Outputs
    kind, option = next((k, o) for k, o in OPTIONS if getattr(args, k) not in (None, False))
    value = getattr(args, kind)
    disruption = parse_disruption(kind, None if value is True else value, field=option)
    now = _moment(args.now)
    if kind == "bookings":
        from .paths import read_input
        read_input(option, value)  # a missing, unreadable or oversized file: one line, before any work
    outputs = Outputs.check({"--out": args.out}, inputs={option: value} if kind == "bookings" else {})
    with signed_in() as (store, ctx):
        with store.org(ctx) as repo:
            road = repo.trips.get(args.trip_id).mode != "city"
            version = repo.versions.get(args.trip_id)
            itinerary, plan, number = version.itinerary_v1(), None if road else version.plan_v1(), version.number
        if road:  # a late start or a skipped stop (engine/replan_now/road.py); its notes were cited when planned
            from engine.replan_now.road import replan_road_from_now
            result = replan_road_from_now(itinerary, now, disruption, field_name="--now", value_field=option)
        else:  # the org's notes cited as the plan cited them (run_store.plan_and_save)
            result = replan_from_now(load_trip_state(itinerary, plan), now, disruption, field_name="--now",
                                     value_field=option, notes=StoreNotesLookup(store, ctx))
        if not result.ok:
            left = "; ".join(v.details.get("message", v.reason) for v in result.violations if v.blocking)
            print(f"tripwright: could not re-plan around {disruption.words()}: {left}; nothing saved",
                  file=sys.stderr)
            return 3
        note = f"Something changed ({result.moment.label()}): {disruption.words()}"[:200]
        with store.org(ctx) as repo:
            saved = repo.versions.save(args.trip_id, result.itinerary, intent=result.itinerary.intent,
                                       plan=result.plan, note=note, based_on=number)
    outputs.write({"--out": lambda: result.itinerary.model_dump_json(indent=2)})  # its path checked before
    print(result.glance)
    print(f"saved as version {saved.number} of trip {args.trip_id}", file=sys.stderr)
    return 0


def _moment(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text.strip())
    except ValueError:
        raise InputError("--now", f"a date and time as ISO 8601 (e.g. 2027-06-16T11:00), got {text!r}") from None
