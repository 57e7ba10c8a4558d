"""Issue 31 §4: the airport a traveller would use and flights named for what they are, through the
real executable against the Overpass stand-in on 127.0.0.1 (Kyoto: its nearest airports, Osaka
Itami and Kobe, fly domestic routes only; Kansai takes the long-haul flights)."""

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
KYOTO = (35.0116, 135.7681)


def _moved(x):
    """Lisbon's stand-in places moved to Kyoto: what is tested is the airports, not the places."""
    if isinstance(x, list):
        return [_moved(v) for v in x]
    if not isinstance(x, dict):
        return x
    out = {k: _moved(v) for k, v in x.items()}
    for key, shift in (("lat", KYOTO[0] - LISBON[0]), ("minlat", KYOTO[0] - LISBON[0]),
                       ("maxlat", KYOTO[0] - LISBON[0]), ("lon", KYOTO[1] - LISBON[1]),
                       ("minlon", KYOTO[1] - LISBON[1]), ("maxlon", KYOTO[1] - LISBON[1])):
        if isinstance(x.get(key), (int, float)):
            out[key] = x[key] + shift
    return out


@pytest.fixture(scope="module")
def standin():
    server = OverpassStandIn(elements=_moved(load_lisbon())).start()
    yield server
    server.stop()


def _plan(standin, tmp_path: Path, origin: str, airports: list[str] | None = None
          ) -> tuple[subprocess.CompletedProcess, dict]:
    env = dict(os.environ, TRIPWRIGHT_HOME=str(tmp_path / "home"), TRIPWRIGHT_OVERPASS_URL=standin.interpreter_url,
               TRIPWRIGHT_OVERPASS_TIMEOUT_S="5")
    env.pop("TRIPWRIGHT_OFFLINE", None)
    out = tmp_path / "kyoto.json"
    if airports is None:
        what = ["--prompt", f"4 days in Kyoto from 2027-05-10, flying from {origin}, budget 6000 USD"]
    else:  # a form's intent naming the airports
        intent = tmp_path / "intent.json"
        intent.write_text(json.dumps({"city": "Kyoto", "airports": airports, "origin_airport": origin,
                                      "budget_usd_cents": 600000, "date_window": {
                                          "start": "2027-05-10", "end": "2027-05-13", "tz": "Asia/Tokyo"}}))
        what = ["--intent", str(intent)]
    done = subprocess.run([str(EXE), "-v", "plan", *what, "--today", "2026-11-26", "--out", str(out)],
                          capture_output=True, text=True, env=env, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    return done, json.loads(out.read_text())


def _flights(itinerary: dict) -> list[dict]:
    return [a for d in itinerary["days"] for a in d["activities"] if a["kind"] == "flight"]


def test_a_west_coast_traveller_lands_at_the_long_haul_airport(standin, tmp_path) -> None:
    done, itinerary = _plan(standin, tmp_path, "SFO")
    assert itinerary["intent"]["airports"] == ["KIX"]
    arrival, departure = _flights(itinerary)
    assert arrival["name"] == "Estimated flight SFO → KIX, 07:10"  # named for what it is, not "EST 0710"
    assert departure["name"].startswith("Estimated flight KIX → SFO, ")
    assert "flying into KIX (long-haul flights land there; ITM has shorter routes only)" in done.stderr
    transfer = next(a for a in itinerary["days"][0]["activities"] if a["role"] == "transfer")
    assert transfer["provenance"]["data_source"] == "estimated" and transfer["provenance"]["ref_id"] == "KIX"
    assert transfer["name"].endswith(" from KIX airport, estimated") and transfer["notes"].endswith(", estimated")
    last = [a for a in itinerary["days"][-1]["activities"] if a["role"] == "transfer"][-1]
    assert last["name"].endswith(" to KIX airport, estimated")
    verified = subprocess.run([str(EXE), "verify", str(tmp_path / "kyoto.json")], capture_output=True, text=True,
                              env=dict(os.environ, TRIPWRIGHT_HOME=str(tmp_path / "home")), timeout=180)
    assert verified.returncode == 0, verified.stdout + verified.stderr[-2000:]


def test_a_short_trip_keeps_the_nearer_airports(standin, tmp_path) -> None:
    _, itinerary = _plan(standin, tmp_path, "HND")  # Tokyo Haneda: 370 km, domestic
    assert itinerary["intent"]["airports"] == ["ITM", "KIX"]
    assert all(" via " not in f["name"] and f["name"].startswith("Estimated flight ") for f in _flights(itinerary))


def test_a_form_naming_all_the_citys_airports_still_lands_long_haul_but_a_narrow_choice_stands(
        standin, tmp_path) -> None:
    _, both = _plan(standin, tmp_path, "SFO", airports=["ITM", "KIX"])
    assert both["intent"]["airports"] == ["KIX"]
    _, itami = _plan(standin, tmp_path, "SFO", airports=["ITM"])  # the traveller's own choice
    assert itami["intent"]["airports"] == ["ITM"]
    arrival = _flights(itami)[0]
    assert arrival["name"].startswith("Estimated flight SFO → ITM via KIX, ")  # a connection, said so
