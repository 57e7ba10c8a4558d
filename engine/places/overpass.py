"""OpenStreetMap through an Overpass API interpreter: one query per city, politely.

One POST per city pack asks for the sights, the places to eat and the places to stay inside the
city's box, each group capped by its own ``out bb tags N`` (ways and relations come with
their centre). The client identifies itself (the shared User-Agent), sends one request at a time
per process, bounds the server's work (``[timeout:]``, ``[maxsize:]``), reads the answer as a
stream with a size cap, and goes through the tool executor as tool ``overpass``: breaker,
exactly one retry on 429/5xx/timeouts with ``Retry-After`` honoured when it fits, metrics.
``TRIPWRIGHT_OVERPASS_URL`` is the full interpreter URL.
"""

from __future__ import annotations

import asyncio
import heapq
import json
import os
import re
import threading
from typing import Any, Callable, Iterator, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from engine.errors import ToolResponseError, ToolTimeout, ToolUnavailable
from engine.geo import BBox, distance_m
from engine.net import bounded_http
from engine.net.network import NetworkState, retry_after, unreachable

DEFAULT_URL = "https://overpass-api.de/api/interpreter"
TOOL = "overpass"
SERVER_TIMEOUT_S = 25
SERVER_MAXSIZE = 64 * 1024 * 1024
MAX_BODY_BYTES = 48 * 1024 * 1024  # decompressed; a 3,000-place city is ~1 MB
ATTEMPT_TIMEOUT_S = 13.0  # two attempts and a short wait stay under the 30 s a fetch may take
LIMITS = {"sight": 2500, "food": 1500, "bed": 600}
CAP_FACTOR = 2  # elements kept per kind: twice what the query asks for (a server may ignore ``out … N``)

SIGHT_STATEMENTS = (
    'nwr["tourism"~"^(museum|gallery|zoo|aquarium|theme_park|viewpoint|attraction)$"]["name"]',
    'nwr["historic"~"^(castle|fort|palace|monument|memorial|ruins|archaeological_site|monastery)$"]["name"]',
    'nwr["amenity"="place_of_worship"]["name"]["wikidata"]',
    'nwr["amenity"="place_of_worship"]["name"]["building"~"^(cathedral|basilica)$"]',
    'nwr["amenity"="marketplace"]["name"]',
    'nwr["leisure"~"^(park|garden|nature_reserve)$"]["name"]',
    'nwr["place"="square"]["name"]',
)
FOOD_STATEMENTS = ('nwr["amenity"~"^(restaurant|cafe|food_court)$"]["name"]',)
BED_STATEMENTS = ('nwr["tourism"~"^(hotel|guest_house|hostel|apartment)$"]["name"]',)

# Road trips (issue 20): one query per group of corridor boxes, each box with its own three capped
# groups — the well-known sights (parks, monuments, anything with a Wikidata entry), the other
# sights, the beds — so a dense box can cut only its own lesser sights. ``osm_tags.read_tags(road=True)``
# reads exactly these tags.
ROAD_SERVER_TIMEOUT_S = 60
ROAD_LIMITS = {"major": 1000, "sight": 2000, "bed": 1500}  # per box
ROAD_MAJOR_STATEMENTS = (
    'nwr["boundary"="national_park"]["name"]',
    'nwr["boundary"="protected_area"]["name"]["protect_class"~"^(2|3|5)$"]',
    'nwr["boundary"="protected_area"]["name"]["designation"~"(national|state)_(park|monument|historic_park|beach)"]',
    'nwr["boundary"="protected_area"]["name"]["protection_title"~"(National|State) '
    '(Park|Monument|Historic Park|Beach|Natural Reserve|Seashore|Recreation Area)",i]',
    *(s + f'["{known}"]' for known in ("wikidata", "wikipedia") for s in (
        'nwr["leisure"="nature_reserve"]["name"]',
        'nwr["natural"~"^(peak|arch)$"]["name"]',
        'nwr["tourism"~"^(museum|gallery|zoo|aquarium|viewpoint|attraction)$"]["name"]',
        'nwr["historic"~"^(castle|fort|monument|memorial|ruins|archaeological_site|monastery)$"]["name"]',
        'nwr["amenity"="place_of_worship"]["name"]')),
)
ROAD_SIGHT_STATEMENTS = (
    'nwr["natural"~"^(waterfall|beach)$"]["name"]',
    'nwr["natural"~"^(peak|arch)$"]["name"]["tourism"]',
    'nwr["tourism"~"^(museum|gallery|zoo|aquarium|viewpoint|attraction)$"]["name"]',
    'nwr["historic"~"^(castle|fort|monument|ruins|archaeological_site|monastery)$"]["name"]',
)
ROAD_BED_STATEMENTS = ('nwr["tourism"~"^(hotel|motel|guest_house|hostel|camp_site)$"]["name"]',)

# The city's own map (issue 32 §4), asked right after the places with the same client: water and
# the coastline, parks, the main streets with their names, rail lines — ways with their geometry
# (``out geom``) — and the named stations (nodes). ``engine/maps/city_layers.py`` simplifies and bounds them.
MAP_WAY_STATEMENTS = (
    'way["natural"="coastline"]',
    'way["natural"="water"]',
    'way["waterway"~"^(river|canal)$"]',
    'way["leisure"~"^(park|garden)$"]["name"]',
    'way["highway"~"^(motorway|trunk|primary|secondary)$"]["name"]',
    'way["railway"~"^(rail|subway|light_rail|tram)$"]',
)
MAP_NODE_STATEMENTS = ('node["railway"~"^(station|halt)$"]["name"]',)
MAP_LIMITS = {"ways": 6000, "stations": 400}


def overpass_url() -> str:
    return os.environ.get("TRIPWRIGHT_OVERPASS_URL", "").strip() or DEFAULT_URL


def attempt_timeout_s() -> float:
    try:
        return max(1.0, float(os.environ.get("TRIPWRIGHT_OVERPASS_TIMEOUT_S", ATTEMPT_TIMEOUT_S)))
    except ValueError:
        return ATTEMPT_TIMEOUT_S


def city_query(box: BBox) -> str:
    """The Overpass QL of one city pack: three groups, each with its own cap."""
    head = f"[out:json][timeout:{SERVER_TIMEOUT_S}][maxsize:{SERVER_MAXSIZE}][bbox:{box.ql()}];"
    blocks = [_block(SIGHT_STATEMENTS, LIMITS["sight"]), _block(FOOD_STATEMENTS, LIMITS["food"]),
              _block(BED_STATEMENTS, LIMITS["bed"])]
    return "\n".join([head, *blocks])


def city_map_query(box: BBox) -> str:
    """The Overpass QL of a city's map: its water, parks, main streets and rail as ways with their
    geometry, then its stations — one query, each part capped."""
    head = f"[out:json][timeout:{SERVER_TIMEOUT_S}][maxsize:{SERVER_MAXSIZE}][bbox:{box.ql()}];"
    ways = "\n".join(f"  {s};" for s in MAP_WAY_STATEMENTS)
    nodes = "\n".join(f"  {s};" for s in MAP_NODE_STATEMENTS)
    return "\n".join([head, f"(\n{ways}\n);\nout geom {MAP_LIMITS['ways']};",
                      f"(\n{nodes}\n);\nout body {MAP_LIMITS['stations']};"])


def corridor_query(boxes: list[BBox]) -> str:
    """The Overpass QL of one corridor query: per box, its well-known sights, other sights and
    beds, each group capped (``out bb tags N``) for that box alone."""
    head = f"[out:json][timeout:{ROAD_SERVER_TIMEOUT_S}][maxsize:{SERVER_MAXSIZE}];"
    blocks = []
    for box in boxes:
        where = f"({box.ql()})"
        for statements, limit in ((ROAD_MAJOR_STATEMENTS, ROAD_LIMITS["major"]),
                                  (ROAD_SIGHT_STATEMENTS, ROAD_LIMITS["sight"]),
                                  (ROAD_BED_STATEMENTS, ROAD_LIMITS["bed"])):
            blocks.append(_block(tuple(s + where for s in statements), limit))
    return "\n".join([head, *blocks])


def _block(statements: tuple[str, ...], limit: int) -> str:
    body = "\n".join(f"  {s};" for s in statements)
    return f"(\n{body}\n);\nout bb tags {limit};"


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
Progress = Callable[[int], None]  # bytes received so far
# An element's kind and rank when the caller keeps it, else why not ("outside_the_city", …): what a
# pack would do with it, decided as the answer is read so only the kept elements are held.
Keeper = Callable[[Element], "tuple[str, float] | str"]


class OverpassClient:
    """Asks the interpreter through the executor's policy; ``progress`` hears bytes as they come."""

    _locks: dict[int, asyncio.Lock] = {}
    _guard = threading.Lock()

    def __init__(self, network: NetworkState, executor, *, url: str | None = None) -> None:
        self._network = network
        self._executor = executor
        executor.quiet_tools.add(TOOL)  # the caller words the failure in one line (CLI, progress panel)
        self._url = url

    @property
    def url(self) -> str:
        """The interpreter asked: the one given, else ``TRIPWRIGHT_OVERPASS_URL`` as it is now (a
        long-lived app session sees a changed setting)."""
        return self._url or overpass_url()

    async def query(self, ql: str, progress: Progress | None = None, *, timeout_s: float | None = None,
                    keep: Keeper | None = None, caps: dict[str, int] | None = None) -> Answer:
        """``timeout_s``: this query's attempt timeout (a corridor's boxes ask the server more than
        a city does); the configured one by default. ``keep``/``caps``: see :func:`parse_answer`."""
        async with self._lock():
            timeout = timeout_s or attempt_timeout_s()

            async def ask(text: str) -> Answer:  # a coroutine function: the executor awaits it
                return await self._post(text, progress, timeout, keep, caps)
            return await self._executor.call_uncached(TOOL, ask, ql, soft_timeout_s=timeout / 2,
                                                      hard_timeout_s=timeout)

    def _lock(self) -> asyncio.Lock:
        loop_id = id(asyncio.get_running_loop())
        with self._guard:
            lock = self._locks.get(loop_id)
            if lock is None:
                lock = self._locks[loop_id] = asyncio.Lock()
        return lock

    async def _post(self, ql: str, progress: Progress | None, timeout: float, keep: Keeper | None = None,
                    caps: dict[str, int] | None = None) -> Answer:
        if self._network.offline():
            raise ToolUnavailable(TOOL, "offline", retryable=False)
        import httpx
        host = httpx.URL(self.url).host
        try:
            async with self._network.client().stream(
                    "POST", self.url, data={"data": ql}, timeout=httpx.Timeout(timeout, connect=5.0),
                    extensions={bounded_http.CAP_KEY: MAX_BODY_BYTES}) as response:
                _check_status(response)
                body = await _read_all(response, progress)
        except bounded_http.ReplyRefused as exc:
            raise exc.tool_error(TOOL) from None
        except httpx.TimeoutException as exc:
            raise ToolTimeout(TOOL, f"no answer from {host}") from exc
        except (httpx.ConnectError, httpx.NetworkError) as exc:
            self._network.mark_down()
            raise ToolUnavailable(TOOL, unreachable(host, exc), retryable=False) from exc
        except httpx.HTTPError as exc:
            raise ToolResponseError(TOOL, f"HTTP failure: {exc}") from exc
        return parse_answer(body, keep=keep, caps=caps)


def _check_status(response) -> None:
    status = response.status_code
    if status == 429 or status >= 500:
        what = {429: "rate limited (HTTP 429)", 504: "server busy (HTTP 504)"}.get(status, f"HTTP {status}")
        raise ToolUnavailable(TOOL, what, retry_after_s=retry_after(response))
    if status >= 400:
        raise ToolResponseError(TOOL, f"HTTP {status}: the server refused the query")
    kind = response.headers.get("content-type", "")
    if "json" not in kind:
        raise ToolResponseError(TOOL, f"HTTP {status} with content type {kind or 'none'!r}, not JSON")


async def _read_all(response, progress: Progress | None) -> bytearray:
    """The body (the transport caps it at ``MAX_BODY_BYTES`` decompressed), progress as it comes;
    gathered in one buffer (a list of pieces joined at the end held it twice)."""
    body = bytearray()
    async for chunk in response.aiter_bytes():
        body += chunk
        if progress is not None:
            progress(len(body))
    return body


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
