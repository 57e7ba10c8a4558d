"""The ``places`` node: the traveller's saved places the city's data does not know are looked up
in OpenStreetMap before the planner runs (``engine.places.saved_lookup``). A found one carries the
Place the OSM reader made of its element in the intent (``MustSee.osm``: hours, kind, link), so the
plan, a re-plan and ``tripwright verify`` read the same facts; the rest keep unknown hours — said
in one event."""

from __future__ import annotations

import time

from engine.models import EventStatus, IntentV1

NODE = "places"


async def look_up_saved_places(run) -> IntentV1:
    """``run.intent`` with the OSM element of each saved place found (the same intent when none is)."""
    intent: IntentV1 = run.intent
    own = [m for m in intent.prefs.must_see if not m.venue_id and m.osm is None]
    if not own:
        return intent
    from engine.places.saved_lookup import SavedLookupCache, osm_places
    session, started = run.s, time.perf_counter()
    offline = session.toolbox.network.offline()
    packs = session.city_packs()
    found, asked = await osm_places(own, None if offline else packs.client,
                                    SavedLookupCache(packs.store.folder.parent), offline=offline)
    if found:
        must = [m.model_copy(update={"osm": found[m.place_id].place()}) if m.place_id in found else m
                for m in intent.prefs.must_see]
        intent = intent.model_copy(update={"prefs": intent.prefs.model_copy(update={"must_see": must})})
    run.emitter.emit(NODE, EventStatus.completed, note=_said(len(own), len(found), asked),
                     duration_ms=int((time.perf_counter() - started) * 1000))
    return intent


def _said(own: int, found: int, asked: bool) -> str:
    said = f"{own} of your places {'is' if own == 1 else 'are'} not in the city's list"
    if found:
        said += f"; {found} found in OpenStreetMap (hours and kind from there)"
    if not asked:
        said += "; OpenStreetMap could not be asked now (offline or not answering): hours unknown"
    elif found < own:
        said += f"; {own - found} not found there: hours unknown, planned in a cautious daytime window"
    return said
