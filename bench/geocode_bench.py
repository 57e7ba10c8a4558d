"""Offline gazetteer performance figures:

    .venv/bin/python bench/geocode_bench.py [--home DIR] [--rebuild] [--json]

Without ``--home`` the index is built into a fresh temporary directory (so the build is always
measured). Targets: build < 15 s and < 40 MB; cold lookup (open the existing index + one query in
a fresh process, after imports) ≤ 50 ms; warm (cached) lookup ≤ 1 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.geocode import GazetteerIndex  # noqa: E402

QUERIES = ["Kingman, AZ, USA", "Springfield", "Springfield, MO", "Portland", "Paris, TX", "Paris",
           "Tucumcari", "Needles, CA", "Seligman, AZ", "St. Louis", "Cologne", "Frankfurt, DE",
           "London, UK", "San Jose", "Santa Maria", "Atlantis"]

_COLD = """
import time
t0 = time.perf_counter()
from engine.geocode import GazetteerIndex
import engine.catalog
t1 = time.perf_counter()
g = GazetteerIndex.open({home!r})
r = g.lookup("Kingman, AZ, USA")
t2 = time.perf_counter()
print((t1 - t0) * 1e3, (t2 - t1) * 1e3, int(g.build_stats is not None))
"""


def _p50(samples: list[float]) -> float:
    return statistics.median(samples)


def run(home: Path, rebuild: bool = False) -> dict:
    started = time.perf_counter()
    index = GazetteerIndex.open(home, rebuild=rebuild)
    opened = time.perf_counter() - started
    out: dict = {"index": str(index.path), "bytes": index.path.stat().st_size,
                 "places": int(index.meta["places"]), "names": int(index.meta["names"])}
    if index.build_stats is not None:
        out["build_s"] = round(index.build_stats.seconds, 2)
    else:
        out["open_existing_ms"] = round(opened * 1e3, 2)

    cold_runs = []
    for _ in range(6):
        t = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", _COLD.format(home=str(home))], cwd=ROOT,
                              capture_output=True, text=True, check=True)
        total = time.perf_counter() - t
        imports_ms, cold_ms, rebuilt = done.stdout.split()
        if rebuilt == "1":  # the route fixtures changed meanwhile: that run was a build
            out["rebuilt_during_bench"] = out.get("rebuilt_during_bench", 0) + 1
            continue
        cold_runs.append((float(cold_ms), float(imports_ms), total * 1e3))
        if len(cold_runs) == 3:
            break
    out["cold_open_lookup_ms_p50"] = round(_p50([c for c, _, _ in cold_runs]), 2)
    out["cold_imports_ms_p50"] = round(_p50([i for _, i, _ in cold_runs]), 1)
    out["cold_process_ms_p50"] = round(_p50([p for _, _, p in cold_runs]), 1)

    uncached = []
    for _ in range(20):
        for q in QUERIES:
            index.cache_clear()
            t = time.perf_counter()
            index.lookup(q, limit=25)
            uncached.append(time.perf_counter() - t)
    out["uncached_lookup_ms_p50"] = round(_p50(uncached) * 1e3, 3)
    out["uncached_lookup_ms_max"] = round(max(uncached) * 1e3, 3)

    warm = []
    for q in QUERIES:
        index.lookup(q, limit=25)
    for _ in range(200):
        for q in QUERIES:
            t = time.perf_counter()
            index.lookup(q, limit=25)
            warm.append(time.perf_counter() - t)
    out["warm_lookup_us_p50"] = round(_p50(warm) * 1e6, 1)
    index.close()
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, help="data dir holding the index (default: a temp dir)")
    parser.add_argument("--rebuild", action="store_true", help="rebuild even when the index is current")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    if args.home is None:
        with tempfile.TemporaryDirectory(prefix="tripwright-geocode-") as tmp:
            result = run(Path(tmp), rebuild=args.rebuild)
    else:
        result = run(args.home, rebuild=args.rebuild)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            print(f"{key:28} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
