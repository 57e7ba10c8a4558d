"""Booked trains as facts of a multi-city trip through the front door (issue 33 §2): ``plan
--bookings`` and ``bookings import FILE --trip ID`` read train and bus tickets and put them on the
leg of their day; a ticket on no leg is one line saying why; the rest is planned. Through the real
``tripwright`` executable, offline after one fetch of each city from the Overpass stand-in on
127.0.0.1: Lisbon from tests/data/osm/lisbon.json (real OSM extracts), Porto a synthetic city
(tests/data/osm/synthetic.py) around its centre — the places are not what is tested here. The
tickets are tests/data/bookings' CP Alfa Pendular AP 123, Lisboa Santa Apolónia 09:00 → Porto
Campanhã 11:48 (the 09:00 AP CP added in 2018, at the 2 h 48 CP announced for December 2024), as a
CP e-mail with schema.org markup and as a Trainline calendar file with a bus to Porto airport."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.data.osm.synthetic import synthetic_city
from tests.overpass_standin import OverpassStandIn, load_lisbon

EXE = Path(sys.executable).with_name("tripwright")
ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "bookings"
PORTO = (41.1579, -8.6291)  # Avenida dos Aliados
PROMPT = "3 nights in Lisbon then 2 nights in Porto by train from 2027-05-10, flying from JFK, budget 6000 USD"
TODAY = "2026-12-08"


@pytest.fixture(scope="module")
def tw(tmp_path_factory):
    server = OverpassStandIn(elements=load_lisbon() + synthetic_city(center=PORTO, count=400)).start()
    home = tmp_path_factory.mktemp("home")

    def run(*args: str) -> subprocess.CompletedProcess:
        env = dict(os.environ, TRIPWRIGHT_HOME=str(home), TRIPWRIGHT_OVERPASS_URL=server.interpreter_url,
                   TRIPWRIGHT_OFFLINE="1")
        env.pop("TRIPWRIGHT_TRANSIT_URL", None)
        return subprocess.run([str(EXE), *args], capture_output=True, text=True, env=env, timeout=180)

    for city in ("Lisbon", "Porto"):
        env = dict(os.environ, TRIPWRIGHT_HOME=str(home), TRIPWRIGHT_OVERPASS_URL=server.interpreter_url)
        env.pop("TRIPWRIGHT_OFFLINE", None)
        fetched = subprocess.run([str(EXE), "cities", "fetch", city], capture_output=True, text=True, env=env,
                                 timeout=180)
        assert fetched.returncode == 0, fetched.stderr
    yield run
    server.stop()


def said(done: subprocess.CompletedProcess) -> list[str]:
    return [line for line in done.stderr.splitlines() if line.startswith("tripwright:")]


def the_leg(path: Path) -> dict:
    [leg] = json.loads(path.read_text())["legs"]
    return leg


def test_plan_with_a_calendar_files_train_plans_around_it_and_says_the_bus_is_on_no_leg(tw, tmp_path) -> None:
    out = tmp_path / "booked.json"
    done = tw("plan", "--prompt", PROMPT, "--today", TODAY, "--bookings", str(DATA / "trainline_lisboa_porto.ics"),
              "--out", str(out))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert said(done) == ["tripwright: not placed: bus 601 Porto Campanhã→Porto Airport 2027-05-15 08:00 [TL•••••]: "
                          "no leg that day (the trip changes city on Thu 13 May)"]
    leg = the_leg(out)
    assert (leg["mode"], leg["source"], leg["number"]) == ("train", "booked", "AP 123")
    assert (leg["from_name"], leg["to_name"]) == ("Lisboa Santa Apolónia", "Porto Campanhã")
    assert (leg["departure"], leg["arrival"]) == ("2027-05-13T09:00:00+01:00", "2027-05-13T11:48:00+01:00")
    assert "(booked)" in done.stdout
    assert tw("verify", str(out)).returncode == 0


def test_a_tickets_import_into_a_saved_trip_is_its_next_version_listed_and_deleted(tw, tmp_path) -> None:
    saved = tw("plan", "--prompt", PROMPT, "--today", TODAY, "--save", "--name", "Lisbon and Porto")
    assert saved.returncode == 0, saved.stderr
    trip = (saved.stdout + saved.stderr).split("of trip ")[1].split()[0]
    out = tmp_path / "v2.json"
    done = tw("bookings", "import", str(DATA / "cp_alfa_lisboa_porto.eml"), "--trip", trip, "--today", TODAY,
              "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert f"saved as version 2 of trip {trip}" in done.stdout + done.stderr
    assert not [line for line in said(done) if "not placed" in line]
    assert (the_leg(out)["source"], the_leg(out)["departure"]) == ("booked", "2027-05-13T09:00:00+01:00")
    assert tw("verify", str(out)).returncode == 0
    listed = tw("bookings", "list", "--trip", trip).stdout.splitlines()
    assert listed[0].startswith("  1  train   CP - Comboios de Portugal AP 123  Lisboa Santa Apolónia→Porto Campanhã  "
                                "2027-05-13 09:00 → 2027-05-13 11:48  confirmation CP")
    assert listed[-1] == f"1 booking(s) in version 2 of trip {trip}"
    again = tw("bookings", "import", str(DATA / "cp_alfa_lisboa_porto.eml"), "--trip", trip, "--today", TODAY)
    assert again.returncode == 0 and "nothing new" in again.stderr
    out3 = tmp_path / "v3.json"
    deleted = tw("bookings", "delete", "1", "--trip", trip, "--today", TODAY, "--out", str(out3))
    assert deleted.returncode == 0, deleted.stderr
    assert the_leg(out3)["source"] == "estimated"


def test_a_hotel_on_no_stays_nights_is_one_line_and_nothing_is_saved(tw, tmp_path) -> None:
    out = tmp_path / "never.json"
    done = tw("plan", "--prompt", PROMPT, "--today", TODAY, "--bookings", str(ROOT / "docs" / "examples" /
                                                                             "blue-swallow.eml"), "--out", str(out))
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "is on no stay's nights; a stay's hotel books all its nights" in done.stderr
    assert not out.exists()
