"""Where a drive is scenic, from data shipped with the app: the coast.

A town is coastal when the sea lies within a few miles of it: one of eight points around it falls
outside every country of the Natural Earth 1:50m layer the map already ships
(``resources/basemap/countries.geojson``). A round trip's loop prefers a coastal side ("see the
coast one way"); the OpenStreetMap sights along the corridor then come from that coast.
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

import numpy as np
import shapely
from pyproj import Geod

COUNTRIES = Path(__file__).resolve().parents[2] / "resources" / "basemap" / "countries.geojson"
COAST_PROBE_MILES = 12.0
_MILES_PER_DEG_LAT = 69.0


_GEOD = Geod(ellps="WGS84")
MAINLAND_SQ_DEG = 8.0  # a landmass this large (Ireland, Great Britain, continents) is driven across
MAINLAND_MARGIN_DEG = 5.0


class LandTree(shapely.STRtree):
    """An STR tree over land polygons that keeps them prepared (GEOS's indexed point-in-polygon):
    a tree query with ``predicate="intersects"`` tests each point against the unprepared polygon,
    every vertex of the 6,800 of a merged North America per point — Seattle → Miami asked ~700
    lines of up to 1,000 samples, 9 s; prepared, the same answers in milliseconds."""

    def __init__(self, parts) -> None:
        self.parts = np.asarray(parts, dtype=object)
        shapely.prepare(self.parts)
        super().__init__(self.parts)


@lru_cache(maxsize=1)
def _land():
    """The countries' polygon parts as one STR tree (built once, ~30 ms)."""
    collection = shapely.from_geojson(COUNTRIES.read_text(encoding="utf-8"))  # ~30 ms, GEOS's own reader
    parts = list(shapely.get_parts(shapely.get_parts(collection)))
    return LandTree(parts), parts


def mainland_near(lats, lons, margin: float = MAINLAND_MARGIN_DEG):
    """The landmasses around the points (an STR tree), countries merged across their borders,
    islands under :data:`MAINLAND_SQ_DEG` left out: Corsica between Barcelona and Rome is no road,
    Jutland is. Build it once for a search over many legs (``land=`` below)."""
    tree, parts = _land()
    m = margin
    near = tree.query(shapely.box(min(lons) - m, min(lats) - m, max(lons) + m, max(lats) + m))
    return _mainland_of(tuple(sorted(int(i) for i in near)))


@lru_cache(maxsize=32)
def _mainland_of(indices: tuple[int, ...]):
    _, parts = _land()
    merged = shapely.union_all(shapely.buffer([parts[i] for i in indices], 0.01))
    big = [p for p in shapely.get_parts(merged) if p.area >= MAINLAND_SQ_DEG]
    return LandTree(big)


def any_land():
    """Every country's every part, islands too (an STR tree for ``land=``)."""
    return _land()[0]


def land_mask(lats, lons, *, land=None) -> np.ndarray:
    """True where each point lies on land — any land, or the ``land`` tree's (:func:`mainland_near`)
    — vectorised: one tree query for all of them."""
    tree = land if land is not None else _land()[0]
    points = shapely.points(np.asarray(lons, dtype=float), np.asarray(lats, dtype=float))
    mask = np.zeros(len(points), dtype=bool)
    if not isinstance(tree, LandTree):
        mask[tree.query(points, predicate="intersects")[0]] = True
        return mask
    at, part = tree.query(points)  # the candidates by bounding box, then the prepared polygons decide
    if len(at):
        mask[at[shapely.intersects(tree.parts[part], points[at])]] = True
    return mask


def on_land(lat: float, lon: float) -> bool:
    return bool(land_mask([lat], [lon])[0])


def coastal(lat: float, lon: float, probe_miles: float = COAST_PROBE_MILES) -> bool:
    """True when the sea is within ``probe_miles`` of the point (one of eight probes is at sea)."""
    dlat = probe_miles / _MILES_PER_DEG_LAT
    dlon = probe_miles / max(1.0, _MILES_PER_DEG_LAT * math.cos(math.radians(lat)))
    for k in range(8):
        a = math.radians(45 * k)
        if not on_land(lat + dlat * math.cos(a), lon + dlon * math.sin(a)):
            return True
    return False


SEA_STEP_MILES = 3.0
COARSE_MILES = 6.0
FERRY_MILES = 40.0  # a longer stretch of open sea on the straight line needs a ferry (bays and estuaries are bridged)


def _samples(a: tuple[float, float], b: tuple[float, float], step_miles: float) -> np.ndarray:
    """(lon, lat) of points every ``step_miles`` on the geodesic from ``a`` to ``b``, ends included."""
    from engine.geocode.trust import geodesic_miles
    steps = max(1, int(geodesic_miles(a, b) / step_miles))
    inner = _GEOD.npts(a[1], a[0], b[1], b[0], steps - 1) if steps > 1 else []
    return np.array([(a[1], a[0]), *inner, (b[1], b[0])], dtype=float)


def _land_runs(a, b, step_miles: float, land) -> tuple[np.ndarray, np.ndarray, float]:
    """The samples, the indices of those on land (both ends counted as land: the trip's own
    places, even where the generalised coast puts them in the sea) and the miles between samples."""
    from engine.geocode.trust import geodesic_miles
    xy = _samples(a, b, step_miles)
    tree = land if land is not None else mainland_near([a[0], b[0]], [a[1], b[1]])
    mask = land_mask(xy[:, 1], xy[:, 0], land=tree)
    mask[0] = mask[-1] = True
    return xy, np.flatnonzero(mask), geodesic_miles(a, b) / max(1, len(xy) - 1)


def sea_crossing(a: tuple[float, float], b: tuple[float, float], step_miles: float = SEA_STEP_MILES,
                 land=None) -> tuple[float, tuple[float, float] | None]:
    """The longest run of sea between two stretches of land on the straight line from ``a`` to
    ``b`` ((lat, lon)), sampled every few miles, and the point in its middle: (0, None) over land
    (and lakes, which the countries layer counts as land). ``land``: the tree to test against —
    the mainland round the two points by default (:func:`mainland_near`), or :func:`any_land`."""
    xy, on_land_at, each = _land_runs(a, b, step_miles, land)
    gaps = np.diff(on_land_at)
    if len(gaps) == 0 or gaps.max() <= 1:
        return 0.0, None
    k = int(np.argmax(gaps))
    lo, hi = on_land_at[k], on_land_at[k + 1]
    mid = xy[(lo + hi) // 2]
    return float((hi - lo - 1) * each), (float(mid[1]), float(mid[0]))


def crossing_shores(a: tuple[float, float], b: tuple[float, float], step_miles: float = SEA_STEP_MILES,
                    land=None) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The last land before and the first land after the longest sea crossing from ``a`` to ``b``."""
    xy, on_land_at, _ = _land_runs(a, b, step_miles, land)
    gaps = np.diff(on_land_at)
    if len(gaps) == 0 or gaps.max() <= 1:
        return None
    k = int(np.argmax(gaps))
    before, after = xy[on_land_at[k]], xy[on_land_at[k + 1]]
    return (float(before[1]), float(before[0])), (float(after[1]), float(after[0]))


def needs_ferry(a: tuple[float, float], b: tuple[float, float], land=None) -> bool:
    """More open sea than :data:`FERRY_MILES` on the straight line: dry over any land (islands
    too) settles it cheaply; only a wet line is asked again of the mainland."""
    if sea_crossing(a, b, COARSE_MILES, any_land())[0] <= FERRY_MILES:
        return False
    return sea_crossing(a, b, land=land)[0] > FERRY_MILES
