"""What a sane PMTiles archive holds, and its gzip'd parts read within those bounds (issue 35 §2).

An archive a server hands us is untrusted: its header may claim a 10 GB metadata block or a 5 GB
leaf directory, its gzip may inflate to gigabytes, a 16 kB root directory may inflate to millions
of entries, and a directory may be empty, not gzip at all, or end in a varint that never ends.
Every length is checked against these bounds *before* it is requested, every inflate stops at its
bound, and every malformed part is a ``ToolResponseError`` in one line naming the archive — the
app's window and the CLI show it as they show any tool error.

The bounds are far above what real archives use: a planet-scale Protomaps build has a root
directory of ~2,000 entries, leaf directories of a few thousand (each under ~100 kB), and metadata
of a few kB.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from pmtiles.tile import Entry

from engine.errors import ToolResponseError

TOOL = "offline map"
MAX_METADATA_BYTES = 1_000_000  # as stored (gzip)
MAX_METADATA_INFLATED = 4_000_000
MAX_DIRECTORY_BYTES = 4_000_000  # a leaf directory as stored
MAX_ENTRIES = 250_000  # in one directory (~40 MB as Python objects)
MAX_DIRECTORY_INFLATED = MAX_ENTRIES * 4 * 5  # four varints an entry; the ids' and offsets' up to 5 bytes
MAX_VARINT_BYTES = 10  # a 64-bit value


def check_length(url: str, what: str, length: int, limit: int) -> None:
    """A length the archive claims, refused before it is asked for when no sane archive needs it."""
    if length > limit:
        raise ToolResponseError(TOOL, f"{url} is not a usable PMTiles archive: its {what} claims {_size(length)}, "
                                      f"more than the {_size(limit)} any map needs")


def inflate(raw: bytes, limit: int, url: str, what: str) -> bytes:
    """``raw`` gunzipped, refused past ``limit`` bytes (a gzip bomb is never inflated whole)."""
    if not raw:
        raise ToolResponseError(TOOL, f"{url} is not a usable PMTiles archive: its {what} is empty")
    z = zlib.decompressobj(zlib.MAX_WBITS | 16)
    try:
        data = z.decompress(raw, limit + 1)
    except zlib.error:
        raise ToolResponseError(TOOL, f"{url} is not a usable PMTiles archive: its {what} is not gzip data") from None
    if len(data) > limit:
        raise ToolResponseError(TOOL, f"{url} is not a usable PMTiles archive: its {what} inflates past "
                                      f"{_size(limit)}")
    if not z.eof:
        raise ToolResponseError(TOOL, f"{url} is not a usable PMTiles archive: its {what} is cut short")
    return data


def read_metadata(raw: bytes, url: str) -> dict[str, Any]:
    """The archive's JSON metadata (gzip), inflated within bounds; {} when it is not a JSON object."""
    data = inflate(raw, MAX_METADATA_INFLATED, url, "metadata")
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):  # not JSON: the copy is written without the source's metadata
        return {}
    return doc if isinstance(doc, dict) else {}


def read_directory(raw: bytes, url: str, what: str) -> list[Entry]:
    """A PMTiles v3 directory (gzip'd varints: the count, then tile-id deltas, run lengths, lengths
    and offsets), as ``pmtiles.tile.deserialize_directory`` reads it, within bounds."""
    data = inflate(raw, MAX_DIRECTORY_INFLATED, url, what)
    varints = _Varints(data, url, what)
    count = varints.next()
    if count > MAX_ENTRIES or 4 * count > len(data):  # each entry is four varints of at least a byte
        raise ToolResponseError(TOOL, f"{url} is not a usable PMTiles archive: its {what} claims {count:,} entries "
                                      f"(at most {MAX_ENTRIES:,}, and {len(data):,} bytes hold at most {len(data) // 4:,})")
    entries: list[Entry] = []
    last = 0
    for _ in range(count):
        last += varints.next()
        entries.append(Entry(last, 0, 0, 0))
    for entry in entries:
        entry.run_length = varints.next()
    for entry in entries:
        entry.length = varints.next()
    for i, entry in enumerate(entries):
        value = varints.next()
        entry.offset = entries[i - 1].offset + entries[i - 1].length if i > 0 and value == 0 else value - 1
    return entries


class _Varints:
    def __init__(self, data: bytes, url: str, what: str) -> None:
        self.data, self.pos, self.url, self.what = data, 0, url, what

    def next(self) -> int:
        value = shift = 0
        for _ in range(MAX_VARINT_BYTES):
            if self.pos >= len(self.data):
                raise ToolResponseError(TOOL, f"{self.url} is not a usable PMTiles archive: its {self.what} "
                                              "ends in the middle of a number")
            byte = self.data[self.pos]
            self.pos += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value
        raise ToolResponseError(TOOL, f"{self.url} is not a usable PMTiles archive: its {self.what} holds a number "
                                      f"longer than {MAX_VARINT_BYTES} bytes")


def _size(n: int) -> str:
    return f"{n / 1_000_000:,.0f} MB" if n >= 1_000_000 else f"{n / 1000:,.0f} kB"
