"""One huge tile in a remote PMTiles archive (issue 35 §2: a 190 MB tile under the 200 MB cap
peaked at 459 MB): the download's peak RSS above the process's baseline, through the same calls
the app makes (plan_area → download_area) against the range server on 127.0.0.1.

    .venv/bin/python bench/offline_tile_bench.py [--mb 190]

The archive is built and served by this process; the download runs in a child whose peak RSS is
printed (the tile itself must pass through the pmtiles writer once, so ~1× its size is the floor).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHILD = r"""
import asyncio, json, resource, sys, time
from pathlib import Path
from engine.maps.offline_area import RangeReader, new_client, plan_area, trip_bbox
from engine.maps.offline_download import download_area
TRIP = [(48.855, 2.340), (48.860, 2.350)]

def rss_mb():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS")) / 1024

async def main(url, dest):
    async with new_client() as client:
        reader = RangeReader(url, client)
        plan = await plan_area(reader, trip_bbox(TRIP))
        await download_area(plan, reader, Path(dest), cap_mb=200)

base = rss_mb()
started = time.perf_counter()
asyncio.run(main(sys.argv[1], sys.argv[2]))
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"baseline_mb": round(base), "peak_mb": round(peak), "above_baseline_mb": round(peak - base),
                  "seconds": round(time.perf_counter() - started, 1), "file_mb": round(Path(sys.argv[2]).stat().st_size / 2**20)}))
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=190.0)
    opts = parser.parse_args()
    os.environ.pop("TRIPWRIGHT_OFFLINE", None)
    from tests.engine.range_server import RangeServer
    from tests.engine.test_offline_archive_bounds import archive_with_a_huge_tile
    with tempfile.TemporaryDirectory() as tmp:
        archive_with_a_huge_tile(Path(tmp) / "huge.pmtiles", int(opts.mb * 1_000_000))
        server = RangeServer(Path(tmp) / "huge.pmtiles")
        try:
            done = subprocess.run([sys.executable, "-c", CHILD, server.url, str(Path(tmp) / "copy.pmtiles")],
                                  capture_output=True, text=True, timeout=3600,
                                  env=os.environ | {"PYTHONPATH": os.pathsep.join(
                                      p for p in (os.environ.get("PYTHONPATH"), str(ROOT)) if p)})
        finally:
            server.stop()
    if done.returncode != 0:
        raise SystemExit(done.stderr.strip().splitlines()[-1])
    print(json.dumps({"tile_mb": opts.mb, **json.loads(done.stdout.strip().splitlines()[-1])}))


if __name__ == "__main__":
    main()
