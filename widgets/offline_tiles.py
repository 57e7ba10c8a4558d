"""An offline basemap file (``.mbtiles`` raster or ``.pmtiles`` vector/raster, see
:mod:`widgets.tile_archives`) served to the map page through a QtWebEngine URL scheme
(``tripwright-tiles://basemap/{z}/{x}/{y}``): no HTTP server, no CDN.

The scheme must be registered before the QApplication exists (Qt's rule); ``register_scheme()``
runs when this module is imported, which ``widgets.map_view`` does before any window is made.
Vector tiles are fetched by the page's script (protomaps-leaflet uses ``fetch``), so replies carry
``Access-Control-Allow-Origin`` for the page's ``file:`` origin.
"""

from __future__ import annotations

import logging
import threading

from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice
from PySide6.QtWebEngineCore import (QWebEngineProfile, QWebEngineUrlRequestJob, QWebEngineUrlScheme,
                                     QWebEngineUrlSchemeHandler)

from .tile_archives import TILE_URL, BasemapFileError, Mbtiles, Pmtiles, open_archive

__all__ = ["SCHEME", "TILE_URL", "BasemapFileError", "Mbtiles", "Pmtiles", "open_archive", "handler_for"]

log = logging.getLogger(__name__)

SCHEME = b"tripwright-tiles"
# The page is a file: document (an opaque origin, "null"); fetch() needs this to read a reply.
CORS_HEADERS = {QByteArray(b"Access-Control-Allow-Origin"): QByteArray(b"*")}
_registered = False


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
    # FetchApiAllowed: protomaps-leaflet reads vector tiles with fetch(), which Chromium refuses
    # for a custom scheme without it ("URL scheme ... is not supported").
    scheme.setFlags(QWebEngineUrlScheme.Flag.SecureScheme | QWebEngineUrlScheme.Flag.LocalScheme
                    | QWebEngineUrlScheme.Flag.CorsEnabled | QWebEngineUrlScheme.Flag.FetchApiAllowed)
    QWebEngineUrlScheme.registerScheme(scheme)
    _registered = True
    return True


class BasemapHandler(QWebEngineUrlSchemeHandler):
    """Answers ``tripwright-tiles://basemap/z/x/y`` from the current archive (one per profile)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._archive: Mbtiles | Pmtiles | None = None
        self._lock = threading.Lock()
        self.served = 0  # tiles answered (tests, diagnostics)

    def use(self, archive: Mbtiles | Pmtiles | None) -> None:
        with self._lock:
            if self._archive is not None and self._archive is not archive:
                self._archive.close()
            self._archive = archive

    def requestStarted(self, job: QWebEngineUrlRequestJob) -> None:  # noqa: N802 (Qt API)
        tile = _tile_of(job.requestUrl().path())
        with self._lock:
            archive = self._archive
            try:
                data = archive.tile(*tile) if archive is not None and tile is not None else None
            except (ValueError, IndexError, OSError, EOFError) as exc:  # a damaged directory or tile
                log.warning("offline tiles: %s: tile %s unreadable (%s)", archive.path.name, tile, exc)
                job.fail(QWebEngineUrlRequestJob.Error.RequestFailed)
                return
        job.setAdditionalResponseHeaders(CORS_HEADERS)
        if data is None:
            # An empty vector tile (sea, or outside the extract) is no error for protomaps-leaflet.
            if archive is not None and archive.kind == "vector" and tile is not None:
                self._answer(job, archive.mime, b"")
            else:
                job.fail(QWebEngineUrlRequestJob.Error.UrlNotFound)
            return
        self._answer(job, archive.mime, data)
        self.served += 1

    @staticmethod
    def _answer(job: QWebEngineUrlRequestJob, mime: bytes, data: bytes) -> None:
        buffer = QBuffer(job)  # the job owns the reply's device
        buffer.setData(QByteArray(data))
        buffer.open(QIODevice.OpenModeFlag.ReadOnly)
        job.reply(mime, buffer)


def _tile_of(path: str) -> tuple[int, int, int] | None:
    parts = path.strip("/").split("/")
    if len(parts) != 3 or not all(p.isdigit() and len(p) <= 8 for p in parts):
        return None
    z, x, y = (int(p) for p in parts)
    return (z, x, y) if z <= 24 and x < (1 << z) and y < (1 << z) else None


def handler_for(profile: QWebEngineProfile) -> BasemapHandler:
    """The profile's one handler (installed on first use; a scheme takes one handler per profile)."""
    existing = profile.urlSchemeHandler(SCHEME)
    if isinstance(existing, BasemapHandler):
        return existing
    handler = BasemapHandler(profile)  # parented: it lives as long as the profile
    profile.installUrlSchemeHandler(SCHEME, handler)
    return handler


register_scheme()
