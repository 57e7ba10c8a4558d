"""What an imported file of the traveller's own places becomes: ``SavedPlace`` values, and the
``PlacesImport`` that carries them with what was left out and why."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

MAX_NAME_CHARS = 200
MAX_NOTES_CHARS = 1000
MAX_ID_CHARS = 500

Source = Literal["kml", "kmz", "geojson", "gpx", "csv"]
_FORMAT_NAMES = {"kml": "KML", "kmz": "KMZ", "geojson": "GeoJSON", "gpx": "GPX", "csv": "CSV"}

# Control characters (tab and newline allowed in notes only), lone surrogates, U+FFFE/U+FFFF:
# nothing a label can show or XML can carry.
_NOT_NAME_CHAR = re.compile("[^\u0020-\u007e\u00a0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_NOT_NOTES_CHAR = re.compile("[^\t\n\u0020-\u007e\u00a0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


class SavedPlace(BaseModel):
    """One of the traveller's saved places: plain-text name and notes, a checked point, the
    format it came from and, when the file gives one, its own id (Takeout: the Google Maps URL)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=MAX_NAME_CHARS)
    lat: float = Field(ge=-90, le=90, allow_inf_nan=False)
    lon: float = Field(ge=-180, le=180, allow_inf_nan=False)
    notes: str = Field(default="", max_length=MAX_NOTES_CHARS)
    source: Source
    source_id: str | None = Field(default=None, min_length=1, max_length=MAX_ID_CHARS)

    @field_validator("name", "source_id")
    @classmethod
    def _one_plain_line(cls, v: str | None) -> str | None:
        if v is not None and (_NOT_NAME_CHAR.search(v) or v != v.strip()):
            raise ValueError("must be one line of plain text without surrounding spaces")
        return v

    @field_validator("notes")
    @classmethod
    def _plain_notes(cls, v: str) -> str:
        if _NOT_NOTES_CHAR.search(v):
            raise ValueError("must be plain text")
        return v


class PlacesImport(BaseModel):
    """A file's places in file order, its format, and the entries left out by reason
    (``{"not a point": 2}``: a line or a polygon; ``"no location"``: Takeout's placeholder)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    places: tuple[SavedPlace, ...]
    source: Source
    skipped: dict[str, int] = Field(default_factory=dict)

    def summary(self) -> str:
        """One line for a terminal or a status bar: "12 places from KML; 2 left out (not a point: 2)"."""
        line = f"{len(self.places):,} place{'s' * (len(self.places) != 1)} from {_FORMAT_NAMES[self.source]}"
        if self.skipped:
            total = sum(self.skipped.values())
            why = ", ".join(f"{reason}: {n:,}" for reason, n in sorted(self.skipped.items()))
            line += f"; {total:,} left out ({why})"
        return line


def clean_name(text: str) -> str:
    """One line of plain text, at most ``MAX_NAME_CHARS`` (cut with "…")."""
    return _cut(" ".join(_NOT_NAME_CHAR.sub(" ", text).split()), MAX_NAME_CHARS)


def clean_notes(text: str) -> str:
    """Plain text lines, spaces folded, blank and repeated lines dropped (My Maps repeats a
    layer's table columns in the description), at most ``MAX_NOTES_CHARS``."""
    lines = (" ".join(line.split()) for line in _NOT_NOTES_CHAR.sub(" ", text.replace("\r", "\n")).split("\n"))
    return _cut("\n".join(dict.fromkeys(line for line in lines if line)), MAX_NOTES_CHARS)


def clean_id(text: object) -> str | None:
    """A file's own id as one line, or None when absent, not text, or too long to be an id."""
    if not isinstance(text, str | int) or isinstance(text, bool):
        return None
    value = str(text).strip()
    if not value or len(value) > MAX_ID_CHARS or _NOT_NAME_CHAR.search(value):
        return None
    return value


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
