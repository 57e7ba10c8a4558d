"""The ``city_pack`` node: before a city no fixture covers is planned, its OSM pack is read from
the cache or fetched (engine.places.fetch), each step an event of the run — so the app's progress
panel shows the fetch (bytes received, then the counts) and its Cancel stops it."""

from __future__ import annotations

import time

import structlog

from engine.models import EventStatus

NODE = "city_pack"
STAGE_PROGRESS = {"cache": 4, "stale": 4, "query": 1, "download": 2, "build": 3, "done": 4}


async def join_city_pack(run) -> None:
    """Make ``run.intent.city`` a catalog city, or raise (CityPackMissing offline, ToolError,
    AmbiguousCityError); a cached fresh pack costs one file read."""
    session, intent = run.s, run.intent
    if session.catalog.has_city(intent.city):
        return
    with structlog.contextvars.bound_contextvars(node=NODE):
        started = time.perf_counter()
        run.emitter.emit(NODE, EventStatus.started, progress=1, note=f"Finding {intent.city}'s places")

        def step(found) -> None:
            run.emitter.emit(NODE, EventStatus.running, note=found.message, progress=STAGE_PROGRESS.get(found.stage, 2))
        outcome = await session.city_packs().ensure(_spec(session, intent.city), progress=step, cancel=run.cancel)
        name = session.use_city_pack(outcome.pack)
        counts = outcome.pack.counts()
        said = "fetched from OpenStreetMap" if outcome.fetched else f"cached {outcome.pack.fetched_at:%Y-%m-%d}"
        note = (f"{name}: {counts['sight']} sights, {counts['food']} places to eat, {counts['bed']} to stay ({said})"
                + "".join(f"; {n}" for n in outcome.notes))
        run.emitter.emit(NODE, EventStatus.completed, note=note, progress=5, cache_hit=not outcome.fetched,
                         duration_ms=int((time.perf_counter() - started) * 1000))
    if name != intent.city:
        run.intent = intent.model_copy(update={"city": name})


def _spec(session, city: str):
    from engine.places.city_spec import resolve_city, spec_of_pack
    cached = session.city_packs().store.find(city)
    return spec_of_pack(cached) if cached is not None else resolve_city(city, session.geocoder())
