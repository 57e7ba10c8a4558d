"""geopy's HTTP adapter for Nominatim, bounded (issue 25 §3): httpx's synchronous client behind
``engine.net.bounded_http`` — a per-read socket timeout, a cap on the whole reply's time and on
its decompressed size, redirects kept on the server's own origin. geopy's urllib adapter read a
server that drips a byte a second for as long as it drips, so the worker thread (and the CLI's exit,
which waits for it) outlived the executor's timeout."""

from __future__ import annotations

import functools
from typing import Any

from geopy.adapters import AdapterHTTPError, BaseSyncAdapter
from geopy.exc import GeocoderParseError, GeocoderServiceError, GeocoderTimedOut, GeocoderUnavailable

from engine.net import bounded_http

MAX_REPLY_BYTES = 2 * 1024 * 1024  # a search answer is a few KB


@functools.cache
def _tls_context():
    """The system's CA bundle, read once per process (each client would read it again)."""
    import httpx
    return httpx.create_ssl_context()


def bounded_adapter(total_s: float):
    """An ``adapter_factory`` for geopy whose every reply ends within ``total_s``."""
    def factory(*, proxies: Any = None, ssl_context: Any = None) -> "BoundedAdapter":
        return BoundedAdapter(proxies=proxies, ssl_context=ssl_context, total_s=total_s)
    return factory


class BoundedAdapter(BaseSyncAdapter):
    def __init__(self, *, proxies: Any = None, ssl_context: Any = None, total_s: float = 4.0) -> None:
        super().__init__(proxies=proxies, ssl_context=ssl_context)
        self._total_s = total_s
        self._ssl = ssl_context

    def _client(self, timeout: float | None):
        import httpx
        transport = bounded_http.sync_transport(httpx, cap=MAX_REPLY_BYTES, total_s=self._total_s,
                                                verify=self._ssl or _tls_context())
        read = min(timeout or self._total_s, self._total_s)
        return httpx.Client(transport=transport, follow_redirects=True, timeout=httpx.Timeout(read),
                            event_hooks={"response": [bounded_http.sync_redirect_guard]})

    def get_json(self, url: str, *, timeout: float | None, headers: dict) -> Any:
        import json
        text = self.get_text(url, timeout=timeout, headers=headers)
        try:
            return json.loads(text)
        except ValueError:
            raise GeocoderParseError("the answer is not JSON") from None

    def get_text(self, url: str, *, timeout: float | None, headers: dict) -> str:
        import httpx
        try:
            with self._client(timeout) as client:
                response = client.get(url, headers=headers)
        except httpx.TimeoutException:
            raise GeocoderTimedOut("Service timed out") from None
        except (httpx.ConnectError, httpx.NetworkError):
            raise GeocoderUnavailable("Service not available") from None
        except httpx.HTTPError as exc:
            raise GeocoderServiceError(str(exc)[:200]) from None
        try:
            text = response.text
        except (UnicodeDecodeError, LookupError):
            raise GeocoderParseError("the answer's bytes are not text") from None
        if response.status_code >= 400:
            raise AdapterHTTPError(f"Non-successful status code {response.status_code}",
                                   status_code=response.status_code,
                                   headers={k.lower(): v for k, v in response.headers.items()}, text=text)
        return text
