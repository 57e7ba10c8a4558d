"""What every reader shares: the one-line error, the place cap, the coordinate check and HTML
descriptions read as plain text.

A file with a bad point is refused whole, naming the first bad place and where it is (a line, a
feature, a row, a waypoint): a traveller's list with one wrong pin is better fixed than silently
shortened.
"""

from __future__ import annotations

import math
from collections import Counter
from html.parser import HTMLParser
from typing import NoReturn

from engine.errors import InputError

from .model import PlacesImport, SavedPlace, Source, clean_id, clean_name, clean_notes

FIELD = "places"
MAX_PLACES = 5000
MAX_HTML_CHARS = 20_000  # of a description read as text; notes keep 1,000 of them


def fail(label: str, message: str) -> NoReturn:
    """The one error of an import: ``places: <file>: <what is wrong>``, one line (any exception
    being handled is the reader's business, not the traveller's: its context is dropped)."""
    raise InputError(FIELD, " ".join(f"{label}: {message}".split())) from None


def quoted(text: str, limit: int = 60) -> str:
    """A piece of the file inside an error line: short, quoted, on one line."""
    short = text if len(text) <= limit else text[: limit - 1] + "…"
    return repr(short)


class Collector:
    """Gathers a file's places in order; counts past the cap so the error can name the total."""

    def __init__(self, source: Source, label: str) -> None:
        self.source = source
        self.label = label
        self.count = 0
        self.places: list[SavedPlace] = []
        self.skipped: Counter[str] = Counter()

    def add(self, *, name: str, lat: object, lon: object, where: str, notes: str = "",
            source_id: object = None) -> None:
        """One place; ``where`` says where it is in the file ("line 12", "feature 4")."""
        self.count += 1
        if self.count > MAX_PLACES:
            return
        shown = clean_name(name) or f"Unnamed place {self.count}"
        lat_f = self._number(lat, "latitude", shown, where)
        lon_f = self._number(lon, "longitude", shown, where)
        self._in_range(lat_f, lon_f, shown, where)
        self.places.append(SavedPlace(name=shown, lat=lat_f, lon=lon_f, notes=clean_notes(notes),
                                      source=self.source, source_id=clean_id(source_id)))

    def skip(self, reason: str) -> None:
        self.skipped[reason] += 1

    def result(self) -> PlacesImport:
        if self.count > MAX_PLACES:
            fail(self.label, f"holds {self.count:,} places; at most {MAX_PLACES:,} are imported from one file")
        if not self.places:
            why = f" ({', '.join(f'{r}: {n}' for r, n in sorted(self.skipped.items()))})" if self.skipped else ""
            fail(self.label, f"holds no places with a point{why}")
        return PlacesImport(places=tuple(self.places), source=self.source, skipped=dict(self.skipped))

    def _number(self, value: object, axis: str, name: str, where: str) -> float:
        number = as_number(value)
        if number is None:
            fail(self.label, f"place {quoted(name)} ({where}) has no readable {axis} "
                             f"({quoted(str(value), 30)}); nothing was imported")
        return number

    def _in_range(self, lat: float, lon: float, name: str, where: str) -> None:
        for axis, value, bound in (("latitude", lat, 90), ("longitude", lon, 180)):
            if not math.isfinite(value) or abs(value) > bound:
                fail(self.label, f"place {quoted(name)} ({where}) has {axis} {value} outside "
                                 f"-{bound}…{bound}; nothing was imported")


def as_number(value: object) -> float | None:
    """A coordinate as a float (a decimal comma read as a point), or None when it is not one."""
    if isinstance(value, bool):
        return None
    try:
        return float(value.strip().replace(",", ".") if isinstance(value, str) else value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return None


class _TextOfHtml(HTMLParser):
    BREAKS = frozenset({"br", "p", "div", "li", "tr", "td", "th", "table", "ul", "ol",
                        "h1", "h2", "h3", "h4", "h5", "h6"})
    HIDDEN = frozenset({"script", "style", "head", "title", "template"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in self.HIDDEN:
            self.hidden += 1
        elif tag in self.BREAKS:
            self.parts.append("\n")

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        if tag in self.BREAKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in self.BREAKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def html_to_text(html: str) -> str:
    """A description as text: tags dropped (My Maps' ``<br>`` and ``<img>``), entities read,
    line breaks kept; at most ``MAX_HTML_CHARS`` of the input are read."""
    if "<" not in html and "&" not in html:
        return html
    return html_lines(html, MAX_HTML_CHARS)


def html_lines(html: str, limit: int) -> str:
    """HTML as the lines a reader sees (scripts, styles and the head dropped, entities read), by
    the stdlib tokenizer over at most ``limit`` characters; shared by places and bookings."""
    parser = _TextOfHtml()
    parser.feed(html[:limit])
    parser.close()
    return "".join(parser.parts)
