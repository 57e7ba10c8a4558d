"""City-pack speed and size figures (issue 19, "city packs from OpenStreetMap"):

    .venv/bin/python bench/city_pack_bench.py [--quick] [--json]

Targets, each printed with PASS/FAIL:

1. ``inprocess_plan_p50_ms`` ≤ 100 ms — a cached 3,000-place pack (the synthetic Chicago of
   ``tests/data/osm/synthetic.py``, fetched once from the Overpass stand-in and cached by PackStore)
   plans a 5-day trip through ``PlanningSession`` with the pack joined. Measured in a child process
   of its own so the first (cold) plan is a real first plan: the pack's load and join and the
   cold plan are reported apart, then p50/p95 over plans of different dates (so the node memo
   cannot answer) on the one session, and per fresh session (new session + join + plan).
2. ``process_cached_plan_p50_s`` ≤ 1.5 s — the real ``tripwright plan --prompt "5 days in Chicago
   from 2027-05-10, flying from JFK, budget 4000 USD"`` with the pack cached in its TRIPWRIGHT_HOME,
   ``TRIPWRIGHT_OFFLINE=1``, p50 over several runs after one warm-up run.
3. ``process_first_plan_*_s`` ≤ 3 s — the first plan of a city not yet cached, against a local
   Overpass stand-in (Lisbon's hand-made data; the synthetic Chicago), a new TRIPWRIGHT_HOME each
   run. Two cases: ``fresh_home`` (an empty data dir: the gazetteer is unpacked on first use too;
   its own cost is ``process_gazetteer_install_s``) and ``new_city`` (a data dir that has planned
   before: the gazetteer is there, the city pack is not).
4. ``pack_bytes_per_3000_places`` ≤ 2 MB — the cached ``.json.gz`` of the Chicago pack, scaled to
   3,000 places (its own size and place count are printed too).

Every process's CPU seconds are printed beside its wall time: on a machine shared by many jobs the
wall time also counts waiting for a core. Nothing reaches the internet: the stand-ins listen on
127.0.0.1, the other services point at a closed local port, and the cached-pack runs are offline.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TODAY = "2026-11-26"
CHICAGO_PROMPT = "5 days in Chicago from 2027-05-10, flying from JFK, budget 4000 USD"
LISBON_PROMPT = "4 days in Lisbon from 2027-05-10, flying from JFK, budget 3000 USD"
CHICAGO_SLUG = "chicago_il_us"
CLOSED_LOCAL_PORT = "http://127.0.0.1:9"
TARGETS = {  # figure -> (target, unit)
    "inprocess_plan_p50_ms": (100.0, "ms"),
    "process_cached_plan_p50_s": (1.5, "s"),
    "process_first_plan_lisbon_fresh_home_s": (3.0, "s"),
    "process_first_plan_lisbon_new_city_s": (3.0, "s"),
    "process_first_plan_chicago_fresh_home_s": (3.0, "s"),
    "process_first_plan_chicago_new_city_s": (3.0, "s"),
    "pack_bytes_per_3000_places": (2 * 1024 * 1024, "bytes"),
}


def _exe() -> str:
    return str(Path(sys.executable).with_name("tripwright"))


def _env(home: Path, *, overpass: str | None) -> dict[str, str]:
    """The environment of a measured process: its data dir; online only towards a stand-in."""
    env = {**os.environ, "TRIPWRIGHT_HOME": str(home)}
    for name in ("TRIPWRIGHT_OPEN_METEO_URL", "TRIPWRIGHT_NOMINATIM_URL", "TRIPWRIGHT_ROUTING_URL",
                 "TRIPWRIGHT_OPENWEATHERMAP_URL", "TRIPWRIGHT_WIKIDATA_URL"):
        env[name] = CLOSED_LOCAL_PORT  # anything but the stand-in meets a closed port, never the internet
    env.pop("OPENWEATHERMAP_API_KEY", None)
    if overpass is None:
        env["TRIPWRIGHT_OFFLINE"] = "1"
        env["TRIPWRIGHT_OVERPASS_URL"] = CLOSED_LOCAL_PORT
    else:
        env.pop("TRIPWRIGHT_OFFLINE", None)
        env["TRIPWRIGHT_OVERPASS_URL"] = overpass
    return env


def run_process(argv: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds user + system of the process tree, stdout)."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate()
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[:3])} exited {proc.returncode}: {err.decode().strip()[-800:]}")
    return wall, _children_cpu(), out.decode()


_cpu_seen = 0.0


def _children_cpu() -> float:
    """CPU seconds of the children reaped since the last call (``os.times`` sums every waited child)."""
    global _cpu_seen
    t = os.times()
    total = t.children_user + t.children_system
    spent, _cpu_seen = total - _cpu_seen, total
    return spent


def plan_argv(prompt: str, out: Path) -> list[str]:
    return [_exe(), "plan", "--prompt", prompt, "--today", TODAY, "--out", str(out)]


def p50(values: list[float]) -> float:
    return statistics.median(values)


def p95(values: list[float]) -> float:
    if len(values) >= 20:
        return statistics.quantiles(values, n=20, method="inclusive")[18]
    return max(values)


# -- the stand-ins --------------------------------------------------------------------------------
class StandIns:
    """The Overpass stand-in over the hand-made Lisbon data and over the synthetic 3,000-place city,
    both on 127.0.0.1 in this process (their own answer time is measured apart)."""

    def __init__(self) -> None:
        from tests.data.osm.synthetic import synthetic_city
        from tests.overpass_standin import OverpassStandIn, load_lisbon
        self.lisbon = OverpassStandIn(load_lisbon()).start()
        self.chicago = OverpassStandIn(synthetic_city()).start()

    def stop(self) -> None:
        self.lisbon.stop()
        self.chicago.stop()


def standin_answer_ms(standin, city: str, home: Path) -> float:
    """How long the stand-in itself takes to interpret the client's query for ``city`` (in process)."""
    probe = (f"import json, time; from engine.geocode import default_gazetteer; "
             f"from engine.places.city_spec import resolve_city; from engine.places.fetch import city_box; "
             f"from engine.places.overpass import city_query; "
             f"print(city_query(city_box(resolve_city({city!r}, default_gazetteer()))))")
    env = _env(home, overpass=None)
    ql = subprocess.run([sys.executable, "-c", probe], env=env, cwd=ROOT, capture_output=True, text=True,
                        check=True).stdout
    _children_cpu()
    started = time.perf_counter()
    standin.answer(ql)
    return (time.perf_counter() - started) * 1000


# -- 3: the first plan of a new city, whole process -------------------------------------------------
def first_plans(standins: StandIns, work: Path, reps: int) -> tuple[dict, Path]:
    """Fresh-home and new-city first plans; returns the figures and a data dir holding the cached
    Chicago pack (made by the last fresh-home Chicago run) for the cached-pack figures."""
    figures: dict = {}
    cases = {"lisbon": (standins.lisbon, LISBON_PROMPT), "chicago": (standins.chicago, CHICAGO_PROMPT)}
    seeded = work / "seeded-home"  # a data dir that has planned before: gazetteer installed, no packs
    run_process([sys.executable, "-c", "from engine.geocode import default_gazetteer; default_gazetteer()"],
                {**_env(seeded, overpass=None), "PYTHONPATH": str(ROOT)})
    kept: Path | None = None
    for city, (standin, prompt) in cases.items():
        fresh, fresh_cpu, new, new_cpu = [], [], [], []
        argv = plan_argv(prompt, work / "out.json")
        for i in range(reps):
            home = work / f"fresh-{city}-{i}"
            wall, cpu, _ = run_process(argv, _env(home, overpass=standin.interpreter_url))
            fresh.append(wall)
            fresh_cpu.append(cpu)
            if city == "chicago":
                kept = home
            home = work / f"new-city-{city}-{i}"
            shutil.copytree(seeded, home)
            wall, cpu, _ = run_process(argv, _env(home, overpass=standin.interpreter_url))
            new.append(wall)
            new_cpu.append(cpu)
        figures[f"process_first_plan_{city}_fresh_home_s"] = round(p50(fresh), 3)
        figures[f"process_first_plan_{city}_fresh_home_cpu_s"] = round(p50(fresh_cpu), 3)
        figures[f"process_first_plan_{city}_new_city_s"] = round(p50(new), 3)
        figures[f"process_first_plan_{city}_new_city_cpu_s"] = round(p50(new_cpu), 3)
        figures[f"standin_answer_{city}_ms"] = round(standin_answer_ms(standin, city.title(), seeded), 1)
    installs, install_cpu = [], []
    for i in range(reps):  # what a fresh data dir adds: the gazetteer unpacked on first use
        home = work / f"gazetteer-only-{i}"
        wall, cpu, _ = run_process([sys.executable, "-c", "from engine.geocode import default_gazetteer; "
                                    "default_gazetteer()"], {**_env(home, overpass=None), "PYTHONPATH": str(ROOT)})
        installs.append(wall)
        install_cpu.append(cpu)
    figures["process_gazetteer_install_s"] = round(p50(installs), 3)
    figures["process_gazetteer_install_cpu_s"] = round(p50(install_cpu), 3)
    wall, _, _ = run_process([sys.executable, "-c", "import engine"], {**_env(work / "empty", overpass=None),
                                                                       "PYTHONPATH": str(ROOT)})
    figures["process_python_startup_s"] = round(wall, 3)
    assert kept is not None
    return figures, kept


# -- 2 and 4: the cached pack --------------------------------------------------------------------------
def cached_pack(home: Path, work: Path, reps: int) -> dict:
    path = home / "city-packs" / f"{CHICAGO_SLUG}.json.gz"
    from engine.places.pack_store import PackStore
    pack = PackStore(home).load(CHICAGO_SLUG)
    if pack is None:
        raise RuntimeError(f"no cached pack at {path}")
    if pack.label != "Chicago, IL, US":  # what resolve_city("Chicago", default_gazetteer()) gives
        raise RuntimeError(f"the cached pack is {pack.label}, not Chicago, IL, US")
    size = path.stat().st_size
    figures = {"pack_places": len(pack.places), "pack_bytes": size,
               "pack_bytes_per_3000_places": round(size * 3000 / len(pack.places)),
               "pack_json_bytes": len(pack.model_dump_json().encode())}
    env = _env(home, overpass=None)
    run_process(plan_argv(CHICAGO_PROMPT, work / "out.json"), env)  # warm-up: what a data dir keeps after a run
    runs = [run_process(plan_argv(CHICAGO_PROMPT, work / "out.json"), env) for _ in range(reps)]
    figures["process_cached_plan_p50_s"] = round(p50([r[0] for r in runs]), 3)
    figures["process_cached_plan_cpu_s"] = round(p50([r[1] for r in runs]), 3)
    figures["process_cached_plan_max_s"] = round(max(r[0] for r in runs), 3)
    return figures


# -- 1: in process (a child process of its own, so the first plan is cold) ------------------------------
def in_process(home: Path, reps: int) -> dict:
    env = {**_env(home, overpass=None), "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, __file__, "--child-inprocess", str(reps)], env=env, capture_output=True,
                          text=True)
    _children_cpu()
    if proc.returncode != 0:
        raise RuntimeError(f"in-process child failed: {proc.stderr.strip()[-1500:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def child_inprocess(reps: int) -> dict:
    """Runs in the child: ``TRIPWRIGHT_HOME`` holds the cached Chicago pack; offline."""
    import asyncio
    from datetime import date, timedelta
    started = time.perf_counter()
    from engine.models import IntentV1
    from engine.pipeline.run import PlanningSession
    from engine.places.pack_store import PackStore
    figures = {"inprocess_import_ms": round((time.perf_counter() - started) * 1000, 1)}

    t = time.perf_counter()
    pack = PackStore().load(CHICAGO_SLUG)
    figures["inprocess_pack_load_ms"] = round((time.perf_counter() - t) * 1000, 1)
    today = date.fromisoformat(TODAY)

    def intent(name: str, start: date, airports: list[str]) -> IntentV1:
        return IntentV1.model_validate({
            "city": name, "date_window": {"start": start.isoformat(), "end": (start + timedelta(days=4)).isoformat(),
                                          "tz": pack.tz},
            "budget_usd_cents": 400000, "airports": airports, "origin_airport": "JFK", "prefs": {}})

    def plan(session, name, start):
        result = asyncio.run(session.plan(intent(name, start, [a.iata for a in pack.airports][:2])))
        if result.status != "completed":
            raise RuntimeError(f"plan {start}: {result.status} {result.failure and result.failure.message}")
        return result

    t = time.perf_counter()
    session = PlanningSession(today=today)
    name = session.use_city_pack(pack)
    figures["inprocess_pack_join_ms"] = round((time.perf_counter() - t) * 1000, 1)
    first = date(2027, 5, 10)
    t = time.perf_counter()
    plan(session, name, first)
    figures["inprocess_first_plan_cold_ms"] = round((time.perf_counter() - t) * 1000, 1)

    times = []
    for i in range(reps):  # other dates each time: the session's node memo cannot answer
        t = time.perf_counter()
        plan(session, name, first + timedelta(days=7 * (i + 1)))
        times.append((time.perf_counter() - t) * 1000)
    figures["inprocess_plan_p50_ms"] = round(p50(times), 1)
    figures["inprocess_plan_p95_ms"] = round(p95(times), 1)
    figures["inprocess_plans"] = reps

    fresh = []
    for i in range(max(3, reps // 3)):  # a new session each time: join + plan, as a new run of the CLI does
        t = time.perf_counter()
        s = PlanningSession(today=today)
        plan(s, s.use_city_pack(pack), first + timedelta(days=3 + i))
        fresh.append((time.perf_counter() - t) * 1000)
    figures["inprocess_fresh_session_join_and_plan_p50_ms"] = round(p50(fresh), 1)
    return figures


# -- the report ------------------------------------------------------------------------------------------
def verdicts(figures: dict) -> dict:
    out = {}
    for key, (target, _) in TARGETS.items():
        if key in figures:
            out[key] = {"value": figures[key], "target": target, "pass": figures[key] <= target}
    return out


def run(quick: bool) -> dict:
    reps_process = 2 if quick else 5
    reps_plans = 10 if quick else 40
    figures: dict = {}
    standins = StandIns()
    try:
        with tempfile.TemporaryDirectory(prefix="tw-city-pack-bench-") as tmp:
            work = Path(tmp)
            first, home = first_plans(standins, work, reps_process)
            figures |= first
            figures |= cached_pack(home, work, reps_process)
            figures |= in_process(home, reps_plans)
    finally:
        standins.stop()
    return figures


def _fmt(key: str, value) -> str:
    if key.endswith("_bytes") or key.endswith("_bytes_per_3000_places"):
        return f"{value:,} B ({value / 1024:.0f} KB)"
    return str(value)


def main(argv: list[str]) -> int:
    if "--child-inprocess" in argv:
        print(json.dumps(child_inprocess(int(argv[argv.index("--child-inprocess") + 1]))))
        return 0
    figures = run("--quick" in argv)
    checks = verdicts(figures)
    if "--json" in argv:
        print(json.dumps({"figures": figures, "targets": checks}, indent=2))
    else:
        for key, value in figures.items():
            line = f"{key:48} {_fmt(key, value)}"
            if key in checks:
                target, unit = TARGETS[key]
                shown = f"{target / 1024 / 1024:g} MB" if unit == "bytes" else f"{target:g} {unit}"
                line += f"   target ≤ {shown}  {'PASS' if checks[key]['pass'] else 'FAIL'}"
            print(line)
    return 0 if all(c["pass"] for c in checks.values()) else 1


if __name__ == "__main__":
    from engine.log_setup import configure
    configure(0)  # warnings only, to stderr: a run logs each node and tool call at INFO
    raise SystemExit(main(sys.argv[1:]))
