"""``tripwright cities fetch CITY | list | delete CITY``: the cached OpenStreetMap city packs, and
``city_for_plan`` — how ``plan`` gets a city no fixture covers (the cache, else one fetch)."""

from __future__ import annotations

import asyncio
import sys

from engine.errors import InputError

EXIT_OK = 0


def add_cities_parser(command) -> None:
    cities = command("cities", "fetch, list or delete cached OpenStreetMap city packs")
    cities.add_argument("action", choices=["fetch", "list", "delete"], help="what to do")
    cities.add_argument("city", nargs="?", help='fetch/delete: the city, e.g. "Lisbon" or "Córdoba, Spain"')
    cities.add_argument("--refresh", action="store_true", help="fetch: fetch again even when the cached pack is fresh")
    cities.add_argument("--choice", type=int, help="fetch: the n-th candidate when several places share the name")


def run_cities(args) -> int:
    from engine.places.pack_store import PackStore
    store = PackStore()
    if args.action == "list":
        return _list(store)
    if not args.city:
        raise InputError("city", f"'cities {args.action}' needs a city")
    if args.action == "delete":
        return _delete(store, args.city)
    from engine.pipeline.run import PlanningSession
    session = PlanningSession()
    outcome = fetch_city(session, args.city, verbose=True, refresh=args.refresh,
                         choose=args.choice - 1 if args.choice else None)
    pack = outcome.pack
    counts = pack.counts()
    said = "fetched" if outcome.fetched else "cached"
    print(f"{pack.label}: {counts['sight']} sights, {counts['food']} places to eat, {counts['bed']} places to stay "
          f"({said} {pack.fetched_at:%Y-%m-%d}; OSM data as of {pack.osm_base or 'unknown'})")
    return EXIT_OK


def _list(store) -> int:
    entries = store.entries()
    if not entries:
        print("no cached city packs (tripwright cities fetch CITY)")
    for e in entries:
        stale = ", stale: refreshed at the next online plan" if e.stale else ""
        print(f"{e.slug}\t{e.label}\t{e.places} places\t{e.size_bytes / 1024:.0f} KB\t"
              f"fetched {e.fetched_at:%Y-%m-%d}{stale}")
    return EXIT_OK


def _delete(store, city: str) -> int:
    pack = store.find(city)
    if pack is None or not store.delete(pack.slug):
        raise InputError("city", f"no cached pack for {city!r} (see 'tripwright cities list')")
    print(f"deleted {pack.label}")
    return EXIT_OK


def fetch_city(session, query: str, *, verbose: bool, refresh: bool = False, choose: int | None = None):
    """The pack for ``query`` through the session's network and executor (cache first)."""
    from engine.places.city_spec import resolve_city, spec_of_pack
    from engine.places.fetch import PackFetcher
    from engine.places.pack_store import PackStore
    store = PackStore()
    cached = store.find(query) if choose is None else None
    if cached is not None:
        spec = spec_of_pack(cached)
    else:
        from engine.geocode import default_gazetteer
        spec = resolve_city(query, default_gazetteer(), choose=choose)
    fetcher = PackFetcher(store, session.toolbox.network, session.toolbox.executor)
    say = (lambda step: print(f"tripwright: {step.message}", file=sys.stderr)) if verbose else None

    got = []

    async def run() -> None:  # returns nothing: asyncio.run's bookkeeping would repr a big pack
        try:
            got.append(await fetcher.ensure(spec, progress=say, refresh=refresh))
        finally:
            await session.toolbox.network.aclose()

    asyncio.run(run())
    outcome = got[0]
    for note in outcome.notes:
        print(f"tripwright: {note}", file=sys.stderr)
    return outcome


def city_for_plan(session, query: str, *, verbose: bool) -> str:
    """The catalog's name of the city ``query`` means: a fixture city as it is, any other city
    through its pack (cached, else fetched when online), joined to the session's catalog."""
    if session.catalog.has_city(query):
        return session.catalog.city(query).name
    return session.use_city_pack(fetch_city(session, query, verbose=verbose).pack)
