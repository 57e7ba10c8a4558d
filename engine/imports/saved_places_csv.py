"""CSV places: a header row naming the columns — ``name`` (or ``title``), ``lat``/``latitude``,
``lon``/``lng``/``longitude``, optionally ``notes``/``description`` and an ``id``/``url`` — in
UTF-8 (a BOM is fine), separated by commas, semicolons or tabs (whichever the header uses most).
A decimal comma ("48,8606", as spreadsheets write it beside semicolons) is read as a point."""

from __future__ import annotations

import csv
import io

from .collect import Collector, fail
from .model import PlacesImport

_COLUMNS = {
    "name": ("name", "title", "place", "label"),
    "lat": ("lat", "latitude"),
    "lon": ("lon", "lng", "long", "longitude"),
    "notes": ("notes", "note", "description", "desc", "comment", "comments"),
    "id": ("id", "url", "google_maps_url", "link"),
}


def read_csv(data: bytes, label: str) -> PlacesImport:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        fail(label, f"is not UTF-8 text (bad byte at offset {exc.start}); save the CSV as UTF-8")
    header_line = text.lstrip("\r\n").split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=header_line.count)
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = next((row for row in rows if any(cell.strip() for cell in row)), None)
        if header is None:
            fail(label, "is empty")
        columns = _columns(header, label)
        sink = Collector("csv", label)
        for row in rows:
            if any(cell.strip() for cell in row):
                _one(sink, row, columns, rows.line_num)
    except csv.Error as exc:
        fail(label, f"is not readable CSV (line {rows.line_num}: {exc})")
    return sink.result()


def _columns(header: list[str], label: str) -> dict[str, int]:
    names = [cell.strip().strip('"').casefold() for cell in header]
    found = {}
    for key, spellings in _COLUMNS.items():
        index = next((names.index(s) for s in spellings if s in names), None)
        if index is not None:
            found[key] = index
    missing = [key for key in ("name", "lat", "lon") if key not in found]
    if missing:
        fail(label, f"has no {'/'.join(missing)} column in its header row (give name, lat and lon; "
                    f"found {', '.join(repr(n[:20]) for n in names[:8]) or 'nothing'})")
    return found


def _one(sink: Collector, row: list[str], columns: dict[str, int], line: int) -> None:
    def cell(key: str) -> str:
        index = columns.get(key)
        return row[index].strip() if index is not None and index < len(row) else ""

    sink.add(name=cell("name"), lat=cell("lat"), lon=cell("lon"), notes=cell("notes"),
             source_id=cell("id") or None, where=f"line {line}")
