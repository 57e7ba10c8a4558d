"""A cached pack's indexed copy: ``<slug>.places.sqlite3`` beside its ``<slug>.json.gz``.

The ``.json.gz`` stays the pack (what is fetched, shipped and checked); reading it parses every
place's tags and names, which grows with the city (~0.5 s for 20,000 places). The copy keeps the
same pack as SQLite rows — the columns ``PlaceRow`` is made of, tags, names and fame as JSON text
that a row decodes only when something reads them (the planner reads a few hundred of thousands) —
and the pack's other fields as one JSON document, so a load is one SELECT and a row object each.

The copy names the ``.json.gz`` it was made from (its size and mtime): a pack rewritten since, a
copy from another build, a damaged or unreadable file reads as absent, and the ``.json.gz`` is
read instead (``PackStore`` then writes the copy again: a migration on read). Written to a temp
file and renamed, so a reader never sees half of one.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from pydantic import ValidationError

from engine.atomic import atomic_path

from .osm_reader import PlaceRow
from .pack import PACK_FORMAT, CityPack

SUFFIX = ".places.sqlite3"
LAYOUT = 1  # this file's own layout; another one reads as absent (and is written again)
_COLUMNS = ("osm_type", "osm_id", "kind", "key", "category", "name", "lat", "lon", "tags", "rank", "fame", "names")
_SCHEMA = """
CREATE TABLE source (layout INTEGER NOT NULL, format INTEGER NOT NULL, size INTEGER NOT NULL,
                     mtime_ns INTEGER NOT NULL, head TEXT NOT NULL);
CREATE TABLE place (osm_type TEXT NOT NULL CHECK (osm_type IN ('node', 'way', 'relation')),
                    osm_id INTEGER NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('sight', 'food', 'bed')),
                    key TEXT NOT NULL, category TEXT NOT NULL, name TEXT NOT NULL, lat REAL NOT NULL,
                    lon REAL NOT NULL, tags TEXT NOT NULL, rank REAL NOT NULL, fame TEXT, names TEXT);
"""
_INSERT = f"INSERT INTO place VALUES ({', '.join('?' * len(_COLUMNS))})"
_SELECT = f"SELECT {', '.join(_COLUMNS)} FROM place ORDER BY rowid"


def copy_path(pack_path: Path) -> Path:
    return pack_path.with_name(pack_path.name.removesuffix(".json.gz") + SUFFIX)


def write_copy(pack: CityPack, pack_path: Path) -> Path:
    """The indexed copy of ``pack``, as read from (or written to) ``pack_path`` as it is now."""
    stat = pack_path.stat()
    target = copy_path(pack_path)
    with atomic_path(target) as temp:  # a reader never sees half a copy
        conn = sqlite3.connect(temp)
        try:
            with conn:
                conn.executescript(_SCHEMA)
                conn.execute("INSERT INTO source VALUES (?, ?, ?, ?, ?)",
                             (LAYOUT, pack.format, stat.st_size, stat.st_mtime_ns,
                              pack.model_dump_json(exclude={"places"})))
                conn.executemany(_INSERT, (_row(p) for p in pack.places))
        finally:
            conn.close()
    return target


def read_copy(pack_path: Path, size: int, mtime_ns: int) -> CityPack | None:
    """The pack from its indexed copy, or None when there is none made from this very file."""
    target = copy_path(pack_path)
    if not target.is_file():
        return None
    try:
        conn = sqlite3.connect(f"file:{target}?mode=ro&immutable=1", uri=True)
        try:
            source = conn.execute("SELECT layout, format, size, mtime_ns, head FROM source").fetchone()
            if source is None or source[:4] != (LAYOUT, PACK_FORMAT, size, mtime_ns):
                return None
            rows = [PlaceRow(*row) for row in conn.execute(_SELECT)]
        finally:
            conn.close()
        head = CityPack.model_validate_json(source[4])
    except (sqlite3.Error, ValueError, ValidationError, TypeError):
        return None
    return head.model_copy(update={"places": rows})


def _row(p: PlaceRow) -> tuple:
    fame = p._fame  # noqa: SLF001 (the row's own stored form: None stays None, as in the JSON)
    return (p.osm_type, p.osm_id, p.kind, p.key, p.category, p.name, p.lat, p.lon, _text(p.tags), p.rank,
            None if fame is None else p.fame.model_dump_json(), None if p.names is None else _text(p.names))


def _text(value: dict) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
