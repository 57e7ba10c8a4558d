"""A real HTTP server on 127.0.0.1 standing in for the Overpass API interpreter in tests.

``/api/interpreter`` (POST form ``data=<QL>`` or a raw QL body, GET ``?data=<QL>``) really
interprets the subset of Overpass QL the city-pack client sends: settings ``[out:json][timeout:N]
[maxsize:N][bbox:s,w,n,e];``, unions ``( stmt; … );`` and bare statements ``node|way|relation|nwr``
with ``["k"="v"]``, ``!=``, ``~`` (``,i``), ``!~``, ``["k"]``, ``[!"k"]``, ``(s,w,n,e)`` and
``(around:R,lat,lon)`` (metres from the element's position — a way's or relation's centre here), and
``out [ids|skel|body|tags|meta] [center|bb|geom] [qt|asc] [N];``. Output follows Overpass's own JSON writer
(output_json.cc): nodes print lat/lon unless the verbosity is ids/tags without a geometry, ways and
relations print their dataset "center" only under ``out center`` and their "bounds"
(``{minlat, minlon, maxlat, maxlon}``) only under ``out bb`` — one degree of geometry per ``out``,
the last one named wins, as in Overpass; a dataset way without "bounds" is printed as the box of its
centre (a point: no size) —, under ``out geom`` a way prints its "bounds" and its "geometry" (the
list of ``{lat, lon}`` of its nodes, in order; and its "nodes" ids when the dataset has them), as
Overpass does; a dataset way given by its "geometry" is placed and sized by it (its centre is the
middle of its bounds) and a box matches it when the box meets its bounds —, an out set is sorted nodes, ways, relations by id. Anything else is HTTP 400 with Overpass's HTML error page ("<strong>Error</strong>:
line N: parse error: …"), so a broken client query fails loudly instead of matching nothing.

``then(Reply(...), ...)`` scripts the next interpreter requests, one reply each, then the real answer
again: status (429/504 get Overpass's own pages), body, content type, delay, headers, gzip, a slow
drip of the body, a 200 "remark". gzip is off unless ``gzip=True`` (server or reply), and only ever
when the request accepts gzip. Every request is recorded in ``seen``.
"""

from __future__ import annotations

import gzip as gzip_codec
import html
import json
import math
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

INTERPRETER = "/api/interpreter"
GENERATOR = "Overpass API 0.7.62.1 (stand-in)"
COPYRIGHT = ("The data included in this document is from www.openstreetmap.org. "
             "The data is made available under ODbL.")
LISBON_JSON = Path(__file__).parent / "data" / "osm" / "lisbon.json"
TYPES = {"node": ("node",), "way": ("way",), "relation": ("relation",), "rel": ("relation",),
         "nwr": ("node", "way", "relation")}
TYPE_ORDER = {"node": 0, "way": 1, "relation": 2}
# Overpass's own texts for the statuses a public instance sends when it cannot serve a query.
STATUS_ERRORS = {
    429: "runtime error: open64: 0 Success /osm3s_osm_base Dispatcher_Client::request_read_and_idx"
         "::rate_limited. Please check /api/status for the quota of your IP address.",
    504: "runtime error: open64: 0 Success /osm3s_osm_base Dispatcher_Client::request_read_and_idx"
         "::timeout. The server is probably too busy to handle your request.",
}


def load_lisbon() -> list[dict]:
    return json.loads(LISBON_JSON.read_text(encoding="utf-8"))


@dataclass
class Reply:
    status: int = 200
    body: bytes | None = None  # None: the real answer (200) or Overpass's error page for the status
    content_type: str | None = None  # None: application/json for an answer, text/html for an error
    delay_s: float = 0.0  # before the status line: a stalled server
    headers: dict[str, str] = field(default_factory=dict)
    gzip: bool | None = None  # None: the server's setting; only if the request accepts gzip
    drip_bytes_per_s: float | None = None  # headers at once, then the body trickled at this rate
    remark: str | None = None  # a 200 answer carrying Overpass's "remark" (a runtime error)


@dataclass
class Seen:
    method: str
    path: str
    ql: str | None  # the decoded query text; None when the request carried none
    headers: dict[str, str]
    at: float  # time.monotonic() on arrival

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers.items() if k.lower() == name.lower()), None)


class QLError(ValueError):
    """What the real interpreter prints for a query it refuses ("line N: parse error: …")."""


class OverpassStandIn:
    def __init__(self, elements: list[dict] = (), *, timestamp_osm_base: str = "2026-11-20T10:00:00Z",
                 gzip: bool = False) -> None:
        self.elements = [_checked(e) for e in elements]
        self._grid: dict[tuple[int, int], list[dict]] = {}  # 1° cells: a statement's box reads only its cells
        for e in self.elements:
            for cell in _cells(e):
                self._grid.setdefault(cell, []).append(e)
        self.timestamp_osm_base = timestamp_osm_base
        self.gzip = gzip
        self.seen: list[Seen] = []
        self._script: list[Reply] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()  # ends delays and drips at stop() instead of hanging on
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self._server.standin = self
        # a short poll so stop() returns in milliseconds, not the stdlib's half second
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def interpreter_url(self) -> str:
        return self.url + INTERPRETER

    def start(self) -> "OverpassStandIn":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._thread.is_alive():  # shutdown() waits forever on a loop that never ran
            self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> "OverpassStandIn":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def then(self, *replies: Reply) -> None:
        with self._lock:
            self._script.extend(replies)

    def answer(self, ql: str) -> dict:
        """The ``[out:json]`` document for ``ql``; raises QLError where the real server says 400."""
        settings, program = parse(ql)
        elements: list[dict] = []
        current: list[dict] = []
        for kind, arg in program:  # Overpass's default set "_": each query replaces it, out prints it
            if kind == "query":
                current = self._select(arg, settings.get("bbox"))
            else:
                elements += [render(e, arg) for e in current[:arg["limit"]]]
        return {"version": 0.6, "generator": GENERATOR,
                "osm3s": {"timestamp_osm_base": self.timestamp_osm_base, "copyright": COPYRIGHT},
                "elements": elements}

    def _select(self, statements: list["Statement"], bbox: tuple | None) -> list[dict]:
        found = {(e["type"], e["id"]): e for s in statements for e in self._near(s.reach() or bbox)
                 if s.matches(e, bbox)}
        return sorted(found.values(), key=lambda e: (TYPE_ORDER[e["type"]], e["id"]))

    def _near(self, box: tuple | None) -> list[dict]:
        """The elements that can lie in ``box`` (all of them without one, or across the antimeridian):
        the same answer as scanning everything, for the many-box corridor queries of road trips."""
        if box is None or box[1] > box[3]:
            return self.elements
        s, w = _grid_cell(box[0], box[1])
        n, e = _grid_cell(box[2], box[3])
        return [el for a in range(s, n + 1) for b in range(w, e + 1) for el in self._grid.get((a, b), ())]

    # -- HTTP ----------------------------------------------------------------------------------
    def _serve(self, h: BaseHTTPRequestHandler, method: str) -> None:
        parts = urlsplit(h.path)
        raw = h.rfile.read(int(h.headers.get("Content-Length") or 0)) if method == "POST" else b""
        ql = _ql_of(parts.query, raw, h.headers.get("Content-Type", ""))
        with self._lock:
            self.seen.append(Seen(method, parts.path, ql, dict(h.headers), time.monotonic()))
            scripted = parts.path == INTERPRETER and self._script
            reply = self._script.pop(0) if scripted else Reply()
        if self._stopping.wait(reply.delay_s):
            return  # stopped mid-delay: drop the connection unanswered
        status, content_type, body = self._compose(parts.path, ql, reply)
        headers = dict(reply.headers)
        if (reply.gzip if reply.gzip is not None else self.gzip) and "gzip" in h.headers.get("Accept-Encoding", ""):
            body, headers["Content-Encoding"] = gzip_codec.compress(body, mtime=0), "gzip"
        try:
            h.send_response(status)
            h.send_header("Content-Type", content_type)
            h.send_header("Content-Length", str(len(body)))
            for k, v in headers.items():
                h.send_header(k, v)
            h.end_headers()
            self._write(h.wfile, body, reply.drip_bytes_per_s)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout or cap test)
            pass

    def _compose(self, path: str, ql: str | None, reply: Reply) -> tuple[int, str, bytes]:
        page = "text/html; charset=utf-8"
        if path != INTERPRETER:
            return 404, page, error_page(f"unknown path {path} (the stand-in serves {INTERPRETER})")
        if reply.body is not None:
            return reply.status, reply.content_type or "application/json", reply.body
        if reply.status != 200:
            message = STATUS_ERRORS.get(reply.status, "runtime error")
            return reply.status, reply.content_type or page, error_page(message)
        if not ql:
            return 400, page, error_page("line 1: parse error: the request carries no data= query")
        try:
            document = self.answer(ql)
        except QLError as exc:
            return 400, page, error_page(str(exc))
        if reply.remark is not None:
            document["remark"] = reply.remark
        return 200, reply.content_type or "application/json", json.dumps(document, ensure_ascii=False).encode()

    def _write(self, wfile, body: bytes, rate: float | None) -> None:
        if not rate:
            wfile.write(body)
            return
        step = max(1, int(rate / 20))  # twenty writes a second: smooth enough for a total-time cap
        for i in range(0, len(body), step):
            wfile.write(body[i:i + step])
            if self._stopping.wait(step / rate):
                return


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (the stdlib's name)
        self.server.standin._serve(self, "GET")

    def do_POST(self) -> None:  # noqa: N802
        self.server.standin._serve(self, "POST")

    def log_message(self, *args) -> None:
        pass


def _ql_of(query: str, raw: bytes, content_type: str) -> str | None:
    """Overpass takes ``data=`` from the URL or a form body, and a raw POST body as the query itself."""
    if raw and "x-www-form-urlencoded" not in content_type and not raw.startswith(b"data="):
        return raw.decode("utf-8", "replace")
    form = parse_qs(raw.decode("utf-8", "replace") if raw else query, keep_blank_values=True)
    return form["data"][0] if "data" in form else None


def _checked(e: dict) -> dict:
    """A dataset mistake (a way without its centre) should fail where the data is loaded. A way
    given by its ``geometry`` gets its ``bounds`` and ``center`` from it."""
    if e.get("type") == "way" and e.get("geometry"):
        lats = [p["lat"] for p in e["geometry"]]
        lons = [p["lon"] for p in e["geometry"]]
        e = {**e, "bounds": {"minlat": min(lats), "minlon": min(lons), "maxlat": max(lats), "maxlon": max(lons)}}
        e.setdefault("center", {"lat": (min(lats) + max(lats)) / 2, "lon": (min(lons) + max(lons)) / 2})
    ok = e.get("type") in TYPE_ORDER and isinstance(e.get("id"), int) and (
        ("lat" in e and "lon" in e) if e["type"] == "node" else "center" in e)
    if not ok:
        raise ValueError(f"not an OSM-shaped element with its position: {e!r:.200}")
    return e


def _position(e: dict) -> tuple[float, float]:
    return (e["lat"], e["lon"]) if e["type"] == "node" else (e["center"]["lat"], e["center"]["lon"])


def _grid_cell(lat: float, lon: float) -> tuple[int, int]:
    return math.floor(lat), math.floor(lon)


def _cells(e: dict) -> list[tuple[int, int]]:
    """The grid cells an element lies in: its position's, or every cell its geometry's bounds meet."""
    if "geometry" not in e:
        return [_grid_cell(*_position(e))]
    b = e["bounds"]
    s, w = _grid_cell(b["minlat"], b["minlon"])
    n, east = _grid_cell(b["maxlat"], b["maxlon"])
    return [(a, c) for a in range(s, n + 1) for c in range(w, east + 1)]


def error_page(message: str) -> bytes:
    """The page Overpass sends with a 400/429/504 (trimmed of its static-error preamble)."""
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN"\n'
            '    "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n'
            '<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">\n<head>\n'
            '  <meta http-equiv="content-type" content="text/html; charset=utf-8" lang="en"/>\n'
            '  <title>OSM3S Response</title>\n</head>\n<body>\n\n'
            f'<p>{COPYRIGHT}</p>\n'
            f'<p><strong style="color:#FF0000">Error</strong>: {html.escape(message, quote=False)} </p>\n\n'
            '</body>\n</html>\n').encode()


def render(e: dict, out: dict) -> dict:
    """One element as Overpass's JSON writer prints it under ``out``'s verbosity and modifiers."""
    item: dict = {"type": e["type"], "id": e["id"]}
    coords = out["verbosity"] in ("skel", "body", "meta") or out["geometry"] is not None
    if e["type"] == "node" and coords:
        item["lat"], item["lon"] = e["lat"], e["lon"]
    elif e["type"] != "node" and out["geometry"] == "bb":
        c = e["center"]
        item["bounds"] = dict(e.get("bounds") or {"minlat": c["lat"], "minlon": c["lon"], "maxlat": c["lat"],
                                                  "maxlon": c["lon"]})
    elif e["type"] != "node" and out["geometry"] == "center":
        item["center"] = dict(e["center"])
    elif e["type"] == "way" and out["geometry"] == "geom" and e.get("geometry"):
        item["bounds"] = dict(e["bounds"])
        if e.get("nodes") and out["verbosity"] in ("skel", "body", "meta"):
            item["nodes"] = list(e["nodes"])
        item["geometry"] = [{"lat": p["lat"], "lon": p["lon"]} for p in e["geometry"]]
    if out["verbosity"] in ("body", "tags", "meta") and e.get("tags"):
        item["tags"] = dict(e["tags"])
    return item


# -- Overpass QL: the subset the city-pack client sends ----------------------------------------
@dataclass
class Filter:
    key: str
    op: str  # "exists", "absent", "=", "!=", "~", "!~"
    value: str = ""
    regex: re.Pattern | None = None

    def holds(self, tags: dict) -> bool:
        v = tags.get(self.key)
        if self.op in ("exists", "absent"):
            return (v is not None) == (self.op == "exists")
        if self.op in ("=", "!="):
            return (v == self.value) == (self.op == "=")
        hit = v is not None and self.regex.search(v) is not None  # "!~" also holds where the key is absent
        return hit == (self.op == "~")


@dataclass
class Statement:
    types: tuple[str, ...]
    filters: list[Filter]
    bbox: tuple[float, float, float, float] | None
    around: tuple[float, float, float] | None = None  # (metres, lat, lon)

    def reach(self) -> tuple | None:
        """The box the statement can match in (its own, or the square around its point)."""
        if self.around is None:
            return self.bbox
        metres, lat, lon = self.around
        dlat = metres / 111_320.0
        dlon = dlat / max(0.01, math.cos(math.radians(lat)))
        return lat - dlat, lon - dlon, lat + dlat, lon + dlon

    def matches(self, e: dict, global_bbox: tuple | None) -> bool:
        if e["type"] not in self.types:
            return False
        box = self.bbox or global_bbox
        lat, lon = _position(e)
        if box and "geometry" in e and self.around is None:
            b = e["bounds"]  # a way is found where any of it is: its bounds meet the box
            if b["maxlat"] < box[0] or b["minlat"] > box[2] or b["maxlon"] < box[1] or b["minlon"] > box[3]:
                return False
        elif box and not in_bbox(lat, lon, box):
            return False
        if self.around is not None and _metres(lat, lon, self.around[1], self.around[2]) > self.around[0]:
            return False
        tags = e.get("tags") or {}
        return all(f.holds(tags) for f in self.filters)


def _metres(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * 6_371_008.8 * math.asin(math.sqrt(h))


def in_bbox(lat: float, lon: float, box: tuple[float, float, float, float]) -> bool:
    s, w, n, e = box
    east_ok = w <= lon <= e if w <= e else (lon >= w or lon <= e)  # w > e crosses the antimeridian
    return s <= lat <= n and east_ok


_SPACE = re.compile(r"(?:\s+|//[^\n]*|/\*.*?\*/)*", re.S)
_WORD = re.compile(r"[A-Za-z0-9_:.\-]+")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_BBOX = re.compile(r"\(\s*" + r"\s*,\s*".join([_NUMBER.pattern] * 4) + r"\s*\)")
_AROUND = re.compile(r"\(\s*around\s*:\s*" + r"\s*,\s*".join([_NUMBER.pattern] * 3) + r"\s*\)")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'', re.S)
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.S)
_SETTING = re.compile(r"\[\s*(\w+)\s*:([^\]]*)\]")
_VERBOSITY = ("ids", "skel", "body", "tags", "meta")


class _Parser:
    def __init__(self, text: str) -> None:
        self.text, self.pos = text, 0

    def fail(self, message: str, kind: str = "parse error"):
        raise QLError(f"line {self.text.count(chr(10), 0, self.pos) + 1}: {kind}: {message}")

    def peek(self) -> str:
        self.pos = _SPACE.match(self.text, self.pos).end()
        return self.text[self.pos:self.pos + 1]

    def take(self, token: str) -> None:
        self.peek()
        if not self.text.startswith(token, self.pos):
            self.fail(f"'{token}' expected - {self.found()} found.")
        self.pos += len(token)

    def match(self, pattern: re.Pattern, what: str) -> str:
        self.peek()
        m = pattern.match(self.text, self.pos) or self.fail(f"{what} expected - {self.found()} found.")
        self.pos = m.end()
        return m.group()

    def found(self) -> str:
        return f"'{self.text[self.pos]}'" if self.pos < len(self.text) else "end of input"

    def string(self) -> str:
        """A quoted string with Overpass's escapes (\\n \\t \\uXXXX \\" …) or a bare word."""
        if self.peek() not in ("'", '"'):
            return self.match(_WORD, "a key or value")
        raw = self.match(_STRING, "a closing quote")[1:-1]
        return _ESCAPE.sub(lambda m: {"n": "\n", "t": "\t"}.get(m[1]) or (
            chr(int(m[1][1:], 16)) if len(m[1]) == 5 else m[1]), raw)


def parse(text: str) -> tuple[dict, list[tuple[str, object]]]:
    p = _Parser(text)
    settings = _settings(p)
    program: list[tuple[str, object]] = []
    while p.peek():
        if p.peek() == "(":
            p.pos += 1
            union = []
            while p.peek() != ")":
                union.append(_statement(p, p.match(_WORD, "a statement")))
            p.pos += 1
            p.take(";")
            program.append(("query", union))
            continue
        word = p.match(_WORD, "a statement")
        program.append(("out", _out(p)) if word == "out" else ("query", [_statement(p, word)]))
    return settings, program


def _settings(p: _Parser) -> dict:
    settings: dict = {}
    while p.peek() == "[":
        m = _SETTING.match(p.text, p.pos)
        if not m:
            p.fail("a setting [name:value] expected")
        name, value = m.group(1), m.group(2).strip()
        if name == "out" and value != "json":
            p.fail(f"the stand-in answers only [out:json], not [out:{value}]", "static error")
        if name in ("timeout", "maxsize") and not value.isdigit():
            p.fail(f"[{name}:] takes a positive integer")
        if name not in ("out", "timeout", "maxsize", "bbox"):
            p.fail(f'unknown or unsupported global setting "{name}"')
        settings[name] = _bbox(p, value.split(",")) if name == "bbox" else value
        p.pos = m.end()
    if settings:
        p.take(";")
    if settings.get("out") != "json":
        p.fail("the stand-in answers only [out:json] (the query asks for Overpass's default XML)", "static error")
    return settings


def _bbox(p: _Parser, parts: list[str]) -> tuple[float, float, float, float]:
    try:
        s, w, n, e = (float(v) for v in parts)
    except ValueError:
        p.fail("a bounding box takes four numbers: south,west,north,east")
    if not (-90 <= s <= n <= 90 and -180 <= w <= 180 and -180 <= e <= 180):
        p.fail("Bounding box: south must be less than north, latitudes within ±90, longitudes within ±180",
               "static error")
    return s, w, n, e


def _statement(p: _Parser, word: str) -> Statement:
    if word not in TYPES:
        p.fail(f'Unknown type "{word}"')
    filters, bbox, around = [], None, None
    while p.peek() in ("[", "("):
        if p.peek() == "[":
            filters.append(_filter(p))
            continue
        if bbox is not None or around is not None:
            p.fail("a statement takes one bounding box or one around filter")
        if _AROUND.match(p.text, p.pos):
            metres, lat, lon = (float(x) for x in p.match(_AROUND, "(around:R,lat,lon)")
                                .strip("()").split(":", 1)[1].split(","))
            around = (metres, lat, lon)
            continue
        bbox = _bbox(p, p.match(_BBOX, "a bounding box (south,west,north,east)").strip("()").split(","))
    p.take(";")
    return Statement(TYPES[word], filters, bbox, around)


def _filter(p: _Parser) -> Filter:
    p.take("[")
    absent = p.peek() == "!"
    p.pos += absent
    key = p.string()
    if absent or p.peek() == "]":
        p.take("]")
        return Filter(key, "absent" if absent else "exists")
    op = next((o for o in ("!=", "!~", "=", "~") if p.text.startswith(o, p.pos)), None) or p.fail(
        f"'=', '!=', '~', '!~' or ']' expected - {p.found()} found.")
    p.pos += len(op)
    value, flags = p.string(), 0
    if p.peek() == ",":
        p.pos += 1
        if p.match(_WORD, "'i'") != "i":
            p.fail("only the ',i' flag is known after a regular expression")
        flags = re.IGNORECASE
    p.take("]")
    if op in ("=", "!="):
        if flags:
            p.fail("',i' follows only a regular expression")
        return Filter(key, op, value)
    try:
        return Filter(key, op, value, re.compile(value, flags))
    except re.error as exc:
        p.fail(f"Invalid regular expression: {exc}", "static error")


def _out(p: _Parser) -> dict:
    out: dict = {"verbosity": "body", "geometry": None, "limit": None}
    while p.peek() != ";":
        if p.peek().isdigit():
            out["limit"] = int(p.match(_NUMBER, "a number"))
            continue
        word = p.match(_WORD, "an output mode or ';'")
        if word in _VERBOSITY:
            out["verbosity"] = word
        elif word in ("center", "bb", "geom"):
            out["geometry"] = word
        elif word not in ("qt", "asc"):  # orderings: the stand-in keeps Overpass's id order for both
            p.fail(f'"{word}" is not an output mode the stand-in supports')
    p.pos += 1
    return out
