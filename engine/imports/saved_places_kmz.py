"""KMZ: a zip archive holding ``doc.kml`` (or, failing that, its first ``.kml``). Only that one
member is read, into memory, never extracted: an archive naming any member outside itself
(``../``, an absolute path, a drive) is refused whole, and the member is refused when it would
unpack past ``MAX_KML_BYTES`` or more than ``MAX_RATIO`` times its packed size (a zip bomb) — by
its declared sizes first, then by the bytes actually unpacked, so a lying header stops there too.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib

from .collect import fail, quoted
from .model import PlacesImport
from .saved_places_xml import read_kml

MAX_KML_BYTES = 20 * 1024 * 1024
MAX_RATIO = 200
MAX_MEMBERS = 10_000
_CHUNK = 1 << 20
_DRIVE = re.compile(r"^[A-Za-z]:")


def read_kmz(data: bytes, label: str) -> PlacesImport:
    member, kml = _kml_member(data, label)
    return read_kml(kml, label, source="kmz", entry=member)


def _kml_member(data: bytes, label: str) -> tuple[str, bytes]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, OSError):
        fail(label, "is not a readable KMZ (zip) archive")
    with archive:
        members = archive.infolist()
        if len(members) > MAX_MEMBERS:
            fail(label, f"holds {len(members):,} files; a KMZ of places holds a few")
        for info in members:
            if _outside(info.filename):
                fail(label, f"names a file outside the archive ({quoted(info.filename)}); refused")
        info = _chosen(members)
        if info is None:
            fail(label, "holds no .kml document")
        return info.filename, _unpacked(archive, info, label)


def _outside(name: str) -> bool:
    parts = re.split(r"[\\/]", name)
    return name.startswith(("/", "\\")) or bool(_DRIVE.match(name)) or ".." in parts or "\x00" in name


def _chosen(members: list[zipfile.ZipInfo]) -> zipfile.ZipInfo | None:
    kmls = [m for m in members if not m.is_dir() and m.filename.casefold().endswith(".kml")]
    return next((m for m in kmls if m.filename.casefold() == "doc.kml"), kmls[0] if kmls else None)


def _unpacked(archive: zipfile.ZipFile, info: zipfile.ZipInfo, label: str) -> bytes:
    name = quoted(info.filename)
    if info.flag_bits & 0x1:
        fail(label, f"{name} is encrypted")
    _check_sizes(info.file_size, info.compress_size, name, label)
    out = bytearray()
    try:
        with archive.open(info) as member:
            while chunk := member.read(_CHUNK):
                out += chunk
                _check_sizes(len(out), info.compress_size, name, label)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError) as exc:
        fail(label, f"{name} cannot be unpacked ({' '.join(str(exc).split())[:80]})")
    return bytes(out)


def _check_sizes(size: int, packed: int, name: str, label: str) -> None:
    if size > MAX_KML_BYTES:
        fail(label, f"{name} unpacks to more than {MAX_KML_BYTES // 2**20} MB; refused (zip bomb?)")
    if size > MAX_RATIO * max(packed, 1) and size > _CHUNK:
        fail(label, f"{name} unpacks to over {MAX_RATIO} times its packed size; refused as a zip bomb")
