"""A real OpenAI-compatible embeddings server on 127.0.0.1 for the notes tests.

Deterministic vectors: a hashed bag of words (a small synonym table stands in for what a real
model knows: "timetable" means "hours"), plus one shared component so unrelated texts sit at
cosine 0.5 and close ones above τ, like the narrow high band of real embedding models' cosines.
It records every request and can be told to fail from the Nth request on.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
import struct
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DIMS = 128
SYNONYMS = {"timetable": "hours", "schedule": "hours", "times": "hours", "hour": "hours",
            "sushi": "raw-fish", "sashimi": "raw-fish"}
STOP = {"the", "a", "an", "and", "of", "to", "in", "is", "are", "at", "on", "for", "it", "its", "what"}


def vector(text: str, dims: int = DIMS) -> list[float]:
    bag = [0.0] * dims
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        if word in STOP:
            continue
        word = SYNONYMS.get(word, word)
        bag[int(hashlib.sha256(word.encode()).hexdigest(), 16) % dims] += 1.0
    norm = math.sqrt(sum(x * x for x in bag)) or 1.0
    half = math.sqrt(0.5)
    return [half * x / norm for x in bag] + [half]


def _base64(values: list[float]) -> str:
    return base64.b64encode(struct.pack(f"<{len(values)}f", *values)).decode()


class EmbeddingServer:
    def __init__(self, dims: int = DIMS) -> None:
        self.requests: list[dict] = []
        self.fail_from: int | None = None  # 1-based request number from which answers are 500
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append(body)
                if self.path != "/v1/embeddings":
                    return self._send(404, {"error": {"message": "not found"}})
                if server.fail_from is not None and len(server.requests) >= server.fail_from:
                    return self._send(500, {"error": {"message": "the model is overloaded"}})
                texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
                packed = body.get("encoding_format") == "base64"  # as the real endpoint does
                data = [{"object": "embedding", "index": i,
                         "embedding": _base64(vector(t, dims)) if packed else vector(t, dims)}
                        for i, t in enumerate(texts)]
                self._send(200, {"object": "list", "data": data, "model": body["model"],
                                 "usage": {"prompt_tokens": 0, "total_tokens": 0}})

            def _send(self, status: int, payload: dict) -> None:
                raw = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args) -> None:  # quiet
                pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def __enter__(self) -> "EmbeddingServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def texts(self) -> list[str]:
        out = []
        for r in self.requests:
            out += r["input"] if isinstance(r["input"], list) else [r["input"]]
        return out
