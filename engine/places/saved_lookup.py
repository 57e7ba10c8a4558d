"""The traveller's saved places that the city's data does not know, looked up in OpenStreetMap for
their hours (issue 21 §2: "online: matched to OSM for its hours").

One Overpass query asks for the named elements within ``LOOKUP_METRES`` of every such place; a
place takes the nearest element whose name — or one of its ``name:xx`` — names it
(``place_match.names_match``). What was found — and what was not — is kept in ``<home>/city-packs/saved-places.json`` for ``STALE_AFTER`` days, so a
re-plan or an offline plan asks nothing again. Offline, or when Overpass fails, the places keep
their unknown hours (the caller says so); nothing here raises a tool error.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import structlog

from engine.errors import ToolError
from engine.atomic import write_atomic
from engine.geo import distance_m
from engine.imports.place_match import names_match
from engine.models.intent import MustSee
from engine.models.place import names_of

from .osm_reader import PlaceRow, read_row
from .overpass import Element, OverpassClient
from .pack_store import FOLDER, STALE_AFTER

log = structlog.get_logger("tripwright.places")

LOOKUP_METRES = 150
MAX_ELEMENTS = 400
CACHE_FILE = "saved-places.json"
MAX_CACHE_ENTRIES = 5000


def cache_key(place: MustSee) -> str:
    return f"{place.name.strip().casefold()}|{place.geo.lat:.5f}|{place.geo.lon:.5f}"


def lookup_query(places: list[MustSee]) -> str:
    around = "".join(f'nwr(around:{LOOKUP_METRES},{p.geo.lat:.6f},{p.geo.lon:.6f})["name"];' for p in places)
    return f"[out:json][timeout:25];({around});out center tags {MAX_ELEMENTS};"


def best_match(place: MustSee, elements: list[Element]) -> PlaceRow | None:
    """The nearest element within reach whose name names the place and that a traveller can visit."""
    found: list[tuple[float, PlaceRow]] = []
    for element in elements:
        point, names = element.point(), (element.tags.get("name", ""), *names_of(element.tags).values())
        if point is None or not any(names_match(place.name, name) for name in names if name):
            continue  # a saved "Kinkaku-ji" is the element named "金閣寺" with name:en (issue 31 §3)
        metres = distance_m(place.geo.lat, place.geo.lon, *point)
        osm = read_row(element)
        if metres > LOOKUP_METRES or osm is None or osm.kind == "bed":
            continue
        found.append((metres, osm))
    return min(found, key=lambda pair: pair[0])[1] if found else None


class SavedLookupCache:
    """What OSM said of each saved place (a place, or None for "asked, nothing there")."""

    def __init__(self, home: Path | str | None = None) -> None:
        if home is None:
            from engine.store.sqlite_file import data_dir
            home = data_dir()
        self.path = Path(home) / FOLDER / CACHE_FILE
        self._entries: dict[str, dict] | None = None

    def _load(self) -> dict[str, dict]:
        if self._entries is None:
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
                self._entries = data if isinstance(data, dict) else {}
            except (OSError, ValueError):
                self._entries = {}  # absent or damaged: asked again, then replaced
        return self._entries

    def get(self, key: str, *, fresh_only: bool) -> tuple[bool, PlaceRow | None]:
        """(known, place); a stale entry is known only when ``fresh_only`` is False (offline)."""
        entry = self._load().get(key)
        if not isinstance(entry, dict):
            return False, None
        try:
            at = datetime.fromisoformat(entry["at"])
            place = PlaceRow.of_json(entry["place"]) if entry.get("place") else None
        except (KeyError, TypeError, ValueError):
            return False, None
        if fresh_only and datetime.now(timezone.utc) - at > STALE_AFTER:
            return False, None
        return True, place

    def put_all(self, found: dict[str, PlaceRow | None]) -> None:
        entries = self._load()
        now = datetime.now(timezone.utc).isoformat()
        for key, place in found.items():
            entries[key] = {"at": now, "place": place.to_json() if place else None}
        while len(entries) > MAX_CACHE_ENTRIES:
            entries.pop(next(iter(entries)))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            write_atomic(self.path, json.dumps(entries, ensure_ascii=False))
        except OSError:
            log.warning("saved_places_cache_not_written", path=str(self.path))


async def osm_places(places: list[MustSee], client: OverpassClient | None, cache: SavedLookupCache,
                     *, offline: bool) -> tuple[dict[str, PlaceRow], bool]:
    """({place_id: its OSM element} for the places OSM knows, asked) — ``asked`` False when the
    places could not be looked up (offline or Overpass failing) and some were not known before."""
    found: dict[str, PlaceRow] = {}
    missing: list[MustSee] = []
    for place in places:
        known, osm = cache.get(cache_key(place), fresh_only=not offline)
        if known:
            if osm is not None:
                found[place.place_id] = osm
        else:
            missing.append(place)
    if not missing:
        return found, True
    if offline or client is None:
        return found, False
    try:
        answer = await client.query(lookup_query(missing))
    except ToolError as exc:
        log.warning("saved_places_lookup_failed", reason=str(exc))
        return found, False
    elements = [e for e in answer.elements if e.tags.get("name")]
    fresh = {cache_key(p): best_match(p, elements) for p in missing}
    cache.put_all(fresh)
    found |= {p.place_id: hit for p in missing if (hit := fresh[cache_key(p)]) is not None}
    return found, True
