"""engine/geo.py (issue 30 §4): one Earth radius and one great-circle distance for every caller,
one bounding box for Overpass queries and offline map areas."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from geopy.distance import great_circle

from engine.geo import (EARTH_RADIUS_KM, EARTH_RADIUS_M, EARTH_RADIUS_MILES, BBox, distance_km, distance_m,
                        haversine_m, haversine_rad)
from engine.maps.offline_area import tiles_in, trip_bbox
from engine.models import Geo
from engine.places.overpass import city_query

ROOT = Path(__file__).resolve().parents[2]
PARIS, LONDON = (48.8566, 2.3522), (51.5074, -0.1278)


def test_one_radius_in_three_units():
    assert EARTH_RADIUS_KM * 1000 == EARTH_RADIUS_M
    assert EARTH_RADIUS_MILES * 1609.344 == pytest.approx(EARTH_RADIUS_M, rel=1e-15)


def test_distances_agree_with_geopy_on_the_same_sphere():
    expected = great_circle(PARIS, LONDON, radius=EARTH_RADIUS_KM)
    assert distance_m(*PARIS, *LONDON) == pytest.approx(expected.m, rel=1e-12)
    assert distance_km(*PARIS, *LONDON) == pytest.approx(expected.km, rel=1e-12)
    assert haversine_m(Geo(lat=PARIS[0], lon=PARIS[1]), Geo(lat=LONDON[0], lon=LONDON[1])) == distance_m(*PARIS, *LONDON)
    assert 340_000 < distance_m(*PARIS, *LONDON) < 345_000


def test_the_numpy_form_matches_the_scalar_one_and_broadcasts():
    lats = np.radians([PARIS[0], LONDON[0], 40.7128])
    lons = np.radians([PARIS[1], LONDON[1], -74.0060])
    miles = haversine_rad(lats[0], lons[0], lats, lons)
    assert miles.shape == (3,) and miles[0] == 0.0
    assert miles[1] * 1609.344 == pytest.approx(distance_m(*PARIS, *LONDON), rel=1e-12)
    metres = haversine_rad(lats[:, None], lons[:, None], lats[None, :], lons[None, :], EARTH_RADIUS_M)
    assert metres.shape == (3, 3) and np.allclose(metres, metres.T)


def test_antipodes_and_rounding_stay_finite():
    assert distance_m(0.0, 0.0, 0.0, 180.0) == pytest.approx(math.pi * EARTH_RADIUS_M)
    assert distance_m(10.0, 20.0, 10.0, 20.0) == 0.0


_FORMULA = re.compile(r"\b(asin|arcsin)\(|6_?371|3958\.")


def test_no_module_keeps_its_own_haversine_or_earth_radius():
    found = sorted(p.relative_to(ROOT).as_posix() for folder in ("engine", "app", "widgets")
                   for p in (ROOT / folder).rglob("*.py") if _FORMULA.search(p.read_text(encoding="utf-8")))
    assert found == ["engine/geo.py"]


# -- the bounding box -----------------------------------------------------------------------------
def test_the_box_round_trips_both_former_orders():
    swne = (41.7, -87.85, 42.05, -87.45)  # Overpass's order (south, west, north, east)
    wsen = (-87.85, 41.7, -87.45, 42.05)  # PMTiles' and GeoJSON's (west, south, east, north)
    a, b = BBox.from_swne(*swne), BBox.from_wsen(*wsen)
    assert a == b == BBox(south=41.7, west=-87.85, north=42.05, east=-87.45)
    assert a.swne() == swne and a.wsen() == wsen
    assert BBox.from_swne(*a.swne()) == BBox.from_wsen(*a.wsen()) == a
    assert hash(a) == hash(b)  # frozen: usable as a dict key (corridor query boxes)


def test_the_box_speaks_overpass_and_traveller():
    box = BBox.from_swne(38.7, -9.2, 38.8, -9.1)
    assert box.ql() == "38.70000,-9.20000,38.80000,-9.10000"
    assert f"[bbox:{box.ql()}]" in city_query(box)
    assert box.label() == "38.700,-9.200 – 38.800,-9.100"
    assert box.contains(38.75, -9.15) and not box.contains(38.75, -9.25)


def test_an_offline_area_is_the_same_box():
    box = trip_bbox([PARIS, (48.86, 2.35)])
    assert isinstance(box, BBox) and box.south < PARIS[0] < box.north and box.west < PARIS[1] < box.east
    assert list(tiles_in(box, 0)) == [(0, 0)]


def test_there_is_one_bounding_box_class():
    found = sorted(p.relative_to(ROOT).as_posix() for folder in ("engine", "app", "widgets")
                   for p in (ROOT / folder).rglob("*.py")
                   if re.search(r"^class B[Bb]ox\b", p.read_text(encoding="utf-8"), re.M))
    assert found == ["engine/geo.py"]
