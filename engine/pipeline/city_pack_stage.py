"""The ``city_pack`` node: before a city no fixture covers is planned, its OSM pack is read from
the cache or fetched (engine.places.fetch), each step an event of the run — so the app's progress
panel shows the fetch (bytes received, then the counts) and its Cancel stops it.

A request for such a city cannot know its airports or time zone before the pack is there (the
app's form sends placeholders): once the pack is joined, the intent takes the pack city's own
airports and zone wherever it names others (``fit_to_pack_city``); a fixture city's intent is
never changed (a wrong airport there stays an error naming it)."""

from __future__ import annotations

import dataclasses
import time

import structlog

from engine.catalog.airports import airports_for_trip
from engine.errors import InputError
from engine.models import EventStatus, IntentV1

NODE = "city_pack"
DOWNLOADING = 0.5  # how far into the node a download is (the fetcher's steps say their own fraction)
DOWNLOAD_EVERY_S = 0.25  # the answer arrives in many small chunks; four counts a second say enough


async def join_city_pack(run) -> IntentV1:
    """Make ``run.intent.city`` a catalog city, or raise (CityPackMissing offline, ToolError,
    AmbiguousCityError); a cached fresh pack costs one file read. Returns the intent fitted to
    the city (the run takes it)."""
    session, intent = run.s, run.intent
    if session.catalog.has_city(intent.city):
        return fit_to_pack_city(intent, session.catalog.city(intent.city))
    with structlog.contextvars.bound_contextvars(node=NODE):
        started = time.perf_counter()
        run.emitter.emit(NODE, EventStatus.started, note=f"Finding {intent.city}'s places")

        said_at = [0.0]

        def step(found) -> None:  # byte counts at most every DOWNLOAD_EVERY_S: a run keeps its events
            if found.stage == "download":
                if found.bytes_received < 512 or time.perf_counter() - said_at[0] < DOWNLOAD_EVERY_S:
                    return  # "0 KB received" says nothing
                said_at[0] = time.perf_counter()
            run.emitter.emit(NODE, EventStatus.running, note=found.message,
                             fraction=found.fraction if found.fraction is not None else DOWNLOADING)
        spec = _spec(session, intent.city)
        outcome = await session.city_packs().ensure(spec, progress=step, cancel=run.cancel)
        name = session.use_city_pack(outcome.pack)
        if spec.note:  # "Barcelona, Spain — say 'Barcelona, Venezuela' for the other"
            session.place_notes[name] = spec.note
        fitted = fit_to_pack_city(intent, session.catalog.city(name))
        counts = outcome.pack.counts()
        said = "fetched from OpenStreetMap" if outcome.fetched else f"cached {outcome.pack.fetched_at:%Y-%m-%d}"
        flying = (f"; flying into {', '.join(fitted.airports)}{_long_haul_note(fitted, session)}"
                  if fitted.airports != intent.airports else "")
        note = (f"{name}: {counts['sight']} sights, {counts['food']} places to eat, {counts['bed']} to stay ({said})"
                + flying + "".join(f"; {n}" for n in outcome.notes) + (f"; planning {spec.note}" if spec.note else ""))
        run.emitter.emit(NODE, EventStatus.completed, note=note, cache_hit=not outcome.fetched,
                         duration_ms=int((time.perf_counter() - started) * 1000))
    return fitted


def fit_to_pack_city(intent: IntentV1, city) -> IntentV1:
    """``intent`` for a pack city (``city`` from the catalog): its canonical name, and the city's
    own airports and time zone where the intent names others (what a form or a prompt could not
    know before the pack was there); of all of them, those a long-haul trip lands at
    (``airports_for_trip``), while a traveller's narrower choice stands. A fixture city's intent
    is returned as it is."""
    if not city.raw.transit.estimated:  # a fixture city (only packs estimate fares): no import paid
        return intent
    from engine.places.pack_city import PackCity
    if not isinstance(city.raw, PackCity):
        return intent
    update: dict = {}
    if intent.city != city.name:
        update["city"] = city.name
    if not set(intent.airports) <= set(city.airports):
        airports = [code for code in city.airports if code != intent.origin_airport]
        if not city.airports:
            raise InputError("airports", f"no airport with scheduled flights was found near {city.name}")
        if not airports:
            raise InputError("origin_airport", f"{intent.origin_airport} is {city.name}'s own airport; "
                                               "choose the airport you fly from")
        update["airports"] = airports_for_trip(intent.origin_airport, airports)
    elif set(intent.airports) == set(city.airports) - {intent.origin_airport}:  # all of them: not narrowed
        landing = airports_for_trip(intent.origin_airport, list(intent.airports))
        if landing != list(intent.airports):
            update["airports"] = landing
    if intent.date_window.tz != city.tz:
        update["date_window"] = intent.date_window.model_copy(update={"tz": city.tz})
    if not update:
        return intent
    return type(intent).model_validate({**intent.model_dump(), **update,  # a stay stays a StayIntent
                                        "date_window": update.get("date_window", intent.date_window).model_dump()})


def _long_haul_note(fitted: IntentV1, session) -> str:
    """Why a city's other airports are not used: they have no long-haul service."""
    city = session.catalog.city(fitted.city)
    others = [code for code in city.airports if code not in fitted.airports and code != fitted.origin_airport]
    if not others:
        return ""
    return (f" (long-haul flights land there; {', '.join(others)} "
            f"{'has' if len(others) == 1 else 'have'} shorter routes only)")


def _spec(session, city: str):
    """The place ``city`` names: a cached pack's (still saying a shared name's other places), else
    the gazetteer's (AmbiguousCityError on a near tie)."""
    from engine.places.city_spec import resolve_city, spec_of_pack
    cached = session.city_packs().store.find(city)
    if cached is None:
        return resolve_city(city, session.geocoder())
    spec = spec_of_pack(cached)
    try:
        meant = resolve_city(city, session.geocoder())
    except InputError:  # a near tie the traveller settled before, or a name the gazetteer lacks
        return spec
    same = (meant.name, meant.country) == (cached.name, cached.country)
    return dataclasses.replace(spec, note=meant.note) if same and meant.note else spec
