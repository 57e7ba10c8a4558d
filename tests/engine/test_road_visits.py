"""Places to visit on a road trip without a night there (``RoadTripIntent.visits``, what "Add a
stop here ▸ Visit on the way" sends), through the real ``tripwright`` executable: the walk is on
the day whose drive passes the place, the nights stay, and ``verify`` re-derives the file clean."""

from __future__ import annotations

import json
import os
import subprocess

from tests.engine.test_cli import EXE, TODAY

ROUTE66 = {"mode": "road_trip", "origin": "Los Angeles", "terminus": "Chicago", "days": 7,
           "start_date": "2027-05-03", "route": "Route 66"}


def tripwright(*args: str) -> subprocess.CompletedProcess:
    env = os.environ | {"TRIPWRIGHT_OFFLINE": "1"}
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=180, env=env)


def plan(tmp_path, name: str, intent: dict):
    source, out = tmp_path / f"{name}.json", tmp_path / f"{name}-itinerary.json"
    source.write_text(json.dumps(intent))
    return tripwright("plan", "--intent", str(source), "--out", str(out), "--today", TODAY), out


def test_a_visit_is_a_walk_on_the_day_that_passes_it_and_the_nights_stay(tmp_path):
    done, plain = plan(tmp_path, "plain", ROUTE66)
    assert done.returncode == 0, done.stderr
    done, visited = plan(tmp_path, "visit", ROUTE66 | {"visits": ["Amarillo, TX"]})
    assert done.returncode == 0, done.stderr
    before, after = json.loads(plain.read_text()), json.loads(visited.read_text())
    nights = [[d["anchor"]["name"] for d in it["days"]] for it in (before, after)]
    assert nights[0] == nights[1] and "Amarillo, TX" not in nights[1]
    walks = [(k, a) for k, d in enumerate(after["days"]) for a in d["activities"] if a["name"] == "Walk in Amarillo"]
    assert len(walks) == 1
    day, walk = walks[0]
    west = after["days"][day - 1]["anchor"]["geo"]["lon"] if day else -118.24
    assert west < walk["geo"]["lon"] < after["days"][day]["anchor"]["geo"]["lon"]  # Route 66 runs west to east
    checked = tripwright("verify", str(visited))
    assert checked.returncode == 0 and "0 blocking" in checked.stdout, checked.stdout + checked.stderr


def test_a_town_walk_on_a_named_route_verifies(tmp_path):
    """Twelve days on Route 66 leave some days without a point of interest: the planner walks a
    route town instead, and ``verify`` takes it as the town it is (not a missing POI)."""
    done, out = plan(tmp_path, "slow", ROUTE66 | {"days": 12})
    assert done.returncode == 0, done.stderr
    refs = [a.get("ref") or "" for d in json.loads(out.read_text())["days"] for a in d["activities"]]
    assert any(ref.startswith("visit_") for ref in refs)
    checked = tripwright("verify", str(out))
    assert checked.returncode == 0 and "0 blocking" in checked.stdout, checked.stdout + checked.stderr


def test_a_visit_nowhere_near_the_route_is_one_line_naming_the_field(tmp_path):
    done, out = plan(tmp_path, "nowhere", ROUTE66 | {"visits": ["Nowhereville, ZZ"]})
    assert done.returncode == 2 and not out.exists()
    assert done.stderr.strip().splitlines() == ["tripwright: visits[0]: could not find 'Nowhereville, ZZ' near Route 66"]

