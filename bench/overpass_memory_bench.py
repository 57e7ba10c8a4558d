"""An Overpass answer under the 48 MB body cap, fetched as a city pack through the real client
and fetch path (issue 35 §3: 18 MB → 618 MB, 46 MB → 1,455 MB held; the bound is ≤ 300 MB above
the process's baseline). A child process per size: the answer is served by the Overpass stand-in
on 127.0.0.1 — Lisbon's hand-made places plus tens of thousands of extra sights, food and beds,
written as Overpass writes them (indented, every element with a dozen tags) — and its peak RSS
above the RSS it had before the fetch is printed, with the pack's counts.

    .venv/bin/python bench/overpass_memory_bench.py [--mb 18 36 46] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import asyncio, json, os, random, resource, sys, tempfile, time
from engine.geocode import default_gazetteer
from engine.places.city_spec import resolve_city
from engine.places.fetch import PackFetcher, city_box
from engine.places.pack_store import PackStore
from engine.tools.executor import ToolExecutor
from engine.net.network import NetworkState
from tests.overpass_standin import OverpassStandIn, Reply, load_lisbon

def rss_mb():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS")) / 1024

mb = float(sys.argv[1])
spec = resolve_city("Lisbon", default_gazetteer())
box = city_box(spec)
r = random.Random(3)
kinds = [{"tourism": "attraction"}, {"amenity": "restaurant", "cuisine": "portuguese"}, {"tourism": "hotel", "stars": "3"}]
parts, size, n = [], 0, 0
for e in load_lisbon():
    parts.append(json.dumps(e, indent=2, ensure_ascii=False))
while size < mb * 2**20:
    tags = {"name": f"Lugar {n} Alfama", "addr:street": "Rua da Conceição", "addr:housenumber": str(n % 300),
            "addr:postcode": "1100-152", "addr:city": "Lisboa", "website": f"https://example.pt/{n}",
            "opening_hours": "Mo-Sa 10:00-19:00" if n % 2 else "", "wheelchair": "limited",
            "source": "survey", "check_date": "2025-09-14", "description": "Um lugar " + "á" * (n % 40)}
    tags.update(kinds[n % 3])
    e = {"type": "node", "id": 7_000_000 + n, "lat": round(r.uniform(box.south, box.north), 7),
         "lon": round(r.uniform(box.west, box.east), 7), "tags": {k: v for k, v in tags.items() if v}}
    text = json.dumps(e, indent=2, ensure_ascii=False)
    parts.append(text)
    size += len(text.encode()) + 2
    n += 1
body = ('{\n  "version": 0.6,\n  "generator": "Overpass API",\n  "osm3s": {"timestamp_osm_base": "2026-11-20T10:00:00Z"},\n'
        '  "elements": [\n' + ",\n".join(parts) + "\n  ]\n}\n").encode()
del parts
server = OverpassStandIn(elements=load_lisbon()).start()
os.environ.pop("TRIPWRIGHT_OFFLINE", None)
os.environ["TRIPWRIGHT_OVERPASS_URL"] = server.interpreter_url
os.environ["TRIPWRIGHT_OVERPASS_TIMEOUT_S"] = "600"
server.then(Reply(body=body))
body_mb = len(body) / 2**20
import gc; gc.collect()
base = rss_mb()
resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
started = time.perf_counter()
with tempfile.TemporaryDirectory() as home:
    outcome = asyncio.run(PackFetcher(PackStore(Path(home)), NetworkState(), ToolExecutor()).ensure(spec))
took = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
server.stop()
pack = outcome.pack
print(json.dumps({"answer_mb": round(body_mb, 1), "extra_elements": n, "baseline_mb": round(base), "peak_mb": round(peak),
                  "above_baseline_mb": round(peak - base), "seconds": round(took, 1), "pack_places": pack.counts(),
                  "dropped": pack.dropped}))
""".replace("Path(home)", "__import__('pathlib').Path(home)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, nargs="*", default=[18.0, 36.0, 46.0])
    parser.add_argument("--json", action="store_true")
    opts = parser.parse_args()
    rows = []
    for mb in opts.mb:
        env = os.environ | {"PYTHONPATH": os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(ROOT)) if p)}
        done = subprocess.run([sys.executable, "-c", CHILD, str(mb)], capture_output=True, text=True, env=env,
                              timeout=3600)
        if done.returncode != 0:
            rows.append({"answer_mb": mb, "failed": done.stderr.strip().splitlines()[-1:]})
            continue
        rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
    if opts.json:
        print(json.dumps(rows, indent=2))
        return
    for row in rows:
        print(row)


if __name__ == "__main__":
    main()
