"""``tripwright today TRIP_ID [--now ISO_DATETIME] [--json]`` (issue 36 §1): a saved trip read on
today's clock — now, next, when to leave and how, open or not, the day's weather, booking codes
and the day the map shows. ``--now`` fixes the clock (tests, demos): with an offset, or a plain
local time read on the trip's clock that day. Not under way: one line saying when it starts or
ended, exit 0 (``--json``: ``"under_way": false``). An unknown trip or a bad ``--now``: one
line, exit 2. Reading a trip never changes it."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from engine.errors import InputError


def add_today_parser(command) -> None:  # noqa: ANN001 (the CLI's subcommand factory)
    today = command("today", "what a trip under way does now: now, next, when to leave, open, weather, bookings")
    today.add_argument("trip_id", help="the trip's id (see 'tripwright trips list')")
    today.add_argument("--now", help="the clock to read the trip at, e.g. 2027-06-16T10:40:00+02:00 "
                                     "(without an offset: the trip's local time); default: this computer's clock")
    today.add_argument("--json", action="store_true", help="the answer as JSON")


def run_today(args) -> int:  # noqa: ANN001
    from engine.today_sources import today_offline_or_live
    from engine.today_words import heading, today_lines
    from engine.trip_today import on_trip_clock

    from .run_store import org_scope

    given = _parse_now(args.now) if args.now is not None else datetime.now(UTC)
    with org_scope() as repo:
        trip = repo.trips.get(args.trip_id)
        version = repo.versions.get(trip.trip_id)
    itinerary = version.itinerary_v1()
    now = on_trip_clock(itinerary, given)
    today = today_offline_or_live(itinerary, now)
    import structlog
    structlog.get_logger("tripwright.cli").info("trip_today", trip_id=trip.trip_id, version=version.number, under_way=today.under_way,
                                                 day=today.day_index, bookings=len(today.bookings))  # never the codes
    if args.json:
        print(json.dumps(today.model_dump(mode="json"), ensure_ascii=False, indent=2))
        return 0
    print(heading(today))
    for label, text in today_lines(today):
        print(f"{label + ':':<10}{text}")
    return 0


def _parse_now(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text.strip())
    except ValueError:
        raise InputError("--now", f"{text!r} is not a date and time; give e.g. 2027-06-16T10:40:00+02:00") from None
