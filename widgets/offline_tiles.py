"""An offline raster basemap from an ``.mbtiles`` file, served to the map page through a
QtWebEngine URL scheme (``tripwright-tiles://basemap/{z}/{x}/{y}``): no HTTP server, no CDN.

MBTiles is SQLite with a ``tiles`` table in TMS order (row 0 at the south), so y is flipped.
The scheme must be registered before the QApplication exists (Qt's rule); ``register_scheme()``
runs when this module is imported, which ``widgets.map_view`` does before any window is made.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice
from PySide6.QtWebEngineCore import (QWebEngineProfile, QWebEngineUrlRequestJob, QWebEngineUrlScheme,
                                     QWebEngineUrlSchemeHandler)

log = logging.getLogger(__name__)

SCHEME = b"tripwright-tiles"
TILE_URL = "tripwright-tiles://basemap/{z}/{x}/{y}"
MIME = {"png": b"image/png", "jpg": b"image/jpeg", "jpeg": b"image/jpeg", "webp": b"image/webp"}
_registered = False


class BasemapFileError(ValueError):
    """The file is not an MBTiles raster archive this map can show (the message says why)."""


def register_scheme() -> bool:
    """Declare the scheme to QtWebEngine (once, before the QApplication); False when too late."""
    global _registered
    if _registered:
        return True
    if QCoreApplication.instance() is not None:
        log.warning("offline tiles: the URL scheme must be registered before the QApplication exists")
        return False
    scheme = QWebEngineUrlScheme(SCHEME)
    scheme.setSyntax(QWebEngineUrlScheme.Syntax.Host)
    scheme.setFlags(QWebEngineUrlScheme.Flag.SecureScheme | QWebEngineUrlScheme.Flag.LocalScheme
                    | QWebEngineUrlScheme.Flag.CorsEnabled)
    QWebEngineUrlScheme.registerScheme(scheme)
    _registered = True
    return True


@dataclass(frozen=True)
class Mbtiles:
    """An opened archive's facts the page needs (its zoom range and attribution)."""

    path: Path
    mime: bytes
    min_zoom: int
    max_zoom: int
    attribution: str

    @classmethod
    def open(cls, path: str | Path) -> "Mbtiles":
        path = Path(path).expanduser()
        if not path.is_file():
            raise BasemapFileError(f"{path} does not exist")
        if path.suffix.lower() != ".mbtiles":
            raise BasemapFileError(f"{path.name}: expected an .mbtiles raster file")
        try:
            with _connect(path) as db:
                meta = dict(db.execute("SELECT name, value FROM metadata").fetchall())
                low, high = db.execute("SELECT MIN(zoom_level), MAX(zoom_level) FROM tiles").fetchone()
        except sqlite3.DatabaseError as exc:
            raise BasemapFileError(f"{path.name} is not an MBTiles archive ({exc})") from None
        fmt = str(meta.get("format", "png")).lower()
        if fmt not in MIME:
            raise BasemapFileError(f"{path.name} holds {fmt} tiles; only raster png/jpg/webp are shown")
        if low is None:
            raise BasemapFileError(f"{path.name} has no tiles")
        return cls(path, MIME[fmt], int(low), int(high), str(meta.get("attribution", "")) or path.stem)

    def page_source(self) -> dict:
        return {"url": TILE_URL, "min_zoom": self.min_zoom, "max_zoom": self.max_zoom,
                "attribution": self.attribution}


def _connect(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)


class MbtilesHandler(QWebEngineUrlSchemeHandler):
    """Answers ``tripwright-tiles://basemap/z/x/y`` from the current archive (one per profile)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._archive: Mbtiles | None = None
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self.served = 0  # tiles answered (tests, diagnostics)

    def use(self, archive: Mbtiles | None) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
            self._archive = archive
            self._db = _connect(archive.path) if archive is not None else None

    def requestStarted(self, job: QWebEngineUrlRequestJob) -> None:  # noqa: N802 (Qt API)
        tile = _tile_of(job.requestUrl().path())
        data = self._tile(*tile) if tile is not None else None
        if data is None:
            job.fail(QWebEngineUrlRequestJob.Error.UrlNotFound)
            return
        buffer = QBuffer(job)  # the job owns the reply's device
        buffer.setData(QByteArray(data))
        buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        job.reply(self._archive.mime, buffer)
        self.served += 1

    def _tile(self, z: int, x: int, y: int) -> bytes | None:
        with self._lock:
            if self._db is None:
                return None
            row = self._db.execute(
                "SELECT tile_data FROM tiles WHERE zoom_level=? AND tile_column=? AND tile_row=?",
                (z, x, (1 << z) - 1 - y)).fetchone()  # TMS rows count from the south
        return bytes(row[0]) if row else None


def _tile_of(path: str) -> tuple[int, int, int] | None:
    parts = path.strip("/").split("/")
    if len(parts) != 3 or not all(p.isdigit() and len(p) <= 8 for p in parts):
        return None
    z, x, y = (int(p) for p in parts)
    return (z, x, y) if z <= 24 and x < (1 << z) and y < (1 << z) else None


def handler_for(profile: QWebEngineProfile) -> MbtilesHandler:
    """The profile's one handler (installed on first use; a scheme takes one handler per profile)."""
    existing = profile.urlSchemeHandler(SCHEME)
    if isinstance(existing, MbtilesHandler):
        return existing
    handler = MbtilesHandler(profile)  # parented: it lives as long as the profile
    profile.installUrlSchemeHandler(SCHEME, handler)
    return handler


register_scheme()
