"""The offline basemap files a user can give the map, read straight from disk (Qt-free):

* ``.mbtiles`` — SQLite with a ``tiles`` table of raster images in TMS order (row 0 at the south);
* ``.pmtiles`` — a Protomaps archive (read with the ``pmtiles`` package): Mapbox vector tiles,
  drawn in the page by protomaps-leaflet, or raster images, drawn like MBTiles.

Each archive answers ``tile(z, x, y)`` in XYZ order with the bytes the page expects (vector tiles
decompressed, since a custom URL scheme cannot say ``Content-Encoding``) and describes itself to
the page with ``page_source()``.
"""

from __future__ import annotations

import gzip
import mmap
import sqlite3
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from pmtiles.reader import Reader
from pmtiles.tile import (Compression, MagicNumberNotFound, SpecVersionUnsupported, TileType, deserialize_directory,
                          find_tile, zxy_to_tileid)

TILE_URL = "tripwright-tiles://basemap/{z}/{x}/{y}"
MIME = {"png": b"image/png", "jpg": b"image/jpeg", "jpeg": b"image/jpeg", "webp": b"image/webp"}
PMTILES_MIME = {TileType.MVT: b"application/x-protobuf", TileType.PNG: b"image/png",
                TileType.JPEG: b"image/jpeg", TileType.WEBP: b"image/webp"}
SUFFIXES = (".mbtiles", ".pmtiles")


class BasemapFileError(ValueError):
    """The file is not a basemap archive this map can show (the message says why)."""


def open_archive(path: str | Path) -> "Mbtiles | Pmtiles":
    """The archive at ``path``, by its suffix; ``BasemapFileError`` with a one-line reason."""
    path = Path(path).expanduser()
    if not path.is_file():
        raise BasemapFileError(f"{path} does not exist")
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise BasemapFileError(f"{path.name}: expected an .mbtiles or .pmtiles file")
    return Mbtiles.open(path) if suffix == ".mbtiles" else Pmtiles.open(path)


@dataclass
class Mbtiles:
    """An MBTiles raster archive: its zoom range and attribution, and its tiles."""

    path: Path
    mime: bytes
    min_zoom: int
    max_zoom: int
    attribution: str
    kind: str = "raster"
    _db: sqlite3.Connection | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def open(cls, path: Path) -> "Mbtiles":
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
        return {"url": TILE_URL, "kind": self.kind, "min_zoom": self.min_zoom, "max_zoom": self.max_zoom,
                "attribution": self.attribution}

    def tile(self, z: int, x: int, y: int) -> bytes | None:
        with self._lock:
            if self._db is None:
                self._db = _connect(self.path)
            row = self._db.execute(
                "SELECT tile_data FROM tiles WHERE zoom_level=? AND tile_column=? AND tile_row=?",
                (z, x, (1 << z) - 1 - y)).fetchone()  # TMS rows count from the south
        return bytes(row[0]) if row else None

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None


def _connect(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)


@dataclass
class Pmtiles:
    """A PMTiles v3 archive (vector or raster), memory-mapped; directories parsed once each."""

    path: Path
    mime: bytes
    min_zoom: int
    max_zoom: int
    attribution: str
    kind: str
    compression: Compression
    _file: object = field(repr=False, default=None)
    _map: mmap.mmap | None = field(repr=False, default=None)
    _header: dict = field(repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        # A city extract has a few hundred leaf directories; each is parsed once, not per tile.
        self._directory = lru_cache(maxsize=256)(self._read_directory)

    @classmethod
    def open(cls, path: Path) -> "Pmtiles":
        handle = path.open("rb")
        try:
            source = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            reader = Reader(lambda offset, length: source[offset:offset + length])
            header, metadata = reader.header(), reader.metadata()
        except (MagicNumberNotFound, SpecVersionUnsupported, ValueError, IndexError, OSError, EOFError) as exc:
            handle.close()  # not PMTiles v3, truncated, or an empty file (mmap refuses it)
            raise BasemapFileError(f"{path.name} is not a PMTiles v3 archive ({type(exc).__name__})") from None
        tile_type, compression = header["tile_type"], header["tile_compression"]
        problem = ((f"holds {tile_type.name} tiles; only vector (MVT) and png/jpg/webp are shown"
                    if tile_type not in PMTILES_MIME else None)
                   or (f"compresses its tiles with {compression.name}; only gzip or none can be read here"
                       if compression not in (Compression.NONE, Compression.GZIP, Compression.UNKNOWN) else None))
        if problem:
            source.close()
            handle.close()
            raise BasemapFileError(f"{path.name} {problem}")
        attribution = str(metadata.get("attribution", "") if isinstance(metadata, dict) else "") or path.stem
        kind = "vector" if tile_type == TileType.MVT else "raster"
        archive = cls(path, PMTILES_MIME[tile_type], int(header["min_zoom"]), int(header["max_zoom"]),
                      attribution, kind, compression)
        archive._file, archive._map, archive._header = handle, source, header
        return archive

    def page_source(self) -> dict:
        return {"url": TILE_URL, "kind": self.kind, "min_zoom": self.min_zoom, "max_zoom": self.max_zoom,
                "attribution": self.attribution}

    def _read_directory(self, offset: int, length: int):
        raw = self._map[offset:offset + length]
        return deserialize_directory(raw)  # decompresses it (internal compression is gzip)

    def tile(self, z: int, x: int, y: int) -> bytes | None:
        if self._map is None or not self.min_zoom <= z <= self.max_zoom:
            return None
        tile_id, header = zxy_to_tileid(z, x, y), self._header
        offset, length = header["root_offset"], header["root_length"]
        for _depth in range(4):  # the format's maximum directory depth
            entry = find_tile(self._directory(offset, length), tile_id)
            if entry is None:
                return None
            if entry.run_length:
                start = header["tile_data_offset"] + entry.offset
                data = self._map[start:start + entry.length]
                return gzip.decompress(data) if self.compression == Compression.GZIP else data
            offset, length = header["leaf_directory_offset"] + entry.offset, entry.length
        return None

    def close(self) -> None:
        if self._map is not None:
            self._map.close()
            self._file.close()
            self._map = None
