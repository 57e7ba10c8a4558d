"""The network side of the real adapters: whether to try at all, one shared HTTP client, and how a
response or a transport failure becomes one of the tool errors.

- ``TRIPWRIGHT_OFFLINE=1``: no network attempt at all.
- Otherwise the first connection failure marks the session offline for ``OFFLINE_FOR_S``, so no plan
  waits on a dead network twice.
- One ``httpx.AsyncClient`` per event loop (building one costs ~100 ms; a client cannot outlive the
  loop it was made on), with an identifying User-Agent.
"""

from __future__ import annotations

import asyncio
import os
import time
from email.utils import parsedate_to_datetime
from datetime import datetime, timezone
from importlib import metadata
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from engine.errors import ToolResponseError, ToolTimeout, ToolUnavailable

from . import bounded_http

if TYPE_CHECKING:  # httpx costs ~75 ms to import: only runs that go online pay for it
    import httpx

M = TypeVar("M")
OFFLINE_FOR_S = 120.0
PROJECT_URL = "https://github.com/tripwright/tripwright"


def user_agent() -> str:
    try:
        version = metadata.version("tripwright")
    except metadata.PackageNotFoundError:  # running from a source tree
        version = "0.1.0"
    return f"Tripwright/{version} (+{PROJECT_URL})"


def offline_by_env() -> bool:
    return os.environ.get("TRIPWRIGHT_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def is_loopback_url(url: str) -> bool:
    """Whether ``url`` names this machine (a local model server such as Ollama or LM Studio):
    asking it is no network attempt, so it stays allowed when ``TRIPWRIGHT_OFFLINE=1``."""
    import ipaddress
    from urllib.parse import urlsplit
    try:
        host = urlsplit(url.strip()).hostname or ""
    except ValueError:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class NetworkState:
    """Shared by every real adapter of a process (or of an app session)."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic, offline_for_s: float = OFFLINE_FOR_S) -> None:
        self._clock = clock
        self._offline_for_s = offline_for_s
        self._down_until = 0.0
        self._clients: dict[int, tuple[asyncio.AbstractEventLoop, httpx.AsyncClient]] = {}

    def offline(self) -> bool:
        return offline_by_env() or self._clock() < self._down_until

    def mark_down(self) -> None:
        self._down_until = self._clock() + self._offline_for_s

    def mark_up(self) -> None:
        """The network can be tried again now (a service answered; a bench starting a new case)."""
        self._down_until = 0.0

    def client(self) -> httpx.AsyncClient:
        import httpx
        loop = asyncio.get_running_loop()
        held = self._clients.get(id(loop))
        if held is None or held[0] is not loop or held[1].is_closed:
            # Timeouts are the executor's (hard 4 s); httpx's own only guard a stuck connect.
            # Every reply capped (decompressed size, total time); redirects stay on their origin.
            client = httpx.AsyncClient(headers={"User-Agent": user_agent()}, follow_redirects=True,
                                       timeout=httpx.Timeout(10.0, connect=5.0),
                                       transport=bounded_http.async_transport(httpx),
                                       event_hooks={"response": [bounded_http.redirect_guard]})
            self._clients = {k: v for k, v in self._clients.items() if not v[0].is_closed()}
            self._clients[id(loop)] = (loop, client)
            return client
        return held[1]

    async def aclose(self) -> None:
        loop = asyncio.get_running_loop()
        held = self._clients.pop(id(loop), None)
        if held is not None:
            await held[1].aclose()

    async def get_json(self, tool: str, url: str, params: dict[str, Any]) -> Any:
        """GET ``url`` and return its JSON body, or raise the tool error that says why not."""
        return json_body(tool, await self.get(tool, url, params))

    async def get(self, tool: str, url: str, params: dict[str, Any] | None = None) -> httpx.Response:
        """GET ``url``: the response whatever its status, or the tool error of a transport failure
        (for services whose error answers carry meaning, e.g. OSRM's ``NoRoute``)."""
        if self.offline():
            raise ToolUnavailable(tool, "offline", retryable=False)
        import httpx
        try:
            response = await self.client().get(url, params=params)
        except bounded_http.ReplyRefused as exc:
            raise exc.tool_error(tool) from None
        except httpx.TimeoutException as exc:
            raise ToolTimeout(tool, f"no answer from {httpx.URL(url).host}") from exc
        except (httpx.ConnectError, httpx.NetworkError) as exc:
            self.mark_down()
            raise ToolUnavailable(tool, unreachable(httpx.URL(url).host, exc), retryable=False) from exc
        except httpx.HTTPError as exc:
            raise ToolResponseError(tool, f"HTTP failure: {exc}") from exc
        return response


_NO_NAME = ("name or service not known", "nodename nor servname", "name resolution", "getaddrinfo",
            "no address associated")


def unreachable(host: str, exc: BaseException) -> str:
    """Why ``host`` could not be reached, in a traveller's words (never the socket's errno text)."""
    text = str(exc).lower()
    if any(words in text for words in _NO_NAME):
        return f"cannot reach {host}: no network (its name does not resolve)"
    if "refused" in text or "all connection attempts failed" in text:
        return f"cannot reach {host}: nothing answers there"
    return f"cannot reach {host}: no network or the service is down"


def json_body(tool: str, response: httpx.Response) -> Any:
    status = response.status_code
    if status == 429 or status >= 500:
        raise ToolUnavailable(tool, f"HTTP {status}", retry_after_s=retry_after(response))
    content_type = response.headers.get("content-type", "")
    if "json" not in content_type:
        raise ToolResponseError(tool, f"HTTP {status} with content type {content_type or 'none'!r}, not JSON")
    try:
        body = response.json()
    except ValueError as exc:
        raise ToolResponseError(tool, f"HTTP {status} with a body that is not valid JSON") from exc
    if status >= 400:
        raise ToolResponseError(tool, f"HTTP {status}: {error_reason(body) or 'refused'}")
    reason = error_reason(body)
    if reason:
        raise ToolResponseError(tool, f"error in the answer: {reason}")
    return body


def validated(tool: str, model: type[M], body: Any) -> M:
    """``body`` as ``model`` (a pydantic model of the documented JSON), or a ``ToolResponseError``
    naming the first place where the answer has another shape."""
    from pydantic import ValidationError
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ToolResponseError(tool, f"unexpected answer shape at {where}: {first['msg']}") from exc


def error_reason(body: Any) -> str | None:
    """Open-Meteo answers ``{"error": true, "reason": ...}``; OpenWeatherMap ``{"cod": 401,
    "message": ...}`` (even with HTTP 200); others ``{"error": "..."}``."""
    if not isinstance(body, dict):
        return None
    if "cod" in body and str(body["cod"]) != "200":
        return str(body.get("message") or f"code {body['cod']}")[:200]
    if not body.get("error"):
        return None
    reason = body.get("reason") or body.get("error")
    return str(reason)[:200]


def retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())
