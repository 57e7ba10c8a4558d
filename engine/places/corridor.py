"""Sights and beds along a road trip's corridor from OpenStreetMap, in cached chunks (issue 20 §1–2).

The corridor's band (``band_miles`` either side of its line, plus the places the trip must reach)
is cut into **cells** of one degree of latitude by one of longitude — a grid, so another trip on
the same roads finds the same cells in the cache. Missing (or stale) cells are asked for in at most
:data:`MAX_QUERIES` Overpass queries per trip: the cells in driving order, a run of up to
:data:`RUN_CELLS` cells of a row merged into one box, each box with its own capped groups
(``overpass.corridor_query``). The answer is split back into cells by each element's position and
every cell is cached on its own, gzip JSON in ``<data dir>/corridor-chunks/<key>.json.gz`` (the key
is the cell's rounded box), written atomically, stale after 30 days. Only what
``osm_tags.read_tags(road=True)`` keeps is stored: sights and beds with their OSM identity and the
tags planning reads; node/way twins of one place are kept once. The same answer carries the box's main
roads and water with their geometry (issue 32 §4): each cell keeps its own cut of them
(``engine/maps/city_layers.build_road_layers``) as ``layers``, the road trip's offline map; a file
written before maps were has none and still reads.

Offline (or with the server unreachable) only the cached cells answer; a trip whose cells are all
missing gets empty :class:`CorridorData` saying why, and the road planner plans as it does without
OpenStreetMap (``engine/roadtrip/osm_stops.py``).
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from pathlib import Path
import numpy as np
import structlog

from engine.errors import ToolError
from engine.atomic import write_atomic
from engine.geo import BBox
from engine.maps.city_map import CityLayers

from .identity import name_key
from .osm_reader import PlaceRow, read_row
from .ranking import BED_KINDS, road_rank
from .overpass import ROAD_LIMITS, Answer, OverpassClient, attempt_timeout_s, corridor_query

log = structlog.get_logger(__name__)

FOLDER = "corridor-chunks"
# a place: ``PlaceRow.chunk_row`` — [type, id, kind, key, category, name, lat, lon, tags as JSON text, rank,
# translations, names as JSON text] (the last two absent in older files: read as 0 and the kept tags' name:en)
CHUNK_FORMAT = 1
CELL_DEG = 1  # a cell is 1° × 1°: ~111 km north-south, ~85 km east-west at 40° N
MAX_QUERIES = 6  # per trip
CELLS_PER_QUERY = 12  # fewer cells than this share one query
RUN_CELLS = 3  # neighbouring cells of a row asked as one box
STALE_AFTER = timedelta(days=30)
FETCH_BUDGET_S = 60.0  # the whole prefetch: what is not in by then is planned without
MILES_PER_DEG_LAT = 69.05
TWIN_METRES = 300
MAX_FILE_BYTES = 16 * 1024 * 1024

Cell = tuple[int, int]  # (floor(lat), floor(lon)) of its south-west corner


def road_row(row: PlaceRow) -> PlaceRow:
    """What a chunk keeps of an element's row (``osm_reader.read_row(road=True)``): the row ranked by
    :func:`road_rank` (made whole, not through ``replace``: a corridor answer holds tens of thousands)."""
    tags = row.tags
    return PlaceRow(row.osm_type, row.osm_id, row.kind, row.key, row.category, row.name, row.lat, row.lon, tags,
                    road_rank(row.category, tags), row.translations, row.names, road=True)


@dataclass(frozen=True)
class Chunk:
    cell: Cell
    fetched_at: datetime
    places: tuple[PlaceRow, ...]
    osm_base: str = ""
    source_url: str = ""
    truncated: bool = False  # a group of its box reached its cap: some lesser places left out
    layers: CityLayers | None = None  # its main roads and water (None: fetched before maps were)


@dataclass(frozen=True)
class CorridorData:
    """What OpenStreetMap gave the trip: the cells it wanted, those with data, and their places."""

    wanted: tuple[Cell, ...]
    cells: frozenset[Cell]
    sights: tuple[PlaceRow, ...] = ()
    beds: tuple[PlaceRow, ...] = ()
    offline: bool = False
    failure: str = ""  # why cells are missing online ("" when none are, or when offline)
    queries: int = 0  # Overpass queries made for this trip
    cached: int = 0  # cells read from the cache
    digest: str = ""
    sight_points: np.ndarray | None = field(default=None, repr=False, compare=False)  # (lat, lon, rank) per sight

    def covers(self, lat: float, lon: float, miles: float = 0.0) -> bool:
        """Whether every cell within ``miles`` of the point has data."""
        return all(c in self.cells for c in _cells_near(lat, lon, miles))

    def why_missing(self) -> str:
        """The day note of a stretch with no data (issue 20 §1)."""
        if self.offline or not self.failure:
            return "offline: sights limited to the shipped data"
        return f"OpenStreetMap unavailable ({self.failure}): sights limited to the shipped data"


def cell_of(lat: float, lon: float) -> Cell:
    return (math.floor(lat / CELL_DEG) * CELL_DEG, math.floor(lon / CELL_DEG) * CELL_DEG)


def cell_box(cell: Cell) -> BBox:
    return BBox.from_swne(float(cell[0]), float(cell[1]), float(cell[0] + CELL_DEG), float(cell[1] + CELL_DEG))


def cell_key(cell: Cell) -> str:
    """The cache file's name: the cell's box rounded to a tenth of a degree."""
    b = cell_box(cell)
    return f"{b.south:+05.1f}_{b.west:+06.1f}_{b.north:+05.1f}_{b.east:+06.1f}"


def _cells_near(lat: float, lon: float, miles: float) -> list[Cell]:
    dlat = miles / MILES_PER_DEG_LAT
    dlon = miles / (MILES_PER_DEG_LAT * max(0.2, math.cos(math.radians(lat))))
    s, w = cell_of(lat - dlat, lon - dlon)
    n, e = cell_of(lat + dlat, lon + dlon)
    return [(a, b) for a in range(s, n + 1, CELL_DEG) for b in range(w, e + 1, CELL_DEG)]


def cells_along(points: Iterable[tuple[float, float]], band_miles: float) -> list[Cell]:
    """The cells within ``band_miles`` of any of the points, in the order the points reach them."""
    seen: dict[Cell, None] = {}
    for lat, lon in points:
        for c in _cells_near(lat, lon, band_miles):
            seen.setdefault(c, None)
    return list(seen)


def query_groups(cells: list[Cell]) -> list[list[Cell]]:
    """Cells in driving order, cut into at most ``MAX_QUERIES`` queries."""
    if not cells:
        return []
    n = min(MAX_QUERIES, math.ceil(len(cells) / CELLS_PER_QUERY))
    size = math.ceil(len(cells) / n)
    return [cells[k:k + size] for k in range(0, len(cells), size)]


def query_boxes(cells: list[Cell]) -> list[tuple[BBox, list[Cell]]]:
    """A query's boxes: runs of up to ``RUN_CELLS`` neighbouring cells of a row merged."""
    out: list[tuple[BBox, list[Cell]]] = []
    for lat in sorted({c[0] for c in cells}):
        lons = sorted(c[1] for c in cells if c[0] == lat)
        run: list[Cell] = []
        for lon in lons:
            if run and (lon != run[-1][1] + CELL_DEG or len(run) == RUN_CELLS):
                out.append((_run_box(run), run))
                run = []
            run.append((lat, lon))
        out.append((_run_box(run), run))
    return out


def _run_box(run: list[Cell]) -> BBox:
    first, last = cell_box(run[0]), cell_box(run[-1])
    return BBox(south=first.south, west=first.west, north=last.north, east=last.east)


def split_answer(answer: Answer, boxes: list[tuple[BBox, list[Cell]]], *, fetched_at: datetime,
                 source_url: str) -> dict[Cell, Chunk]:
    """Each asked cell's chunk: the elements a traveller may be sent to, by where they are."""
    asked = {c: box for box, cells in boxes for c in cells}
    found: dict[Cell, dict[tuple[str, int], PlaceRow]] = {c: {} for c in asked}
    counts: dict[BBox, dict[str, int]] = {box: {"sight": 0, "bed": 0} for box, _ in boxes}
    drawn = [e for e in answer.elements if e.geometry]  # the map's ways (``out geom``), not places
    for e in answer.elements:
        if e.geometry:
            continue
        point = e.point()
        if point is None:
            continue
        cell = cell_of(*point)
        if cell not in found:
            continue  # a park whose centre lies outside the cells asked for
        counts[asked[cell]]["bed" if e.tags.get("tourism") in BED_KINDS else "sight"] += 1
        row = read_row(e, road=True)
        if row is not None and (e.type, e.id) not in found[cell]:
            found[cell][(e.type, e.id)] = road_row(row)
    full = {box for box, n in counts.items()
            if n["bed"] >= ROAD_LIMITS["bed"] or n["sight"] >= ROAD_LIMITS["sight"]}
    return {c: Chunk(c, fetched_at, tuple(_twins_once(list(places.values()))), answer.osm3s.timestamp_osm_base,
                     source_url, asked[c] in full, _cell_layers(drawn, c)) for c, places in found.items()}


def _cell_layers(drawn: list, cell: Cell) -> CityLayers:
    from engine.maps.city_layers import build_road_layers  # shapely: loaded only when a corridor is fetched
    box = cell_box(cell)
    near = [e for e in drawn if e.bounds is None or (e.bounds.minlat <= box.north and e.bounds.maxlat >= box.south
                                                     and e.bounds.minlon <= box.east and e.bounds.maxlon >= box.west)]
    return build_road_layers(near, box)


def _twins_once(places: list[PlaceRow]) -> list[PlaceRow]:
    """One place per (kind, name) within ``TWIN_METRES``: the one with more tags wins."""
    by_name: dict[tuple[str, str], list[PlaceRow]] = {}
    for p in places:
        by_name.setdefault((p.kind, name_key(p.name)), []).append(p)
    kept = []
    for group in by_name.values():
        group.sort(key=lambda p: (-len(p.tags), p.osm_type != "node", p.osm_id))
        chosen: list[PlaceRow] = []
        for p in group:
            if not any(_metres(p, c) <= TWIN_METRES for c in chosen):
                chosen.append(p)
        kept += chosen
    return sorted(kept, key=lambda p: (p.kind, p.osm_type, p.osm_id))


def _metres(a: PlaceRow, b: PlaceRow) -> float:
    """Between two near places (equirectangular: exact enough at a few hundred metres)."""
    return math.hypot(a.lat - b.lat, (a.lon - b.lon) * math.cos(math.radians(a.lat))) * 111_195.0


class ChunkStore:
    """Cells cached in the data dir: ``<home>/corridor-chunks/<key>.json.gz``."""

    def __init__(self, home: Path | str | None = None) -> None:
        if home is None:
            from engine.store.sqlite_file import data_dir
            home = data_dir()
        self.folder = Path(home) / FOLDER

    def path(self, cell: Cell) -> Path:
        return self.folder / f"{cell_key(cell)}.json.gz"

    def save(self, chunk: Chunk) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        doc = {"format": CHUNK_FORMAT, "cell": list(chunk.cell), "fetched_at": chunk.fetched_at.isoformat(),
               "osm_base": chunk.osm_base, "source_url": chunk.source_url, "truncated": chunk.truncated,
               "places": [p.chunk_row() for p in chunk.places]}
        if chunk.layers is not None:
            doc["layers"] = chunk.layers.model_dump(mode="json")
        data = gzip.compress(json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode(), 6, mtime=0)
        target = self.path(chunk.cell)
        write_atomic(target, data)
        return target

    def load(self, cell: Cell) -> Chunk | None:
        """The cached cell, or None (missing, damaged, another format): never an error."""
        path = self.path(cell)
        try:
            stat = path.stat()
            if stat.st_size > MAX_FILE_BYTES:
                return None
            chunk = _read_chunk(str(path), stat.st_mtime_ns, stat.st_size)
        except (OSError, EOFError, ValueError, KeyError, TypeError):
            return None
        return chunk if chunk is not None and chunk.cell == cell else None


@lru_cache(maxsize=256)  # keyed by (path, mtime, size): each file read once per process
def _read_chunk(path: str, _mtime_ns: int, _size: int) -> Chunk | None:
    doc = json.loads(gzip.decompress(Path(path).read_bytes()))
    if doc.get("format") != CHUNK_FORMAT:
        return None
    layers = doc.get("layers")
    return Chunk(tuple(doc["cell"]), datetime.fromisoformat(doc["fetched_at"]),
                 tuple(PlaceRow(*row, road=True) for row in doc["places"]), str(doc.get("osm_base", "")),
                 str(doc.get("source_url", "")), bool(doc.get("truncated")),
                 CityLayers.model_validate(layers) if layers is not None else None)


def is_stale(chunk: Chunk, now: datetime | None = None) -> bool:
    return (now or datetime.now(timezone.utc)) - chunk.fetched_at > STALE_AFTER


class _OwnFailures:
    """The session's network state, except that a refused corridor query does not mark the whole
    network down: the sights are an extra, and routing and the weather may still answer."""

    def __init__(self, network) -> None:
        self._network = network

    def offline(self) -> bool:
        return self._network.offline()

    def client(self):
        return self._network.client()

    def mark_down(self) -> None:
        pass


Progress = Callable[[str], None]


class CorridorFetcher:
    def __init__(self, store: ChunkStore, network, executor, *, client: OverpassClient | None = None) -> None:
        self.store = store
        self.network = network
        self.client = client or OverpassClient(_OwnFailures(network), executor)  # type: ignore[arg-type]  # a NetworkState by its methods

    async def ensure(self, points: list[tuple[float, float]], *, band_miles: float,
                     progress: Progress | None = None, cancel=None) -> CorridorData:
        """The trip's cells: fresh cached ones as they are; the others fetched when online (stale
        ones kept when the refresh fails), in at most ``MAX_QUERIES`` queries."""
        say = progress or (lambda text: None)
        wanted = cells_along(points, band_miles)
        chunks = {c: ch for c in wanted if (ch := self.store.load(c)) is not None}
        cached = len(chunks)
        offline = self.network.offline()
        todo = [] if offline else [c for c in wanted if c not in chunks or is_stale(chunks[c])]
        failure, queries, started = "", 0, time.monotonic()
        groups = query_groups(todo)
        for n, group in enumerate(groups, 1):
            if time.monotonic() - started > FETCH_BUDGET_S:
                failure = f"no answer within {FETCH_BUDGET_S:.0f} s"
                break
            say(f"Asking OpenStreetMap for sights and beds along the way ({n} of {len(groups)})")
            try:
                fresh = await self._fetch(group, cancel)
            except ToolError as exc:
                failure = exc.reason
                log.info("corridor_fetch_failed", cells=len(group), reason=exc.reason)
                break
            queries += 1
            for cell, chunk in fresh.items():
                chunks[cell] = chunk
                try:
                    self.store.save(chunk)
                except OSError as exc:  # a read-only data dir: this plan still has the cell
                    log.warning("corridor_chunk_not_saved", cell=cell_key(cell), error=str(exc))
        return assemble(wanted, chunks, offline=offline, failure=failure if todo else "", queries=queries,
                        cached=cached)

    async def _fetch(self, cells: list[Cell], cancel) -> dict[Cell, Chunk]:
        boxes = query_boxes(cells)
        query = self.client.query(corridor_query([b for b, _ in boxes]), timeout_s=2 * attempt_timeout_s())
        answer = await (cancel.interruptible(query) if cancel is not None else query)
        if cancel is not None:
            cancel.raise_if_cancelled()
        # off the event loop (the app's): cutting the roads and water into cells takes a moment
        return await asyncio.to_thread(split_answer, answer, boxes, fetched_at=datetime.now(timezone.utc),
                                       source_url=self.client.url)


def assemble(wanted: list[Cell], chunks: dict[Cell, Chunk], *, offline: bool = False, failure: str = "",
             queries: int = 0, cached: int = 0) -> CorridorData:
    """The trip's data from its cells' chunks."""
    have = [c for c in wanted if c in chunks]
    sights, beds, points, digest = _places_of(tuple(chunks[c] for c in have))
    return CorridorData(wanted=tuple(wanted), cells=frozenset(have), sights=sights, beds=beds, offline=offline,
                        failure=failure, queries=queries, cached=cached, digest=digest, sight_points=points)


def _places_of(chunks: tuple[Chunk, ...]):
    """Sights, beds, the sights' (lat, lon, rank) as an array and a digest; memoised on the chunk
    objects (each read once per process), so a re-plan of the same trip assembles nothing."""
    key = tuple(id(c) for c in chunks)
    found = _ASSEMBLED.get(key)
    if found is not None and all(a is b for a, b in zip(found[0], chunks)):
        return found[1]
    places = [p for chunk in chunks for p in chunk.places]  # a place is in the one cell holding its point
    sights = tuple(p for p in places if p.kind == "sight")
    beds = tuple(p for p in places if p.kind == "bed")
    points = np.empty((len(sights), 3))
    for column, name in enumerate(("lat", "lon", "rank")):  # no tuple per place: fewer objects for the collector
        points[:, column] = np.fromiter((getattr(p, name) for p in sights), float, len(sights))
    stamp = hashlib.sha256(json.dumps([[cell_key(c.cell), c.fetched_at.isoformat()] for c in chunks]).encode())
    value = (sights, beds, points, stamp.hexdigest()[:16])
    if len(_ASSEMBLED) >= 8:
        _ASSEMBLED.pop(next(iter(_ASSEMBLED)))
    _ASSEMBLED[key] = (chunks, value)
    return value


_ASSEMBLED: dict[tuple[int, ...], tuple[tuple[Chunk, ...], tuple]] = {}
