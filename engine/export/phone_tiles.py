"""Street-map tiles for the phone page from the trip's offline copy (issue 22 §1: Trip ▸ Make this trip
available offline writes ``<data dir>/offline_maps/<trip>.pmtiles``), when one covers the trip.

The tiles of the trip's area (``offline_area.trip_bbox``) are taken zoom by zoom, from the archive's
lowest, as long as the whole zoom still fits ``MAX_TILE_BYTES``: the page carries every zoom up to
``max_zoom`` whole and draws deeper zooms from it (protomaps-leaflet's ``maxDataZoom``). Only
vector archives (the Protomaps basemap schema the app draws) are read; tiles are stored inflated
(each refused past ``MAX_TILE_INFLATED``: the file is the traveller's, the bytes came from a server).
An archive that cannot be read is not used: the page then keeps the shipped outlines and water.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from pathlib import Path

from engine.errors import ToolResponseError
from engine.models import ItineraryV1

MAX_TILE_BYTES = 4_000_000  # the tiles a phone page carries, at most (5.3 MB as base64)
MAX_TILE_INFLATED = 4_000_000  # one vector tile, inflated


@dataclass(frozen=True)
class PhoneTiles:
    tiles: dict[str, str]  # "z/x/y" -> the tile's MVT bytes, base64
    min_zoom: int
    max_zoom: int  # the deepest zoom carried whole
    attribution: str
    size: int  # the tiles' bytes (before base64)
    source: Path

    def document(self) -> dict:
        return {"tiles": self.tiles, "min_zoom": self.min_zoom, "max_zoom": self.max_zoom,
                "attribution": self.attribution}


def offline_copy_tiles(itin: ItineraryV1, folder: Path | None = None, cap: int = MAX_TILE_BYTES) -> PhoneTiles | None:
    """The tiles of the first offline copy in ``folder`` (the user's ``offline_maps`` by default)
    whose bounds hold most of the trip's places; None when none does or none fits ``cap``."""
    points = [(a.geo.lat, a.geo.lon) for d in itin.days for a in d.activities
              if a.geo is not None and a.kind.value != "flight"]
    if not points:
        return None
    if folder is None:
        from engine.maps.offline_download import OFFLINE_DIR
        from engine.store.sqlite_file import data_dir
        folder = data_dir() / OFFLINE_DIR
    from pmtiles.tile import MagicNumberNotFound, SpecVersionUnsupported

    for path in sorted(folder.glob("*.pmtiles")) if folder.is_dir() else []:
        try:
            found = _tiles_of(path, points, cap)
        except (OSError, ValueError, KeyError, ToolResponseError, MagicNumberNotFound, SpecVersionUnsupported):
            continue  # not a readable archive: not this trip's map
        if found is not None:
            return found
    return None


def _tiles_of(path: Path, points: list[tuple[float, float]], cap: int) -> PhoneTiles | None:
    from pmtiles.reader import MmapSource, Reader
    from pmtiles.tile import Compression, TileType

    from engine.maps.archive_bounds import inflate
    from engine.maps.offline_area import tiles_in, trip_bbox

    with path.open("rb") as handle:
        reader = Reader(MmapSource(handle))
        header = reader.header()
        if header["tile_type"] != TileType.MVT:
            return None
        west, south = header["min_lon_e7"] / 1e7, header["min_lat_e7"] / 1e7
        east, north = header["max_lon_e7"] / 1e7, header["max_lat_e7"] / 1e7
        inside = sum(south <= lat <= north and west <= lon <= east for lat, lon in points)
        if inside * 2 < len(points):
            return None
        box = trip_bbox(points)
        gzipped = header["tile_compression"] == Compression.GZIP
        tiles: dict[str, str] = {}
        size, deepest = 0, None
        for z in range(header["min_zoom"], header["max_zoom"] + 1):
            level = {}
            for x, y in tiles_in(box, z):
                data = reader.get(z, x, y)
                if data:
                    level[f"{z}/{x}/{y}"] = inflate(data, MAX_TILE_INFLATED, path.name, "tile") if gzipped else data
            level_size = sum(len(data) for data in level.values())
            if size + level_size > cap:
                break
            tiles.update((key, base64.b64encode(data).decode("ascii")) for key, data in level.items())
            size, deepest = size + level_size, z
        if deepest is None or not tiles:
            return None
        attribution = str(reader.metadata().get("attribution") or "offline map tiles")
    return PhoneTiles(tiles, header["min_zoom"], deepest, attribution, size, path)
