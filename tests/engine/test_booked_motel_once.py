"""Issue 32 §3: a booked motel is the night, not a sight too. Route 66 with the Blue Swallow Motel
booked (a Route 66 landmark itself) listed it twice on the Tucumcari day: "Overnight in Tucumcari,
NM: Blue Swallow Motel" and, a minute later, "Blue Swallow Motel" as a sight. Planned by the
``tripwright`` executable from the booking e-mail; the itinerary read back as JSON and re-verified."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from engine.roadtrip.itinerary import is_the_bed
from engine.roadtrip.plan import Bed, RoadStop

EXE = Path(sys.executable).with_name("tripwright")
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
PROMPT = "LA to Chicago via Route 66, 7 days from 2027-05-03"


def tw(*args: str, home: Path) -> subprocess.CompletedProcess:
    env = os.environ | {"TRIPWRIGHT_HOME": str(home), "TRIPWRIGHT_OFFLINE": "1"}
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=300, env=env)


def test_the_booked_motel_is_the_night_and_not_a_sight_again(tmp_path) -> None:
    out, home = tmp_path / "trip.json", tmp_path / "home"
    done = tw("plan", "--prompt", PROMPT, "--bookings", str(EXAMPLES / "blue-swallow.eml"), "--today", "2026-11-23",
              "--out", str(out), home=home)
    assert done.returncode == 0, done.stderr
    itinerary = json.loads(out.read_text(encoding="utf-8"))
    named = [(day["date"], a) for day in itinerary["days"] for a in day["activities"] if "Blue Swallow" in a["name"]]
    assert [(when, a["role"]) for when, a in named] == [("2027-05-05", "checkin")]
    night = named[0][1]
    assert night["name"] == "Overnight in Tucumcari, NM: Blue Swallow Motel" and night["locked"]
    assert "1939 motor court in Tucumcari with a famous neon sign" in night["notes"]  # the sight's words kept, once
    assert "BSW20418" in night["notes"]
    sights = [a for day in itinerary["days"] for a in day["activities"] if a["role"] == "activity"]
    assert len(sights) >= 2 * len(itinerary["days"]) - 1  # the other sights are all still there
    verified = tw("verify", str(out), home=home)
    assert verified.returncode == 0, verified.stdout + verified.stderr


def stop(name: str, lat: float, lon: float) -> RoadStop:
    return RoadStop(id=name.lower().replace(" ", "_"), name=name, lat=lat, lon=lon, kind="landmark", start_min=600,
                    end_min=630, progress_miles=0.0, offset_miles=0.0, en_route=False)


def test_only_the_same_place_by_name_and_position_is_the_bed() -> None:
    bed = Bed(name="Blue Swallow Motel", lat=35.171866, lon=-103.716421, kind="booked", price_usd_cents=12900)
    assert is_the_bed(stop("Blue Swallow Motel", 35.1718, -103.7182), bed)
    assert is_the_bed(stop("Blue Swallow", 35.1718, -103.7182), bed)  # the shorter name, all its words
    assert not is_the_bed(stop("Blue Swallow Motel", 35.30, -103.7182), bed)  # 9 mi off: another place
    assert not is_the_bed(stop("Tucumcari Historical Museum", 35.1718, -103.7182), bed)
    assert not is_the_bed(stop("Motel", 35.1718, -103.7182), bed)  # one word in common is not a name
    assert not is_the_bed(stop("Blue Swallow Motel", 35.1718, -103.7182), None)
