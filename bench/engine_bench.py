"""Engine performance figures (issue 2 targets), printed by ``tripwright bench`` or run directly:

    .venv/bin/python bench/engine_bench.py [--quick] [--json]

Targets (warm, in-process, 2 cores): 5-day Paris plan p50 ≤ 50 ms; first event ≤ 5 ms after the
call; re-plan after one locked-slot change p50 ≤ 20 ms with ≥ 60% of nodes reused; verifying
10,000 plans ≤ 2 s; ``tripwright plan`` as a whole process ≤ 1.5 s.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, time as clock
from pathlib import Path

from engine.catalog import default_catalog
from engine.models import IntentV1, TimeWindow
from engine.pipeline import PlanningSession
from engine.verify import verify_plan

TODAY = date(2026, 11, 23)
PARIS = {"city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
         "budget_usd_cents": 400000, "airports": ["CDG", "ORY"], "origin_airport": "JFK",
         "prefs": {"themes": ["art", "food"]}}


def _intent(**prefs) -> IntentV1:
    data = json.loads(json.dumps(PARIS))
    data["prefs"].update(prefs)
    return IntentV1.model_validate(data)


def _p50(samples: list[float]) -> float:
    return round(statistics.median(samples), 2)


async def bench_plan(reps: int) -> dict:
    catalog = default_catalog()
    await PlanningSession(catalog, today=TODAY).plan(_intent())  # warm imports and caches
    total, first = [], []
    for _ in range(reps):
        session = PlanningSession(catalog, today=TODAY)
        started = time.perf_counter()
        seen: list[float] = []
        await session.plan(_intent(), on_event=lambda e: seen.append(time.perf_counter()) if not seen else None)
        total.append((time.perf_counter() - started) * 1000)
        first.append((seen[0] - started) * 1000)
    return {"plan_p50_ms": _p50(total), "first_event_p50_ms": _p50(first)}


async def bench_replan(reps: int) -> dict:
    session = PlanningSession(default_catalog(), today=TODAY)
    await session.plan(_intent())
    times, reuse = [], []
    for i in range(reps):
        start = 12 * 60 + i * 5  # a window never planned before: no whole-run memo hit
        lock = {"day_offset": 2, "activity_id": "eiffel_tower",
                "window": {"start": f"{start // 60:02d}:{start % 60:02d}", "end": f"{start // 60 + 2:02d}:{start % 60:02d}"}}
        intent = _intent(locked_slots=[lock])
        t = time.perf_counter()
        result = await session.plan(intent)
        times.append((time.perf_counter() - t) * 1000)
        reuse.append(result.reuse)
    return {"replan_p50_ms": _p50(times), "replan_node_reuse": round(statistics.mean(reuse), 3)}


async def bench_verify(count: int) -> dict:
    session = PlanningSession(default_catalog(), today=TODAY)
    result = await session.plan(_intent())
    plan, facts, intent = result.plan, result.inputs.facts, _intent()
    rng = random.Random(7)
    variants = [jittered(plan, rng) for _ in range(count)]  # every plan distinct: no memo shortcut
    started = time.perf_counter()
    found = 0
    for i in range(count):
        found += len(verify_plan(variants[i % len(variants)], intent, facts))
    return {"verify_plans": count, "verify_total_s": round(time.perf_counter() - started, 3),
            "verify_violations_found": found}


def jittered(plan, rng: random.Random):
    """A random but valid variant: each day's movable slots shifted by the same random amount."""
    days = []
    for day in plan.days:
        shift = rng.choice((-60, -30, 0, 30, 60))
        slots = []
        for s in day.slots:
            if s.role in ("activity", "meal"):
                a = s.window.start.hour * 60 + s.window.start.minute + shift
                b = s.window.end.hour * 60 + s.window.end.minute + shift
                if 0 <= a < b < 24 * 60:
                    s = s.model_copy(update={"window": TimeWindow(start=clock(a // 60, a % 60), end=clock(b // 60, b % 60))})
            slots.append(s)
        try:
            days.append(day.model_copy(update={"slots": sorted(slots, key=lambda s: s.window.start)}))
        except ValueError:
            days.append(day)
    return plan.model_copy(update={"days": days})


def bench_process(reps: int) -> dict:
    exe = Path(sys.executable).with_name("tripwright")
    with tempfile.TemporaryDirectory() as tmp:
        intent = Path(tmp) / "intent.json"
        intent.write_text(json.dumps(PARIS))
        times = []
        for _ in range(reps):
            t = time.perf_counter()
            subprocess.run([str(exe), "plan", "--intent", str(intent), "--out", str(Path(tmp) / "o.json"),
                            "--today", TODAY.isoformat()], check=True, capture_output=True)
            times.append(time.perf_counter() - t)
        return {"cli_plan_process_p50_s": round(statistics.median(times), 3),
                **import_breakdown(exe, intent, Path(tmp) / "o.json")}


def import_breakdown(exe: Path, intent: Path, out: Path, top: int = 8) -> dict:
    """Where a whole-process plan's import time goes (issue 23 §3): ``-X importtime`` of one run,
    each distribution's own milliseconds (its modules' self times: engine, pydantic, numpy, …),
    the largest first — a regression shows which import brought it."""
    done = subprocess.run([sys.executable, "-X", "importtime", str(exe), "plan", "--intent", str(intent), "--out",
                           str(out), "--today", TODAY.isoformat()], check=True, capture_output=True, text=True)
    totals: dict[str, int] = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        own, _, name = line.split("|")
        package = name.strip().split(".")[0].lstrip("_")
        totals[package] = totals.get(package, 0) + int(own.split(":")[1])
    ranked = sorted(totals.items(), key=lambda kv: -kv[1])[:top]
    return {"cli_plan_import_total_ms": round(sum(totals.values()) / 1000, 1),
            **{f"cli_plan_import_{name}_ms": round(us / 1000, 1) for name, us in ranked}}


def bench_road(reps: int) -> dict:
    """LA → Chicago on Route 66, 7 days: plan + verify, and a re-plan after moving one anchor
    (the moved anchor becomes a forced stop, as a drag on the map does)."""
    from engine.geocode import default_gazetteer
    from engine.models import RoadTripIntent
    from engine.roadtrip.invariants import verify_road_plan
    from engine.roadtrip.planner import plan_road_trip
    gazetteer = default_gazetteer()
    base = dict(origin="Los Angeles", terminus="Chicago", days=7, start_date=date(2027, 5, 3), route="Route 66")
    plan_road_trip(RoadTripIntent(**base), gazetteer)  # warm: routes, projections, index
    full, moved = [], []
    towns = ["Kingman", "Flagstaff", "Gallup", "Amarillo", "Tulsa", "Joplin", "Rolla", "Springfield, IL"]
    for i in range(reps):
        t = time.perf_counter()
        verify_road_plan(plan_road_trip(RoadTripIntent(**base), gazetteer))
        full.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        verify_road_plan(plan_road_trip(RoadTripIntent(**base, stops=[towns[i % len(towns)]]), gazetteer))
        moved.append((time.perf_counter() - t) * 1000)
    across = []
    for i in range(max(3, reps // 3)):  # issue 12: off any named route, coast to coast (target <= 100 ms)
        t = time.perf_counter()
        plan_road_trip(RoadTripIntent(origin="Seattle", terminus="Miami", days=9 + i % 5, start_date=date(2027, 5, 3)),
                       gazetteer)
        across.append((time.perf_counter() - t) * 1000)
    return {"road_plan_verify_p50_ms": _p50(full), "road_replan_moved_anchor_p50_ms": _p50(moved),
            "road_seattle_miami_plan_p50_ms": _p50(across), "road_process_plan_warm_s": _road_process()}


def _road_process() -> float:
    """Whole-process road plan (prompt → itinerary file), warm: the second of two runs."""
    exe = Path(sys.executable).with_name("tripwright")
    with tempfile.TemporaryDirectory() as tmp:
        times = []
        for _ in range(2):
            t = time.perf_counter()
            subprocess.run([str(exe), "plan", "--prompt", "Seattle to Miami, 10 days from 2027-05-03", "--out",
                            str(Path(tmp) / "o.json"), "--today", TODAY.isoformat()], check=True, capture_output=True)
            times.append(time.perf_counter() - t)
    return round(times[-1], 3)


def bench_road_fresh_home() -> dict:
    """The first road trip on an empty data dir, whole process (bench/road_bench.py)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("road_bench", Path(__file__).with_name("road_bench.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.bench_fresh_home(1)


def bench_geocode() -> dict:
    """Offline gazetteer on the existing index in the data dir (bench/geocode_bench.py)."""
    import importlib.util
    from engine.geocode.gazetteer import data_dir
    spec = importlib.util.spec_from_file_location("geocode_bench", Path(__file__).with_name("geocode_bench.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found = module.run(data_dir())
    keep = ("cold_open_lookup_ms_p50", "uncached_lookup_ms_p50", "warm_lookup_us_p50", "build_s")
    return {f"geocode_{k}": v for k, v in found.items() if k in keep}


def bench_tools(quick: bool) -> dict:
    """Executor overhead and a cold-weather-cache plan against a local stand-in (bench/tools_bench.py)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("tools_bench", Path(__file__).with_name("tools_bench.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found = module.run(quick)
    return {k: v for k, v in found.items() if k != "weather_requests"}


def run(quick: bool = False) -> dict:
    # --quick: every figure once, as few repetitions as a median needs (issue 34 §5: <= 30 s)
    reps = 3 if quick else 30
    figures = {}
    figures |= asyncio.run(bench_plan(reps))
    figures |= asyncio.run(bench_replan(reps))
    figures |= asyncio.run(bench_verify(2_000 if quick else 10_000))
    figures |= bench_road(reps)
    figures |= bench_road_fresh_home()
    figures |= bench_geocode()
    figures |= bench_tools(quick)
    figures |= bench_process(1 if quick else 5)
    return figures


def main(argv: list[str]) -> int:
    figures = run(quick="--quick" in argv)
    if "--json" in argv:
        print(json.dumps(figures, indent=2))
    else:
        for key, value in figures.items():
            print(f"{key:28} {value}")
    return 0


if __name__ == "__main__":
    from engine.log_setup import configure
    configure(0)  # warnings only, to stderr: a run logs each node and tool call at INFO
    raise SystemExit(main(sys.argv[1:]))
