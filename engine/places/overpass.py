"""OpenStreetMap through an Overpass API interpreter: one query per city, politely.

One POST per city pack asks for the sights, the places to eat and the places to stay inside the
city's box, each group capped by its own ``out center tags N`` (ways and relations come with
their centre). The client identifies itself (the shared User-Agent), sends one request at a time
per process, bounds the server's work (``[timeout:]``, ``[maxsize:]``), reads the answer as a
stream with a size cap, and goes through the tool executor as tool ``overpass``: breaker,
exactly one retry on 429/5xx/timeouts with ``Retry-After`` honoured when it fits, metrics.
``TRIPWRIGHT_OVERPASS_URL`` is the full interpreter URL.
"""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Any, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from engine.errors import ToolResponseError, ToolTimeout, ToolUnavailable
from engine.geo import BBox
from engine.tools import bounded_http
from engine.tools.network import NetworkState, retry_after

DEFAULT_URL = "https://overpass-api.de/api/interpreter"
TOOL = "overpass"
SERVER_TIMEOUT_S = 25
SERVER_MAXSIZE = 64 * 1024 * 1024
MAX_BODY_BYTES = 48 * 1024 * 1024  # decompressed; a 3,000-place city is ~1 MB
ATTEMPT_TIMEOUT_S = 13.0  # two attempts and a short wait stay under the 30 s a fetch may take
LIMITS = {"sight": 2500, "food": 1500, "bed": 600}

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


def corridor_query(boxes: list[BBox]) -> str:
    """The Overpass QL of one corridor query: per box, its well-known sights, other sights and
    beds, each group capped (``out center tags N``) for that box alone."""
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
    return f"(\n{body}\n);\nout center tags {limit};"


class Point(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)


class Element(BaseModel):
    """One element of an ``[out:json]`` answer; a way or relation is placed by its centre."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    type: Literal["node", "way", "relation"]
    id: int = Field(gt=0)
    lat: float | None = Field(default=None, ge=-90, le=90)
    lon: float | None = Field(default=None, ge=-180, le=180)
    center: Point | None = None
    tags: dict[str, str] = Field(default_factory=dict)

    def point(self) -> tuple[float, float] | None:
        if self.lat is not None and self.lon is not None:
            return self.lat, self.lon
        return (self.center.lat, self.center.lon) if self.center else None


class Osm3s(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    timestamp_osm_base: str = ""


class Answer(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    osm3s: Osm3s = Osm3s()
    elements: list[Element]
    remark: str | None = None


_ANSWER = TypeAdapter(Answer)
Progress = Callable[[int], None]  # bytes received so far


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

    async def query(self, ql: str, progress: Progress | None = None, *, timeout_s: float | None = None) -> Answer:
        """``timeout_s``: this query's attempt timeout (a corridor's boxes ask the server more than
        a city does); the configured one by default."""
        async with self._lock():
            timeout = timeout_s or attempt_timeout_s()

            async def ask(text: str) -> Answer:  # a coroutine function: the executor awaits it
                return await self._post(text, progress, timeout)
            return await self._executor.call_uncached(TOOL, ask, ql, soft_timeout_s=timeout / 2,
                                                      hard_timeout_s=timeout)

    def _lock(self) -> asyncio.Lock:
        loop_id = id(asyncio.get_running_loop())
        with self._guard:
            lock = self._locks.get(loop_id)
            if lock is None:
                lock = self._locks[loop_id] = asyncio.Lock()
        return lock

    async def _post(self, ql: str, progress: Progress | None, timeout: float) -> Answer:
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
            raise ToolUnavailable(TOOL, f"cannot reach {host}: {exc}", retryable=False) from exc
        except httpx.HTTPError as exc:
            raise ToolResponseError(TOOL, f"HTTP failure: {exc}") from exc
        return parse_answer(body)


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


async def _read_all(response, progress: Progress | None) -> bytes:
    """The body (the transport caps it at ``MAX_BODY_BYTES`` decompressed), progress as it comes."""
    chunks, size = [], 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        chunks.append(chunk)
        if progress is not None:
            progress(size)
    return b"".join(chunks)


def parse_answer(body: bytes) -> Answer:
    """The documented ``[out:json]`` shape, or a ``ToolResponseError`` saying where it is not."""
    try:
        answer = _ANSWER.validate_json(body)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the document"
        raise ToolResponseError(TOOL, f"unexpected answer at {where}: {first['msg']}"[:200]) from None
    if answer.remark and _failed(answer.remark):
        raise ToolUnavailable(TOOL, f"the server gave up: {answer.remark.strip()[:160]}")
    return answer


def _failed(remark: str) -> bool:
    text = remark.lower()
    return "runtime error" in text or "timed out" in text or "out of memory" in text


def element_url(element_type: str, element_id: int) -> str:
    return f"https://www.openstreetmap.org/{element_type}/{element_id}"


def describe(answer: Any) -> str:
    return f"{len(answer.elements)} elements, data as of {answer.osm3s.timestamp_osm_base or 'unknown'}"
