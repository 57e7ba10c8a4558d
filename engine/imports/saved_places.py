"""The traveller's own places in: Google My Maps KML/KMZ, Google Takeout "Saved Places.json"
(GeoJSON), GPX waypoints and CSV, each read into ``SavedPlace`` values.

``read_saved_places(path)`` is the whole of it for a caller that wants the places;
``import_saved_places(path)`` also says which format it was and what was left out (lines,
polygons, tracks, Takeout's places without a location) for the one-line summary.

The format is found by content first (a zip is a KMZ, ``{`` GeoJSON, an XML root ``<kml>`` or
``<gpx>``), then by the file's extension (``.csv``/``.tsv``/``.txt`` are CSV).

Hostile files get one line, an ``InputError("places", …)``, and never a traceback: a file over
``MAX_FILE_BYTES`` (checked before reading, and at most that many bytes + 1 are read), a FIFO,
device or folder, an empty file, XML with a DTD or entities (XXE, billion laughs), a KMZ zip bomb
or one naming files outside itself, more than ``MAX_PLACES`` places (the error names the count),
or none with a point. A place with coordinates out of range, NaN or unreadable rejects the whole
file: the line names the first such place and where it is (line, feature, row or waypoint), so the
traveller fixes the pin rather than losing the place without noticing.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from .collect import MAX_PLACES, fail
from .model import PlacesImport, SavedPlace
from .saved_places_csv import read_csv
from .saved_places_json import read_geojson
from .saved_places_kmz import read_kmz
from .saved_places_xml import read_gpx, read_kml

MAX_FILE_BYTES = 20 * 1024 * 1024
_CSV_SUFFIXES = (".csv", ".tsv", ".txt")
_XML_ROOT = re.compile(rb"<(?![?!])(?:[\w.-]+:)?([\w.-]+)")
_CSV_HEADER = re.compile(rb"(?i)\blat(itude)?\b.*\b(lon|lng|long|longitude)\b")
_BLANK = b"\xef\xbb\xbf \t\r\n"


__all__ = ["MAX_FILE_BYTES", "MAX_PLACES", "detect_format", "import_saved_places", "parse_saved_places",
           "read_saved_places"]


def read_saved_places(path: str | os.PathLike[str]) -> list[SavedPlace]:
    """The file's places in file order; ``InputError("places", …)`` when it cannot be used."""
    return list(import_saved_places(path).places)


def import_saved_places(path: str | os.PathLike[str]) -> PlacesImport:
    """The file's places, its format and the entries left out, by reason."""
    return parse_saved_places(read_capped(path), Path(path).name)


def parse_saved_places(data: bytes, name: str) -> PlacesImport:
    """Places from bytes already in memory (a drop, a paste); ``name`` is the file's name, used
    for its extension and in error lines."""
    label = _label(name)
    if len(data) > MAX_FILE_BYTES:
        fail(label, f"is larger than {MAX_FILE_BYTES // 2**20} MB")
    if not data.strip(_BLANK):
        fail(label, "is empty")
    kind = detect_format(data, name)
    if kind is None:
        fail(label, "is not a KML, KMZ, GeoJSON, GPX or CSV file of places")
    return _READERS[kind](data, label)


def detect_format(data: bytes, name: str) -> str | None:
    """``"kml"``, ``"kmz"``, ``"geojson"``, ``"gpx"``, ``"csv"`` or None; content before extension."""
    if data.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return "kmz"
    head = data[:65536].lstrip(_BLANK)
    suffix = Path(name).suffix.casefold()
    if head.startswith(b"{"):
        return "geojson"
    if head.startswith(b"<"):
        root = _XML_ROOT.search(head)
        found = root.group(1).decode("ascii", "replace").casefold() if root else ""
        if found in ("kml", "gpx"):
            return found
        return {".kml": "kml", ".gpx": "gpx"}.get(suffix, "kml" if suffix == ".kmz" else None)
    if suffix in _CSV_SUFFIXES or _CSV_HEADER.search(head[:1000].split(b"\n", 1)[0]):
        return "csv"
    return {".kml": "kml", ".kmz": "kmz", ".gpx": "gpx", ".json": "geojson", ".geojson": "geojson"}.get(suffix)


def read_capped(path: str | os.PathLike[str]) -> bytes:
    """A regular file's bytes, at most ``MAX_FILE_BYTES``; opened without blocking, so a FIFO is
    refused rather than waited on."""
    label = _label(os.fspath(path))
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        fail(label, "no such file")
    except IsADirectoryError:
        fail(label, "is a folder, not a file")
    except OSError as exc:
        fail(label, f"cannot be read ({exc.strerror or exc})")
    _check_regular(fd, label)
    with os.fdopen(fd, "rb") as fh:
        try:
            data = fh.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            fail(label, f"cannot be read ({exc.strerror or exc})")
    if len(data) > MAX_FILE_BYTES:
        fail(label, f"is larger than {MAX_FILE_BYTES // 2**20} MB")
    return data


def _check_regular(fd: int, label: str) -> None:
    """Refuse (closing the descriptor) a folder, a pipe, a device or a file over the cap."""
    info = os.fstat(fd)
    problem = ("is a folder, not a file" if stat.S_ISDIR(info.st_mode)
               else "is not a regular file (a pipe or a device); give a saved file" if not stat.S_ISREG(info.st_mode)
               else f"is larger than {MAX_FILE_BYTES // 2**20} MB" if info.st_size > MAX_FILE_BYTES else None)
    if problem:
        os.close(fd)
        fail(label, problem)


def _label(name: str) -> str:
    """The file as an error line names it: its base name, quoted when it is not printable."""
    base = Path(name).name or name
    return base if base.isprintable() and len(base) <= 120 else repr(base[:120])


_READERS = {"kml": read_kml, "kmz": read_kmz, "gpx": read_gpx, "geojson": read_geojson, "csv": read_csv}
