"""Issue 12 §3: ``plan --route-file TRACK.gpx|.kml`` — the track becomes the corridor, like a named
route (progress, offset, towns near it), through the real ``tripwright`` executable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import gpxpy.gpx
import pytest

from engine.roadtrip.corridor import TrackCorridor

EXE = Path(sys.executable).with_name("tripwright")
TODAY = "2026-11-23"
# Denver → Salt Lake City by Grand Junction (I-70, US-6): not the straight line through Wyoming.
TRACK = [(39.7392, -104.9903), (39.65, -105.6), (39.64, -106.37), (39.55, -107.32), (39.06, -108.55),
         (38.99, -110.16), (39.6, -110.81), (40.23, -111.66), (40.7608, -111.891)]
PROMPT = "Denver to Salt Lake City, 3 days from 2027-05-03"


def tw(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=180,
                          env={**os.environ, "TRIPWRIGHT_OFFLINE": "1"})


def _gpx(path: Path, points, *, as_route: bool = False) -> Path:
    doc = gpxpy.gpx.GPX()
    if as_route:
        route = gpxpy.gpx.GPXRoute()
        route.points.extend(gpxpy.gpx.GPXRoutePoint(a, b) for a, b in points)
        doc.routes.append(route)
    else:
        track, seg = gpxpy.gpx.GPXTrack(), gpxpy.gpx.GPXTrackSegment()
        seg.points.extend(gpxpy.gpx.GPXTrackPoint(a, b) for a, b in points)
        track.segments.append(seg)
        doc.tracks.append(track)
    path.write_text(doc.to_xml())
    return path


def _kml(path: Path, points) -> Path:
    coords = " ".join(f"{lon},{lat},0" for lat, lon in points)
    path.write_text('<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark>'
                    f"<LineString><coordinates>{coords}</coordinates></LineString></Placemark></Document></kml>")
    return path


@pytest.mark.parametrize("kind", ["gpx", "gpx-route", "kml"])
def test_an_imported_track_is_the_corridor(tmp_path, kind) -> None:
    f = (_kml(tmp_path / "i70.kml", TRACK) if kind == "kml"
         else _gpx(tmp_path / "i70.gpx", TRACK, as_route=kind == "gpx-route"))
    out = tmp_path / "plan.json"
    done = tw("plan", "--prompt", PROMPT, "--route-file", str(f), "--out", str(out), "--today", TODAY)
    assert done.returncode == 0, done.stderr
    itin = json.loads(out.read_text())
    assert itin["intent"]["route_track_name"] == "i70" and len(itin["intent"]["route_track"]) == len(TRACK)
    corridor = TrackCorridor(TRACK)
    nights = [d["anchor"]["geo"] for d in itin["days"]]
    assert all(corridor.offset_miles(g["lat"], g["lon"]) <= 50 for g in nights)
    progress = [corridor.progress_miles(g["lat"], g["lon"]) for g in nights]
    assert progress == sorted(progress)
    # The straight line runs through Wyoming; the track's first night is in the Colorado mountains.
    assert nights[0]["lat"] < 40.2 and -109.5 < nights[0]["lon"] < -105.5
    assert tw("verify", str(out)).returncode == 0


def test_a_reversed_track_is_driven_the_way_of_the_trip(tmp_path) -> None:
    f = _gpx(tmp_path / "back.gpx", TRACK[::-1])
    out = tmp_path / "plan.json"
    done = tw("plan", "--prompt", PROMPT, "--route-file", str(f), "--out", str(out), "--today", TODAY)
    assert done.returncode == 0, done.stderr
    days = json.loads(out.read_text())["days"]
    assert days[-1]["anchor"]["name"].startswith("Salt Lake City")


@pytest.mark.parametrize("name, body", [
    ("missing.gpx", None),
    ("track.txt", "hello"),
    ("bad.gpx", "<gpx><trk>"),
    ("one.gpx", "one point"),
    ("entity.kml", '<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY x "boom">]><kml>&x;</kml>'),
    ("bad.kml", '<kml xmlns="http://www.opengis.net/kml/2.2"><LineString><coordinates>a,b</coordinates>'
                "</LineString></kml>"),
])
def test_an_unusable_route_file_is_exit_2_naming_it(tmp_path, name, body) -> None:
    f = tmp_path / name
    if body == "one point":
        _gpx(f, TRACK[:1])
    elif body is not None:
        f.write_text(body)
    out = tmp_path / "never.json"
    done = tw("plan", "--prompt", PROMPT, "--route-file", str(f), "--out", str(out), "--today", TODAY)
    assert done.returncode == 2, done.stderr
    assert "route_file" in done.stderr and done.stderr.count("\n") == 1 and not out.exists()


def _zigzag_along(points, n: int, amplitude: float = 0.01) -> list[tuple[float, float]]:
    """``n`` points along ``points``, each other one pushed ``amplitude`` degrees north: the worst
    case of Douglas–Peucker."""
    out = []
    for k in range(n):
        t = k / (n - 1) * (len(points) - 1)
        i = min(int(t), len(points) - 2)
        (a_lat, a_lon), (b_lat, b_lon) = points[i], points[i + 1]
        f = t - i
        out.append((a_lat + (b_lat - a_lat) * f + amplitude * (k % 2), a_lon + (b_lon - a_lon) * f))
    return out


READ_IN_A_CHILD = ("import sys; from engine.roadtrip.route_file import read_route_file; "
                   "print(len(read_route_file(sys.argv[1])))")


def test_a_200000_point_zigzag_kml_is_read_without_crashing_the_process(tmp_path) -> None:
    """Issue 25 §1: shapely's simplify crashed with SIGSEGV on this file (3.6 MB, under the size
    cap); run in a child so a crash is a failed test, not a dead test run."""
    f = _kml(tmp_path / "zigzag.kml", _zigzag_along(TRACK, 200_000))
    done = subprocess.run([sys.executable, "-c", READ_IN_A_CHILD, str(f)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, (done.returncode, done.stderr[-400:])
    assert 2 <= int(done.stdout) <= 2000


def test_a_zigzag_track_file_plans_through_the_cli(tmp_path) -> None:
    f = _kml(tmp_path / "zigzag.kml", _zigzag_along(TRACK, 100_000, amplitude=0.002))
    out = tmp_path / "plan.json"
    done = tw("plan", "--prompt", PROMPT, "--route-file", str(f), "--out", str(out), "--today", TODAY)
    assert done.returncode == 0, done.stderr
    track = json.loads(out.read_text())["intent"]["route_track"]
    assert 2 <= len(track) <= 2000 and track[0] == pytest.approx(list(TRACK[0]))
