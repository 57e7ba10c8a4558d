"""Issue 31 §4: a road trip's end whose name other places share plans the one that dominates and
says how to ask for the other (the rule city trips use), through the real executable with the
Nominatim stand-in on 127.0.0.1 answering the name the gazetteer is unsure of.

The stand-in answers "San Francisco" first with a village of Formentera that Nominatim names so
(a namesake ranked above the city, as the California loop met), then the city itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .standin_server import Reply, StandIn

EXE = Path(sys.executable).with_name("tripwright")
CITY = {"lat": "37.7793", "lon": "-122.4193", "name": "San Francisco", "importance": 0.8, "osm_type": "relation",
        "osm_id": 111968, "display_name": "San Francisco, California, United States",
        "address": {"city": "San Francisco", "state": "California", "ISO3166-2-lvl4": "US-CA",
                    "country": "United States", "country_code": "us"}}
VILLAGE = {"lat": "38.7054", "lon": "1.4291", "name": "San Francisco", "importance": 0.8, "osm_type": "node",
           "osm_id": 26819237, "display_name": "San Francisco, Formentera, Balearic Islands, Spain",
           "address": {"village": "San Francisco", "state": "Balearic Islands", "ISO3166-2-lvl4": "ES-IB",
                       "country": "Spain", "country_code": "es"}}


@pytest.fixture()
def nominatim():
    server = StandIn().start()
    server.then("/search", *[Reply(body=json.dumps([VILLAGE, CITY]).encode()) for _ in range(4)])
    yield server
    server.stop()


def _plan(nominatim, tmp_path: Path, terminus: str) -> subprocess.CompletedProcess:
    intent = tmp_path / "road.json"
    intent.write_text(json.dumps({"mode": "road_trip", "origin": "San Francisco", "terminus": terminus, "days": 4,
                                  "start_date": "2027-05-03", "trip_type": "round_trip"}))
    env = dict(os.environ, TRIPWRIGHT_HOME=str(tmp_path / "home"), TRIPWRIGHT_NOMINATIM_URL=nominatim.url)
    env.pop("TRIPWRIGHT_OFFLINE", None)
    return subprocess.run([str(EXE), "plan", "--intent", str(intent), "--today", "2026-11-26",
                           "--out", str(tmp_path / "road-out.json")], capture_output=True, text=True, env=env,
                          timeout=300)


def test_the_california_loop_starts_in_california_and_says_so(nominatim, tmp_path) -> None:
    done = _plan(nominatim, tmp_path, "San Francisco")
    assert done.returncode == 0, done.stderr[-2000:]
    said = "Planning San Francisco, United States — say 'San Francisco, Spain' for the other."
    assert said in done.stdout
    itinerary = json.loads((tmp_path / "road-out.json").read_text())
    assert [d["rationale"] for d in itinerary["decisions"] if d["node"] == "place"] == [said]
    assert [h.query["q"] for h in nominatim.hits("/search")] == ["San Francisco"]
    assert all(d["anchor"]["country"] == "US" for d in itinerary["days"])
