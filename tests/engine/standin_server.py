"""A real HTTP server on 127.0.0.1 standing in for Open-Meteo, OpenWeatherMap One Call 3.0,
Nominatim and OSRM in tests.

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
        self.road = RoadNetwork()

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
        if path.startswith(ROUTE_PREFIX):  # one script for every routed coordinate list
            path = ROUTE_PREFIX
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
                if reply.body is None and reply.status == 200 and parts.path.startswith(ROUTE_PREFIX):
                    reply, body = standin.road.answer(parts.path, query)
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


# -- OSRM ---------------------------------------------------------------------------------------
ROUTE_PREFIX = "/route/v1/driving/"


@dataclass
class RoadNetwork:
    """OSRM's ``/route/v1/driving/{lon,lat;lon,lat…}`` as documented: a road that runs from
    waypoint to waypoint through a bend (a point 2% of the leg off the straight line, so a test can
    tell this geometry from the planner's corridor), ``factor`` × the great-circle distance long
    (legs whose middle lies in a ``winding`` box: that box's factor),
    at ``speed_mps``; ``NoRoute`` (HTTP 400) when a waypoint lies in one of ``no_road`` boxes
    ((lat_min, lat_max, lon_min, lon_max)); ``snap_miles`` as every waypoint's snapping distance."""

    factor: float = 1.2
    speed_mps: float = 25.0
    no_road: list[tuple[float, float, float, float]] = field(default_factory=list)
    snap_miles: float = 0.05
    winding: list[tuple[tuple[float, float, float, float], float]] = field(default_factory=list)  # (box, factor)

    def answer(self, path: str, query: dict[str, str]) -> tuple[Reply, bytes]:
        try:
            points = [tuple(float(v) for v in pair.split(",")) for pair in path[len(ROUTE_PREFIX):].split(";")]
            points = [(lat, lon) for lon, lat in points]
        except ValueError:
            return Reply(status=400), json.dumps({"code": "InvalidUrl", "message": "bad coordinates"}).encode()
        if any(a <= lat <= b and c <= lon <= d for lat, lon in points for a, b, c, d in self.no_road):
            return Reply(status=400), json.dumps({"code": "NoRoute", "message": "Impossible route between points"}).encode()
        line = [points[0]]
        for (a_lat, a_lon), (b_lat, b_lon) in zip(points, points[1:]):
            bend = (a_lat + (b_lat - a_lat) / 2 + 0.02 * (b_lon - a_lon), a_lon + (b_lon - a_lon) / 2 - 0.02 * (b_lat - a_lat))
            line += [bend, (b_lat, b_lon)]
        metres = sum(_haversine_m(p, q) * self._factor(p, q) for p, q in zip(points, points[1:]))
        geometry = (polyline_encode(line) if query.get("geometries", "polyline") == "polyline"
                    else {"type": "LineString", "coordinates": [[lon, lat] for lat, lon in line]})
        body = {"code": "Ok", "routes": [{"distance": round(metres, 1), "duration": round(metres / self.speed_mps, 1),
                                          "weight": round(metres / self.speed_mps, 1), "weight_name": "routability",
                                          "geometry": geometry, "legs": []}],
                "waypoints": [{"name": "", "location": [lon, lat], "distance": self.snap_miles * 1609.344,
                               "hint": ""} for lat, lon in points]}
        return Reply(), json.dumps(body).encode()


    def _factor(self, p: tuple[float, float], q: tuple[float, float]) -> float:
        """A leg whose middle lies in a winding box is that much longer (mountain roads)."""
        lat, lon = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
        return next((f for (a, b, c, d), f in self.winding if a <= lat <= b and c <= lon <= d), self.factor)


def _haversine_m(p: tuple[float, float], q: tuple[float, float]) -> float:
    import math
    (lat1, lon1), (lat2, lon2) = p, q
    h = (math.sin(math.radians(lat2 - lat1) / 2) ** 2
         + math.cos(math.radians(lat1)) * math.cos(math.radians(lat2)) * math.sin(math.radians(lon2 - lon1) / 2) ** 2)
    return 2 * 6371008.8 * math.asin(min(1.0, math.sqrt(h)))


def polyline_encode(points: list[tuple[float, float]], precision: int = 5) -> str:
    """Google's encoded polyline (OSRM's default ``geometries=polyline``)."""
    out, prev = [], (0, 0)
    for lat, lon in points:
        cur = (round(lat * 10 ** precision), round(lon * 10 ** precision))
        for delta in (cur[0] - prev[0], cur[1] - prev[1]):
            value = ~(delta << 1) if delta < 0 else delta << 1
            while value >= 0x20:
                out.append(chr((0x20 | (value & 0x1F)) + 63))
                value >>= 5
            out.append(chr(value + 63))
        prev = cur
    return "".join(out)
