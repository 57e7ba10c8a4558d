"""Nominatim through geopy, for what the offline gazetteer cannot answer (SPEC_DECISIONS §1).

- Base URL from ``TRIPWRIGHT_NOMINATIM_URL`` (``{base}/search``), else the public OSM server.
- An identifying User-Agent with our version and a contact URL (the OSM usage policy refuses
  geopy's default one).
- At most one request per second, process-wide (:class:`Throttle`), as the policy asks: each
  request waits a second after the previous one's answer.
- geopy runs in a worker thread on our bounded adapter (``bounded_adapter.py``: httpx's sync client,
  a cap on the reply's size and total time, so the thread ends soon after the executor's timeout
  even when a server drips; geopy's async adapter needs aiohttp, which we do not ship); the executor
  around it applies the timeouts, the retry and the breaker, and caches answers forever.
- geopy's errors become our tool errors; a candidate with impossible coordinates is dropped.
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
import os
import threading
import time
from typing import Any, Callable
from urllib.parse import urlsplit

from pydantic import ValidationError

from engine.errors import ToolResponseError, ToolTimeout, ToolUnavailable
from engine.net import bounded_http

from .models import GeoCandidate, GeocodeRequest
from .normalize import normalise

DEFAULT_BASE = "https://nominatim.openstreetmap.org"
MIN_INTERVAL_S = 1.0
TOOL = "geocode"


class Throttle:
    """Nominatim's policy, across threads and event loops: one request at a time, each sent at
    least ``interval_s`` after the previous one was *answered* (or failed). Spacing the sends
    was not enough on a busy machine: a late first send (the worker thread scheduled late, geopy
    building its client) and a prompt second one arrived 0.74 s apart. Counting from the answer
    holds at the server whatever the client's load: the first request arrived before its answer
    left, and the next is not sent until ``interval_s`` after that answer came back."""

    def __init__(self, interval_s: float = MIN_INTERVAL_S, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self._interval = interval_s
        self._clock = clock
        self._sleep = sleep
        self._last_answer = float("-inf")
        self._gate = threading.Lock()

    @asynccontextmanager
    async def turn(self):
        """An event loop's turn, taken before the executor's timeouts start (``ToolExecutor.call(turn=)``):
        the gate, then the interval since the previous answer, waited on the loop; held while the
        worker thread sends and reads (its :meth:`slot` sees the turn is taken)."""
        while not self._gate.acquire(blocking=False):  # polled: a cancelled wait never leaves it held
            await asyncio.sleep(0.02)
        try:
            wait = self._last_answer + self._interval - self._clock()
            if wait > 0:
                await asyncio.sleep(wait)
            held = _TURN.set(self)
            try:
                yield
            finally:
                _TURN.reset(held)
        finally:
            self._last_answer = self._clock()
            self._gate.release()

    @contextmanager
    def slot(self):
        """Hold while sending and reading one request (a worker thread's, never the loop's)."""
        if _TURN.get() is self:  # the caller took its turn (:meth:`turn`): send now
            try:
                yield
            finally:
                self._last_answer = self._clock()
            return
        with self._gate:
            wait = self._last_answer + self._interval - self._clock()
            if wait > 0:
                self._sleep(wait)
            try:
                yield
            finally:
                self._last_answer = self._clock()


_TURN: ContextVar[Throttle | None] = ContextVar("tripwright_nominatim_turn", default=None)
PROCESS_THROTTLE = Throttle()


def nominatim_base() -> str:
    return os.environ.get("TRIPWRIGHT_NOMINATIM_URL", "").rstrip("/") or DEFAULT_BASE


class NominatimGeocoder:
    name = TOOL

    def __init__(self, user_agent: str, *, throttle: Throttle = PROCESS_THROTTLE, timeout_s: float = 3.0) -> None:
        self._agent = user_agent
        self._throttle = throttle
        self._timeout_s = timeout_s

    def turn(self):
        """This geocoder's place in Nominatim's queue, for ``ToolExecutor.call(turn=)``."""
        return self._throttle.turn()

    async def candidates(self, request: GeocodeRequest) -> list[GeoCandidate]:
        raw = await asyncio.to_thread(self._query, request)
        return to_candidates(request, raw)

    def _query(self, request: GeocodeRequest) -> list[Any]:
        from geopy import exc as geopy_errors
        from geopy.geocoders import Nominatim

        from .bounded_adapter import bounded_adapter

        parts = urlsplit(nominatim_base())
        client = Nominatim(user_agent=self._agent, domain=parts.netloc + parts.path, scheme=parts.scheme,
                           timeout=self._timeout_s, adapter_factory=bounded_adapter(self._timeout_s))  # ends before the executor's 4 s
        query = ", ".join(p for p in (request.query, request.admin1_hint, request.country_hint) if p)
        codes = request.country_hint if request.country_hint and len(request.country_hint) == 2 else None
        try:
            with self._throttle.slot():  # the send itself is spaced, after the previous answer
                found = client.geocode(query, exactly_one=False, limit=request.limit, addressdetails=True,
                                       country_codes=codes)
        except bounded_http.ReplyRefused as exc:
            raise exc.tool_error(TOOL) from None
        except geopy_errors.GeocoderTimedOut as exc:
            raise ToolTimeout(TOOL, "Nominatim did not answer in time") from exc
        except geopy_errors.GeocoderRateLimited as exc:
            raise ToolUnavailable(TOOL, "Nominatim rate limit", retry_after_s=exc.retry_after) from exc
        except geopy_errors.GeocoderUnavailable as exc:
            raise ToolUnavailable(TOOL, f"Nominatim unavailable: {exc}") from exc
        except geopy_errors.GeocoderParseError as exc:
            raise ToolResponseError(TOOL, "Nominatim answered something that is not JSON") from exc
        except geopy_errors.GeopyError as exc:
            raise ToolResponseError(TOOL, f"Nominatim refused: {exc}") from exc
        except (TypeError, KeyError, ValueError, AttributeError, IndexError) as exc:  # geopy parsing a malformed place
            raise ToolResponseError(TOOL, f"Nominatim answered a malformed place: {exc}") from exc
        return [loc.raw for loc in found or []]


def to_candidates(request: GeocodeRequest, rows: list[Any]) -> list[GeoCandidate]:
    if not isinstance(rows, list):
        raise ToolResponseError(TOOL, "Nominatim's answer is not a list of places")
    head = normalise(request.query.split(",")[0])
    out = []
    for rank, row in enumerate(rows):
        candidate = _candidate(row, head, rank)
        if candidate is not None:
            out.append(candidate)
    return sorted(out, key=lambda c: -c.confidence)[: request.limit]


def _candidate(row: Any, head: str, rank: int) -> GeoCandidate | None:
    if not isinstance(row, dict):
        return None
    address = row.get("address") if isinstance(row.get("address"), dict) else {}
    name = str(row.get("name") or row.get("display_name", "")).split(",")[0].strip()
    country = str(address.get("country_code", "")).upper()
    try:
        importance = min(max(float(row.get("importance") or 0.0), 0.0), 1.0)
        lat, lon = float(row["lat"]), float(row["lon"])
    except (KeyError, TypeError, ValueError):
        return None
    named = normalise(name) == head
    # Importance stands in for the gazetteer's population prior; a name that is not the one asked
    # for, or a later rank, is worth less.
    confidence = round((0.55 + 0.4 * importance if named else 0.3 * importance) * (0.9 ** rank), 3)
    state_code = str(address.get("ISO3166-2-lvl4", "")).split("-")[-1] or None
    try:
        return GeoCandidate(name=name or head, admin1=state_code, admin1_name=address.get("state"),
                            country=country, lat=lat, lon=lon, confidence=confidence, source="nominatim",
                            feature_id=f"osm:{row.get('osm_type', '?')}:{row.get('osm_id', '?')}")
    except ValidationError:  # coordinates out of range, no country: not a place we can use
        return None


