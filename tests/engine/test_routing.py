"""Real driving routes (issue 12 §2) against a real OSRM stand-in on 127.0.0.1: the adapter reads
the documented answer, the executor caches it forever and retries outages once, "no road" is an
answer (never retried), garbage is a tool failure; through the real ``tripwright`` executable a road
trip takes each day's routed miles, hours and geometry (GPX included), plans again around a night
no road reaches and on the real miles when they break the cap, and makes no request offline."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import ToolResponseError, ToolUnavailable
from engine.tools.executor import ExecutorPolicy, ToolExecutor
from engine.net.network import NetworkState
from engine.tools.osrm import DrivingRoute, OsrmRouter, RouteRequest

from .standin_server import ROUTE_PREFIX, Reply, StandIn, polyline_encode

EXE = Path(sys.executable).with_name("tripwright")
PROMPT = "Seattle to Miami, 12 days from 2027-05-03"
SEATTLE, PORTLAND, BOISE = (47.6062, -122.3321), (45.5152, -122.6784), (43.6150, -116.2023)


pytestmark = pytest.mark.standin_urls("TRIPWRIGHT_ROUTING_URL", "TRIPWRIGHT_OPEN_METEO_URL",
                                      "TRIPWRIGHT_NOMINATIM_URL")


class RecordedSleep:
    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def executor() -> tuple[ToolExecutor, RecordedSleep]:
    sleep = RecordedSleep()
    return ToolExecutor(ExecutorPolicy(), sleep=sleep, rng=random.Random(3)), sleep


async def route(ex: ToolExecutor, server: StandIn, *points) -> tuple[DrivingRoute, bool]:
    router = OsrmRouter(NetworkState(), server.url)
    return await ex.call("routing", router.route, RouteRequest.through(list(points)), result_type=DrivingRoute)


def routed_requests(server: StandIn) -> list:
    return [s for s in server.seen if s.path.startswith(ROUTE_PREFIX)]


# -- the adapter through the executor -------------------------------------------------------------
async def test_an_ok_answer_gives_miles_hours_and_the_geometry_and_is_cached_forever(server) -> None:
    ex, _ = executor()
    found, hit = await route(ex, server, SEATTLE, PORTLAND)
    assert found.found and not hit
    assert 170 < found.miles < 240 and found.hours == pytest.approx(found.miles * 1609.344 / 25 / 3600, rel=1e-3)
    assert found.geometry[0] == pytest.approx(SEATTLE, abs=1e-4) and len(found.geometry) == 3
    seen = routed_requests(server)
    assert seen[0].query["overview"] == "full" and seen[0].query["geometries"] == "geojson"
    assert seen[0].path == f"{ROUTE_PREFIX}-122.3321,47.6062;-122.6784,45.5152"
    again, hit = await route(ex, server, (47.60621, -122.33212), PORTLAND)  # rounds to the same key
    assert hit and again.miles == found.miles and len(routed_requests(server)) == 1


async def test_no_route_is_an_answer_not_an_outage(server) -> None:
    server.road.no_road = [(45.0, 46.0, -123.0, -122.0)]
    ex, sleep = executor()
    found, _ = await route(ex, server, SEATTLE, PORTLAND)
    assert not found.found and found.reason == "NoRoute"
    assert len(routed_requests(server)) == 1 and sleep.waits == [] and ex.stats["routing"].errors == 0


async def test_a_5xx_is_retried_once_then_answered(server) -> None:
    server.then(ROUTE_PREFIX, Reply(status=503, body=b"busy", content_type="text/plain"))
    ex, sleep = executor()
    found, _ = await route(ex, server, SEATTLE, BOISE)
    assert found.found and len(routed_requests(server)) == 2 and len(sleep.waits) == 1


async def test_5xx_twice_is_unavailable_and_five_failures_open_the_breaker(server) -> None:
    server.then(ROUTE_PREFIX, *[Reply(status=502) for _ in range(10)])
    ex, _ = executor()
    for k in range(5):
        with pytest.raises(ToolUnavailable):
            await route(ex, server, SEATTLE, (BOISE[0], BOISE[1] + k * 0.01))
    asked = len(routed_requests(server))
    with pytest.raises(ToolUnavailable, match="circuit open"):
        await route(ex, server, SEATTLE, PORTLAND)
    assert ex.breaker_state("routing") == "open" and len(routed_requests(server)) == asked


@pytest.mark.parametrize("reply", [
    Reply(body=b"<html>proxy login</html>", content_type="text/html"),
    Reply(body=b'{"code": "Ok", "routes": []}'),
    Reply(body=b'{"code": "Ok", "routes": [{"distance": "far", "duration": 1, "geometry": {}}]}'),
    Reply(body=b'{"code": "TooBig", "message": "too many coordinates"}'),
    Reply(status=400, body=b'{"code": "InvalidQuery", "message": "bad"}'),
])
async def test_garbage_is_a_response_error_never_retried(server, reply) -> None:
    server.then(ROUTE_PREFIX, reply)
    ex, sleep = executor()
    with pytest.raises(ToolResponseError):
        await route(ex, server, SEATTLE, PORTLAND)
    assert len(routed_requests(server)) == 1 and sleep.waits == []


def test_the_stand_in_speaks_polyline_too() -> None:
    # Google's documented example: (38.5, -120.2), (40.7, -120.95), (43.252, -126.453)
    assert polyline_encode([(38.5, -120.2), (40.7, -120.95), (43.252, -126.453)]) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@"


# -- a whole road trip through the real executable ------------------------------------------------
def plan(tmp_path: Path, *extra: str, prompt: str = PROMPT, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(EXE), "plan", "--prompt", prompt, "--out", str(tmp_path / "it.json"), "--today",
                           "2027-04-01", *extra], capture_output=True, text=True, timeout=180,
                          env={**os.environ, **(env or {})})


def days_of(tmp_path: Path) -> list[dict]:
    return json.loads((tmp_path / "it.json").read_text())["days"]


def test_a_road_trip_uses_the_routed_miles_hours_and_geometry(server, tmp_path) -> None:
    done = plan(tmp_path, "--gpx", str(tmp_path / "it.gpx"))
    assert done.returncode == 0, done.stderr
    days = days_of(tmp_path)
    assert {d["drive"]["source"] for d in days} == {"routed"}
    assert len(routed_requests(server)) == len(days)
    for day in days:
        assert day["drive"]["miles"] <= 400
        geo = [(p["lat"], p["lon"]) for p in day["path"]]
        # the stand-in's road bends off the straight line at each leg's middle: its geometry, not the corridor's
        assert len(geo) >= 3 and geo[0] == pytest.approx((day["path"][0]["lat"], day["path"][0]["lon"]))
        drives = [a for a in day["activities"] if a["role"] == "transfer"]
        assert all(a["notes"].endswith("(routed)") for a in drives)
    first = days[0]
    req = routed_requests(server)[0]
    coords = [tuple(map(float, p.split(","))) for p in req.path[len(ROUTE_PREFIX):].split(";")]
    assert len(first["path"]) == 2 * len(coords) - 1  # every waypoint and one bend per leg
    import gpxpy
    track = gpxpy.parse((tmp_path / "it.gpx").read_text()).tracks[0]
    points = [(p.latitude, p.longitude) for s in track.segments for p in s.points]
    bend = (first["path"][1]["lat"], first["path"][1]["lon"])
    assert any(abs(a - bend[0]) < 1e-4 and abs(b - bend[1]) < 1e-4 for a, b in points)


def test_offline_no_request_is_made_and_drives_say_estimated(server, tmp_path) -> None:
    done = plan(tmp_path, env={"TRIPWRIGHT_OFFLINE": "1"})
    assert done.returncode == 0, done.stderr
    assert routed_requests(server) == [] and {d["drive"]["source"] for d in days_of(tmp_path)} == {"estimated"}
    assert all(a["notes"].endswith("(estimated)") for d in days_of(tmp_path) for a in d["activities"]
               if a["role"] == "transfer")


def test_a_dead_routing_service_leaves_the_estimate_and_says_degraded(server, tmp_path) -> None:
    server.then(ROUTE_PREFIX, *[Reply(status=500) for _ in range(40)])
    done = plan(tmp_path)
    assert done.returncode == 0, done.stderr
    itinerary = json.loads((tmp_path / "it.json").read_text())
    assert "routing" in itinerary["degraded_tools"]
    assert {d["drive"]["source"] for d in itinerary["days"]} == {"estimated"}


def test_a_night_no_road_reaches_is_planned_around(server, tmp_path) -> None:
    done = plan(tmp_path, env={"TRIPWRIGHT_OFFLINE": "1"})
    assert done.returncode == 0, done.stderr
    night = days_of(tmp_path)[4]["anchor"]
    lat, lon = night["geo"]["lat"], night["geo"]["lon"]
    server.road.no_road = [(lat - 0.01, lat + 0.01, lon - 0.01, lon + 0.01)]
    done = plan(tmp_path)
    assert done.returncode == 0, done.stderr
    days = days_of(tmp_path)
    assert night["name"] not in {d["anchor"]["name"] for d in days}
    assert {d["drive"]["source"] for d in days} == {"routed"}


def test_an_anchor_snapped_far_onto_the_road_is_rejected(server, tmp_path) -> None:
    server.road.snap_miles = 9.0  # every waypoint is 9 miles from any road: no night is reachable
    done = plan(tmp_path)
    assert done.returncode == 3, done.stderr
    assert "no road reaches" in done.stderr + (tmp_path / "it.json").read_text()


def test_a_winding_day_over_the_cap_is_planned_again_on_the_real_miles(server, tmp_path) -> None:
    prompt = "Seattle to Miami, 14 days from 2027-05-03"
    assert plan(tmp_path, prompt=prompt, env={"TRIPWRIGHT_OFFLINE": "1"}).returncode == 0
    start, end = (days_of(tmp_path)[2]["path"][k] for k in (0, -1))
    box = (min(start["lat"], end["lat"]) - 0.5, max(start["lat"], end["lat"]) + 0.5,
           min(start["lon"], end["lon"]) - 0.5, max(start["lon"], end["lon"]) + 0.5)
    server.road.winding = [(box, 2.6)]  # day 3's roads are twice as long as the estimate
    done = plan(tmp_path, prompt=prompt)
    assert done.returncode == 0, done.stderr
    days = days_of(tmp_path)
    assert {d["drive"]["source"] for d in days} == {"routed"}
    assert max(d["drive"]["miles"] for d in days) <= 400.5
    assert "re-planned on the real roads" in done.stderr or len(routed_requests(server)) > len(days)


def test_roads_too_long_for_the_days_are_exit_2_naming_the_days(server, tmp_path) -> None:
    server.road.factor = 2.2
    done = plan(tmp_path, prompt="Seattle to Miami, 10 days from 2027-05-03")
    assert done.returncode == 2 and "days" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "it.json").exists()


def test_verify_accepts_routed_drives_and_refuses_a_road_shorter_than_the_straight_line(server, tmp_path) -> None:
    assert plan(tmp_path).returncode == 0
    verify = [str(EXE), "verify", str(tmp_path / "it.json")]
    offline = {**os.environ, "TRIPWRIGHT_OFFLINE": "1"}
    done = subprocess.run(verify, capture_output=True, text=True, timeout=120, env=offline)
    assert done.returncode == 0, done.stdout + done.stderr
    itinerary = json.loads((tmp_path / "it.json").read_text())
    itinerary["days"][1]["drive"]["miles"] = 12.0
    (tmp_path / "it.json").write_text(json.dumps(itinerary))
    done = subprocess.run(verify, capture_output=True, text=True, timeout=120, env=offline)
    assert done.returncode == 1 and "in a straight line" in done.stdout + done.stderr
