"""``tripwright cities fetch CITY | list | delete CITY``: the cached OpenStreetMap city packs (a
``plan`` of a city no fixture covers finds or fetches its pack in the run: engine/frontend.py)."""

from __future__ import annotations

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
    from engine.frontend import fetch_city_pack
    from engine.pipeline.run import PlanningSession
    outcome = fetch_city_pack(PlanningSession(), args.city, say=_say, refresh=args.refresh,
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


def _say(line: str) -> None:
    print(f"tripwright: {line}", file=sys.stderr)
