"""A street-tile server on 127.0.0.1 for the map's online tests: real PNG tiles (a light
"street map" colour with a darker road cross) at ``/{cache}/{z}/{x}/{y}.png`` where ``cache`` is
``cached`` (``Cache-Control: public, max-age=3600``) or ``fresh`` (``no-store``); ``down = True``
answers 503; ``delay_s`` makes each answer wait (a distant server, for the bench). Every request is
recorded with its headers."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QColor, QImage, QPainter

STREET = QColor(236, 226, 200)  # the tile's ground: a colour the built-in map does not use
ROAD = QColor(120, 90, 40)
CACHE_CONTROL = {"cached": "public, max-age=3600", "fresh": "no-store"}


def tile_png() -> bytes:
    image = QImage(256, 256, QImage.Format.Format_RGB32)
    image.fill(STREET)
    painter = QPainter(image)
    painter.fillRect(0, 120, 256, 16, ROAD)
    painter.fillRect(120, 0, 16, 256, ROAD)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data.data())


class TileServer:
    def __init__(self, delay_s: float = 0.0) -> None:
        self.seen: list[tuple[str, dict[str, str]]] = []
        self.down = False
        self.delay_s = delay_s
        self._png = tile_png()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def url(self, cache: str = "cached") -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/{cache}/{{z}}/{{x}}/{{y}}.png"

    def paths(self, prefix: str = "/") -> list[str]:
        with self._lock:
            return [path for path, _headers in self.seen if path.startswith(prefix)]

    def start(self) -> "TileServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server API)
                with server._lock:
                    server.seen.append((self.path, dict(self.headers.items())))
                cache = self.path.split("/")[1]
                if server.delay_s:
                    time.sleep(server.delay_s)
                if server.down or cache not in CACHE_CONTROL or not self.path.endswith(".png"):
                    try:
                        self.send_error(503 if server.down else 404)
                    except (BrokenPipeError, ConnectionResetError):  # the page moved on: no traceback
                        pass
                    return
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", str(len(server._png)))
                self.send_header("Cache-Control", CACHE_CONTROL[cache])
                self.end_headers()
                try:
                    self.wfile.write(server._png)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the map dropped a tile it no longer shows

            def log_message(self, *_args) -> None:
                pass

        return Handler


def main(argv: list[str]) -> int:
    """``python -m tests.widgets.tile_server [delay_s]``: serve until killed, printing the cached
    and the no-store URL templates on one line (the bench runs it as its own process)."""
    import sys

    server = TileServer(delay_s=float(argv[0]) if argv else 0.0).start()
    print(server.url("cached"), server.url("fresh"), flush=True)
    try:
        sys.stdin.read()  # until the parent closes the pipe
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
