"""Issue 12 §3: GPX fit for devices, through the real ``tripwright`` executable — per day a route
of at most 50 points and a timed track of at most 500, a Lodging waypoint per overnight stop,
optionally one file per day; valid against the GPX 1.1 XSD, read back by gpxpy and gpsbabel."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import gpxpy
import pytest

from engine.export.gpx_export import MAX_TRACK_POINTS, simplified

EXE = Path(sys.executable).with_name("tripwright")
XSD = Path(__file__).resolve().parents[1] / "data" / "reference" / "gpx-1.1.xsd"
TODAY = "2026-11-23"


def tw(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=180,
                          env={**__import__("os").environ, "TRIPWRIGHT_OFFLINE": "1"})


@pytest.fixture(scope="module")
def planned(tmp_path_factory) -> tuple[Path, Path, dict]:
    folder = tmp_path_factory.mktemp("gpx")
    intent = folder / "road.json"
    intent.write_text(json.dumps({"mode": "road_trip", "origin": "Los Angeles", "terminus": "Chicago", "days": 7,
                                  "start_date": "2027-05-03", "route": "Route 66"}))
    out, gpx = folder / "road.json.out", folder / "road.gpx"
    done = tw("plan", "--intent", str(intent), "--out", str(out), "--gpx", str(gpx), "--today", TODAY)
    assert done.returncode == 0, done.stderr
    return out, gpx, json.loads(out.read_text())


def test_each_day_has_a_short_route_and_a_timed_track(planned) -> None:
    _, gpx, itin = planned
    parsed = gpxpy.parse(gpx.read_text())
    assert len(parsed.routes) == len(parsed.tracks) == len(itin["days"]) == 7
    assert all(0 < len(r.points) <= 50 for r in parsed.routes)
    for track in parsed.tracks:
        points = [p for s in track.segments for p in s.points]
        assert 10 < len(points) <= 500
        times = [p.time for p in points]
        assert all(t is not None for t in times) and times == sorted(times) and times[0] < times[-1]


def test_every_overnight_stop_is_a_lodging_waypoint(planned) -> None:
    _, gpx, itin = planned
    parsed = gpxpy.parse(gpx.read_text())
    lodging = [w for w in parsed.waypoints if w.symbol == "Lodging"]
    nights = [a for d in itin["days"] for a in d["activities"] if a["role"] == "checkin"]
    assert len(lodging) == len(nights) == 6
    assert [w.name for w in lodging] == [a["name"] for a in nights]


def test_the_track_keeps_its_shape_when_simplified() -> None:
    import math

    from shapely.geometry import LineString, Point
    curve = [(35 + 0.5 * math.sin(k / 150), -110 + k / 500) for k in range(5000)]
    out = simplified(curve, MAX_TRACK_POINTS)
    assert MAX_TRACK_POINTS // 2 < len(out) <= MAX_TRACK_POINTS and out[0] == curve[0] and out[-1] == curve[-1]
    line = LineString([(lon, lat) for lat, lon in out])
    assert max(line.distance(Point(lon, lat)) for lat, lon in curve[::50]) < 0.01  # degrees: well under a mile


def test_one_file_per_day_next_to_the_trip(planned, tmp_path) -> None:
    out, _, _ = planned
    target = tmp_path / "trip.gpx"
    done = tw("export", str(out), "--gpx", str(target), "--gpx-per-day")
    assert done.returncode == 0, done.stderr
    days = sorted(tmp_path.glob("trip-day-*.gpx"))
    assert [p.name[:10] for p in days] == [f"trip-day-{n:02d}"[:10] for n in range(1, 8)]
    for path in days:
        parsed = gpxpy.parse(path.read_text())
        assert len(parsed.tracks) == len(parsed.routes) == 1


def test_per_day_without_a_gpx_file_is_exit_2(planned, tmp_path) -> None:
    out, _, _ = planned
    done = tw("export", str(out), "--ics", str(tmp_path / "x.ics"), "--gpx-per-day")
    assert done.returncode == 2 and "--gpx-per-day" in done.stderr and not (tmp_path / "x.ics").exists()


def test_valid_against_the_gpx_xsd(planned, tmp_path) -> None:
    from lxml import etree
    schema = etree.XMLSchema(etree.parse(str(XSD)))
    out, gpx, _ = planned
    tw("export", str(out), "--gpx", str(tmp_path / "t.gpx"), "--gpx-per-day")
    for path in [gpx, *tmp_path.glob("t-day-*.gpx")]:
        schema.assertValid(etree.parse(str(path)))


def test_gpsbabel_reads_it_back(planned, tmp_path) -> None:
    babel = shutil.which("gpsbabel")
    if babel is None:
        pytest.skip("gpsbabel is not installed")
    _, gpx, _ = planned
    back = tmp_path / "back.gpx"
    done = subprocess.run([babel, "-w", "-r", "-t", "-i", "gpx", "-f", str(gpx), "-o", "gpx", "-F", str(back)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    parsed = gpxpy.parse(back.read_text())
    assert len(parsed.routes) == 7 and len(parsed.tracks) == 7
    assert sum(1 for w in parsed.waypoints if w.symbol == "Lodging") == 6
