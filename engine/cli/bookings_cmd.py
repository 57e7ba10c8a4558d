"""``plan --bookings FILE...``: the traveller's confirmations (e-mails with schema.org markup,
calendar files, PDF or text read by the configured model) as facts of the plan — the flights and
the hotel it is built around (engine/bookings reads them, engine/trip_inputs.py adds them to the
intent as the app does, engine/planning/booked.py plans them; a road trip takes the lodging, that
night's anchor: engine/roadtrip/booked_night.py)."""

from __future__ import annotations

import asyncio
import sys

from engine.errors import InputError
from engine.trip_inputs import merged_bookings, with_leg_tickets
from engine.trip_inputs import with_bookings as booked_intent

from .city_now import with_city_loaded


def with_bookings(intent, paths: list[str], session, *, verbose: bool, arg: str = "--bookings"):
    """``intent`` with the files' bookings (after any it already had; a booking it already has is
    not added twice, so reading the same confirmation again changes nothing). ``arg``: the
    argument errors name; a file's own error names the file too."""
    from engine.bookings import aread_bookings
    from engine.llm.prompt_reading import configured_client
    if intent.mode == "multi_city":
        return _with_leg_tickets(intent, paths, session, verbose=verbose, arg=arg)
    if intent.mode == "city":  # checked against the city's airports: a city no fixture covers, its pack
        intent = with_city_loaded(intent, session, verbose=verbose)
    bookings = intent.bookings
    for path in paths:
        found = asyncio.run(aread_bookings(path, configured_client, today=session.today))
        try:
            bookings = merged_bookings(intent, bookings, found, field=arg)
        except InputError as exc:
            raise InputError(arg, f"{path}: {exc.message}") from None
        if verbose:
            print(f"tripwright: {found.summary()}", file=sys.stderr)
    if bookings is None:
        return intent
    return booked_intent(intent, bookings, session.catalog, field=arg)


def _with_leg_tickets(intent, paths: list[str], session, *, verbose: bool, arg: str):
    """A multi-city trip's files read with their train and bus tickets, placed on its legs
    (engine/trip_inputs.py); a ticket on no leg is one line on stderr, the rest is planned."""
    from engine.bookings import aread_bookings
    from engine.llm.prompt_reading import configured_client
    found_all = []
    for path in paths:
        found = asyncio.run(aread_bookings(path, configured_client, today=session.today, legs=True))
        found_all.append(found)
        if verbose:
            print(f"tripwright: {found.summary()}", file=sys.stderr)
    try:
        added = with_leg_tickets(intent, found_all, session.catalog, field=arg)
    except InputError as exc:
        raise InputError(arg, f"{', '.join(paths)}: {exc.message}") from None
    for line in added.unplaced:
        print(f"tripwright: {line}", file=sys.stderr)
    return added.intent
