"""A real HTTP server on 127.0.0.1 standing in for a MOTIS 2 transit router (Transitous) in tests.

It answers ``GET /api/v1/plan`` in MOTIS's documented shape (motis-project/motis ``openapi.yaml``:
``itineraries[]`` of ``duration``, ``startTime``, ``endTime``, ``transfers``, ``legs[]`` with ``mode``,
``from``/``to`` places, ``startTime``/``endTime`` in UTC with ``Z``, ``agencyName``,
``routeShortName``, ``headsign``, ``intermediateStops``, ``legGeometry``), walking to the first
station and from the last one, for the trains below. Their facts are published ones:

- Lisboa Santa Apolónia → Porto Campanhã, CP Alfa Pendular: the AP leaving 07:00 and arriving
  09:50 (Correio da Manhã, July 2018, on CP's timetable change), and the AP leaving 09:00 added then
  (Diário de Notícias, same change), timed at the 2 h 48 CP announced for December 2024 (The
  Portugal News, 2024-12-12). Lisbon is UTC+1 in May.
- Tokyo → Kyoto, JR Central Tokaido Shinkansen Nozomi: 2 h 15, stops Shinagawa, Shin-Yokohama,
  Nagoya (travel guides quoting JR Central's timetable); departures every 10 minutes from 06:00 is
  the published frequency ("up to 12 an hour"), not one train's schedule. Tokyo is UTC+9.
- Roma Termini → Firenze Santa Maria Novella, Trenitalia Frecciarossa 9502: 05:35, Roma Tiburtina
  05:43/05:45, Firenze S.M.N. 07:10 (Trenitalia's timetable as reported in the Italian press). Rome
  is UTC+2 in May.

Every request is recorded; ``then(Reply(...))`` programs what the next requests get instead.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from math import asin, cos, radians, sin, sqrt
from urllib.parse import parse_qs, urlsplit

PLAN_PATH = "/api/v1/plan"
NEAR_KM = 3.5  # an asked place this close to a station walks to it


@dataclass(frozen=True)
class Stop:
    name: str
    lat: float
    lon: float
    stop_id: str


SANTA_APOLONIA = Stop("Lisboa Santa Apolónia", 38.7137, -9.1227, "pt-cp:94-30007")
CAMPANHA = Stop("Porto Campanhã", 41.1487, -8.5856, "pt-cp:94-1008")
TOKYO = Stop("Tokyo", 35.6812, 139.7671, "jp-jrc:tokyo")
SHINAGAWA = Stop("Shinagawa", 35.6285, 139.7388, "jp-jrc:shinagawa")
SHIN_YOKOHAMA = Stop("Shin-Yokohama", 35.5075, 139.6175, "jp-jrc:shin-yokohama")
NAGOYA = Stop("Nagoya", 35.1706, 136.8816, "jp-jrc:nagoya")
KYOTO = Stop("Kyoto", 34.9858, 135.7585, "jp-jrc:kyoto")
TERMINI = Stop("Roma Termini", 41.9009, 12.5016, "it-fs:S08409")
TIBURTINA = Stop("Roma Tiburtina", 41.9106, 12.5307, "it-fs:S08217")
SMN = Stop("Firenze Santa Maria Novella", 43.7763, 11.2479, "it-fs:S06421")


@dataclass(frozen=True)
class Run:
    """One train: its stops with (arrival, departure) in UTC; the first has no arrival, the last no departure."""

    mode: str
    agency: str
    line: str
    headsign: str
    calls: tuple[tuple[Stop, datetime | None, datetime | None], ...]


def _utc(day: str, hhmm: str, offset_h: int) -> datetime:
    local = datetime.fromisoformat(f"{day}T{hhmm}:00")
    return (local - timedelta(hours=offset_h)).replace(tzinfo=timezone.utc)


def timetable(day: str) -> list[Run]:
    """The day's trains (``day`` ISO) in UTC."""
    runs = [
        Run("HIGHSPEED_RAIL", "CP - Comboios de Portugal", "AP", "Porto Campanhã",
            ((SANTA_APOLONIA, None, _utc(day, "07:00", 1)), (CAMPANHA, _utc(day, "09:50", 1), None))),
        Run("HIGHSPEED_RAIL", "CP - Comboios de Portugal", "AP", "Porto Campanhã",
            ((SANTA_APOLONIA, None, _utc(day, "09:00", 1)), (CAMPANHA, _utc(day, "11:48", 1), None))),
        Run("HIGHSPEED_RAIL", "Trenitalia", "FR 9502", "Milano Centrale",
            ((TERMINI, None, _utc(day, "05:35", 2)), (TIBURTINA, _utc(day, "05:43", 2), _utc(day, "05:45", 2)),
             (SMN, _utc(day, "07:10", 2), None))),
    ]
    start = _utc(day, "06:00", 9)
    for k in range(0, 16 * 6):  # 06:00 … 21:50 every ten minutes
        dep = start + timedelta(minutes=10 * k)
        runs.append(Run("HIGHSPEED_RAIL", "JR Central", "Nozomi", "Shin-Osaka",
                        ((TOKYO, None, dep), (SHINAGAWA, dep + timedelta(minutes=7), dep + timedelta(minutes=8)),
                         (SHIN_YOKOHAMA, dep + timedelta(minutes=18), dep + timedelta(minutes=19)),
                         (NAGOYA, dep + timedelta(minutes=97), dep + timedelta(minutes=98)),
                         (KYOTO, dep + timedelta(minutes=135), None))))
    return runs


@dataclass
class Reply:
    status: int = 200
    body: bytes | None = None  # None: the timetable's answer
    content_type: str = "application/json"


@dataclass
class Seen:
    path: str
    query: dict[str, str]
    headers: dict[str, str]


def _km(a: tuple[float, float], b: tuple[float, float]) -> float:
    la1, lo1, la2, lo2 = map(radians, (*a, *b))
    h = sin((la2 - la1) / 2) ** 2 + cos(la1) * cos(la2) * sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371.0 * asin(sqrt(h))


def _z(t: datetime) -> str:
    return t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _place(stop: Stop, arr: datetime | None, dep: datetime | None) -> dict:
    place = {"name": stop.name, "stopId": stop.stop_id, "lat": stop.lat, "lon": stop.lon, "level": 0,
             "vertexType": "TRANSIT"}
    if arr is not None:
        place |= {"arrival": _z(arr), "scheduledArrival": _z(arr)}
    if dep is not None:
        place |= {"departure": _z(dep), "scheduledDeparture": _z(dep)}
    return place


def _walk(a: dict, b: dict, start: datetime, minutes: int) -> dict:
    end = start + timedelta(minutes=minutes)
    return {"mode": "WALK", "from": a, "to": b, "duration": minutes * 60, "startTime": _z(start), "endTime": _z(end),
            "scheduledStartTime": _z(start), "scheduledEndTime": _z(end), "realTime": False,
            "distance": minutes * 80.0, "legGeometry": {"points": "", "length": 0}}


def plan_answer(query: dict[str, str]) -> dict:
    """MOTIS's answer to a plan query from the timetable: trains from a station near ``fromPlace``
    to one near ``toPlace`` leaving at or after ``time``, earliest first, at most five."""
    src = tuple(float(v) for v in query["fromPlace"].split(",")[:2])
    dst = tuple(float(v) for v in query["toPlace"].split(",")[:2])
    after = datetime.fromisoformat(query["time"].replace("Z", "+00:00"))
    rail_ok = any(m in query.get("transitModes", "TRANSIT").split(",") for m in ("TRANSIT", "RAIL", "HIGHSPEED_RAIL"))
    here = {"name": "START", "lat": src[0], "lon": src[1], "level": 0, "vertexType": "NORMAL"}
    there = {"name": "END", "lat": dst[0], "lon": dst[1], "level": 0, "vertexType": "NORMAL"}
    itineraries = []
    days = (after.date(), after.date() + timedelta(days=1))  # a late ask finds the next morning's trains
    for run in [r for d in days for r in timetable(d.isoformat())] if rail_ok else []:
        board = next((i for i, (s, _, _) in enumerate(run.calls) if _km(src, (s.lat, s.lon)) <= NEAR_KM), None)
        alight = next((i for i, (s, _, _) in enumerate(run.calls) if _km(dst, (s.lat, s.lon)) <= NEAR_KM), None)
        if board is None or alight is None or alight <= board:
            continue
        first, last = run.calls[board], run.calls[alight]
        walk_in = max(1, round(_km(src, (first[0].lat, first[0].lon)) * 12))  # 5 km/h
        walk_out = max(1, round(_km(dst, (last[0].lat, last[0].lon)) * 12))
        leave = first[2] - timedelta(minutes=walk_in)
        if leave < after:
            continue
        ride = {"mode": run.mode, "from": _place(first[0], None, first[2]), "to": _place(last[0], last[1], None),
                "duration": int((last[1] - first[2]).total_seconds()), "startTime": _z(first[2]),
                "endTime": _z(last[1]), "scheduledStartTime": _z(first[2]), "scheduledEndTime": _z(last[1]),
                "realTime": False, "headsign": run.headsign, "agencyName": run.agency, "agencyId": run.agency,
                "routeShortName": run.line, "tripId": f"{run.line}-{_z(first[2])}", "source": "standin.txt:1",
                "intermediateStops": [_place(s, a, d) for s, a, d in run.calls[board + 1:alight]],
                "legGeometry": {"points": "", "length": 0}}
        arrive = last[1] + timedelta(minutes=walk_out)
        legs = [_walk(here, ride["from"], leave, walk_in), ride, _walk(ride["to"], there, last[1], walk_out)]
        itineraries.append({"duration": int((arrive - leave).total_seconds()), "startTime": _z(leave),
                            "endTime": _z(arrive), "transfers": 0, "legs": legs})
    itineraries.sort(key=lambda i: i["startTime"])
    return {"requestParameters": {}, "debugOutput": {}, "from": here, "to": there, "direct": [],
            "itineraries": itineraries[:5], "previousPageCursor": "", "nextPageCursor": ""}


class MotisStandIn:
    def __init__(self) -> None:
        self.seen: list[Seen] = []
        self._script: list[Reply] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> "MotisStandIn":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def then(self, *replies: Reply) -> None:
        with self._lock:
            self._script.extend(replies)

    def _next(self) -> Reply:
        with self._lock:
            return self._script.pop(0) if self._script else Reply()

    def _handler(self):
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the stdlib's name)
                parts = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
                standin.seen.append(Seen(parts.path, query, {k.lower(): v for k, v in self.headers.items()}))
                reply = standin._next()
                body = reply.body
                if body is None:
                    if parts.path != PLAN_PATH:
                        reply, body = Reply(status=404, content_type="text/plain"), b"not found"
                    else:
                        body = json.dumps(plan_answer(query)).encode()
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        return Handler
