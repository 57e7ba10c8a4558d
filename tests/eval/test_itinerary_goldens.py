"""Refactors keep plans byte-equal (issue 30): the scenario suite's itineraries and a set of CLI
plans (city and road, prompts and intent files, bookings, saved places, a route file) are compared
with golden files recorded before the house was rebuilt (at 2ce4c3b).

Only what changes from run to run is left out (ids, trace ids, the tool calls' clock times); every
other byte of the itinerary JSON must match. Re-record on purpose, never to make a test pass:
``TRIPWRIGHT_RECORD_GOLDENS=1 pytest tests/eval/test_itinerary_goldens.py`` and say why in the commit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.evaluation import run_scenario

ROOT = Path(__file__).resolve().parents[2]
GOLDENS = Path(__file__).parent / "goldens"
SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.yaml"))
EXE = Path(sys.executable).with_name("tripwright")
RECORD = os.environ.get("TRIPWRIGHT_RECORD_GOLDENS") == "1"
# Fields that differ between two runs of the same plan.
VOLATILE = {"itinerary_id", "call_ts", "created_at", "run_id", "trace_id"}
EXAMPLES = ROOT / "docs" / "examples"

CLI_CASES = {
    "cli_paris_intent": ["--intent", str(EXAMPLES / "paris.json")],
    "cli_paris_booked": ["--intent", str(EXAMPLES / "paris-booked.json")],
    "cli_paris_places": ["--intent", str(EXAMPLES / "paris.json"), "--places", str(EXAMPLES / "paris-places.kml")],
    "cli_paris_prompt": ["--prompt", "5 days in Paris from 2027-06-15, flying from JFK, budget 4000 USD, art and food"],
    "cli_tokyo_kids": ["--prompt", "4 days in Tokyo from 2027-04-05, flying from LAX, budget 6000 USD, "
                                   "2 adults and 2 kids"],
    "cli_rome_prompt": ["--prompt", "6 days in Rome from 2027-09-13, flying from ORD, budget 5000 USD, history"],
    "cli_new_york_prompt": ["--prompt", "4 days in New York from 2027-10-04, flying from LHR, budget 4500 USD"],
    "cli_route66": ["--prompt", "LA to Chicago via Route 66, 7 days from 2027-05-03"],
    "cli_route66_motel": ["--prompt", "LA to Chicago via Route 66, 7 days from 2027-05-03",
                          "--bookings", str(EXAMPLES / "blue-swallow.eml")],
    "cli_sf_loop": ["--prompt", "Round trip from San Francisco, 7 days from 2027-05-03, with a rest day in Monterey"],
    "cli_seattle_miami": ["--prompt", "Seattle to Miami, 10 days from 2027-05-03"],
    "cli_denver_track": ["--prompt", "Denver to Salt Lake City, 3 days from 2027-05-03",
                         "--route-file", str(EXAMPLES / "my-track.gpx")],
}


def _stable(value):
    """The document without the fields that differ between two identical runs."""
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


def _compare(name: str, document: dict) -> None:
    text = json.dumps(_stable(document), indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    path = GOLDENS / f"{name}.json"
    if RECORD:
        GOLDENS.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        got, want = text.splitlines(), expected.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        context = "\n".join(f"  golden: {w}\n  now:    {g}" for g, w in zip(got[first:first + 3], want[first:first + 3]))
        pytest.fail(f"{name}: the itinerary differs from its golden at line {first + 1}:\n{context}")


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_itinerary_is_unchanged(path: Path):
    outcome = run_scenario(path)
    result = outcome.result
    assert result is not None, outcome.explain()
    document = (result.itinerary.model_dump(mode="json") if result.itinerary is not None
                else result.failure.model_dump(mode="json"))
    _compare(f"scenario_{path.stem}", document)


@pytest.mark.parametrize("name", sorted(CLI_CASES))
def test_cli_itinerary_is_unchanged(name: str, tmp_path: Path):
    out = tmp_path / "itinerary.json"
    env = {**os.environ, "TRIPWRIGHT_OFFLINE": "1"}
    proc = subprocess.run([str(EXE), "plan", *CLI_CASES[name], "--today", "2026-12-01", "--out", str(out)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert out.exists(), f"{name}: exit {proc.returncode}: {proc.stderr.strip()[-500:]}"
    document = json.loads(out.read_text(encoding="utf-8"))
    document["_exit"] = proc.returncode
    _compare(name, document)
