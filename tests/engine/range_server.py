"""A static file server on 127.0.0.1 that honours ``Range`` (206 Partial Content) — as a CDN in
front of a PMTiles archive does — recording every range asked. ``ranges=False`` answers 200 with
the whole file (a server without range support); ``die_after=n`` answers n requests, then drops
the next connection and stops (a server dying mid-download); a new one on the same ``port=``
serves again."""

from __future__ import annotations

import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

_RANGE = re.compile(r"bytes=(\d+)-(\d+)")


class RangeServer:
    def __init__(self, path: Path, *, ranges: bool = True, die_after: int | None = None, port: int = 0,
                 delay_s: float = 0.0) -> None:
        self.data = Path(path).read_bytes()
        self.ranges, self.die_after, self.delay_s = ranges, die_after, delay_s
        self.seen: list[tuple[int, int]] = []  # (offset, length) of each range request
        self.user_agents: list[str] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", port), self._handler())
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/area.pmtiles"

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:
                import time
                if server.delay_s:
                    time.sleep(server.delay_s)
                with server._lock:
                    if server.die_after is not None and len(server.seen) >= server.die_after:
                        self.close_connection = True
                        self.connection.close()
                        threading.Thread(target=server._server.shutdown, daemon=True).start()
                        return
                    server.user_agents.append(self.headers.get("User-Agent", ""))
                    match = _RANGE.fullmatch(self.headers.get("Range", ""))
                    if match:
                        start, end = int(match[1]), int(match[2])
                        server.seen.append((start, end - start + 1))
                if not (match and server.ranges):
                    return self._send(200, server.data)
                return self._send(206, server.data[start:end + 1],
                                  {"Content-Range": f"bytes {start}-{min(end, len(server.data) - 1)}/"
                                                    f"{len(server.data)}"})

            def _send(self, status: int, body: bytes, headers: dict | None = None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Accept-Ranges", "bytes" if server.ranges else "none")
                self.send_header("Content-Length", str(len(body)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(body)

        return Handler
