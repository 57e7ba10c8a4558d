"""Download a trip's area (an :class:`~engine.maps.offline_area.AreaPlan`) into ONE ``.pmtiles``
file, e.g. ``<data dir>/offline_maps/<trip id>.pmtiles`` (issue 22 §1).

- Only the plan's tile bytes are fetched; adjacent ranges are coalesced into requests of at most
  ``CHUNK_BYTES``; a single range larger than that (one huge tile) is fetched in requests of at
  most ``CHUNK_BYTES`` streamed into its chunk file, and copied into the archive from the file, so
  no request and no step holds more than one chunk — or the one tile the writer takes — in memory.
- Each request's bytes land in ``<file>.part/`` (one file per chunk, written atomically) with a
  ``state.json`` naming the source (URL and the archive's header): an interrupted or cancelled
  download resumes from there and fetches only the chunks it does not have; a changed archive
  starts afresh.
- The archive is written with the ``pmtiles`` package's writer into a temporary file next to the
  final one and renamed: the final name holds a whole archive or nothing. Then ``.part/`` goes.
- ``progress(done, total)`` after each chunk (bytes of tiles); ``cancel`` (a ``CancelToken``)
  checked between chunks and interrupting the one in flight: ``PlanCancelled``, nothing final.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import shutil
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pmtiles.tile import Compression, TileType
from pmtiles.writer import Writer

from engine.atomic import atomic_file, write_atomic
from engine.cancel import CancelToken

from .offline_area import AreaPlan, RangeReader, check_cap

CHUNK_BYTES = 4 * 1024 * 1024
OFFLINE_DIR = "offline_maps"
Progress = Callable[[int, int], None]


def offline_map_path(data_dir: Path, trip_id: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in str(trip_id)) or "trip"
    return Path(data_dir) / OFFLINE_DIR / f"{safe}.pmtiles"


@dataclass(frozen=True)
class Chunk:
    """One request: ``start``..``start+length`` of the tile data, covering several tile ranges."""

    start: int
    length: int

    @property
    def name(self) -> str:
        return f"{self.start}-{self.length}.bin"


def coalesce(ranges: list[tuple[int, int]], limit: int = CHUNK_BYTES) -> list[Chunk]:
    """Adjacent (or overlapping) ranges merged, each chunk at most ``limit`` bytes unless one
    range alone is larger."""
    chunks: list[Chunk] = []
    for offset, length in sorted(ranges):
        if chunks:
            last = chunks[-1]
            end = max(last.start + last.length, offset + length)
            if offset <= last.start + last.length and end - last.start <= limit:
                chunks[-1] = Chunk(last.start, end - last.start)
                continue
        chunks.append(Chunk(offset, length))
    return chunks


def part_dir(dest: Path) -> Path:
    return dest.with_name(dest.name + ".part")


def _fingerprint(plan: AreaPlan) -> str:
    return hashlib.sha256(plan.url.encode() + b"\0" + plan.head[:127]).hexdigest()


def _open_part(dest: Path, plan: AreaPlan) -> Path:
    """The ``.part`` directory for this source; one left by another archive is cleared."""
    folder = part_dir(dest)
    state = folder / "state.json"
    fingerprint = _fingerprint(plan)
    try:
        same = json.loads(state.read_text(encoding="utf-8")).get("source") == fingerprint
    except (OSError, ValueError, AttributeError):
        same = False
    if not same:
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        write_atomic(state, json.dumps({"source": fingerprint, "url": plan.url}).encode())
    return folder


def _have(folder: Path, chunk: Chunk) -> bool:
    try:
        return (folder / chunk.name).stat().st_size == chunk.length
    except OSError:
        return False


async def download_area(plan: AreaPlan, reader: RangeReader, dest: Path, *, cap_mb: int,
                        progress: Progress | None = None, cancel: CancelToken | None = None,
                        chunk_bytes: int = CHUNK_BYTES) -> Path:
    """Fetch the plan's tiles (resuming what ``.part`` holds) and write ``dest`` atomically."""
    check_cap(plan, cap_mb)
    dest.parent.mkdir(parents=True, exist_ok=True)
    folder = _open_part(dest, plan)
    chunks = coalesce(plan.ranges, chunk_bytes)
    total = sum(c.length for c in chunks)
    done = sum(c.length for c in chunks if _have(folder, c))
    if progress:
        progress(done, total)
    base = int(plan.header["tile_data_offset"])
    for chunk in chunks:
        if _have(folder, chunk):
            continue
        if chunk.length > chunk_bytes:  # one range larger than a request: streamed in pieces
            done = await _fetch_in_pieces(reader, base, chunk, folder, chunk_bytes, cancel, done, total, progress)
            continue
        if cancel is not None:
            cancel.raise_if_cancelled()
            data = await cancel.interruptible(reader.read(base + chunk.start, chunk.length))
        else:
            data = await reader.read(base + chunk.start, chunk.length)
        write_atomic(folder / chunk.name, data)
        done += chunk.length
        if progress:
            progress(done, total)
    if cancel is not None:
        cancel.raise_if_cancelled()
    await asyncio.to_thread(_assemble, plan, folder, chunks, dest)  # off the loop: the GUI stays live
    shutil.rmtree(folder, ignore_errors=True)
    return dest


async def _fetch_in_pieces(reader: RangeReader, base: int, chunk: Chunk, folder: Path, piece: int,
                           cancel: CancelToken | None, done: int, total: int, progress: Progress | None) -> int:
    """A chunk larger than one request, fetched ``piece`` bytes at a time into the chunk's file,
    written atomically when whole (an interrupted one starts again)."""
    with atomic_file(folder / chunk.name, "wb") as handle:
        for at in range(0, chunk.length, piece):
            size = min(piece, chunk.length - at)
            if cancel is not None:
                cancel.raise_if_cancelled()
                data = await cancel.interruptible(reader.read(base + chunk.start + at, size))
            else:
                data = await reader.read(base + chunk.start + at, size)
            handle.write(data)
            del data
            done += size
            if progress:
                progress(done, total)
    return done


def _assemble(plan: AreaPlan, folder: Path, chunks: list[Chunk], dest: Path) -> None:
    starts = [c.start for c in chunks]
    loaded: dict[int, bytes] = {}

    def tile_bytes(offset: int, length: int) -> bytes:
        chunk = chunks[bisect_right(starts, offset) - 1]
        if chunk.length > CHUNK_BYTES:  # a huge tile's chunk: read the tile alone, not the chunk and a slice
            with (folder / chunk.name).open("rb") as handle:
                handle.seek(offset - chunk.start)
                return handle.read(length)
        if chunk.start not in loaded:
            loaded.clear()  # tiles come in tile-id order, which clustered archives keep in offset order
            loaded[chunk.start] = (folder / chunk.name).read_bytes()
        at = offset - chunk.start
        return loaded[chunk.start][at:at + length]

    with atomic_file(dest) as handle:
        writer = Writer(handle)
        for tile_id, offset, length in plan.tiles:
            writer.write_tile(tile_id, tile_bytes(offset, length))
        writer.finalize(_out_header(plan), _out_metadata(plan))


def _out_header(plan: AreaPlan) -> dict:
    src, box = plan.header, plan.bbox
    return {"tile_type": src.get("tile_type", TileType.MVT),
            "tile_compression": src.get("tile_compression", Compression.GZIP),
            "min_zoom": plan.min_zoom, "max_zoom": plan.max_zoom,
            "min_lon_e7": int(box.west * 1e7), "min_lat_e7": int(box.south * 1e7),
            "max_lon_e7": int(box.east * 1e7), "max_lat_e7": int(box.north * 1e7),
            "center_zoom": min(plan.max_zoom, 12), "center_lon_e7": int((box.west + box.east) / 2 * 1e7),
            "center_lat_e7": int((box.south + box.north) / 2 * 1e7)}


def _out_metadata(plan: AreaPlan) -> dict:
    meta = dict(plan.metadata)
    meta["tripwright:source"] = plan.url
    meta["tripwright:bbox"] = [plan.bbox.west, plan.bbox.south, plan.bbox.east, plan.bbox.north]
    return meta


def discard_part(dest: Path) -> None:
    shutil.rmtree(part_dir(dest), ignore_errors=True)

