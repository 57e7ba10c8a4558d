"""The traveller's saved places on the command line: ``plan --places FILE`` (My Maps KML/KMZ,
Takeout GeoJSON, GPX waypoints, CSV) — each place a must-see of the plan, matched to the city's
own venue when it is the same place (name and ≤ 150 m)."""

from __future__ import annotations

import sys

from engine.errors import InputError
from engine.models.intent import MAX_MUST_SEE, MustSee

from .city_now import with_city_loaded


def with_saved_places(intent, path: str, session, *, verbose: bool, arg: str = "--places"):
    """``intent`` with the file's places as must-sees (after those it already had; a place it
    already has is not added twice). ``arg``: the argument errors name."""
    if intent.mode != "city":
        raise InputError(arg, "saved places are planned on city trips; on a road trip add them "
                              "on the map as places to visit")
    from engine.imports.place_match import match_saved_places
    from engine.imports.saved_places import import_saved_places
    found = import_saved_places(path)
    intent = with_city_loaded(intent, session, verbose=verbose)  # a city no fixture covers: its pack
    city = session.catalog.city(intent.city).raw
    pairs = match_saved_places(found.places, [*city.venues, *city.restaurants])  # a saved café is a meal
    must = list(intent.prefs.must_see)
    for p, venue in pairs:
        place = MustSee(name=p.name, geo={"lat": p.lat, "lon": p.lon}, notes=p.notes, source=p.source, venue_id=venue)
        if place not in must:
            must.append(place)
    if len(must) > MAX_MUST_SEE:
        raise InputError(arg, f"{len(must)} places to see; a plan takes at most {MAX_MUST_SEE}")
    if verbose:
        matched = sum(venue is not None for _, venue in pairs)
        print(f"tripwright: {found.summary()}; {matched} matched to {intent.city}'s venues", file=sys.stderr)
    prefs = intent.prefs.model_copy(update={"must_see": must})
    return type(intent).model_validate({**intent.model_dump(), "prefs": prefs.model_dump()})
