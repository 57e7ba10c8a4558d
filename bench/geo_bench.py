"""Great-circle distance: the inline haversine of engine/geo.py against the libraries that could
replace it (issue 30 §4 asks to prefer a library where one does the job):

    .venv/bin/python bench/geo_bench.py [--json]

Figures, microseconds per pair (best of 5 runs of 20,000 pairs): ``geo.distance_m`` (inline
haversine, what the planners call), ``pyproj.Geod.inv`` (WGS84 geodesic), ``geopy``'s
``great_circle`` and ``geodesic``; and per element over a numpy array of 20,000 points
(``geo.haversine_rad``, what road trips call) against ``Geod.inv`` on the same arrays. A city plan
measures thousands of transit legs and a road trip tens of thousands of stop/bed distances, so a
library several times slower is kept off those paths (see engine/geo.py's docstring).
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.geo import EARTH_RADIUS_KM, EARTH_RADIUS_MILES, distance_m, haversine_rad  # noqa: E402

PAIRS = 20_000
RUNS = 5


def _best(fn) -> float:
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times) / PAIRS * 1e6


def main() -> None:
    from geopy.distance import geodesic, great_circle
    from pyproj import Geod

    rng = random.Random(7)
    pts = [(rng.uniform(35, 50), rng.uniform(-10, 20), rng.uniform(35, 50), rng.uniform(-10, 20))
           for _ in range(PAIRS)]
    geod = Geod(ellps="WGS84")
    figures = {
        "inline_haversine_us": _best(lambda: [distance_m(a, b, c, d) for a, b, c, d in pts]),
        "pyproj_geod_inv_us": _best(lambda: [geod.inv(b, a, d, c)[2] for a, b, c, d in pts]),
        "geopy_great_circle_us": _best(lambda: [great_circle((a, b), (c, d), radius=EARTH_RADIUS_KM).m
                                                for a, b, c, d in pts]),
        "geopy_geodesic_us": _best(lambda: [geodesic((a, b), (c, d)).m for a, b, c, d in pts[: PAIRS // 10]]) * 10,
    }
    arr = np.array(pts)
    rad = np.radians(arr)
    figures["numpy_haversine_per_point_us"] = _best(
        lambda: haversine_rad(rad[:, 0], rad[:, 1], rad[:, 2], rad[:, 3], EARTH_RADIUS_MILES))
    figures["pyproj_geod_inv_array_per_point_us"] = _best(
        lambda: geod.inv(arr[:, 1], arr[:, 0], arr[:, 3], arr[:, 2]))
    a, b, c, d = pts[0]
    figures["max_rel_diff_vs_geopy_great_circle"] = max(
        abs(distance_m(a, b, c, d) - great_circle((a, b), (c, d), radius=EARTH_RADIUS_KM).m) / max(1.0, distance_m(a, b, c, d))
        for a, b, c, d in pts[:2000])
    if "--json" in sys.argv:
        print(json.dumps(figures, indent=1))
        return
    for name, value in figures.items():
        print(f"{name:40s} {value:.4g}")


if __name__ == "__main__":
    main()
