"""``tripwright cities`` and ``plan`` of a city no fixture covers, through the real executable
against the Overpass stand-in on 127.0.0.1 (SPEC_DECISIONS §3: "Any city")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.places import overpass
from tests.overpass_standin import OverpassStandIn, Reply, load_lisbon

EXE = Path(sys.executable).with_name("tripwright")
PROMPT = "4 days in Lisbon from 2027-05-10, flying from JFK, budget 3000 USD"


@pytest.fixture()
def standin():
    server = OverpassStandIn(elements=load_lisbon()).start()
    yield server
    server.stop()


@pytest.fixture()
def tw(standin, tmp_path):
    def run(*args: str, offline: bool = False) -> subprocess.CompletedProcess:
        env = dict(os.environ, TRIPWRIGHT_HOME=str(tmp_path / "home"), TRIPWRIGHT_OVERPASS_URL=standin.interpreter_url,
                   TRIPWRIGHT_OVERPASS_TIMEOUT_S="2")
        env.pop("TRIPWRIGHT_OFFLINE", None)
        if offline:
            env["TRIPWRIGHT_OFFLINE"] = "1"
        return subprocess.run([str(EXE), *args], capture_output=True, text=True, env=env, timeout=120)
    return run


def one_line_error(done: subprocess.CompletedProcess) -> str:
    lines = done.stderr.strip().splitlines()
    assert "Traceback" not in done.stderr and len(lines) == 1, done.stderr
    return lines[0]


def test_fetch_list_plan_offline_and_delete(tw, standin, tmp_path) -> None:
    fetched = tw("cities", "fetch", "Lisbon")
    assert fetched.returncode == 0, fetched.stderr
    assert fetched.stdout.startswith("Lisbon, PT: ") and "sights" in fetched.stdout
    assert "Asking OpenStreetMap" in fetched.stderr  # the fetch's progress, on stderr
    listed = tw("cities", "list")
    assert listed.returncode == 0 and "lisbon_pt\tLisbon, PT\t" in listed.stdout
    out = tmp_path / "lisbon.json"
    planned = tw("plan", "--prompt", PROMPT, "--today", "2026-11-26", "--out", str(out), offline=True)
    assert planned.returncode == 0, planned.stderr
    itinerary = json.loads(out.read_text())
    assert itinerary["intent"]["city"] == "Lisbon" and itinerary["intent"]["airports"] == ["LIS"]
    assert len(standin.seen) == 2  # the fetch's places and map; the offline plan asked nobody
    assert tw("verify", str(out), offline=True).returncode == 0
    deleted = tw("cities", "delete", "Lisbon")
    assert deleted.returncode == 0 and "deleted Lisbon, PT" in deleted.stdout
    assert "no cached city packs" in tw("cities", "list").stdout


def test_plan_fetches_a_new_city_when_online(tw, standin, tmp_path) -> None:
    out = tmp_path / "lisbon.json"
    planned = tw("-v", "plan", "--prompt", PROMPT, "--today", "2026-11-26", "--out", str(out))
    assert planned.returncode == 0, planned.stderr
    assert "Lisbon, PT:" in planned.stderr and "places to eat" in planned.stderr  # -v: the fetch's steps
    days = json.loads(out.read_text())["days"]
    sources = {a["provenance"]["data_source"] for d in days for a in d["activities"] if a["kind"] == "attraction"}
    assert sources == {"osm"}


def test_offline_with_no_pack_is_one_line_naming_the_city(tw, tmp_path) -> None:
    out = tmp_path / "never.json"
    done = tw("plan", "--prompt", PROMPT, "--today", "2026-11-26", "--out", str(out), offline=True)
    assert done.returncode == 2
    line = one_line_error(done)
    assert "Lisbon, PT needs one online fetch" in line and "cities fetch" in line
    assert not out.exists()


def test_ambiguous_city_lists_the_candidates(tw) -> None:
    done = tw("plan", "--prompt", "4 days in Córdoba from 2027-05-10, flying from JFK, budget 3000 USD",
              "--today", "2026-11-26")
    assert done.returncode == 2
    line = one_line_error(done)
    assert "Córdoba, AR" in line and "Córdoba, ES" in line


def test_an_unusable_overpass_fails_in_one_bounded_line_and_writes_nothing(tw, standin, tmp_path) -> None:
    standin.then(Reply(status=429), Reply(status=429))
    out = tmp_path / "never.json"
    started = time.monotonic()
    done = tw("plan", "--prompt", PROMPT, "--today", "2026-11-26", "--out", str(out))
    assert done.returncode == 3 and time.monotonic() - started < 30
    assert "overpass unavailable: rate limited" in one_line_error(done)
    assert not out.exists() and not (tmp_path / "home" / "city-packs").exists()


def test_the_default_time_bound_fits_thirty_seconds() -> None:
    # two attempts and the longest retry wait the executor allows (its hard timeout, 4 s)
    assert 2 * overpass.ATTEMPT_TIMEOUT_S + 4 <= 30


def test_a_fixture_citys_name_placed_elsewhere_is_that_other_place(tw) -> None:
    texas = tw("plan", "--prompt", "4 days in Paris, Texas from 2027-05-10, flying from JFK, budget 3000 USD",
               "--today", "2026-11-26", offline=True)
    assert texas.returncode == 2 and "Paris, TX, US needs one online fetch" in one_line_error(texas)
    rome = tw("plan", "--prompt", "4 days in Rome, Italy from 2027-05-10, flying from JFK, budget 3000 USD",
              "--today", "2026-11-26", offline=True)
    assert rome.returncode == 0 and rome.stdout.startswith("Rome: 4 days"), rome.stderr


def test_plan_prints_each_flight_end_on_its_own_clock() -> None:
    intent = Path(__file__).resolve().parents[2] / "docs" / "examples" / "paris.json"
    done = subprocess.run([str(EXE), "plan", "--intent", str(intent), "--today", "2026-11-23"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "20:35 EDT Mon 14 Jun-09:50 CEST  N0701 JFK→CDG" in done.stdout  # left the day before
    assert "17:05 CEST-19:30 EDT  N0702 CDG→JFK" in done.stdout  # not clamped to 23:59


BOOKINGS = Path(__file__).resolve().parents[1] / "data" / "bookings"


def test_plan_bookings_builds_a_new_city_around_the_travellers_confirmations(tw, tmp_path) -> None:
    out = tmp_path / "lisbon.json"
    done = tw("-v", "plan", "--prompt", "6 days in Lisbon from 2027-06-16, flying from JFK, budget 4000 USD",
              "--bookings", str(BOOKINGS / "tap_jfk_lis.eml"), str(BOOKINGS / "britania_microdata.eml"),
              "--today", "2026-11-26", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "flight" in done.stderr.lower()  # -v: what each file held, codes masked
    itin = json.loads(out.read_text())
    acts = [a for d in itin["days"] for a in d["activities"]]
    flights = [a for a in acts if a["kind"] == "flight"]
    assert [a["provenance"]["data_source"] for a in flights] == ["user", "user"]
    assert all(a["name"].startswith("TP ") for a in flights)
    stay = [a for a in acts if a["kind"] == "lodging"]
    assert stay and all(a["name"] == "Hotel Britania" and a["provenance"]["data_source"] == "user" for a in stay)
    assert "flights" not in itin["cost_breakdown"]["estimated_parts"]


def test_plan_bookings_on_other_days_is_one_line_naming_both(tw, tmp_path) -> None:
    done = tw("plan", "--prompt", "5 days in Lisbon from 2027-06-10, flying from JFK, budget 4000 USD",
              "--bookings", str(BOOKINGS / "tap_jfk_lis.eml"), "--today", "2026-11-26")
    assert done.returncode == 2
    line = one_line_error(done)
    assert "2027-06-16" in line and "2027-06-10" in line


def test_the_pack_is_fetched_inside_the_run_as_a_progress_step(tw, standin, tmp_path) -> None:
    """Issue 30 §3: the CLI no longer fetches before the pipeline; the run's city_pack node does,
    as in the app, so ``--events`` shows the fetch first and the itinerary's intent is settled."""
    out, events = tmp_path / "lisbon.json", tmp_path / "events.jsonl"
    planned = tw("plan", "--prompt", PROMPT, "--today", "2026-11-26", "--out", str(out), "--events", str(events))
    assert planned.returncode == 0, planned.stderr
    nodes = [json.loads(line) for line in events.read_text().splitlines()]
    pack = [e for e in nodes if e["node"] == "city_pack"]
    assert [e["status"] for e in pack][0] == "started" and pack[-1]["status"] == "completed"
    assert nodes.index(pack[-1]) < min(i for i, e in enumerate(nodes)
                                       if e["node"] == "intent_extractor" and e["status"] == "completed")
    assert "fetched from OpenStreetMap" in pack[-1]["decision_note"]
    intent = json.loads(out.read_text())["intent"]
    assert (intent["city"], intent["airports"], intent["date_window"]["tz"]) == ("Lisbon", ["LIS"], "Europe/Lisbon")
    assert len(standin.seen) == 2  # the pack's places and its map
