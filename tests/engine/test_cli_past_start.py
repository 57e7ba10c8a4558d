"""Issue 32 §3: a trip starting before today is refused by the ``tripwright`` executable — a city
or road trip, from a prompt or an intent file — with exit 2 and one line, nothing written; ``--today``
earlier than the start plans it (prices, hours and exchange rates are read as of that day)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXE = Path(sys.executable).with_name("tripwright")
TODAY = "2026-11-23"
PAST_CITY = {"city": "Paris", "date_window": {"start": "2026-06-08", "end": "2026-06-12", "tz": "Europe/Paris"},
             "budget_usd_cents": 400000, "airports": ["CDG", "ORY"], "origin_airport": "JFK"}
PAST_ROAD = {"mode": "road_trip", "origin": "Los Angeles", "terminus": "Chicago", "days": 7,
             "start_date": "2026-05-03", "route": "Route 66"}


def tw(*args: str, home: Path) -> subprocess.CompletedProcess:
    env = os.environ | {"TRIPWRIGHT_HOME": str(home), "TRIPWRIGHT_OFFLINE": "1"}
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=180, env=env)


def _inputs(tmp_path: Path) -> dict[str, list[str]]:
    city, road = tmp_path / "city.json", tmp_path / "road.json"
    city.write_text(json.dumps(PAST_CITY), encoding="utf-8")
    road.write_text(json.dumps(PAST_ROAD), encoding="utf-8")
    return {"city prompt": ["--prompt", "5 days in Paris from 2026-06-08, flying from JFK, budget 4000 USD"],
            "road prompt": ["--prompt", "LA to Chicago via Route 66, 7 days from 2026-05-03"],
            "city intent": ["--intent", str(city)], "road intent": ["--intent", str(road)]}


@pytest.mark.parametrize("case", ["city prompt", "road prompt", "city intent", "road intent"])
def test_a_start_before_today_is_refused_in_one_line(case, tmp_path) -> None:
    out = tmp_path / "trip.json"
    done = tw("plan", *_inputs(tmp_path)[case], "--today", TODAY, "--out", str(out), home=tmp_path / "home")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    start = "2026-06-08" if "city" in case else "2026-05-03"
    assert lines[0] == f"tripwright: start: the trip starts {start}, before today ({TODAY}); plan a trip from today on"
    assert not out.exists() and done.stdout == ""


def test_an_earlier_today_plans_the_same_trip(tmp_path) -> None:
    out = tmp_path / "trip.json"
    done = tw("plan", *_inputs(tmp_path)["city intent"], "--today", "2026-05-01", "--out", str(out),
              home=tmp_path / "home")
    assert done.returncode == 0, done.stderr
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["days"][0]["date"] == "2026-06-08" and document["planning_date"] == "2026-05-01"
