"""Multi-city speed (issue 33 §5): a 3-city 10-day trip — Paris (3 nights), Barcelona (3, its
OpenStreetMap pack, cached) and Rome (3), legs estimated, flying from JFK — planned from cached data:

    .venv/bin/python bench/multi_city_bench.py [--quick] [--json]

Targets, each printed with PASS/FAIL:

1. ``inprocess_plan_p50_ms`` ≤ 300 ms — ``PlanningSession.plan`` of the trip in-process, p50 over
   plans of different start dates (so the node memo cannot answer) on a session that has the pack
   joined; the first (cold) plan of a fresh interpreter is printed apart (``inprocess_cold_plan_ms``,
   imports not counted), and so is a fresh session per plan (``inprocess_fresh_session_p50_ms``);
   the CPU time of the process beside it (``inprocess_plan_cpu_p50_ms``: on a machine shared by many
   jobs the wall time also counts waiting for a core). Each stay is one city run, so the figure is
   about three one-city plans of four days.
2. ``process_plan_p50_s`` ≤ 1.5 s — the real ``tripwright plan --intent`` of the trip with the pack
   cached in its TRIPWRIGHT_HOME, offline, p50 over runs after one warm-up run (its CPU seconds
   beside it, ``process_plan_cpu_p50_s``).

Nothing reaches the internet: the processes run with ``TRIPWRIGHT_OFFLINE=1`` and every service URL
points at a closed local port.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TODAY = "2026-11-26"
CLOSED_LOCAL_PORT = "http://127.0.0.1:9"
TARGETS = {"inprocess_plan_p50_ms": (300.0, "ms"), "process_plan_p50_s": (1.5, "s")}
STAYS = [{"city": "Paris", "nights": 3}, {"city": "Barcelona", "nights": 3}, {"city": "Rome", "nights": 3}]


def trip(start: date) -> dict:
    return {"mode": "multi_city", "start_date": start.isoformat(), "origin_airport": "JFK",
            "budget_usd_cents": 1_200_000, "stays": STAYS}


def _env(home: Path) -> dict[str, str]:
    env = {**os.environ, "TRIPWRIGHT_HOME": str(home), "TRIPWRIGHT_OFFLINE": "1"}
    for name in ("TRIPWRIGHT_OPEN_METEO_URL", "TRIPWRIGHT_NOMINATIM_URL", "TRIPWRIGHT_ROUTING_URL",
                 "TRIPWRIGHT_OPENWEATHERMAP_URL", "TRIPWRIGHT_WIKIDATA_URL", "TRIPWRIGHT_OVERPASS_URL"):
        env[name] = CLOSED_LOCAL_PORT
    env.pop("OPENWEATHERMAP_API_KEY", None)
    return env


def inprocess(reps: int) -> dict[str, float]:
    """Run in a child interpreter of its own (``--child``): a cold plan is a real first plan."""
    import asyncio

    from engine.evaluation.packs import load_eval_pack
    from engine.log_setup import configure
    from engine.models import MultiCityIntent
    from engine.pipeline import PlanningSession
    configure(0)  # warnings only, to stderr: a run logs each node and tool call at INFO
    today = date.fromisoformat(TODAY)
    pack = load_eval_pack("barcelona_es")

    def session() -> PlanningSession:
        s = PlanningSession(today=today)
        s.use_city_pack(pack)
        return s

    def plan(s: PlanningSession, start: date) -> None:
        result = asyncio.run(s.plan(MultiCityIntent.model_validate(trip(start))))
        assert result.status == "completed", result.failure
        assert len(result.itinerary.days) == 10 and len(result.itinerary.legs) == 2

    first = date(2027, 6, 1)
    started = time.perf_counter()
    warm = session()
    plan(warm, first)
    cold = (time.perf_counter() - started) * 1000
    samples, fresh, cpu = [], [], []
    for i in range(1, reps + 1):
        t, c = time.perf_counter(), time.process_time()
        plan(warm, first + timedelta(days=i))
        samples.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
        t = time.perf_counter()
        plan(session(), first + timedelta(days=i + 40))
        fresh.append((time.perf_counter() - t) * 1000)
    return {"inprocess_cold_plan_ms": round(cold, 1), "inprocess_plan_p50_ms": round(statistics.median(samples), 1),
            "inprocess_plan_cpu_p50_ms": round(statistics.median(cpu), 1),
            "inprocess_fresh_session_p50_ms": round(statistics.median(fresh), 1)}


def process(reps: int) -> dict[str, float]:
    from engine.evaluation.packs import load_eval_pack
    from engine.places.pack_store import PackStore
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        PackStore(home).save(load_eval_pack("barcelona_es"))  # the pack as a traveller's cache holds it
        intent = Path(tmp) / "trip.json"
        intent.write_text(json.dumps(trip(date(2027, 6, 1))))
        argv = [str(Path(sys.executable).with_name("tripwright")), "plan", "--intent", str(intent), "--today", TODAY]
        walls, cpus = [], []
        for i in range(reps + 1):
            started, before = time.perf_counter(), os.times()
            done = subprocess.run(argv, env=_env(home), capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"tripwright plan exited {done.returncode}: {done.stderr.strip()[-800:]}")
            after = os.times()
            if i:  # the first run is the warm-up (the gazetteer, bytecode)
                walls.append(time.perf_counter() - started)
                cpus.append(after.children_user + after.children_system - before.children_user - before.children_system)
        return {"process_plan_p50_s": round(statistics.median(walls), 3),
                "process_plan_cpu_p50_s": round(statistics.median(cpus), 3)}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    quick = "--quick" in args
    if "--child" in args:
        print(json.dumps(inprocess(3 if quick else 7)))
        return 0
    child = subprocess.run([sys.executable, __file__, "--child", *(["--quick"] if quick else [])],
                           capture_output=True, text=True, env=_env(Path(tempfile.mkdtemp())))
    if child.returncode != 0:
        raise RuntimeError(child.stderr.strip()[-800:])
    figures = json.loads(child.stdout.strip().splitlines()[-1])
    figures.update(process(2 if quick else 5))
    ok = True
    for name, value in figures.items():
        target = TARGETS.get(name)
        verdict = "" if target is None else ("PASS" if value <= target[0] else "FAIL")
        ok &= verdict != "FAIL"
        unit = target[1] if target else ("ms" if name.endswith("_ms") else "s")
        print(f"{name:34s} {value:>10} {unit}" + (f"  (target ≤ {target[0]} {unit}) {verdict}" if target else ""))
    if "--json" in args:
        print(json.dumps(figures))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
