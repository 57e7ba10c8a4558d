"""What an offline copy of a trip's area holds, worked out from a remote PMTiles archive by HTTP
range requests alone (issue 22 §1), before any tile is downloaded:

- :func:`trip_bbox` — the itinerary's points, padded a little;
- :class:`RangeReader` — ranges of the archive's URL: identifying User-Agent, timeouts, every reply
  bounded (``engine.net.bounded_http``), redirects kept on their origin; a server that answers
  200 instead of 206 is refused (it would send the whole planet);
- :func:`plan_area` — the header, the root directory and only the leaf directories that cover the
  bbox; every tile of the bbox for each zoom up to ``max_zoom`` (15) as (tile id, offset, length),
  so the size is known (:attr:`AreaPlan.total_bytes`) without fetching a tile.

Errors are the engine's: ``ToolUnavailable`` (offline — refused at once, no request —, network
down), ``ToolResponseError`` (not a PMTiles archive, no range support), ``InputError`` (an empty
area, or an estimate above the cap: :func:`check_cap`).
"""

from __future__ import annotations

import asyncio
import math
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pmtiles.tile import Compression, MagicNumberNotFound, SpecVersionUnsupported, deserialize_header, zxy_to_tileid

from engine.errors import InputError, ToolResponseError, ToolTimeout, ToolUnavailable
from engine.geo import BBox
from engine.net import bounded_http
from engine.net.network import offline_by_env, unreachable, user_agent

from .archive_bounds import (MAX_DIRECTORY_BYTES, MAX_METADATA_BYTES, check_length, read_directory,
                             read_metadata)

if TYPE_CHECKING:
    import httpx

TOOL = "offline map"
MAX_ZOOM = 15
PAD_FRACTION = 0.1  # of the bbox's size on each side
PAD_MIN_DEG = 0.01  # ~1 km: a one-point trip still gets its neighbourhood
HEAD_BYTES = 16384  # the spec keeps the header and the root directory in the first 16 KiB
DEFAULT_CAP_MB = 200
MAX_LAT = 85.0511
MAX_TILES = 400_000  # ~a 60 km square to zoom 15; the ids of a larger area are not even listed


def trip_bbox(points: Iterable[tuple[float, float]]) -> BBox:
    """The (lat, lon) points' bounds, padded by a tenth of their size (at least ~1 km)."""
    pts = [(float(lat), float(lon)) for lat, lon in points]
    if not pts:
        raise InputError("trip", "the trip has no places on the map yet: plan it first")
    lats, lons = [p[0] for p in pts], [p[1] for p in pts]
    pad_lat = max((max(lats) - min(lats)) * PAD_FRACTION, PAD_MIN_DEG)
    pad_lon = max((max(lons) - min(lons)) * PAD_FRACTION, PAD_MIN_DEG)
    return BBox.from_wsen(max(-180.0, min(lons) - pad_lon), max(-MAX_LAT, min(lats) - pad_lat),
                min(180.0, max(lons) + pad_lon), min(MAX_LAT, max(lats) + pad_lat))


def tiles_in(bbox: BBox, z: int) -> Iterable[tuple[int, int]]:
    """The (x, y) XYZ tiles of zoom ``z`` that the bbox touches."""
    n = 1 << z

    def col(lon: float) -> int:
        return min(n - 1, max(0, int((lon + 180.0) / 360.0 * n)))

    def row(lat: float) -> int:
        lat_r = math.radians(max(-MAX_LAT, min(MAX_LAT, lat)))
        return min(n - 1, max(0, int((1 - math.asinh(math.tan(lat_r)) / math.pi) / 2 * n)))

    for x in range(col(bbox.west), col(bbox.east) + 1):
        for y in range(row(bbox.north), row(bbox.south) + 1):
            yield x, y


def count_tiles(bbox: BBox, min_zoom: int, max_zoom: int) -> int:
    """How many tiles the bbox touches over those zooms, without listing them."""
    total = 0
    for z in range(min_zoom, max_zoom + 1):
        cols = {x for x, _y in _corners(bbox, z)}
        rows = {y for _x, y in _corners(bbox, z)}
        total += (max(cols) - min(cols) + 1) * (max(rows) - min(rows) + 1)
    return total


def _corners(bbox: BBox, z: int) -> list[tuple[int, int]]:
    out = []
    for lon, lat in ((bbox.west, bbox.north), (bbox.east, bbox.south)):
        corner = BBox.from_wsen(lon, lat, lon, lat)
        out.extend(tiles_in(corner, z))
    return out


def wanted_ids(bbox: BBox, min_zoom: int, max_zoom: int) -> list[int]:
    return sorted(zxy_to_tileid(z, x, y) for z in range(min_zoom, max_zoom + 1) for x, y in tiles_in(bbox, z))


# -- HTTP ranges -----------------------------------------------------------------------------
def new_client() -> httpx.AsyncClient:
    """An identifying, bounded client; a range reply may be as large as the range asked."""
    import httpx
    return httpx.AsyncClient(headers={"User-Agent": user_agent()}, follow_redirects=True,
                             timeout=httpx.Timeout(20.0, connect=5.0),
                             transport=bounded_http.async_transport(httpx, total_s=120.0),
                             event_hooks={"response": [bounded_http.redirect_guard]})


class RangeReader:
    """``await reader.read(offset, length)``: exactly those bytes of ``url`` (a 206 answer)."""

    def __init__(self, url: str, client: httpx.AsyncClient) -> None:
        self.url, self.client = url, client
        self.requests: list[tuple[int, int]] = []  # what was asked, for tests and diagnostics

    async def read(self, offset: int, length: int) -> bytes:
        import httpx
        if offline_by_env():
            raise ToolUnavailable(TOOL, "offline (TRIPWRIGHT_OFFLINE=1): the map cannot be downloaded now",
                                  retryable=False)
        host = httpx.URL(self.url).host
        self.requests.append((offset, length))
        headers = {"Range": f"bytes={offset}-{offset + length - 1}", "Accept-Encoding": "identity"}
        try:
            async with self.client.stream("GET", self.url, headers=headers,
                                          extensions={bounded_http.CAP_KEY: length + 1024}) as response:
                _check_status(response.status_code, host, self.url)
                body = await response.aread()
        except bounded_http.ReplyRefused as exc:
            raise exc.tool_error(TOOL) from None
        except httpx.TimeoutException:
            raise ToolTimeout(TOOL, f"no answer from {host}") from None
        except (httpx.ConnectError, httpx.NetworkError, httpx.RemoteProtocolError) as exc:
            raise ToolUnavailable(TOOL, f"{unreachable(host, exc)}; what was fetched is kept for the next try",
                                  retryable=False) from None
        except httpx.HTTPError as exc:
            raise ToolResponseError(TOOL, f"HTTP failure from {host}: {exc}") from None
        if len(body) != length and not (offset == 0 and len(body) < length):
            raise ToolResponseError(TOOL, f"{host} sent {len(body)} bytes for a range of {length}")
        return body


def _check_status(status: int, host: str, url: str) -> None:
    if status == 200:
        raise ToolResponseError(TOOL, f"{host} does not serve byte ranges (HTTP 200 instead of 206): "
                                      "use a PMTiles URL on a server with range support")
    if status != 206:
        raise ToolResponseError(TOOL, f"HTTP {status} from {host} for {url}")


# -- the plan --------------------------------------------------------------------------------
@dataclass
class AreaPlan:
    """The tiles of the bbox in the remote archive: ``tiles`` is (tile id, offset, length), tile-id
    order, offsets relative to the archive's tile data; ``head`` the archive's first bytes."""

    url: str
    bbox: BBox
    min_zoom: int
    max_zoom: int
    header: dict[str, Any]
    metadata: dict[str, Any]
    head: bytes
    tiles: list[tuple[int, int, int]] = field(default_factory=list)

    @property
    def ranges(self) -> list[tuple[int, int]]:
        """The distinct (offset, length) the tiles need (deduplicated tiles share one)."""
        return sorted({(offset, length) for _tid, offset, length in self.tiles})

    @property
    def total_bytes(self) -> int:
        return sum(length for _offset, length in self.ranges)

    @property
    def tile_count(self) -> int:
        return len(self.tiles)

    def summary(self) -> str:
        return (f"{mb(self.total_bytes)} in {self.tile_count:,} tiles, zoom {self.min_zoom}–{self.max_zoom}, "
                f"area {self.bbox.label()}")


def mb(n: int) -> str:
    return f"{n / 1_000_000:.1f} MB" if n >= 100_000 else f"{max(1, round(n / 1000))} kB"


def check_cap(plan: AreaPlan, cap_mb: int) -> None:
    if plan.total_bytes > cap_mb * 1_000_000:
        raise InputError("offline_map_cap_mb",
                         f"the trip's area to zoom {plan.max_zoom} is about {mb(plan.total_bytes)}, above the "
                         f"{cap_mb} MB cap: choose a smaller area or a lower zoom (or raise the cap in Settings)")


async def plan_area(reader: RangeReader, bbox: BBox, max_zoom: int = MAX_ZOOM) -> AreaPlan:
    """Every tile of ``bbox`` to ``max_zoom`` in the archive, found by reading its directories."""
    touched = count_tiles(bbox, 0, max_zoom)
    if touched > MAX_TILES:  # a coast-to-coast road trip at street zoom: refused before any request
        raise InputError("offline_map_cap_mb",
                         f"the trip's area to zoom {max_zoom} is {touched:,} tiles (more than {MAX_TILES:,}, far above "
                         "any sensible cap): choose a smaller area or a lower zoom")
    head = await reader.read(0, HEAD_BYTES)
    header = _header(head, reader.url)
    low, high = int(header["min_zoom"]), min(int(header["max_zoom"]), max_zoom)
    if low > high:
        raise InputError("offline_map_url", f"the archive starts at zoom {low}, above zoom {max_zoom}")
    check_length(reader.url, "metadata", header["metadata_length"], MAX_METADATA_BYTES)
    metadata = read_metadata(await reader.read(header["metadata_offset"], header["metadata_length"]), reader.url) \
        if header["metadata_length"] else {}
    plan = AreaPlan(reader.url, bbox, low, high, header, metadata, head)
    wanted = await asyncio.to_thread(wanted_ids, bbox, low, high)  # ~10⁵ ids for a region: off the loop
    root = head[header["root_offset"]:header["root_offset"] + header["root_length"]]
    plan.tiles = await _collect(reader, header, read_directory(root, reader.url, "root directory"), wanted, depth=0)
    if not plan.tiles:
        raise InputError("offline_map_url", f"the archive has no tiles in the trip's area ({bbox.label()})")
    return plan


def _header(head: bytes, url: str) -> dict[str, Any]:
    try:
        header = deserialize_header(head[:127])
    except (MagicNumberNotFound, SpecVersionUnsupported, ValueError, IndexError) as exc:
        raise ToolResponseError(TOOL, f"{url} is not a PMTiles v3 archive ({type(exc).__name__})") from None
    if header["internal_compression"] not in (Compression.GZIP,):
        raise ToolResponseError(TOOL, f"{url} compresses its directories with "
                                      f"{header['internal_compression'].name}; only gzip can be read")
    end = header["root_offset"] + header["root_length"]
    if end > len(head):
        raise ToolResponseError(TOOL, f"{url} is not a PMTiles v3 archive (its root directory is cut short)")
    return header


async def _collect(reader: RangeReader, header: dict[str, Any], entries: list, wanted: list[int],
                   depth: int) -> list[tuple[int, int, int]]:
    """The wanted tiles under one directory; leaf directories are fetched only when they cover one."""
    if depth > 3:
        raise ToolResponseError(TOOL, f"{reader.url}: directories nested deeper than the format allows")
    found: list[tuple[int, int, int]] = []
    for i, entry in enumerate(entries):
        end = entries[i + 1].tile_id if i + 1 < len(entries) else 1 << 62
        if entry.run_length:
            end = entry.tile_id + entry.run_length
        hits = _between(wanted, entry.tile_id, end)
        if not hits:
            continue
        if entry.run_length:
            found.extend((tid, entry.offset, entry.length) for tid in hits)
            continue
        check_length(reader.url, "leaf directory", entry.length, MAX_DIRECTORY_BYTES)
        leaf = read_directory(await reader.read(header["leaf_directory_offset"] + entry.offset, entry.length),
                              reader.url, "leaf directory")
        found.extend(await _collect(reader, header, leaf, hits, depth + 1))
    return found


def _between(ids: list[int], start: int, end: int) -> list[int]:
    return ids[bisect_left(ids, start):bisect_left(ids, end)]
