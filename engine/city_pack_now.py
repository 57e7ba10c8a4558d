"""A city's pack now, for what must read its places before a run (``cities fetch``; the CLI's saved
places matched to the city's venues and bookings checked against its airports: engine/cli/city_now.py).
A run itself finds or fetches its pack in its ``city_pack`` node (engine/pipeline/city_pack_stage.py)."""

from __future__ import annotations

from collections.abc import Callable


def fetch_city_pack(session, query: str, *, say: Callable[[str], None] | None = None, refresh: bool = False,
                    choose: int | None = None):
    """The pack for ``query`` through the session's network and executor (cache first); ``say``
    hears each step's message and the fetcher's notes. Runs its own event loop."""
    import asyncio

    from engine.places.city_spec import resolve_city as spec_for
    from engine.places.city_spec import spec_of_pack
    fetcher = session.city_packs()
    cached = fetcher.store.find(query) if choose is None else None
    spec = spec_of_pack(cached) if cached is not None else spec_for(query, session.geocoder(), choose=choose)
    got = []

    async def run() -> None:  # returns nothing: asyncio.run's bookkeeping would repr a big pack
        try:
            progress = (lambda step: say(step.message)) if say is not None else None
            got.append(await fetcher.ensure(spec, progress=progress, refresh=refresh))
        finally:
            await session.toolbox.network.aclose()

    asyncio.run(run())
    outcome = got[0]
    if say is not None:
        for note in outcome.notes:
            say(note)
        if spec.note:  # a shared name: "Barcelona, Spain — say 'Barcelona, Venezuela' for the other"
            say(spec.note)
    return outcome


def resolve_city(session, query: str, *, say: Callable[[str], None] | None = None) -> str:
    """The catalog's name of the city ``query`` means, its places loaded now: a fixture city as
    it is, any other through its pack (cached, else fetched when online), joined to the session."""
    if session.catalog.has_city(query):
        return session.catalog.city(query).name
    return session.use_city_pack(fetch_city_pack(session, query, say=say).pack)
