"""The North Coast 500: a named loop from Inverness back to Inverness (issue 12 §3). The fixture's
towns lie on its line in the order the road meets them; every trip length that fits the cap plans
once round the loop, keeps the seed 000 invariants and passes ``tripwright verify``."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from engine.models import RoadTripIntent
from engine.roadtrip.detours import day_points, detour_miles
from engine.roadtrip.invariants import verify_road_plan
from engine.roadtrip.planner import plan_road_trip
from engine.roadtrip.routes import find_route
from engine.verify import blocking

EXE = Path(sys.executable).with_name("tripwright")
CLOCKWISE = ["Inverness", "Dingwall", "Applecross", "Torridon", "Gairloch", "Ullapool", "Lochinver", "Durness",
             "Tongue", "Thurso", "John o' Groats", "Wick", "Dornoch"]


def test_the_loop_meets_its_towns_in_order_and_every_town_and_sight_is_on_it() -> None:
    route = find_route("NC500")
    assert route.is_loop and route.name == "North Coast 500"
    first, last = route.polyline[0], route.polyline[-1]
    assert first == last  # closed
    on_line = {t.town.name: t for t in route.towns_in_corridor(1.0)}
    assert set(on_line) == {t.name for t in route.towns}
    progress = [on_line[name].progress_miles for name in CLOCKWISE]
    assert progress == sorted(progress) and progress[0] == 0.0
    assert all(p.offset_miles <= 2.0 for p in route.pois_in_corridor(50)) and len(route.pois) >= 10
    assert 400 < route.length_miles() < 516 and route.raw.driven_length_miles == 516


@pytest.mark.parametrize("days", [2, 3, 5, 7, 10])
def test_every_length_plans_once_round_the_loop_keeping_the_invariants(days) -> None:
    intent = RoadTripIntent(origin="Inverness", terminus="Inverness", days=days, start_date=date(2027, 6, 1),
                            trip_type="round_trip", route="North Coast 500")
    plan = plan_road_trip(intent)
    assert blocking(verify_road_plan(plan)) == []
    assert plan.days[-1].anchor.name == "Inverness" and plan.days[0].start.name == "Inverness"
    progress = [d.anchor_progress for d in plan.days]
    assert progress == sorted(progress) and progress[-1] == pytest.approx(find_route("NC500").length_miles())
    # the loop's driven length, plus what leaving it for the day's stops and nights adds (issue 20 §3)
    detours = [detour_miles(plan.corridor, day_points(d.start.point, d.stops, d.anchor.point, d.start_progress))
               for d in plan.days]
    assert sum(d.drive_miles for d in plan.days) == pytest.approx(516 + sum(detours), abs=1)
    assert all(x < 25 for x in detours)  # its sights lie by the road
    assert all(d.anchor.name != "Inverness" for d in plan.days[:-1])


def test_one_day_round_the_loop_is_exit_2_naming_the_days() -> None:
    done = subprocess.run([str(EXE), "plan", "--prompt", "North Coast 500, 1 day from 2027-06-01"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "days" in done.stderr and "Traceback" not in done.stderr


def test_the_cli_plans_north_coast_500_in_5_days_and_verify_agrees(tmp_path) -> None:
    out = tmp_path / "nc500.json"
    done = subprocess.run([str(EXE), "plan", "--prompt", "North Coast 500, 5 days from 2027-06-01", "--out", str(out),
                           "--gpx", str(tmp_path / "nc500.gpx")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    itinerary = json.loads(out.read_text())
    anchors = [d["anchor"]["name"] for d in itinerary["days"]]
    assert len(anchors) == 5 and anchors[-1].startswith("Inverness")
    assert itinerary["days"][0]["drive"]["from_name"].startswith("Inverness")
    assert all(d["drive"]["miles"] <= 400 for d in itinerary["days"])
    checked = subprocess.run([str(EXE), "verify", str(out)], capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr
