"""Builds the tests' ``.pmtiles`` archives, all through :func:`write_archive` (the ``pmtiles``
package's own writer): real Mapbox vector tiles (encoded with ``mapbox-vector-tile``) in the Protomaps
basemap schema (``earth``, ``water``, ``roads`` layers), gzip-compressed as ``pmtiles extract`` leaves
them (:func:`write_pmtiles`, :func:`write_padded_pmtiles`), or any tiles a test makes itself.
"""

from __future__ import annotations

import gzip
import math
from collections.abc import Iterable
from pathlib import Path

import mapbox_vector_tile
import numpy as np
from pmtiles.tile import Compression, TileType, zxy_to_tileid
from pmtiles.writer import Writer
from shapely.geometry import box, mapping
from shapely.geometry.base import BaseGeometry
import shapely

HALF = 20037508.342789244  # half the Web Mercator world, metres
EXTENT = 4096


def tile_bounds(z: int, x: int, y: int) -> tuple[float, float, float, float]:
    size = 2 * HALF / (1 << z)
    return (-HALF + x * size, HALF - (y + 1) * size, -HALF + (x + 1) * size, HALF - y * size)


def tiles_over(west: float, south: float, east: float, north: float, z: int):
    n = 1 << z

    def col(lon):
        return min(n - 1, max(0, int((lon + 180) / 360 * n)))

    def row(lat):
        lat_r = math.radians(lat)
        return min(n - 1, max(0, int((1 - math.asinh(math.tan(lat_r)) / math.pi) / 2 * n)))

    for x in range(col(west), col(east) + 1):
        for y in range(row(north), row(south) + 1):
            yield x, y


def _encode(z: int, x: int, y: int, layers: dict[str, list[tuple[BaseGeometry, dict]]]) -> bytes | None:
    bounds = tile_bounds(z, x, y)
    pad = (bounds[2] - bounds[0]) / 64
    clip = box(bounds[0] - pad, bounds[1] - pad, bounds[2] + pad, bounds[3] + pad)
    encoded = []
    for name, features in layers.items():
        parts = []
        for geometry, props in features:
            piece = geometry.intersection(clip)
            if not piece.is_empty:
                piece = shapely.transform(piece, lambda c: _to_tile(c, bounds))
                parts.append({"geometry": mapping(piece), "properties": props})
        if parts:
            encoded.append({"name": name, "features": parts})
    if not encoded:
        return None
    # Quantised here (its own quantize_bounds uses a deprecated shapely call): tile pixels, y down.
    return mapbox_vector_tile.encode(encoded, default_options={"y_coord_down": True, "extents": EXTENT})


def write_archive(path: Path, tiles: Iterable[tuple[int, bytes]], *, tile_type: TileType = TileType.MVT,
                  compression: Compression = Compression.GZIP, max_zoom: int,
                  bounds: tuple[float, float, float, float] = (-180.0, -85.0, 180.0, 85.0),
                  center: tuple[float, float] | None = None, center_zoom: int = 0,
                  metadata: dict | None = None) -> Path:
    """``tiles`` (tile id, bytes as stored), in tile-id order, as a PMTiles v3 archive of zooms
    0..``max_zoom`` over ``bounds`` (west, south, east, north); ``center`` (lon, lat) defaults to
    the middle of ``bounds``."""
    west, south, east, north = bounds
    lon, lat = center if center is not None else ((west + east) / 2, (south + north) / 2)
    with path.open("wb") as handle:
        writer = Writer(handle)
        for tile_id, data in tiles:
            writer.write_tile(tile_id, data)
        writer.finalize({"tile_type": tile_type, "tile_compression": compression, "min_zoom": 0,
                         "max_zoom": max_zoom, "min_lon_e7": int(west * 1e7), "min_lat_e7": int(south * 1e7),
                         "max_lon_e7": int(east * 1e7), "max_lat_e7": int(north * 1e7),
                         "center_zoom": center_zoom, "center_lon_e7": int(lon * 1e7),
                         "center_lat_e7": int(lat * 1e7)}, metadata or {})
    return path


def write_pmtiles(path: Path, layers: dict[str, list[tuple[BaseGeometry, dict]]],
                  region: tuple[float, float, float, float], max_zoom: int,
                  attribution: str = "Test vector tiles") -> Path:
    """``layers`` maps a layer name to (geometry in lon/lat, properties); tiles of zooms
    0..max_zoom over ``region`` (west, south, east, north) are written, in tile-id order."""
    projected = {name: [(shapely.transform(g, _project), p) for g, p in features]
                 for name, features in layers.items()}
    tiles = []
    for z in range(max_zoom + 1):
        for x, y in tiles_over(*region, z):
            data = _encode(z, x, y, projected)
            if data is not None:
                tiles.append((zxy_to_tileid(z, x, y), gzip.compress(data)))
    tiles.sort()
    return write_archive(path, tiles, max_zoom=max_zoom, bounds=region, center_zoom=max_zoom,
                         metadata={"attribution": attribution, "vector_layers": [{"id": name} for name in layers]})


def _project(coords):
    lon, lat = np.radians(coords[:, 0]), np.radians(coords[:, 1])
    return np.column_stack([lon * 6378137.0, np.log(np.tan(np.pi / 4 + lat / 2)) * 6378137.0])


def _to_tile(coords, bounds):
    west, south, east, north = bounds
    return np.column_stack([(coords[:, 0] - west) / (east - west) * EXTENT,
                            (north - coords[:, 1]) / (north - south) * EXTENT])


def write_padded_pmtiles(path: Path, west: float, south: float, east: float, north: float, tile_kb: int = 120) -> Path:
    """A vector archive over the box, zooms 0–15, each tile a real MVT (an earth polygon) made
    ``tile_kb`` large and unique by a protobuf field decoders skip — sizes like a city's streets."""
    import os

    from engine.geo import BBox
    from engine.maps.offline_area import tiles_in

    base = mapbox_vector_tile.encode([{"name": "earth", "features": [
        {"geometry": "POLYGON ((0 0, 4096 0, 4096 4096, 0 4096, 0 0))", "properties": {}}]}],
        default_options={"y_coord_down": True})
    box = BBox.from_wsen(west, south, east, north)
    ids = sorted(zxy_to_tileid(z, x, y) for z in range(16) for x, y in tiles_in(box, z))
    def padded(tile_id: int) -> bytes:
        pad = os.urandom(tile_kb * 1024)
        extra = bytes([15 << 3 | 2]) + varint(len(pad)) + pad  # field 15: unknown to MVT readers
        return gzip.compress(base + extra, compresslevel=1)
    return write_archive(path, ((tile_id, padded(tile_id)) for tile_id in ids), max_zoom=15,
                         bounds=(west, south, east, north), center_zoom=12,
                         metadata={"attribution": "Padded test tiles"})


def varint(n: int) -> bytes:
    """``n`` as a protobuf (and PMTiles directory) varint."""
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)
