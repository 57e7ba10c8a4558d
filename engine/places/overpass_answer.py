"""An Overpass ``[out:json]`` answer: its documented shape and how it is read.

``parse_answer`` validates the answer whole, or — given a ``Keeper`` — element by element, keeping
only the best of each kind up to its cap (a 46 MB answer validated whole held ~1.4 GB, issue 35).
Anything off the documented shape is a ``ToolResponseError`` saying where; a server's "runtime
error" remark is a ``ToolUnavailable``.
"""

from __future__ import annotations

import heapq
import json
import re
from typing import Any, Callable, Iterator, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from engine.errors import ToolResponseError, ToolUnavailable
from engine.geo import distance_m

from .overpass_query import CAP_FACTOR, LIMITS

TOOL = "overpass"  # the executor's name for the interpreter; every error of it carries this


class Point(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)


class Bounds(BaseModel):
    """A way's or relation's box as ``out bb`` prints it."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    minlat: float = Field(ge=-90, le=90)
    minlon: float = Field(ge=-180, le=180)
    maxlat: float = Field(ge=-90, le=90)
    maxlon: float = Field(ge=-180, le=180)

    def area_m2(self) -> float:
        """The box's area on the ground: an estimate of the feature's size (a box holds more than
        the feature; a fame signal wants the order of magnitude, not the figure)."""
        mid = (self.minlat + self.maxlat) / 2
        height = distance_m(self.minlat, self.minlon, self.maxlat, self.minlon)
        width = distance_m(mid, self.minlon, mid, self.maxlon)
        return round(height * width, 1)


class Element(BaseModel):
    """One element of an ``[out:json]`` answer. A way or relation is placed by its centre
    (``out center``) or — as packs and corridors ask, ``out bb`` — by the middle of its ``bounds``,
    which is the point Overpass gives as the centre; and sized by its bounds. Overpass takes one
    degree of geometry per ``out`` (``center``, ``bb`` or ``geom``: the last one named wins)."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    type: Literal["node", "way", "relation"]
    id: int = Field(gt=0)
    lat: float | None = Field(default=None, ge=-90, le=90)
    lon: float | None = Field(default=None, ge=-180, le=180)
    center: Point | None = None
    bounds: Bounds | None = None
    # a way's points in order under ``out geom`` (Overpass prints null for a point it leaves out)
    geometry: list[Point | None] = Field(default_factory=list)
    tags: dict[str, str] = Field(default_factory=dict)

    def point(self) -> tuple[float, float] | None:
        if self.lat is not None and self.lon is not None:
            return self.lat, self.lon
        if self.center is not None:
            return self.center.lat, self.center.lon
        if self.bounds is not None:
            b = self.bounds
            return (b.minlat + b.maxlat) / 2, (b.minlon + b.maxlon) / 2
        return None

    def size_m2(self) -> float | None:
        """The area of its ``bounds`` (a way's or relation's), or None (a node, no ``bb``, a box
        of no area)."""
        return (self.bounds.area_m2() or None) if self.bounds is not None else None


class Osm3s(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    timestamp_osm_base: str = ""


class Answer(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    osm3s: Osm3s = Osm3s()
    elements: list[Element]
    remark: str | None = None
    dropped: dict[str, int] = Field(default_factory=dict)  # left out while reading, by why (``Keeper``)


_ANSWER = TypeAdapter(Answer)
_HEAD = TypeAdapter(Osm3s)
# An element's kind and rank when the caller keeps it, else why not ("outside_the_city", …): what a
# pack would do with it, decided as the answer is read so only the kept elements are held.
Keeper = Callable[[Element], "tuple[str, float] | str"]


def parse_answer(body: bytes | bytearray, *, keep: Keeper | None = None, caps: dict[str, int] | None = None) -> Answer:
    """The documented ``[out:json]`` shape, or a ``ToolResponseError`` saying where it is not.

    Without ``keep``, validated whole (every element is wanted). With it, read element by element (issue 35: a 46 MB answer validated whole held ~1.4 GB): each element
    is validated alone and, with ``keep``, either dropped at once (counted by its reason) or held
    among the best ``caps[kind]`` of its kind (default ``CAP_FACTOR`` × the query's own limit) by
    rank — the rest counted as ``over_the_cap`` in ``Answer.dropped``. Kept elements stay in the
    answer's order, so an answer within the caps reads exactly as before. A ``bytearray`` body (the
    client's buffer) is emptied once decoded."""
    if keep is None:  # every element wanted (a corridor's cells, a saved place's look-up): one pass
        return _whole(body)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ToolResponseError(TOOL, f"unexpected answer: not UTF-8 (byte {exc.start})") from None
    if isinstance(body, bytearray):
        body.clear()  # the client's buffer, read once: held no longer than the text made of it
    limits = caps or {kind: CAP_FACTOR * n for kind, n in LIMITS.items()}
    rest: dict[str, Any] = {}
    held: list[tuple[int, Element]] = []
    best: dict[str, list[tuple[float, int, int, Element]]] = {}
    dropped: dict[str, int] = {}
    seen_elements = False
    try:
        for n, item in _elements(text, rest):
            seen_elements = True
            element = _element(n, item)
            verdict = keep(element)
            if isinstance(verdict, str):
                dropped[verdict] = dropped.get(verdict, 0) + 1
                continue
            kind, rank = verdict
            heap = best.setdefault(kind, [])
            entry = (rank, -n, n, element)  # the lowest rank, then the latest, goes first
            if len(heap) < limits.get(kind, 0):
                heapq.heappush(heap, entry)
            elif heap and entry[:2] > heap[0][:2]:
                heapq.heapreplace(heap, entry)
                dropped["over_the_cap"] = dropped.get("over_the_cap", 0) + 1
            else:
                dropped["over_the_cap"] = dropped.get("over_the_cap", 0) + 1
    except (ValueError, RecursionError) as exc:  # json's JSONDecodeError, a broken structure
        raise ToolResponseError(TOOL, f"unexpected answer: {' '.join(str(exc).split())}"[:200]) from None
    if not seen_elements and "elements" not in rest:
        raise ToolResponseError(TOOL, "unexpected answer at elements: Field required")
    held += [(n, e) for heap in best.values() for _, _, n, e in heap]
    held.sort(key=lambda pair: pair[0])
    try:
        answer = Answer(osm3s=_HEAD.validate_python(rest.get("osm3s", {})), elements=[e for _, e in held],
                        dropped=dropped, remark=rest.get("remark"))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        where = where if where.startswith("remark") else f"osm3s.{where}".rstrip(".")
        raise ToolResponseError(TOOL, f"unexpected answer at {where}: {first['msg']}"[:200]) from None
    if answer.remark and _failed(answer.remark):
        raise ToolUnavailable(TOOL, f"the server gave up: {answer.remark.strip()[:160]}")
    return answer


def _whole(body: bytes | bytearray) -> Answer:
    try:
        answer = _ANSWER.validate_json(body)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the document"
        raise ToolResponseError(TOOL, f"unexpected answer at {where}: {first['msg']}"[:200]) from None
    if answer.remark and _failed(answer.remark):
        raise ToolUnavailable(TOOL, f"the server gave up: {answer.remark.strip()[:160]}")
    return answer


def _element(n: int, item: Any) -> Element:
    try:
        return Element.model_validate(item)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(["elements", str(n), *(str(p) for p in first["loc"])])
        raise ToolResponseError(TOOL, f"unexpected answer at {where}: {first['msg']}"[:200]) from None


_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def _elements(text: str, rest: dict[str, Any]) -> Iterator[tuple[int, Any]]:
    """The items of the top-level object's ``elements`` array, one decoded at a time; its other
    members go into ``rest``. A ``ValueError`` where the text is not such an object."""
    pos = _skip(text, 0)
    if text[pos:pos + 1] != "{":
        raise ValueError("the document is not a JSON object")
    pos = _skip(text, pos + 1)
    if text[pos:pos + 1] == "}":
        pos += 1
    else:
        while True:
            key, pos = _DECODER.raw_decode(text, pos)
            if not isinstance(key, str):
                raise ValueError(f"a member name that is not a string at character {pos}")
            pos = _expect(text, pos, ":")
            if key == "elements":
                if text[pos:pos + 1] != "[" or "elements" in rest:
                    raise ValueError("'elements' is not one list of elements")
                rest["elements"] = True
                pos = _skip(text, pos + 1)
                n = 0
                if text[pos:pos + 1] == "]":
                    pos += 1
                while text[pos - 1:pos] != "]":
                    item, pos = _DECODER.raw_decode(text, pos)
                    yield n, item
                    n += 1
                    pos = _skip(text, pos)
                    if text[pos:pos + 1] not in (",", "]"):
                        raise ValueError(f"expected ',' or ']' at character {pos}")
                    pos = _skip(text, pos + 1) if text[pos] == "," else pos + 1
            else:
                value, pos = _DECODER.raw_decode(text, pos)
                rest[key] = value
            pos = _skip(text, pos)
            if text[pos:pos + 1] == "}":
                pos += 1
                break
            pos = _expect(text, pos, ",")
    if _skip(text, pos) != len(text):
        raise ValueError(f"extra data at character {pos}")


def _skip(text: str, pos: int) -> int:
    found = _SPACE.match(text, pos)  # matches anywhere (it may match nothing)
    return found.end() if found else pos


def _expect(text: str, pos: int, char: str) -> int:
    pos = _skip(text, pos)
    if text[pos:pos + 1] != char:
        raise ValueError(f"expected {char!r} at character {pos}")
    return _skip(text, pos + 1)


def _failed(remark: str) -> bool:
    text = remark.lower()
    return "runtime error" in text or "timed out" in text or "out of memory" in text


def element_url(element_type: str, element_id: int) -> str:
    return f"https://www.openstreetmap.org/{element_type}/{element_id}"


def describe(answer: Any) -> str:
    return f"{len(answer.elements)} elements, data as of {answer.osm3s.timestamp_osm_base or 'unknown'}"
