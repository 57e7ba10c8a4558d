"""A multi-city trip's train asked of the transit router (issue 33 §2) through the real
``tripwright`` executable: the MOTIS stand-in on 127.0.0.1 (``motis_standin.py``: JR Central's
Nozomi, Tokyo → Kyoto, 2 h 15 every ten minutes) answers, Kyoto's places come from the Overpass
stand-in (tests/data/osm/kyoto.json). The saved itinerary's leg says ``source="router"`` with the
timetable's stations and times, its citation names the router, and ``tripwright verify`` is clean;
offline, nothing is asked and the leg is the labelled estimate."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from tests.overpass_standin import OverpassStandIn

from .motis_standin import PLAN_PATH, MotisStandIn

EXE = Path(sys.executable).with_name("tripwright")
KYOTO_OSM = Path(__file__).resolve().parents[1] / "data" / "osm" / "kyoto.json"
PROMPT = "3 nights in Tokyo then 2 nights in Kyoto by train from 2027-04-12, flying from LAX, budget 6000 USD"


@pytest.fixture(scope="module")
def servers():
    motis = MotisStandIn().start()
    overpass = OverpassStandIn(elements=json.loads(KYOTO_OSM.read_text(encoding="utf-8"))).start()
    yield motis, overpass
    motis.stop()
    overpass.stop()


@pytest.fixture(scope="module")
def tw(servers, tmp_path_factory):
    motis, overpass = servers
    home = tmp_path_factory.mktemp("home")

    def run(*args: str, offline: bool = False) -> subprocess.CompletedProcess:
        env = dict(os.environ, TRIPWRIGHT_HOME=str(home), TRIPWRIGHT_OVERPASS_URL=overpass.interpreter_url,
                   TRIPWRIGHT_TRANSIT_URL=motis.url)
        env.pop("TRIPWRIGHT_OFFLINE", None)
        env.pop("TRIPWRIGHT_ROUTING_URL", None)
        if offline:
            env["TRIPWRIGHT_OFFLINE"] = "1"
        return subprocess.run([str(EXE), *args], capture_output=True, text=True, env=env, timeout=180)

    fetched = run("cities", "fetch", "Kyoto")
    assert fetched.returncode == 0, fetched.stderr
    return run


def asked(motis: MotisStandIn) -> list:
    return [s for s in motis.seen if s.path == PLAN_PATH]


def test_the_plan_takes_the_timetables_train_and_verifies_clean(tw, servers, tmp_path) -> None:
    motis, _ = servers
    before = len(asked(motis))
    out = tmp_path / "tokyo_kyoto.json"
    done = tw("plan", "--prompt", PROMPT, "--today", "2026-12-08", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "(router)" in done.stdout and "Transitous" in done.stdout
    saved = json.loads(out.read_text())
    [leg] = saved["legs"]
    assert (leg["mode"], leg["source"]) == ("train", "router")
    assert (leg["from_name"], leg["to_name"], leg["operator"], leg["number"]) == ("Tokyo", "Kyoto", "JR Central",
                                                                                 "Nozomi")
    departure, arrival = (datetime.fromisoformat(leg[k]) for k in ("departure", "arrival"))
    assert departure.minute % 10 == 0 and (arrival - departure).total_seconds() == 135 * 60  # a Nozomi's run
    assert "times from the timetable (Transitous: Nozomi Tokyo" in leg["why"]
    row = next(a for d in saved["days"] for a in d["activities"] if a.get("role") == "leg")
    assert row["start"] == leg["departure"] and row["end"] == leg["arrival"]
    cited = [c for c in saved["citations"] if c["provenance"]["tool"] == "transit_router"]
    assert len(cited) == 1 and cited[0]["provenance"]["data_source"] == "real"
    assert "timetable from the transit router" in cited[0]["claim"]
    assert len(asked(motis)) > before  # the stand-in was really asked
    verified = tw("verify", str(out))
    assert verified.returncode == 0 and "0 blocking" in verified.stdout, verified.stdout + verified.stderr


def test_offline_the_leg_is_the_estimate_and_nobody_is_asked(tw, servers, tmp_path) -> None:
    motis, overpass = servers
    before, pages = len(asked(motis)), len(overpass.seen)
    out = tmp_path / "offline.json"
    done = tw("plan", "--prompt", PROMPT, "--today", "2026-12-08", "--out", str(out), offline=True)
    assert done.returncode == 0, done.stderr
    [leg] = json.loads(out.read_text())["legs"]
    assert (leg["mode"], leg["source"]) == ("train", "estimated")
    assert (len(asked(motis)), len(overpass.seen)) == (before, pages)
    assert tw("verify", str(out), offline=True).returncode == 0
