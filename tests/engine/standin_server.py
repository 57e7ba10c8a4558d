"""A real HTTP server on 127.0.0.1 standing in for Open-Meteo, OpenWeatherMap One Call 3.0 and
Nominatim in tests.

By default it answers like the real services (a forecast computed from the query — One Call's 8
daily rows start at ``onecall_today`` —; a Nominatim search from a small table). A test programs what comes next per path with ``then(path, ...)``:
latency, status, body, content type, extra headers (Retry-After). Every request is recorded
(path, query, headers, arrival time).
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


ONECALL_KEY = "owm-test-key-5f2a9c"  # the key the One Call stand-in accepts


@dataclass
class Reply:
    status: int = 200
    body: bytes | None = None  # None: the default answer for the path
    content_type: str = "application/json"
    delay_s: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Seen:
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    at: float


PLACES = {"hoboken": [{"lat": "40.7440", "lon": "-74.0324", "display_name": "Hoboken, Hudson County, New Jersey, "
                       "United States", "importance": 0.62, "addresstype": "city", "type": "city",
                       "class": "place", "address": {"city": "Hoboken", "state": "New Jersey",
                                                     "country": "United States", "country_code": "us"}}],
          "zzyzx": [{"lat": "35.1433", "lon": "-116.1047", "name": "Zzyzx", "display_name": "Zzyzx, San Bernardino "
                     "County, California, United States", "importance": 0.41, "osm_type": "node", "osm_id": 150951371,
                     "address": {"hamlet": "Zzyzx", "state": "California", "ISO3166-2-lvl4": "US-CA",
                                 "country": "United States", "country_code": "us"}}]}


class StandIn:
    def __init__(self, latency_s: float = 0.0) -> None:
        self.latency_s = latency_s
        self.seen: list[Seen] = []
        self.onecall_today = date.today()
        self._script: dict[str, list[Reply]] = {}
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> "StandIn":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def then(self, path: str, *replies: Reply) -> None:
        with self._lock:
            self._script.setdefault(path, []).extend(replies)

    def hits(self, path: str) -> list[Seen]:
        return [s for s in self.seen if s.path == path]

    def _next(self, path: str) -> Reply:
        with self._lock:
            queue = self._script.get(path)
            return queue.pop(0) if queue else Reply()

    def _handler(self):
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the stdlib's name)
                parts = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                with standin._lock:
                    standin.seen.append(Seen(parts.path, query, dict(self.headers), time.monotonic()))
                reply = standin._next(parts.path)
                time.sleep(standin.latency_s + reply.delay_s)
                body = reply.body if reply.body is not None else default_body(parts.path, query, standin.onecall_today)
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", reply.content_type)
                    self.send_header("Content-Length", str(len(body)))
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
                    pass

            def log_message(self, *args) -> None:
                pass

        return Handler


def default_body(path: str, query: dict[str, str], today: date) -> bytes:
    if path == "/data/3.0/onecall":
        return json.dumps(onecall(query, today)).encode()
    if path in ("/v1/forecast", "/v1/archive"):
        return json.dumps(forecast(query, archive=path == "/v1/archive")).encode()
    if path == "/search":
        return json.dumps(PLACES.get(query.get("q", "").split(",")[0].strip().lower(), [])).encode()
    return b'{"error": true, "reason": "no such endpoint"}'


def forecast(query: dict[str, str], *, archive: bool = False) -> dict:
    start, end = date.fromisoformat(query["start_date"]), date.fromisoformat(query["end_date"])
    days = [start + timedelta(days=i) for i in range((end - start).days + 1)]
    daily = {"time": [d.isoformat() for d in days],
             "wind_speed_10m_max": [12.0 + d.day % 5 for d in days],
             "temperature_2m_max": [20.0 + d.day % 3 for d in days],
             "temperature_2m_min": [11.0 for _ in days]}
    if archive:
        daily["precipitation_sum"] = [3.0 if d.day % 2 else 0.0 for d in days]
    else:
        daily["precipitation_probability_max"] = [90 if d.day % 7 == 0 else 10 for d in days]
    return {"latitude": float(query["latitude"]), "longitude": float(query["longitude"]), "timezone": "GMT",
            "daily_units": {"time": "iso8601"}, "daily": daily}


def onecall(query: dict[str, str], today: date) -> dict:
    """One Call 3.0 as documented: 8 daily rows from ``today`` (``dt`` at local noon), metric units;
    a missing or wrong ``appid`` is the service's 401 body."""
    if query.get("appid") != ONECALL_KEY:
        return {"cod": 401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401"}
    offset = 7200  # Europe/Paris in summer
    noon = datetime.combine(today, datetime.min.time(), timezone.utc) + timedelta(hours=12, seconds=-offset)
    daily = [{"dt": int((noon + timedelta(days=i)).timestamp()),
              "temp": {"day": 22.0, "min": 13.0 + i % 2, "max": 24.0 + i % 3, "night": 15.0, "eve": 20.0, "morn": 14.0},
              "wind_speed": 4.0 + i, "wind_deg": 240, "pop": 0.85 if i == 3 else 0.05,
              "weather": [{"id": 500, "main": "Rain", "description": "light rain", "icon": "10d"}]}
             for i in range(8)]
    return {"lat": float(query["lat"]), "lon": float(query["lon"]), "timezone": "Europe/Paris",
            "timezone_offset": offset, "daily": daily}
