"""Issue 25: the embeddings endpoint's reply is input too — bounded like every service's (the
decompressed size, the total time), redirects kept on its origin, and its user:password never
shown in an error line. A real server on 127.0.0.1 answers with a gzip bomb and a redirect."""

from __future__ import annotations

import gzip
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from engine.errors import ToolError
from engine.notes.embeddings import MAX_REPLY_BYTES, Embedder, EmbeddingConfig

BOMB = gzip.compress(b"{" + b" " * (MAX_REPLY_BYTES + 1024 * 1024))  # ~64 KB on the wire


class _Hostile(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 (http.server's name)
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path.endswith("/embeddings") and self.server.mode == "bomb":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(BOMB)))
            self.end_headers()
            self.wfile.write(BOMB)
            return
        self.send_response(307)
        self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(params=["bomb", "redirect"])
def hostile(request):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Hostile)
    server.mode = request.param
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield request.param, f"http://user:s3cret@127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("sync", [True, False])
def test_a_hostile_embeddings_reply_is_a_tool_error_without_the_password(hostile, sync) -> None:
    import asyncio
    mode, url = hostile
    embedder = Embedder(EmbeddingConfig(base_url=url, api_key="k", model="m", timeout_s=5.0))
    with pytest.raises(ToolError) as err:
        embedder.embed(["a note"]) if sync else asyncio.run(embedder.aembed(["a note"]))
    line = str(err.value)
    assert "s3cret" not in line and "user:" not in line and "http://127.0.0.1:" in line
    assert ("refused a redirect to another origin" in line) if mode == "redirect" else ("MB" in line or "cap" in line)
