"""The traveller's saved places on the command line: ``plan --places FILE`` (My Maps KML/KMZ,
Takeout GeoJSON, GPX waypoints, CSV) — each place a must-see of the plan, matched to the city's
own venue when it is the same place (name and ≤ 150 m); the rules are engine/trip_inputs.py's,
the app's too."""

from __future__ import annotations

import sys

from engine.errors import InputError
from engine.trip_inputs import MULTI_CITY_FILES, ROAD_TRIP_PLACES, add_saved_places

from .city_now import with_city_loaded


def with_saved_places(intent, path: str, session, *, verbose: bool, arg: str = "--places"):
    """``intent`` with the file's places as must-sees (after those it already had; a place it
    already has is not added twice). ``arg``: the argument errors name."""
    if intent.mode != "city":
        raise InputError(arg, MULTI_CITY_FILES if intent.mode == "multi_city" else ROAD_TRIP_PLACES)
    from engine.imports.saved_places import import_saved_places
    found = import_saved_places(path)
    intent = with_city_loaded(intent, session, verbose=verbose)  # a city no fixture covers: its pack
    added = add_saved_places(intent, found, session.catalog, field=arg)
    if verbose:
        print(f"tripwright: {added.line(intent.city)}", file=sys.stderr)
    return added.intent
