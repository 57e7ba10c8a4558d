"""A real OpenAI-compatible HTTP server on 127.0.0.1 for the LLM tests: ``/v1/chat/completions``
and ``/v1/models`` answer from a script (status, body, delay, headers per request); every request
is recorded. The real ``openai`` client (and the real ``tripwright`` executable) talk to it."""

from __future__ import annotations

import json
import random
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


@dataclass
class Reply:
    status: int = 200
    content: str | None = None  # the assistant message (a chat completion is built around it)
    body: str | None = None  # a raw body instead (not OpenAI-shaped, errors)
    delay_s: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)


Script = Callable[[dict], Reply] | Reply


def completion(content: str, model: str = "gpt-4o-mini") -> str:
    return json.dumps({"id": "chatcmpl-test", "object": "chat.completion", "created": int(time.time()),
                       "model": model, "choices": [{"index": 0, "finish_reason": "stop",
                                                    "message": {"role": "assistant", "content": content}}],
                       "usage": {"prompt_tokens": 1200, "completion_tokens": 300, "total_tokens": 1500}})


def error_body(status: int, message: str) -> str:
    return json.dumps({"error": {"message": message, "type": "invalid_request_error", "code": str(status)}})


class ScriptedServer:
    def __init__(self, script: list[Script] | None = None, *, default: Script | None = None,
                 models: list[str] | None = None) -> None:
        self.script = list(script or [])
        self.default = default
        self.models = models or ["gpt-4o-mini", "llama3.1:8b"]
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> "ScriptedServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def chat_requests(self) -> list[dict]:
        return [r for r in self.requests if r.get("_path", "").endswith("/chat/completions")]

    def _next(self, request: dict) -> Reply:
        request["_at"] = time.monotonic()  # when it arrived: retry waits are measured between these
        with self.lock:
            self.requests.append(request)
            step = self.script.pop(0) if self.script else self.default
        if step is None:
            return Reply(status=500, body=error_body(500, "script exhausted"))
        return step(request) if callable(step) else step

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # quiet
                pass

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    reply = server._next({"_path": self.path})
                    if reply.status == 200 and reply.body is None and reply.content is None:
                        reply.body = json.dumps({"object": "list", "data": [
                            {"id": m, "object": "model", "created": 0, "owned_by": "test"} for m in server.models]})
                    self._send(reply)
                else:
                    self._send(Reply(status=404, body=error_body(404, "not found")))

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                try:
                    request = json.loads(raw or b"{}")
                except ValueError:
                    request = {}
                request["_path"] = self.path
                request["_auth"] = self.headers.get("authorization", "")
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(Reply(status=404, body=error_body(404, "not found")))
                    return
                self._send(server._next(request))

            def _send(self, reply: Reply) -> None:
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                body = reply.body if reply.body is not None else completion(reply.content or "")
                data = body.encode()
                try:
                    self.send_response(reply.status)
                    ctype = "application/json" if body.lstrip().startswith(("{", "[")) else "text/html"
                    self.send_header("content-type", ctype)
                    self.send_header("content-length", str(len(data)))
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

        return Handler


# -- answers built from the request's own schema ------------------------------------------------
def request_schema(request: dict) -> dict | None:
    fmt = request.get("response_format") or {}
    return (fmt.get("json_schema") or {}).get("schema")


def random_instance(schema: dict, rng: random.Random, defs: dict | None = None, depth: int = 0) -> Any:
    """A random value valid for ``schema`` (the subset pydantic emits: $ref, anyOf, enum/const,
    object, array, string, integer, number, boolean, null)."""
    defs = defs if defs is not None else schema.get("$defs", {})
    if "$ref" in schema:
        return random_instance(defs[schema["$ref"].rsplit("/", 1)[-1]], rng, defs, depth)
    if "anyOf" in schema:
        return random_instance(rng.choice(schema["anyOf"]), rng, defs, depth)
    if "enum" in schema:
        return rng.choice(schema["enum"])
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type")
    if kind == "object":
        return {k: random_instance(v, rng, defs, depth + 1) for k, v in schema.get("properties", {}).items()}
    if kind == "array":
        size = rng.randint(0, 9 if depth <= 1 else 5)
        return [random_instance(schema.get("items", {}), rng, defs, depth + 1) for _ in range(size)]
    if kind == "string":
        return "2027-06-15" if schema.get("format") == "date" else rng.choice(["x", "Paris", ""])
    if kind == "integer":
        return rng.randint(0, 10)
    if kind == "number":
        return rng.uniform(0, 5000)
    if kind == "boolean":
        return rng.random() < 0.5
    return None


def from_schema(rng: random.Random) -> Callable[[dict], Reply]:
    def reply(request: dict) -> Reply:
        return Reply(content=json.dumps(random_instance(request_schema(request) or {}, rng)))
    return reply


def enum_values(prop: dict) -> list:
    return prop["enum"] if "enum" in prop else [prop["const"]]


def first_choices(request: dict) -> Reply:
    """A sensible draft: the first enum values, one venue and one meal per day."""
    schema = request_schema(request)
    day = schema["$defs"]["DraftDay"]["properties"]
    venues, meals = enum_values(day["venues"]["items"]), enum_values(day["meals"]["items"])
    tiers = enum_values(schema["properties"]["hotel_tier"])
    airports = enum_values(schema["properties"]["airport"])
    days = [{"venues": venues[i * 2:i * 2 + 2], "meals": meals[i:i + 1]} for i in range(5)]
    return Reply(content=json.dumps({"days": days, "must_dos": venues[:1], "hotel_tier": tiers[0],
                                     "airport": airports[0]}))
