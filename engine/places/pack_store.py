"""City packs cached in the data dir (``<home>/city-packs/<slug>.json.gz``), for offline use.

A pack is written atomically (a temp file beside it, then renamed), read back validated, and is
*stale* after 30 days: used as it is offline, refreshed when online. A damaged file is never
used and never stops anything: it reads as absent (and is replaced by the next fetch).

Beside each pack, its indexed copy (``<slug>.places.sqlite3``, ``pack_rows.py``) is what a load
reads: written with the pack, or on the first read of a pack that has none (a pack cached by an
older build, or rewritten since); a folder that keeps no copies (the shipped eval packs) reads the
``.json.gz`` itself.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from pathlib import Path

from pydantic import ValidationError

from engine.atomic import write_atomic
from engine.maps.city_map import CityLayers, shipped_city_layers

from .pack import PACK_FORMAT, CityPack
from .pack_rows import copy_path, read_copy, write_copy

FOLDER = "city-packs"
INDEX = "index.json"  # slug → [name, label]: finding a pack by name reads no other pack
STALE_AFTER = timedelta(days=30)
MAX_FILE_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class CachedPack:
    """What ``cities list`` shows of a cached pack without reading its places."""

    slug: str
    label: str
    path: Path
    size_bytes: int
    fetched_at: datetime
    places: int
    stale: bool


class PackStore:
    def __init__(self, home: Path | str | None = None, *, keep_copies: bool = True) -> None:
        if home is None:
            from engine.store.sqlite_file import data_dir
            home = data_dir()
        self.folder = Path(home) / FOLDER
        self.keep_copies = keep_copies  # write each pack's indexed copy beside it (pack_rows.py)

    def path(self, slug: str) -> Path:
        return self.folder / f"{slug}.json.gz"

    def save(self, pack: CityPack) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        target = self.path(pack.slug)
        data = gzip.compress(pack.model_dump_json().encode(), compresslevel=6, mtime=0)
        write_atomic(target, data)
        self._keep_copy(pack, target)
        self._write_index()
        return target

    def _keep_copy(self, pack: CityPack, target: Path) -> bool:
        """The indexed copy; one that cannot be written (a full disk, a read-only folder) leaves the
        pack read from its JSON. Whether it was written."""
        if self.keep_copies:
            with contextlib.suppress(OSError, sqlite3.Error):
                write_copy(pack, target)
                return True
        return False

    def load(self, slug: str) -> CityPack | None:
        path = self.path(slug)
        try:
            stat = path.stat()
            if stat.st_size > MAX_FILE_BYTES:
                return None
            pack, copied = _read_pack(str(path), stat.st_mtime_ns, stat.st_size)
        except (OSError, EOFError, ValueError, ValidationError):
            return None
        if pack.format != PACK_FORMAT or pack.slug != slug:
            return None
        if not copied and self._keep_copy(pack, path):  # a pack without its copy (an older build's): made now
            _read_pack.cache_clear()  # the next load reads the copy
        return pack

    def find(self, name: str) -> CityPack | None:
        """A cached pack by slug, name or label ("lisbon_pt", "Lisbon", "Lisbon, PT"): the names
        come from ``index.json`` (rewritten on save and delete, rebuilt when unreadable), so only
        the pack asked for is read."""
        wanted = _norm(name)
        for slug, names in self._index().items():
            if wanted in {_norm(n) for n in (slug, slug.replace("_", " "), *names)}:
                pack = self.load(slug)
                if pack is not None:
                    return pack
        return None

    def city_map(self, name: str) -> CityLayers | None:
        """The city's own map (issue 32 §4): its cached pack's, fetched with it, else a fixture
        city's shipped one; None for a city with neither."""
        pack = self.find(name)
        if pack is not None and pack.city_map is not None:
            return pack.city_map
        return shipped_city_layers(name)

    def _index(self) -> dict[str, list[str]]:
        try:
            index = json.loads((self.folder / INDEX).read_text(encoding="utf-8"))
            if isinstance(index, dict) and all(isinstance(v, list) for v in index.values()):
                on_disk = {p.name.removesuffix(".json.gz") for p in self.folder.glob("*.json.gz")}
                if set(index) == on_disk:
                    return index
        except (OSError, ValueError):
            pass
        return self._write_index()

    def _write_index(self) -> dict[str, list[str]]:
        index = {}
        for path in sorted(self.folder.glob("*.json.gz")) if self.folder.is_dir() else []:
            pack = self.load(path.name.removesuffix(".json.gz"))
            if pack is not None:
                index[pack.slug] = [pack.name, pack.label]
        if self.folder.is_dir():
            with contextlib.suppress(OSError):  # a read-only cache still answers from the packs themselves
                write_atomic(self.folder / INDEX, json.dumps(index, ensure_ascii=False))
        return index

    def entries(self) -> list[CachedPack]:
        if not self.folder.is_dir():
            return []
        out = []
        for path in sorted(self.folder.glob("*.json.gz")):
            pack = self.load(path.name.removesuffix(".json.gz"))
            if pack is not None:
                out.append(CachedPack(pack.slug, pack.label, path, path.stat().st_size, pack.fetched_at,
                                      len(pack.places), is_stale(pack)))
        return out

    def delete(self, slug: str) -> bool:
        try:
            self.path(slug).unlink()
        except FileNotFoundError:
            return False
        copy_path(self.path(slug)).unlink(missing_ok=True)
        self._write_index()
        return True


@lru_cache(maxsize=4)  # keyed by (path, mtime, size): read once per process
def _read_pack(path: str, mtime_ns: int, size: int) -> tuple[CityPack, bool]:
    """The pack, and whether it came from its indexed copy (else from the JSON itself)."""
    copied = read_copy(Path(path), size, mtime_ns)
    if copied is not None:
        return copied, True
    return CityPack.model_validate_json(gzip.decompress(Path(path).read_bytes())), False


def clear_read_cache() -> None:
    """Forget the packs read in this process (benchmarks measuring a first read)."""
    _read_pack.cache_clear()


def is_stale(pack: CityPack, now: datetime | None = None) -> bool:
    return (now or datetime.now(timezone.utc)) - pack.fetched_at > STALE_AFTER


def _norm(text: str) -> str:
    return " ".join(text.lower().replace(",", " ").replace("_", " ").split())
