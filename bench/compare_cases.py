"""The cases ``bench/compare.py`` runs in each build, one process per case and round:

    <build's python> bench/compare_cases.py CASE [--reps N] [--quiet-logs]

The process imports the build's own engine (its root is the working directory, put first on
``sys.path``), runs the case and prints its figures as one JSON line. This file is always the one
of the tree that runs ``compare.py``, so both builds are measured by the same code; it therefore
uses only the engine calls that have not changed since last month's head (460f0b5).

Logging is set up as ``tripwright`` sets it up (``engine.cli``: warnings to stderr, INFO as JSON
lines into ``<data dir>/logs``), because that is how ``tripwright bench`` and every CLI run pay
for it; ``--quiet-logs`` measures without the log file.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))

TODAY = date(2026, 11, 23)
PARIS = {"city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
         "budget_usd_cents": 400000, "airports": ["CDG", "ORY"], "origin_airport": "JFK",
         "prefs": {"themes": ["art", "food"]}}
ROAD_PROMPT = "Seattle to Miami, 10 days from 2027-05-03"


def _p50(samples: list[float]) -> float:
    return round(statistics.median(samples), 3)


def _intent(**prefs):
    from engine.models import IntentV1
    data = json.loads(json.dumps(PARIS))
    data["prefs"].update(prefs)
    return IntentV1.model_validate(data)


def _session(**kw):
    from engine.catalog import default_catalog
    from engine.pipeline import PlanningSession
    return PlanningSession(kw.pop("catalog", None) or default_catalog(), today=kw.pop("today", TODAY), **kw)


# -- the cases ----------------------------------------------------------------------------------------
def case_executor(reps: int) -> dict:
    """A flight search answered from the executor's L1 cache, ``reps`` × 1,000 calls."""
    from engine.catalog import default_catalog
    from engine.models import DateWindow
    from engine.tools import build_toolbox
    from engine.tools.executor import ToolExecutor
    from engine.tools.requests import FlightRequest

    async def run() -> float:
        toolbox = build_toolbox(default_catalog(), today=TODAY)
        ex = ToolExecutor()
        request = FlightRequest(origin="JFK", dest="CDG", date_window=DateWindow(
            start=date(2027, 6, 15), end=date(2027, 6, 19), tz="Europe/Paris"))
        await ex.call("flights", toolbox.flights.search, request)
        samples = []
        for _ in range(reps):
            started = time.perf_counter()
            for _ in range(1000):
                await ex.call("flights", toolbox.flights.search, request)
            samples.append((time.perf_counter() - started))  # s per 1,000 calls = ms per call
        return statistics.median(samples)
    return {"executor_cached_call_ms": round(asyncio.run(run()), 4)}


def case_plan(reps: int) -> dict:
    async def run():
        from engine.catalog import default_catalog
        catalog = default_catalog()
        await _session(catalog=catalog).plan(_intent())  # warm imports and caches
        total, first = [], []
        for _ in range(reps):
            session = _session(catalog=catalog)
            seen: list[float] = []
            started = time.perf_counter()
            await session.plan(_intent(), on_event=lambda e: seen.append(time.perf_counter()) if not seen else None)
            total.append((time.perf_counter() - started) * 1000)
            first.append((seen[0] - started) * 1000)
        return {"plan_p50_ms": _p50(total), "first_event_p50_ms": _p50(first)}
    return asyncio.run(run())


def case_replan(reps: int) -> dict:
    async def run():
        session = _session()
        await session.plan(_intent())
        times = []
        for i in range(reps):
            start = 12 * 60 + i * 5  # a window never planned before: no whole-run memo hit
            lock = {"day_offset": 2, "activity_id": "eiffel_tower",
                    "window": {"start": f"{start // 60:02d}:{start % 60:02d}",
                               "end": f"{start // 60 + 2:02d}:{start % 60:02d}"}}
            intent = _intent(locked_slots=[lock])
            t = time.perf_counter()
            await session.plan(intent)
            times.append((time.perf_counter() - t) * 1000)
        return {"replan_p50_ms": _p50(times)}
    return asyncio.run(run())


def case_verify(reps: int) -> dict:
    """10,000 distinct plans through ``verify_plan`` (``reps`` × 1,000; the default 10 is the bench's)."""
    from engine.verify import verify_plan
    from engine_bench import jittered  # this tree's bench/ (the script's folder), not the build's
    result = asyncio.run(_session().plan(_intent()))
    plan, facts, intent = result.plan, result.inputs.facts, _intent()
    rng = random.Random(7)
    count = reps * 1000
    variants = [jittered(plan, rng) for _ in range(count)]
    started = time.perf_counter()
    found = 0
    for variant in variants:
        found += len(verify_plan(variant, intent, facts))
    return {"verify_total_s": round(time.perf_counter() - started, 3), "verify_plans": count,
            "verify_violations_found": found}


def _road(**kw):
    from engine.models import RoadTripIntent
    return RoadTripIntent(start_date=date(2027, 5, 3), **kw)


def case_road(reps: int) -> dict:
    """LA → Chicago on Route 66, 7 days: plan + verify (the bench's ``road_plan_verify_p50_ms``)."""
    from engine.geocode import default_gazetteer
    from engine.roadtrip.invariants import verify_road_plan
    from engine.roadtrip.planner import plan_road_trip
    gazetteer = default_gazetteer()
    base = dict(origin="Los Angeles", terminus="Chicago", days=7, route="Route 66")
    plan_road_trip(_road(**base), gazetteer)
    full = []
    for _ in range(reps):
        t = time.perf_counter()
        verify_road_plan(plan_road_trip(_road(**base), gazetteer))
        full.append((time.perf_counter() - t) * 1000)
    return {"road_plan_verify_p50_ms": _p50(full)}


def case_seattle_miami(reps: int) -> dict:
    """Seattle → Miami off any named route, 9-13 days (the bench's ``road_seattle_miami_plan_p50_ms``)."""
    from engine.geocode import default_gazetteer
    from engine.roadtrip.planner import plan_road_trip
    gazetteer = default_gazetteer()
    plan_road_trip(_road(origin="Seattle", terminus="Miami", days=10), gazetteer)
    across = []
    for i in range(reps):
        t = time.perf_counter()
        plan_road_trip(_road(origin="Seattle", terminus="Miami", days=9 + i % 5), gazetteer)
        across.append((time.perf_counter() - t) * 1000)
    return {"road_seattle_miami_plan_p50_ms": _p50(across)}


def case_seattle_miami_first(reps: int) -> dict:  # noqa: ARG001 (one sample a process)
    """The first Seattle → Miami of a process that has planned another road trip (imports, the
    gazetteer and the coastline warm; nothing of this trip's ends, corridor or land kept yet)."""
    from engine.geocode import default_gazetteer
    from engine.roadtrip.planner import plan_road_trip
    gazetteer = default_gazetteer()
    plan_road_trip(_road(origin="Los Angeles", terminus="Chicago", days=7, route="Route 66"), gazetteer)
    plan_road_trip(_road(origin="Denver", terminus="Salt Lake City", days=3), gazetteer)
    t = time.perf_counter()
    plan_road_trip(_road(origin="Seattle", terminus="Miami", days=10), gazetteer)
    return {"road_seattle_miami_first_plan_ms": round((time.perf_counter() - t) * 1000, 3)}


def case_road30(reps: int) -> dict:
    """A 30-day road trip, Boston → San Diego, planned and verified."""
    from engine.geocode import default_gazetteer
    from engine.roadtrip.invariants import verify_road_plan
    from engine.roadtrip.planner import plan_road_trip
    gazetteer = default_gazetteer()
    intent = dict(origin="Boston", terminus="San Diego", days=30)
    verify_road_plan(plan_road_trip(_road(**intent), gazetteer))
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        verify_road_plan(plan_road_trip(_road(**intent), gazetteer))
        times.append((time.perf_counter() - t) * 1000)
    return {"road_30_days_plan_verify_p50_ms": _p50(times)}


def case_cold_weather(reps: int) -> dict:
    """A Paris plan with a cold weather cache against a local Open-Meteo stand-in, 20 ms latency."""
    from engine.catalog import default_catalog
    from engine.models import IntentV1
    from engine.tools import build_toolbox
    try:
        from engine.net.network import NetworkState
    except ImportError:  # a build from before engine/net/ (the measuring code is the same for every build)
        from engine.tools.network import NetworkState
    from tests.engine.standin_server import StandIn
    today = date(2027, 6, 10)
    server = StandIn(latency_s=0.02).start()
    os.environ.pop("TRIPWRIGHT_OFFLINE", None)
    os.environ["TRIPWRIGHT_OPEN_METEO_URL"] = server.url

    async def run():
        catalog, network = default_catalog(), NetworkState()
        intent = IntentV1.model_validate(PARIS)
        await _session(catalog=catalog, today=today,
                       toolbox=build_toolbox(catalog, today=today, network=network)).plan(intent)
        samples = []
        for _ in range(reps):
            session = _session(catalog=catalog, today=today,
                               toolbox=build_toolbox(catalog, today=today, network=network))
            started = time.perf_counter()
            await session.plan(intent)
            samples.append((time.perf_counter() - started) * 1000)
        await network.aclose()
        return samples
    try:
        samples = asyncio.run(run())
    finally:
        server.stop()
    return {"plan_cold_weather_20ms_p50_ms": _p50(samples)}


def _process(argv: list[str], reps: int, name: str) -> dict:
    exe = str(Path(sys.executable).with_name("tripwright"))
    env = {**os.environ, "TRIPWRIGHT_OFFLINE": "1"}
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "o.json")
        subprocess.run([exe, *argv, "--out", out], check=True, capture_output=True, env=env)  # warm
        times = []
        for _ in range(reps):
            t = time.perf_counter()
            subprocess.run([exe, *argv, "--out", out], check=True, capture_output=True, env=env)
            times.append(time.perf_counter() - t)
    return {name: _p50(times)}


def case_process_paris(reps: int) -> dict:
    intent = ROOT / "docs" / "examples" / "paris.json"
    return _process(["plan", "--intent", str(intent), "--today", TODAY.isoformat()], reps, "process_paris_plan_s")


def case_process_floor(reps: int) -> dict:
    """The import floor a city plan is held to (issue 34 §2): the four libraries it must have."""
    argv = [sys.executable, "-c", "import pydantic, httpx, sqlalchemy, structlog"]
    subprocess.run(argv, check=True)  # warm
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        subprocess.run(argv, check=True)
        times.append(time.perf_counter() - t)
    return {"process_import_floor_s": _p50(times)}


def case_process_road(reps: int) -> dict:
    return _process(["plan", "--prompt", ROAD_PROMPT, "--today", TODAY.isoformat()], reps,
                    "process_seattle_miami_plan_s")


# -- a big city's cached pack (issue 34 §3) ----------------------------------------------------------
CHICAGO_PROMPT = "5 days in Chicago from 2027-05-10, flying from JFK, budget 4000 USD"


def _cached_city(city: str, places: int) -> str:
    """The synthetic city of ``places`` elements (tests/data/osm/synthetic.py) around ``city``,
    cached in this build's data dir as that city's pack, built once by this build's own pack
    builder; its slug."""
    from datetime import datetime, timezone

    from engine.geocode import default_gazetteer
    from engine.places.city_spec import resolve_city
    from engine.places.fetch import airports_near, city_box
    from engine.places.overpass import Answer
    from engine.places.pack_build import build_pack
    from engine.places.pack_store import PackStore
    from tests.data.osm.synthetic import synthetic_city
    spec = resolve_city(city, default_gazetteer())
    store = PackStore()
    marker = store.folder / f"{spec.slug}.places-{places}"
    if store.load(spec.slug) is None or not marker.exists():
        answer = Answer.model_validate({"elements": synthetic_city((spec.lat, spec.lon), count=places)})
        box = city_box(spec)
        tz = "America/Chicago"  # both cities' zone
        pack = build_pack(spec, answer, box=box, tz=tz, currency="USD", airports=airports_near(spec),
                          fetched_at=datetime(2026, 11, 20, tzinfo=timezone.utc), source_url="http://127.0.0.1/")
        store.save(pack)
        for old in store.folder.glob(f"{spec.slug}.places-*"):
            old.unlink()
        marker.touch()
        store.load(spec.slug)  # what a first plan leaves behind
    return spec.slug


def _big_pack(city: str, places: int, reps: int) -> dict:
    """In process: a first read of the cached pack (the read cache cleared), and that read + a new
    session joining it + a 5-day plan; p50 over ``reps``."""
    from datetime import timedelta

    from engine.models import IntentV1
    from engine.pipeline import PlanningSession
    from engine.places import pack_store
    slug = _cached_city(city, places)

    def fresh_read():
        pack_store._read_pack.cache_clear()  # noqa: SLF001 (a first read each time)
        return pack_store.PackStore().load(slug)

    def plan(start: date) -> None:
        session = PlanningSession(today=TODAY)
        pack = fresh_read()
        name = session.use_city_pack(pack)
        intent = IntentV1.model_validate({
            "city": name, "date_window": {"start": start.isoformat(), "end": (start + timedelta(days=4)).isoformat(),
                                          "tz": pack.tz},
            "budget_usd_cents": 400000, "airports": [a.iata for a in pack.airports][:2], "origin_airport": "JFK",
            "prefs": {}})
        result = asyncio.run(session.plan(intent))
        assert result.status == "completed", result.status

    plan(date(2027, 5, 3))  # the planner warm, not the pack
    loads, rounds = [], []
    for i in range(reps):
        t = time.perf_counter()
        fresh_read()
        loads.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        plan(date(2027, 5, 10) + timedelta(days=7 * i))
        rounds.append((time.perf_counter() - t) * 1000)
    return {f"pack{places}_load_p50_ms": _p50(loads), f"pack{places}_load_join_plan_p50_ms": _p50(rounds)}


def case_pack20k(reps: int) -> dict:
    return _big_pack("Houston", 20_000, reps)  # a capital's OSM size


def case_pack3k(reps: int) -> dict:
    return _big_pack("Chicago", 3_000, reps)


def case_process_city3k(reps: int) -> dict:
    """Whole process: the 3,000-place city cached, planned from a prompt (compare with process_paris)."""
    _cached_city("Chicago", 3_000)
    return _process(["plan", "--prompt", CHICAGO_PROMPT, "--today", TODAY.isoformat()], reps,
                    "process_city3k_plan_s")


CASES = {name[len("case_"):]: fn for name, fn in globals().items() if name.startswith("case_")}
DEFAULT_REPS = {"executor": 5, "plan": 10, "replan": 10, "verify": 10, "road": 7, "seattle_miami": 7, "seattle_miami_first": 1, "road30": 5,
                "cold_weather": 7, "process_paris": 3, "process_road": 3, "process_floor": 3, "pack20k": 5, "pack3k": 5,
                "process_city3k": 3}


def main(argv: list[str]) -> int:
    case = argv[0]
    reps = int(argv[argv.index("--reps") + 1]) if "--reps" in argv else DEFAULT_REPS[case]
    from engine.log_setup import configure
    if "--quiet-logs" in argv:
        configure(0)
    else:
        from engine.log_setup import default_log_dir
        configure(0, log_dir=default_log_dir())
    profile = os.environ.get("TRIPWRIGHT_COMPARE_PROFILE")
    if profile:
        import cProfile
        profiler = cProfile.Profile()
        figures = profiler.runcall(CASES[case], reps)
        profiler.dump_stats(profile)
    else:
        figures = CASES[case](reps)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
