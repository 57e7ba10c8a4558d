"""City packs cached in the data dir (``<home>/city-packs/<slug>.json.gz``), for offline use.

A pack is written atomically (a temp file beside it, then renamed), read back validated, and is
*stale* after 30 days: used as it is offline, refreshed when online. A damaged file is never
used and never stops anything: it reads as absent (and is replaced by the next fetch).
"""

from __future__ import annotations

import gzip
import os
import tempfile
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from pydantic import ValidationError

from .pack import PACK_FORMAT, CityPack

FOLDER = "city-packs"
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
    def __init__(self, home: Path | str | None = None) -> None:
        if home is None:
            from engine.store.sqlite_file import data_dir
            home = data_dir()
        self.folder = Path(home) / FOLDER

    def path(self, slug: str) -> Path:
        return self.folder / f"{slug}.json.gz"

    def save(self, pack: CityPack) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        target = self.path(pack.slug)
        data = gzip.compress(pack.model_dump_json().encode(), compresslevel=6, mtime=0)
        fd, tmp = tempfile.mkstemp(prefix=f".{pack.slug}.", suffix=".tmp", dir=self.folder)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return target

    def load(self, slug: str) -> CityPack | None:
        path = self.path(slug)
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                return None
            pack = CityPack.model_validate_json(gzip.decompress(path.read_bytes()))
        except (OSError, EOFError, ValueError, ValidationError):
            return None
        return pack if pack.format == PACK_FORMAT and pack.slug == slug else None

    def find(self, name: str) -> CityPack | None:
        """A cached pack by slug, name or label ("lisbon_pt", "Lisbon", "Lisbon, PT")."""
        wanted = _norm(name)
        for entry in self.entries():
            pack = self.load(entry.slug)
            if pack is not None and wanted in {_norm(pack.slug), _norm(pack.name), _norm(pack.label),
                                               _norm(pack.slug.replace("_", " "))}:
                return pack
        return None

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
            return True
        except FileNotFoundError:
            return False


def is_stale(pack: CityPack, now: datetime | None = None) -> bool:
    return (now or datetime.now(timezone.utc)) - pack.fetched_at > STALE_AFTER


def _norm(text: str) -> str:
    return " ".join(text.lower().replace(",", " ").replace("_", " ").split())
