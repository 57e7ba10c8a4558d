"""Road trips with OpenStreetMap sights and beds (issue 20 targets), printing numbers:

    .venv/bin/python bench/road_osm_bench.py [--json]

* a 14-day New York → San Francisco trip planned in-process from cached corridor chunks (≤ 300 ms),
  with the chunks already read this process (warm) and read from disk (cold);
* its first online plan against a local Overpass stand-in serving a synthetic dense corridor
  (queries asked, seconds);
* the Denver → Salt Lake City trip as a whole ``tripwright plan`` process, first online plan
  against the stand-in with the tests' Colorado–Utah data (≤ 3 s), on a fresh data dir;
* first runs on a fresh data dir (nothing cached, the gazetteer installed by the run) of a round
  trip from home (Denver, a loop) and a land route (Tampa → New Orleans, bent round the Gulf),
  each a whole ``tripwright plan`` process online against a stand-in serving a synthetic corridor:
  seconds, Overpass queries, and the planner node's and the corridor node's own times.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
TARGETS = {"coast_to_coast_cached_warm_ms": 300.0, "coast_to_coast_cached_cold_ms": 300.0,
           "denver_slc_first_online_process_s": 3.0}
TODAY = date(2026, 11, 23)


def _plan(intent, gazetteer):
    from engine.pipeline import PlanningSession
    result = asyncio.run(PlanningSession(today=TODAY, geocoder=gazetteer).plan(intent))
    if result.status != "completed":
        raise RuntimeError(result.failure.message)
    return result


def coast_to_coast(figures: dict) -> None:
    from engine.geocode import GazetteerIndex
    from engine.models import RoadTripIntent
    from engine.places import corridor as chunks
    from engine.roadtrip.corridor import DirectCorridor
    from tests.data.osm.synthetic import synthetic_corridor
    from tests.overpass_standin import OverpassStandIn

    line = DirectCorridor((40.7128, -74.0060), (37.7749, -122.4194))
    elements = synthetic_corridor([line.point_at(line.length_miles() * k / 200) for k in range(201)])
    server = OverpassStandIn(elements=elements).start()
    os.environ.pop("TRIPWRIGHT_OFFLINE", None)
    os.environ.update(TRIPWRIGHT_OVERPASS_URL=server.interpreter_url, TRIPWRIGHT_OPEN_METEO_URL="http://127.0.0.1:9")
    gazetteer = GazetteerIndex.open(os.environ["TRIPWRIGHT_HOME"])
    intent = RoadTripIntent(origin="New York", terminus="San Francisco", days=14, start_date=date(2027, 5, 3))
    try:
        began = time.perf_counter()
        _plan(intent, gazetteer)
        figures["coast_to_coast_first_online_s"] = round(time.perf_counter() - began, 2)
        figures["coast_to_coast_queries"] = len(server.seen)
        figures["coast_to_coast_elements"] = len(elements)
    finally:
        server.stop()
    os.environ["TRIPWRIGHT_OFFLINE"] = "1"
    for label, cold in (("cold", True), ("warm", False)):
        runs = []
        for _ in range(5):
            if cold:
                chunks._read_chunk.cache_clear()
                chunks._ASSEMBLED.clear()
            began = time.perf_counter()
            _plan(intent, gazetteer)
            runs.append((time.perf_counter() - began) * 1000)
        figures[f"coast_to_coast_cached_{label}_ms"] = round(statistics.median(runs), 1)


def denver_slc_process(figures: dict) -> None:
    from tests.overpass_standin import OverpassStandIn
    data = json.loads((REPO / "tests" / "data" / "osm" / "colorado_utah.json").read_text(encoding="utf-8"))
    server = OverpassStandIn(elements=data).start()
    exe = Path(sys.executable).with_name("tripwright")
    try:
        with tempfile.TemporaryDirectory(prefix="tripwright-road-osm-") as home:
            from tests.engine.test_road_osm import denver_to_salt_lake  # the tests' I-70/US-6 track
            request = Path(home) / "road.json"
            request.write_text(denver_to_salt_lake().model_dump_json())
            env = dict(os.environ, TRIPWRIGHT_HOME=home, TRIPWRIGHT_OVERPASS_URL=server.interpreter_url,
                       TRIPWRIGHT_OPEN_METEO_URL="http://127.0.0.1:9")
            env.pop("TRIPWRIGHT_OFFLINE", None)
            began = time.perf_counter()
            done = subprocess.run([str(exe), "plan", "--intent", str(request), "--today", TODAY.isoformat()],
                                  capture_output=True, text=True, env=env, timeout=120)
            figures["denver_slc_first_online_process_s"] = round(time.perf_counter() - began, 2)
            figures["denver_slc_queries"] = len(server.seen)
            if done.returncode != 0:
                raise RuntimeError(done.stderr.strip().splitlines()[-1])
    finally:
        server.stop()


FIRST_RUNS = {  # label: (prompt, points the synthetic corridor is drawn through)
    "loop_denver": ("Round trip from Denver, 5 days from 2027-05-03",
                    [(39.7392, -104.9903), (38.8339, -104.8214), (38.2544, -104.6091), (37.2753, -107.8801),
                     (38.5733, -109.5498), (39.0639, -108.5506), (39.5501, -105.7821)]),
    "land_tampa_new_orleans": ("Tampa to New Orleans, 3 days from 2027-05-03",
                               [(27.9506, -82.4572), (29.6516, -82.3248), (30.4383, -84.2807), (30.6954, -88.0399),
                                (29.9511, -90.0715)]),
}


def first_runs(figures: dict) -> None:
    """Each trip planned once by the CLI on a fresh data dir, online against the stand-in."""
    from tests.data.osm.synthetic import synthetic_corridor
    from tests.overpass_standin import OverpassStandIn
    exe = Path(sys.executable).with_name("tripwright")
    for label, (prompt, points) in FIRST_RUNS.items():
        dense = [(a[0] + (b[0] - a[0]) * k / 20, a[1] + (b[1] - a[1]) * k / 20)
                 for a, b in zip(points, points[1:]) for k in range(20)]
        server = OverpassStandIn(elements=synthetic_corridor(dense)).start()
        try:
            with tempfile.TemporaryDirectory(prefix="tripwright-first-run-") as home:
                events = Path(home) / "events.jsonl"
                env = dict(os.environ, TRIPWRIGHT_HOME=home, TRIPWRIGHT_OVERPASS_URL=server.interpreter_url,
                           TRIPWRIGHT_OPEN_METEO_URL="http://127.0.0.1:9", TRIPWRIGHT_NOMINATIM_URL="http://127.0.0.1:9")
                env.pop("TRIPWRIGHT_OFFLINE", None)
                env.pop("TRIPWRIGHT_ROUTING_URL", None)
                began = time.perf_counter()
                done = subprocess.run([str(exe), "plan", "--prompt", prompt, "--today", TODAY.isoformat(),
                                       "--events", str(events)], capture_output=True, text=True, env=env, timeout=300)
                figures[f"{label}_first_run_process_s"] = round(time.perf_counter() - began, 2)
                if done.returncode != 0:
                    raise RuntimeError(f"{label}: {done.stderr.strip().splitlines()[-1]}")
                figures[f"{label}_first_run_queries"] = len(server.seen)
                for node in ("corridor_sights", "planner"):
                    figures[f"{label}_first_run_{node}_ms"] = _node_ms(events, node)
        finally:
            server.stop()


def _node_ms(events: Path, node: str) -> int | None:
    for line in events.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        if event.get("node") == node and event.get("status") == "completed":
            return event.get("duration_ms")
    return None


def main(argv: list[str]) -> int:
    figures: dict = {"load_average_1min": round(os.getloadavg()[0], 2)}
    kept = {k: os.environ.get(k) for k in ("TRIPWRIGHT_HOME", "TRIPWRIGHT_OFFLINE", "TRIPWRIGHT_OVERPASS_URL")}
    home = tempfile.mkdtemp(prefix="tripwright-road-osm-bench-")
    os.environ["TRIPWRIGHT_HOME"] = home
    try:
        coast_to_coast(figures)
        denver_slc_process(figures)
        first_runs(figures)
    finally:
        shutil.rmtree(home, ignore_errors=True)
        for key, value in kept.items():
            os.environ.pop(key, None) if value is None else os.environ.__setitem__(key, value)
    met = {key: figures[key] <= limit for key, limit in TARGETS.items()}
    if "--json" in argv:
        print(json.dumps({"figures": figures, "targets": TARGETS, "met": met}, indent=2))
    else:
        for key, value in figures.items():
            target = f"  (target ≤ {TARGETS[key]:g}: {'ok' if met[key] else 'MISSED'})" if key in TARGETS else ""
            print(f"{key:52} {value}{target}")
    return 0


if __name__ == "__main__":
    from engine.log_setup import configure
    configure(0)  # warnings only, to stderr: a run logs each node and tool call at INFO
    sys.exit(main(sys.argv[1:]))
