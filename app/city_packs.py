"""The cities kept for offline use (OpenStreetMap city packs) as the window sees them.

``CityPacks`` lists the pack cache off the GUI thread and hands the trip form the cities it may
complete and plan with their own airports (``IntentForm.set_known_cities``); deletes a pack in a
thread; refreshes one through the planning session's fetcher on the planner's engine loop (where
the session's HTTP client, breakers and caches live), its steps reported back on the GUI loop and
cancellable. Reading, fetching and deleting never run on the GUI thread.

Qt-free apart from being driven by the window: ``listing`` and ``known_cities`` are plain functions.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import Callable

from engine.errors import InputError
from widgets.intent_city import KnownCity

log = logging.getLogger(__name__)


def listing(store, base_catalog) -> tuple[list, list[KnownCity]]:
    """(the cache's entries, the cities the form may offer), reading each pack once more for its
    airports and zone. A name two packs share ("Córdoba", AR and ES) is offered by its label."""
    from engine.places.catalog_link import city_name_for
    entries = store.entries()
    packs = [p for p in (store.load(e.slug) for e in entries) if p is not None]
    names = {p.slug: city_name_for(p, base_catalog) for p in packs}
    shared = {name for name, n in Counter(names.values()).items() if n > 1}
    known = [KnownCity(name=p.label if names[p.slug] in shared else names[p.slug], label=p.label,
                       airports=tuple((a.iata, a.name) for a in p.airports), tz=p.tz, places=len(p.places))
             for p in packs]
    return entries, known


class CityPacks:
    def __init__(self, window) -> None:
        self.w = window
        self.entries: list = []
        self.known: list[KnownCity] = []

    @property
    def store(self):
        """The pack cache the planning session reads and writes (``<data dir>/city-packs``)."""
        return self.w.planning.city_packs().store

    def base_catalog(self):
        from engine.catalog import default_catalog
        return default_catalog()

    async def reload(self) -> list:
        """List the cache in a thread, give the form its cities; the entries (for Settings)."""
        store, base = self.store, self.base_catalog()
        self.entries, self.known = await asyncio.to_thread(listing, store, base)
        self.w.intent_form.set_known_cities(self.known)
        return self.entries

    def start(self) -> None:
        """At start-up: the cached cities reach the form while the map loads; the gazetteer is
        opened off the GUI thread and then completes the city field as the traveller types."""
        self._listing = asyncio.ensure_future(self._quiet_reload())
        self._gazetteer = asyncio.ensure_future(self._city_completion())

    async def _city_completion(self) -> None:
        from engine.geocode import default_gazetteer
        try:
            gazetteer = await asyncio.to_thread(default_gazetteer)
        except Exception:  # noqa: BLE001 — no index (a read-only data dir): no completion, nothing else
            log.warning("no gazetteer for city completion", exc_info=True)
            return
        self.w.intent_form.set_city_suggester(gazetteer.complete)

    async def _quiet_reload(self) -> None:
        try:
            await self.reload()
        except Exception:  # noqa: BLE001 — an unreadable cache only means no completions
            log.warning("could not list the cached cities", exc_info=True)

    def planned(self, city: str) -> None:
        """A city just planned from its pack: offer it at once (its airports from the session's
        catalog), then list the cache again for its label and size."""
        known = known_city_of(self.w.planning.catalog, city)
        if known is not None and self.w.intent_form.known_city(city) is None:
            self.known = [*self.known, known]
            self.w.intent_form.set_known_cities(self.known)
            self._listing = asyncio.ensure_future(self._quiet_reload())

    async def delete(self, slug: str) -> bool:
        deleted = await asyncio.to_thread(self.store.delete, slug)
        await self.reload()
        return deleted

    async def refresh(self, slug: str, *, progress: Callable[[str], None], cancel):
        """Fetch ``slug``'s city again on the engine loop; ``progress(message)`` on the GUI loop.
        Returns the fetcher's outcome (``fetched`` False with a note when it kept the old pack)."""
        from engine.places.city_spec import spec_of_pack
        store = self.store
        pack = await asyncio.to_thread(store.load, slug)
        if pack is None:
            raise InputError("city", "that city is no longer kept for offline use")
        gui = asyncio.get_running_loop()

        def step(found) -> None:  # on the engine loop's thread
            try:
                gui.call_soon_threadsafe(progress, found.message)
            except RuntimeError:  # the GUI loop is gone: nobody to tell
                pass
        fetcher = self.w.planning.city_packs()
        try:
            return await self.w.controller.service.on_engine(
                fetcher.ensure(spec_of_pack(pack), progress=step, cancel=cancel, refresh=True))
        finally:
            await self.reload()


def known_city_of(catalog, name: str) -> KnownCity | None:
    """The form's entry for a pack city the session has joined (None for a fixture city)."""
    from engine.places.pack_city import PackCity
    if not catalog.has_city(name):
        return None
    city = catalog.city(name)
    if not isinstance(city.raw, PackCity):
        return None
    airports = tuple((code, catalog.airport(code).name) for code in city.airports)
    return KnownCity(name=city.name, label=f"{city.name}, {city.raw.country}", airports=airports, tz=city.tz)
