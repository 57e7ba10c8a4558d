"""``plan --bookings FILE...``: the traveller's confirmations (e-mails with schema.org markup,
calendar files, PDF or text read by the configured model) as facts of the plan — the flights and
the hotel it is built around (engine/bookings reads them, engine/planning/booked.py plans them; a
road trip takes the lodging, that night's anchor: engine/roadtrip/booked_night.py)."""

from __future__ import annotations

import asyncio
import sys

from engine.errors import InputError
from engine.models.bookings import MAX_BOOKED_EVENTS, MAX_BOOKED_FLIGHTS, Bookings

from .city_now import with_city_loaded


def with_bookings(intent, paths: list[str], session, *, verbose: bool, arg: str = "--bookings"):
    """``intent`` with the files' bookings (after any it already had; a booking it already has is
    not added twice, so reading the same confirmation again changes nothing). ``arg``: the
    argument errors name."""
    from engine.bookings import aread_bookings
    from engine.llm.prompt_reading import configured_client
    if intent.mode == "city":  # checked against the city's airports: a city no fixture covers, its pack
        intent = with_city_loaded(intent, session, verbose=verbose)
    have = intent.bookings or Bookings()
    flights, hotel, events = list(have.flights), have.hotel, list(have.events)
    for path in paths:
        found = asyncio.run(aread_bookings(path, configured_client, today=session.today))
        if intent.mode == "road_trip" and found.bookings.flights:
            f = found.bookings.flights[0]
            raise InputError(arg, f"{path}: flight {f.flight_number} {f.origin}→{f.dest}; a road trip plans no "
                                  "flights, only the lodging booked along the way")
        flights += [f for f in found.bookings.flights if f not in flights]
        events += [e for e in found.bookings.events if e not in events]
        if found.bookings.hotel is not None and found.bookings.hotel != hotel:
            if hotel is not None:
                raise InputError(arg, f"{path}: a second hotel booking; a trip is planned around one")
            hotel = found.bookings.hotel
        if verbose:
            print(f"tripwright: {found.summary()}", file=sys.stderr)
    flights.sort(key=lambda f: f.departure)  # as the trip flies them (and as 'bookings list' numbers them)
    if len(flights) > MAX_BOOKED_FLIGHTS:
        raise InputError(arg, f"{len(flights)} booked flights; a trip takes at most {MAX_BOOKED_FLIGHTS}")
    data = intent.model_dump()
    if len(events) > MAX_BOOKED_EVENTS:
        raise InputError(arg, f"{len(events)} booked events; a trip takes at most {MAX_BOOKED_EVENTS}")
    data["bookings"] = Bookings(flights=flights, hotel=hotel, events=sorted(events, key=lambda e: e.start)).model_dump()
    booked = type(intent).model_validate(data)
    if intent.mode == "road_trip":  # the booked motel: that night's anchor (engine/roadtrip/booked_night.py)
        from engine.roadtrip.booked_night import check_road_bookings
        check_road_bookings(booked)
        return booked
    from engine.planning.booked import check_bookings
    check_bookings(booked, session.catalog)
    return booked
