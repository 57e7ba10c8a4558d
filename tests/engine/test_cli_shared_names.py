"""Issue 31 §4: a name several places share plans the one that dominates and says how to ask for
the other; a near tie is asked. Through the real executable, the offline gazetteer and the
Overpass stand-in on 127.0.0.1."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.overpass_standin import OverpassStandIn, load_lisbon

EXE = Path(sys.executable).with_name("tripwright")
LISBON = (38.7223, -9.1393)
BARCELONA = (41.3888, 2.159)
SAID = "Planning Barcelona, Spain — say 'Barcelona, Venezuela' for the other."


def _moved(x, to: tuple[float, float]):
    """Lisbon's stand-in places moved to ``to``: what is tested is which place a name means."""
    if isinstance(x, list):
        return [_moved(v, to) for v in x]
    if not isinstance(x, dict):
        return x
    out = {k: _moved(v, to) for k, v in x.items()}
    for key in ("lat", "minlat", "maxlat", "lon", "minlon", "maxlon"):
        if isinstance(x.get(key), (int, float)):
            out[key] = x[key] + (to[0] - LISBON[0] if "lat" in key else to[1] - LISBON[1])
    return out


@pytest.fixture(scope="module")
def standin():
    server = OverpassStandIn(elements=_moved(load_lisbon(), BARCELONA)).start()
    yield server
    server.stop()


@pytest.fixture()
def tw(standin, tmp_path):
    def run(prompt: str, *extra: str, offline: bool = False) -> subprocess.CompletedProcess:
        env = dict(os.environ, TRIPWRIGHT_HOME=str(tmp_path / "home"), TRIPWRIGHT_OVERPASS_URL=standin.interpreter_url,
                   TRIPWRIGHT_OVERPASS_TIMEOUT_S="5")
        env.pop("TRIPWRIGHT_OFFLINE", None)
        if offline:
            env["TRIPWRIGHT_OFFLINE"] = "1"
        return subprocess.run([str(EXE), "plan", "--prompt", prompt, "--today", "2026-11-26", *extra],
                              capture_output=True, text=True, env=env, timeout=180)
    return run


def test_barcelona_plans_spains_and_says_how_to_ask_for_venezuelas(tw, tmp_path) -> None:
    out, events = tmp_path / "barcelona.json", tmp_path / "events.jsonl"
    done = tw("4 days in Barcelona from 2027-05-10, flying from JFK, budget 4000 USD",
              "--out", str(out), "--events", str(events))
    assert done.returncode == 0, done.stderr[-2000:]
    assert SAID in done.stdout.splitlines()[1]  # the CLI says it, under the summary line
    itinerary = json.loads(out.read_text())
    assert itinerary["intent"]["city"] == "Barcelona" and itinerary["intent"]["airports"] == ["BCN"]
    place = [d for d in itinerary["decisions"] if d["node"] == "place"]
    assert [d["rationale"] for d in place] == [SAID]  # the app's decisions
    pack = [json.loads(line) for line in events.read_text().splitlines() if '"city_pack"' in line]
    assert "planning Barcelona, Spain — say 'Barcelona, Venezuela'" in pack[-1]["decision_note"]  # progress
    again = tw("4 days in Barcelona from 2027-05-10, flying from JFK, budget 4000 USD", offline=True)
    assert again.returncode == 0 and SAID in again.stdout, again.stderr[-2000:]  # from the cached pack too


def test_the_other_barcelona_is_had_by_saying_its_country(tw) -> None:
    done = tw("4 days in Barcelona, Venezuela from 2027-05-10, flying from JFK, budget 4000 USD", offline=True)
    assert done.returncode == 2
    assert "Barcelona, VE needs one online fetch" in done.stderr and "Traceback" not in done.stderr


def test_a_near_tie_is_still_asked(tw) -> None:
    done = tw("4 days in Valencia from 2027-05-10, flying from JFK, budget 4000 USD", offline=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "Valencia, VE" in done.stderr and "Valencia, ES" in done.stderr


def test_cities_fetch_says_which_barcelona_it_fetched(standin, tmp_path) -> None:
    env = dict(os.environ, TRIPWRIGHT_HOME=str(tmp_path / "home"), TRIPWRIGHT_OVERPASS_URL=standin.interpreter_url,
               TRIPWRIGHT_OVERPASS_TIMEOUT_S="5")
    env.pop("TRIPWRIGHT_OFFLINE", None)
    done = subprocess.run([str(EXE), "cities", "fetch", "Barcelona"], capture_output=True, text=True, env=env,
                          timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("Barcelona, ES: ")
    assert "Barcelona, Spain — say 'Barcelona, Venezuela' for the other" in done.stderr
