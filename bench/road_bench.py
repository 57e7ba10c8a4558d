"""Road-trip speed figures (issue 12 §5 and "Speed"):

    .venv/bin/python bench/road_bench.py [--json] [--reps N]

- ``road_seattle_miami_plan_p50_ms``: Seattle → Miami planned in-process (target ≤ 100 ms);
- ``road_process_plan_warm_s``: the real ``tripwright plan`` process, second of two runs on one data
  dir (target ≤ 0.8 s);
- ``road_process_fresh_home_s`` / ``road_process_fresh_home_max_rss_mb``: the real process on an
  empty data dir (``TRIPWRIGHT_HOME`` a new folder: the place index does not exist yet), wall time
  and the largest resident set of the process tree (targets ≤ 2 s, ≤ 800 MB);
- each process also reports its CPU seconds (``*_cpu_s``): on a machine shared by many jobs the wall
  time includes waiting for a core, the CPU time does not.

Every process runs with ``TRIPWRIGHT_OFFLINE=1``: the figures are the engine's, not a network's.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PROMPT = "Seattle to Miami, 10 days from 2027-05-03"


def _exe() -> str:
    return str(Path(sys.executable).with_name("tripwright"))


def run_process(home: Path, out: Path) -> tuple[float, float, float]:
    """One ``tripwright plan`` process: (wall seconds, max RSS of it and its children in MB, CPU
    seconds user + system — on a shared machine the wall time also counts waiting for a core)."""
    env = {**os.environ, "TRIPWRIGHT_HOME": str(home), "TRIPWRIGHT_OFFLINE": "1"}
    started = time.perf_counter()
    proc = subprocess.Popen([_exe(), "plan", "--prompt", PROMPT, "--out", str(out), "--today", "2027-04-01"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    if proc.returncode != 0:
        raise RuntimeError(f"tripwright plan exited {proc.returncode}: {err.strip()}")
    return wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime  # ru_maxrss is in KB on Linux


def bench_fresh_home(reps: int) -> dict:
    walls, rss, cpu = [], [], []
    for _ in range(reps):
        with tempfile.TemporaryDirectory() as tmp:
            home = Path(tmp) / "home"
            wall, mb, seconds = run_process(home, Path(tmp) / "o.json")
            walls.append(wall)
            rss.append(mb)
            cpu.append(seconds)
    return {"road_process_fresh_home_s": round(statistics.median(walls), 3),
            "road_process_fresh_home_cpu_s": round(statistics.median(cpu), 3),
            "road_process_fresh_home_max_rss_mb": round(max(rss), 1)}


def bench_warm(reps: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        run_process(home, Path(tmp) / "o.json")  # the first run builds what a data dir keeps
        runs = [run_process(home, Path(tmp) / "o.json") for _ in range(reps)]
    return {"road_process_plan_warm_s": round(statistics.median(r[0] for r in runs), 3),
            "road_process_plan_warm_cpu_s": round(statistics.median(r[2] for r in runs), 3)}


def bench_in_process(reps: int) -> dict:
    from engine.geocode import default_gazetteer
    from engine.models import RoadTripIntent
    from engine.roadtrip.planner import plan_road_trip

    gazetteer = default_gazetteer()
    plan_road_trip(RoadTripIntent(origin="Seattle", terminus="Miami", days=10, start_date=date(2027, 5, 3)), gazetteer)
    times = []
    for i in range(reps):
        t = time.perf_counter()
        plan_road_trip(RoadTripIntent(origin="Seattle", terminus="Miami", days=9 + i % 5, start_date=date(2027, 5, 3)),
                       gazetteer)
        times.append((time.perf_counter() - t) * 1000)
    return {"road_seattle_miami_plan_p50_ms": round(statistics.median(times), 1)}


def run(reps: int = 3) -> dict:
    figures = bench_fresh_home(reps)
    figures |= bench_warm(reps)
    figures |= bench_in_process(max(5, reps * 3))
    return figures


def main(argv: list[str]) -> int:
    reps = int(argv[argv.index("--reps") + 1]) if "--reps" in argv else 3
    figures = run(reps)
    if "--json" in argv:
        print(json.dumps(figures, indent=2))
    else:
        for key, value in figures.items():
            print(f"{key:38} {value}")
    return 0


if __name__ == "__main__":
    from engine.log_setup import configure
    configure(0)  # warnings only, to stderr: a run logs each node and tool call at INFO
    raise SystemExit(main(sys.argv[1:]))
