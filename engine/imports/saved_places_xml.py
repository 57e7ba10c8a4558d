"""KML and GPX places, parsed with defusedxml: a file that declares a DTD or an entity is refused
before anything is expanded or fetched (XXE, billion laughs), and elements nested deeper than
``MAX_DEPTH`` are refused while parsing.

KML: every Placemark with a Point, at any depth of Documents and Folders (My Maps puts each layer
in a Folder); its name, its description as text (My Maps writes HTML there), ExtendedData as
"key: value" lines. GPX: every ``<wpt>`` through gpxpy (name, desc, cmt), once the same defused
parse has vetted the file.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser, ParseError

from .collect import MAX_HTML_CHARS, Collector, as_number, fail, html_to_text, quoted
from .model import PlacesImport, Source

MAX_DEPTH = 64
# gpxpy scans the text for namespace declarations with a regular expression that slows down
# quadratically on a crafted file full of "xmlns"; a real GPX declares a handful.
MAX_XMLNS = 64
_SKIP_DATA_KEYS = frozenset({"name", "description", "gx_media_links"})
_COLLECTED = frozenset({"name", "description", "address", "coordinates", "value", "displayName", "SimpleData"})


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


class _Vetting:
    """A parse target that refuses a wrong root and deep nesting; subclasses read what they need."""

    root = ""

    def __init__(self, label: str, line: Callable[[], int]) -> None:
        self.label = label
        self.line = line
        self.stack: list[str] = []

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        name = local(tag)
        self.stack.append(name)
        if len(self.stack) > MAX_DEPTH:
            fail(self.label, f"nests elements deeper than {MAX_DEPTH} levels (line {self.line()})")
        if len(self.stack) == 1 and name != self.root:
            fail(self.label, f"is XML but not {self.root.upper()} (its root element is <{name[:40]}>)")

    def end(self, tag: str) -> None:
        self.stack.pop()

    def data(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass


def parse_defused(data: bytes, label: str, make_target: Callable[[str, Callable[[], int]], _Vetting]) -> _Vetting:
    """Feed ``data`` through defusedxml (no DTD at all, so no entity of any kind) into the target."""
    parser: DefusedXMLParser | None = None

    def line() -> int:
        return parser.parser.CurrentLineNumber if parser is not None else 0

    target = make_target(label, line)
    parser = DefusedXMLParser(target=target, forbid_dtd=True)
    try:
        parser.feed(data)
        parser.close()
    except DefusedXmlException:
        fail(label, "declares a DTD or entities, which are refused (external entities and entity "
                    "expansion are never read)")
    except ParseError as exc:
        line_no, column = getattr(exc, "position", (0, 0))
        fail(label, f"is not well-formed XML (line {line_no}, column {column + 1})")
    except (LookupError, UnicodeError) as exc:  # an encoding Python does not know, or bytes not in it
        fail(label, f"declares a text encoding that cannot be read ({' '.join(str(exc).split())[:80]})")
    return target


# -- KML ----------------------------------------------------------------------------------------
@dataclass
class _Draft:
    line: int
    own_id: str | None
    name: str = ""
    description: str = ""
    coordinates: str | None = None
    data: list[tuple[str, str]] = field(default_factory=list)
    data_key: str = ""


class _KmlTarget(_Vetting):
    root = "kml"

    def __init__(self, label: str, line: Callable[[], int], sink: Collector, where: str) -> None:
        super().__init__(label, line)
        self.sink = sink
        self.where = where
        self.place: _Draft | None = None
        self.text: list[str] | None = None
        self.size = 0
        self.simple_key = ""

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        super().start(tag, attrib)
        name = self.stack[-1]
        if name == "Placemark":
            self.place = _Draft(line=self.line(), own_id=attrib.get("id"))
        elif self.place is not None:
            if name == "Data":
                self.place.data_key = attrib.get("name", "")
            elif name == "SimpleData":
                self.simple_key = attrib.get("name", "")
            if name in _COLLECTED:
                self.text, self.size = [], 0

    def data(self, text: str) -> None:
        if self.text is not None and self.size < MAX_HTML_CHARS:
            self.text.append(text)
            self.size += len(text)

    def end(self, tag: str) -> None:
        name, parent = self.stack[-1], (self.stack[-2] if len(self.stack) > 1 else "")
        super().end(tag)
        if name == "Placemark" and self.place is not None:
            self._finish(self.place)
            self.place = None
        elif self.place is not None and self.text is not None and name in _COLLECTED:
            self._keep(self.place, name, parent, "".join(self.text).strip())
            self.text = None

    def _keep(self, place: _Draft, name: str, parent: str, text: str) -> None:
        if name in ("name", "description") and parent == "Placemark":
            setattr(place, name, text)
        elif name == "coordinates" and parent == "Point" and place.coordinates is None:
            place.coordinates = text
        elif name == "address" and parent == "Placemark" and text:
            place.data.append(("Address", text))
        elif name == "displayName" and parent == "Data":
            place.data_key = text or place.data_key
        elif name == "value" and parent == "Data":
            place.data.append((place.data_key, text))
        elif name == "SimpleData":
            place.data.append((self.simple_key, text))

    def _finish(self, place: _Draft) -> None:
        if place.coordinates is None:
            self.sink.skip("not a point")
            return
        first = re.sub(r"\s*,\s*", ",", place.coordinates).split()
        lon, lat, *_ = (first[0].split(",") + ["", ""]) if first else ["", ""]
        extra = [f"{key}: {html_to_text(value)}" for key, value in place.data
                 if value and key.casefold() not in _SKIP_DATA_KEYS and value != place.name]
        self.sink.add(name=place.name or _data_name(place), lat=lat, lon=lon,
                      where=f"{self.where}line {place.line}", source_id=place.own_id,
                      notes="\n".join([html_to_text(place.description), *extra]))


def _data_name(place: _Draft) -> str:
    return next((value for key, value in place.data if key.casefold() == "name"), "")


def read_kml(data: bytes, label: str, *, source: Source = "kml", entry: str = "") -> PlacesImport:
    """The Point placemarks of a KML document; ``entry`` names the KMZ member it came from."""
    sink = Collector(source, label)
    where = f"{entry} " if entry else ""
    parse_defused(data, label, lambda lbl, line: _KmlTarget(lbl, line, sink, where))
    return sink.result()


# -- GPX ----------------------------------------------------------------------------------------
class _GpxTarget(_Vetting):
    """Vets the file and notes where each waypoint starts, refusing one whose point gpxpy could
    not read (gpxpy's own error would not say which waypoint)."""

    root = "gpx"

    def __init__(self, label: str, line: Callable[[], int]) -> None:
        super().__init__(label, line)
        self.waypoint_lines: list[int] = []

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        super().start(tag, attrib)
        if self.stack[-1] == "wpt" and len(self.stack) == 2:
            self.waypoint_lines.append(self.line())
            for axis in ("lat", "lon"):
                if as_number(attrib.get(axis)) is None:
                    fail(self.label, f"waypoint {len(self.waypoint_lines)} (line {self.line()}) has no readable "
                                     f"{axis}itude ({quoted(str(attrib.get(axis, '')), 30)}); nothing was imported")


def read_gpx(data: bytes, label: str) -> PlacesImport:
    """The waypoints of a GPX file (tracks and routes are not places: counted as left out)."""
    import gpxpy
    import gpxpy.gpx

    vetted = parse_defused(data, label, _GpxTarget)
    if data.count(b"xmlns") > MAX_XMLNS:
        fail(label, f"declares more than {MAX_XMLNS} XML namespaces; not read as GPX")
    try:
        doc = gpxpy.parse(_gpx_text(data, label))
    except (gpxpy.gpx.GPXException, ValueError) as exc:
        fail(label, f"is not valid GPX ({' '.join(str(exc).split())[:80]})")
    sink = Collector("gpx", label)
    lines = vetted.waypoint_lines
    for k, wpt in enumerate(doc.waypoints):
        where = f"waypoint {k + 1}, line {lines[k]}" if k < len(lines) else f"waypoint {k + 1}"
        notes = [text for text in dict.fromkeys((wpt.description, wpt.comment)) if text]
        sink.add(name=wpt.name or "", lat=wpt.latitude, lon=wpt.longitude, where=where,
                 notes="\n".join(html_to_text(t) for t in notes))
    for _ in (*doc.tracks, *doc.routes):
        sink.skip("a track or route")
    return sink.result()


_DECLARED = re.compile(rb"""\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]{1,40})["']""")


def _gpx_text(data: bytes, label: str) -> str:
    """The GPX as text in the encoding it declares (the parse above read it so), minus its XML
    declaration: gpxpy hands lxml UTF-8 bytes, which a declared "ISO-8859-1" would misread."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        encoding = "utf-16"
    else:
        declared = _DECLARED.match(data.removeprefix(b"\xef\xbb\xbf"))
        encoding = declared.group(1).decode("ascii") if declared else "utf-8"
        encoding = "utf-8-sig" if encoding.casefold().replace("_", "-") in ("utf-8", "utf8") else encoding
    try:
        text = data.decode(encoding)
    except (LookupError, UnicodeDecodeError) as exc:
        fail(label, f"cannot be read as {encoding} text ({' '.join(str(exc).split())[:80]})")
    return re.sub(r"^\s*<\?xml[^>]*\?>", "", text.lstrip("\ufeff"), count=1)
