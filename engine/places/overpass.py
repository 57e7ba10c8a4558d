"""OpenStreetMap through an Overpass API interpreter: one query per city, politely.

One POST per city pack asks for the sights, the places to eat and the places to stay inside the
city's box, each group capped by its own ``out bb tags N`` (ways and relations come with
their centre). The client identifies itself (the shared User-Agent), sends one request at a time
per process, bounds the server's work (``[timeout:]``, ``[maxsize:]``), reads the answer as a
stream with a size cap, and goes through the tool executor as tool ``overpass``: breaker,
exactly one retry on 429/5xx/timeouts with ``Retry-After`` honoured when it fits, metrics.
``TRIPWRIGHT_OVERPASS_URL`` is the full interpreter URL. The queries' text is
``overpass_query.py``; how an answer is read (whole, or element by element within caps) is
``overpass_answer.py``.
"""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Callable

from engine.errors import ToolResponseError, ToolTimeout, ToolUnavailable
from engine.net import bounded_http
from engine.net.network import NetworkState, retry_after, unreachable

from .overpass_answer import TOOL, Answer, Element, Keeper, describe, element_url, parse_answer
from .overpass_query import CAP_FACTOR, LIMITS, ROAD_LIMITS, city_map_query, city_query, corridor_query

# The query's text and the answer's reading live in their own modules; their names are here too.
__all__ = ["ATTEMPT_TIMEOUT_S", "CAP_FACTOR", "DEFAULT_URL", "LIMITS", "MAX_BODY_BYTES", "ROAD_LIMITS", "TOOL",
           "Answer", "Element", "Keeper", "OverpassClient", "Progress", "attempt_timeout_s", "city_map_query",
           "city_query", "corridor_query", "describe", "element_url", "overpass_url", "parse_answer"]

DEFAULT_URL = "https://overpass-api.de/api/interpreter"
MAX_BODY_BYTES = 48 * 1024 * 1024  # decompressed; a 3,000-place city is ~1 MB
ATTEMPT_TIMEOUT_S = 13.0  # two attempts and a short wait stay under the 30 s a fetch may take
Progress = Callable[[int], None]  # bytes received so far


def overpass_url() -> str:
    return os.environ.get("TRIPWRIGHT_OVERPASS_URL", "").strip() or DEFAULT_URL


def attempt_timeout_s() -> float:
    try:
        return max(1.0, float(os.environ.get("TRIPWRIGHT_OVERPASS_TIMEOUT_S", ATTEMPT_TIMEOUT_S)))
    except ValueError:
        return ATTEMPT_TIMEOUT_S


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
