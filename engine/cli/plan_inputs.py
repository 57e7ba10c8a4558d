"""The files ``plan`` and ``plan --llm`` add to an intent: ``--route-file`` (the corridor),
``--places`` (must-sees) and ``--bookings`` (the trip's fixed points)."""

from __future__ import annotations


def with_trip_files(intent, args, session):
    """``intent`` with what ``--route-file``, ``--places`` and ``--bookings`` add (plan and plan --llm)."""
    verbose = bool(getattr(args, "verbose", 0))
    if args.route_file is not None:  # the imported track is the corridor
        from engine.roadtrip.route_file import follow_track
        intent = follow_track(intent, args.route_file)
    if getattr(args, "places", None) is not None:  # the traveller's own places
        from .saved_places_cmd import with_saved_places
        intent = with_saved_places(intent, args.places, session, verbose=verbose)
    if getattr(args, "bookings", None):  # and bookings (a road trip's motel: that night's stop)
        from .bookings_cmd import with_bookings
        intent = with_bookings(intent, args.bookings, session, verbose=verbose)
    return intent
