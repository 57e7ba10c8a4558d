"""Tool runtime figures (issue 10 targets):

- executor overhead per cached call ≤ 0.2 ms (a flight search answered from the L1 cache);
- a 5-day Paris plan with a cold weather cache against a local Open-Meteo stand-in with 20 ms
  latency, p50 ≤ 150 ms (one long-lived HTTP client, as the app holds; calls run concurrently).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
from contextlib import contextmanager
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.catalog import default_catalog  # noqa: E402
from engine.models import DateWindow, IntentV1  # noqa: E402
from engine.pipeline import PlanningSession  # noqa: E402
from engine.tools import build_toolbox  # noqa: E402
from engine.tools.executor import ToolExecutor  # noqa: E402
from engine.net.network import NetworkState  # noqa: E402
from engine.tools.requests import FlightRequest  # noqa: E402
from tests.engine.standin_server import StandIn  # noqa: E402

TODAY = date(2027, 6, 10)  # the trip is inside the forecast horizon: the real rung is asked
PARIS = {"city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
         "budget_usd_cents": 400000, "airports": ["CDG", "ORY"], "origin_airport": "JFK",
         "prefs": {"themes": ["art", "food"]}}


@contextmanager
def online_against(url: str):
    saved = {k: os.environ.get(k) for k in ("TRIPWRIGHT_OFFLINE", "TRIPWRIGHT_OPEN_METEO_URL")}
    os.environ.pop("TRIPWRIGHT_OFFLINE", None)
    os.environ["TRIPWRIGHT_OPEN_METEO_URL"] = url
    try:
        yield
    finally:
        for k, v in saved.items():
            os.environ.pop(k, None) if v is None else os.environ.__setitem__(k, v)


async def bench_cached_call(calls: int) -> dict:
    toolbox = build_toolbox(default_catalog(), today=date(2026, 11, 23))
    ex = ToolExecutor()
    request = FlightRequest(origin="JFK", dest="CDG",
                            date_window=DateWindow(start=date(2027, 6, 15), end=date(2027, 6, 19), tz="Europe/Paris"))
    await ex.call("flights", toolbox.flights.search, request)
    started = time.perf_counter()
    for _ in range(calls):
        await ex.call("flights", toolbox.flights.search, request)
    return {"executor_cached_call_ms": round((time.perf_counter() - started) * 1000 / calls, 4)}


async def bench_cold_weather_plans(reps: int, latency_s: float = 0.02) -> dict:
    server = StandIn(latency_s=latency_s).start()
    try:
        with online_against(server.url):
            catalog, network = default_catalog(), NetworkState()
            intent = IntentV1.model_validate(PARIS)
            await PlanningSession(catalog, today=TODAY,
                                  toolbox=build_toolbox(catalog, today=TODAY, network=network)).plan(intent)
            samples = []
            for _ in range(reps):  # a fresh toolbox each time: cold caches, the one HTTP client kept
                session = PlanningSession(catalog, today=TODAY,
                                          toolbox=build_toolbox(catalog, today=TODAY, network=network))
                started = time.perf_counter()
                result = await session.plan(intent)
                samples.append((time.perf_counter() - started) * 1000)
                assert {w.provenance.data_source for w in result.inputs.weather.values()} == {"real"}
            await network.aclose()
    finally:
        server.stop()
    return {"plan_cold_weather_20ms_p50_ms": round(statistics.median(samples), 2),
            "weather_requests": len(server.hits("/v1/forecast"))}


def run(quick: bool = False) -> dict:
    figures = asyncio.run(bench_cached_call(2_000 if quick else 20_000))
    figures |= asyncio.run(bench_cold_weather_plans(5 if quick else 20))
    return figures


if __name__ == "__main__":
    from engine.log_setup import configure
    configure(0)  # warnings only, to stderr: a run logs each node and tool call at INFO
    print(run("--quick" in sys.argv))
