"""Every service reply read within bounds, whatever the server does (issue 25 §1, §3).

One transport wrapper for the three HTTP stacks the services use — httpx (Open-Meteo, OSRM,
OpenWeatherMap, Overpass), httpx2 (the openai SDK's) and httpx's synchronous client (geopy's
Nominatim adapter) — that:

- decodes the body itself (identity, gzip or deflate; another content coding is refused), in
  pieces of at most 1 MB, counting the *decompressed* bytes against a cap per request
  (``DEFAULT_CAP_BYTES``; a request can carry its own in ``extensions={CAP_KEY: n}``, as Overpass's
  larger answers do) — a 2 MB gzip bomb is refused after ``cap`` bytes, never inflated;
- stops reading when the reply as a whole takes longer than ``total_s`` (a server dripping a byte
  every second never trips a per-read timeout) — connecting, the status line and the headers
  included (issue 35: a server dripping its *status line* kept geopy's worker thread for 186 s):
  the synchronous client's every socket wait is cut to what is left of the request's deadline
  (:class:`_DeadlineBackend`), and a reply that used it is not asked again (an async request is
  cut by its caller's timeout, the executor's, which cancels it);
- with :func:`redirect_guard` as a response hook, refuses a redirect to another origin (scheme,
  host, port): a service may move a path, never hand the request to another machine.

What is refused raises :class:`ReplyRefused` inside the HTTP stack; :func:`refusal` finds it in an
exception's chain and :meth:`ReplyRefused.tool_error` words it as a tool error, so the caller's
degradation (the ladder's next rung, the rule-based planner) takes over.
"""

from __future__ import annotations

import contextvars
import functools
import time
import zlib
from typing import Any

from engine.errors import ToolError, ToolResponseError, ToolTimeout

DEFAULT_CAP_BYTES = 10 * 1024 * 1024
DEFAULT_TOTAL_S = 30.0
CAP_KEY = "tripwright.cap_bytes"
PIECE = 1 << 20
ACCEPTED = "gzip, deflate"


# (deadline on time.monotonic(), the request's total_s) of the request the current thread or task sends
_DEADLINE: contextvars.ContextVar[tuple[float, float] | None] = contextvars.ContextVar("tripwright_http_deadline",
                                                                                     default=None)


class ReplyRefused(Exception):
    """A reply read no further: too large, too slow, an unknown coding or another origin."""

    def __init__(self, reason: str, *, slow: bool = False, final: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.slow = slow
        self.final = final  # a synchronous request's whole deadline used: not worth a second try

    def tool_error(self, tool: str) -> ToolError:
        """A slow reply is a timeout; one that used a synchronous request's whole deadline (a
        geocoder dripping its status line) is one the executor does not retry."""
        if self.slow:
            return ToolTimeout(tool, self.reason, retryable=not self.final)
        return ToolResponseError(tool, self.reason)


def _too_slow(total_s: float, *, final: bool = False) -> ReplyRefused:
    return ReplyRefused(f"reply took longer than {total_s:g} s", slow=True, final=final)


def _left(timeout: float | None) -> float | None:
    """A socket wait's timeout cut to what is left of the request's deadline."""
    deadline = _DEADLINE.get()
    if deadline is None:
        return timeout
    left = deadline[0] - time.monotonic()
    if left <= 0:
        raise _too_slow(deadline[1], final=True)
    return left if timeout is None else min(timeout, left)


def _within(wait, timeout: float | None):
    """``wait(t)`` with ``t`` cut to the deadline; a socket timeout at the deadline is the reply's
    refusal (too slow), whichever of the two clocks fired first."""
    try:
        return wait(_left(timeout))
    except ReplyRefused:
        raise
    except Exception:
        deadline = _DEADLINE.get()
        if deadline is not None and time.monotonic() >= deadline[0] - 0.05:
            raise _too_slow(deadline[1], final=True) from None
        raise


class _DeadlineStream:
    """A connection's socket whose every wait ends by the deadline of the request using it."""

    def __init__(self, inner) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return _within(lambda t: self._inner.read(max_bytes, t), timeout)

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        _within(lambda t: self._inner.write(buffer, t), timeout)

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context, server_hostname=None, timeout: float | None = None):
        return _DeadlineStream(_within(lambda t: self._inner.start_tls(ssl_context, server_hostname, t), timeout))

    def get_extra_info(self, info: str):
        return self._inner.get_extra_info(info)


class _DeadlineBackend:
    """httpcore's synchronous network backend, its streams bounded by :data:`_DEADLINE`."""

    def __init__(self, inner) -> None:
        self._inner = inner

    def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
        return _DeadlineStream(_within(lambda t: self._inner.connect_tcp(host, port, t, local_address, socket_options),
                                       timeout))

    def connect_unix_socket(self, path, timeout=None, socket_options=None):
        return _DeadlineStream(_within(lambda t: self._inner.connect_unix_socket(path, t, socket_options), timeout))

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


def refusal(exc: BaseException | None) -> ReplyRefused | None:
    """The :class:`ReplyRefused` behind ``exc`` (itself, or in its cause/context chain)."""
    seen = 0
    while exc is not None and seen < 16:
        if isinstance(exc, ReplyRefused):
            return exc
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


class _Decoder:
    """One content coding, inflated in bounded pieces."""

    def __init__(self, coding: str) -> None:
        coding = coding.strip().lower()
        if coding in ("", "identity"):
            self._z = None
        elif coding in ("gzip", "x-gzip"):
            self._z = zlib.decompressobj(zlib.MAX_WBITS | 16)
        elif coding == "deflate":
            self._z, self._deflate_first = zlib.decompressobj(), True
        else:
            raise ReplyRefused(f"reply in an unsupported content coding {coding[:40]!r}")
        self._coding = coding

    def feed(self, data: bytes):
        if self._z is None:
            yield data
            return
        try:
            piece = self._z.decompress(data, PIECE)
        except zlib.error:
            if self._coding != "deflate" or not getattr(self, "_deflate_first", False):
                raise ReplyRefused("reply is not valid compressed data") from None
            self._z = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate, as some servers send
            piece = self._z.decompress(data, PIECE)
        self._deflate_first = False
        while piece:
            yield piece
            piece = self._z.decompress(self._z.unconsumed_tail, PIECE)

    def tail(self) -> bytes:
        return self._z.flush() if self._z is not None else b""


class _Meter:
    def __init__(self, cap: int, total_s: float, started: float, *, final: bool = False) -> None:
        self.cap, self.total_s, self.started, self.size, self.final = cap, total_s, started, 0, final

    def count(self, piece: bytes) -> bytes:
        self.size += len(piece)
        if self.size > self.cap:
            raise ReplyRefused(f"reply larger than {_size(self.cap)} decompressed")
        self.check_time()
        return piece

    def check_time(self) -> None:
        if time.monotonic() - self.started > self.total_s:
            raise _too_slow(self.total_s, final=self.final)


class _Body:
    """One reply's body as its pieces arrive, whichever stack reads it (async or not): each piece
    is decoded, counted against the cap and the reply's clock."""

    def __init__(self, coding: str, meter: _Meter) -> None:
        self._decoder, self._meter = _Decoder(coding), meter

    def pieces(self, data: bytes):
        self._meter.check_time()
        for piece in self._decoder.feed(data):
            yield self._meter.count(piece)

    def end(self):
        tail = self._decoder.tail()
        if tail:
            yield self._meter.count(tail)


def _capped_response(mod, request, response, stream):
    return mod.Response(response.status_code, headers=_plain_headers(response.headers), stream=stream,
                        extensions=response.extensions, request=request)


def _size(n: int) -> str:
    return f"{n / (1024 * 1024):g} MB" if n >= 1024 * 1024 else f"{n} bytes"


def _prepare(request, cap: int) -> int:
    """The request asks only for codings we decode; its own cap, else the transport's."""
    request.headers["Accept-Encoding"] = ACCEPTED
    wanted = request.extensions.get(CAP_KEY)
    return int(wanted) if isinstance(wanted, int) and wanted > 0 else cap


def _plain_headers(headers) -> list[tuple[str, str]]:
    return [(k, v) for k, v in headers.multi_items()
            if k.lower() not in ("content-encoding", "content-length", "transfer-encoding")]


@functools.cache
def _classes(mod):
    """The stream and transport classes for one HTTP module (``httpx`` or ``httpx2``)."""

    class AsyncCapped(mod.AsyncByteStream):
        def __init__(self, raw, coding: str, meter: _Meter) -> None:
            self._raw, self._body = raw, _Body(coding, meter)

        async def __aiter__(self):
            async for data in self._raw:
                for piece in self._body.pieces(data):
                    yield piece
            for piece in self._body.end():
                yield piece

        async def aclose(self) -> None:
            await self._raw.aclose()

    class SyncCapped(mod.SyncByteStream):
        def __init__(self, raw, coding: str, meter: _Meter) -> None:
            self._raw, self._body = raw, _Body(coding, meter)

        def __iter__(self):
            for data in self._raw:
                yield from self._body.pieces(data)
            yield from self._body.end()

        def close(self) -> None:
            self._raw.close()

    class AsyncCappedTransport(mod.AsyncBaseTransport):
        def __init__(self, inner, cap: int, total_s: float) -> None:
            self._inner, self._cap, self._total_s = inner, cap, total_s

        async def handle_async_request(self, request):
            started = time.monotonic()
            cap = _prepare(request, self._cap)
            response = await self._inner.handle_async_request(request)
            coding = response.headers.get("content-encoding", "")
            try:
                stream = AsyncCapped(response.stream, coding, _Meter(cap, self._total_s, started))
            except ReplyRefused:
                await response.aclose()
                raise
            return _capped_response(mod, request, response, stream)

        async def aclose(self) -> None:
            await self._inner.aclose()

    class CappedTransport(mod.BaseTransport):
        def __init__(self, inner, cap: int, total_s: float) -> None:
            self._inner, self._cap, self._total_s = inner, cap, total_s

        def handle_request(self, request):
            started = time.monotonic()
            cap = _prepare(request, self._cap)
            _DEADLINE.set((started + self._total_s, self._total_s))  # read by _DeadlineBackend's streams
            response = self._inner.handle_request(request)
            coding = response.headers.get("content-encoding", "")
            try:
                stream = SyncCapped(response.stream, coding, _Meter(cap, self._total_s, started, final=True))
            except ReplyRefused:
                response.close()
                raise
            return _capped_response(mod, request, response, stream)

        def close(self) -> None:
            self._inner.close()

    return AsyncCappedTransport, CappedTransport


def async_transport(mod: Any = None, *, cap: int | None = None, total_s: float | None = None, **kwargs):
    """An ``AsyncHTTPTransport`` of ``mod`` (httpx by default) behind the caps; ``kwargs`` go to it
    (``verify=`` for the model client's TLS context)."""
    if mod is None:
        import httpx as mod
    return _classes(mod)[0](mod.AsyncHTTPTransport(**kwargs), cap or DEFAULT_CAP_BYTES, total_s or DEFAULT_TOTAL_S)


def sync_transport(mod: Any = None, *, cap: int | None = None, total_s: float | None = None, **kwargs):
    if mod is None:
        import httpx as mod
    inner = mod.HTTPTransport(**kwargs)
    pool = inner._pool  # httpx builds its pool itself; its network backend is the one place a socket wait is set
    pool._network_backend = _DeadlineBackend(pool._network_backend)
    return _classes(mod)[1](inner, cap or DEFAULT_CAP_BYTES, total_s or DEFAULT_TOTAL_S)


def _origin(url) -> tuple[str, str, int | None]:
    scheme = url.scheme.lower()
    return scheme, (url.host or "").lower(), url.port or {"http": 80, "https": 443}.get(scheme)


def _check_redirect(response) -> None:
    if not response.has_redirect_location:
        return
    here = response.request.url
    there = here.join(response.headers["location"])
    if _origin(there) != _origin(here):
        raise ReplyRefused(f"refused a redirect to another origin ({there.scheme}://{there.host}"
                           f"{':' + str(there.port) if there.port else ''})")


async def redirect_guard(response) -> None:
    """An async client's response hook: a redirect stays on the request's own origin."""
    _check_redirect(response)


def sync_redirect_guard(response) -> None:
    _check_redirect(response)
