"""The disruption suite of ``tripwright eval`` (issue 36 §2): the shipped trips re-planned from
now around each disruption, through the real executable (``tripwright eval`` with the suite's
folder), and a malformed disruption file refused in one line."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from engine.evaluation.disruptions import DEFAULT_DISRUPTIONS, disruption_paths, load_trip

EXE = Path(sys.executable).with_name("tripwright")


def tripwright(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TRIPWRIGHT_DATABASE_URL"} | {"TRIPWRIGHT_HOME": str(home)}
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, env=env, timeout=600)


def test_the_suite_has_twenty_disruptions_over_the_cities_a_pack_and_a_road_trip() -> None:
    trips = [load_trip(p) for p in disruption_paths()]
    assert sum(len(t.disruptions) for t in trips) >= 20
    assert {t.intent.get("city") for t in trips} >= {"Paris", "Rome", "Tokyo", "New York", "Lisbon"}
    assert any(t.pack for t in trips) and any(t.intent.get("mode") == "road_trip" for t in trips)
    kinds = {d.kind for t in trips for d in t.disruptions}
    assert kinds == {"late", "closed", "rain_from", "done_for_today", "skip", "at", "bookings"}


def test_tripwright_eval_runs_the_disruption_suite_and_prints_its_figures(tmp_path) -> None:
    done = tripwright(tmp_path, "eval", str(DEFAULT_DISRUPTIONS))
    assert done.returncode == 0, done.stdout + done.stderr
    rate = re.search(r"Disruption pass rate:\s+([\d.]+)% \((\d+)/(\d+)", done.stdout)
    assert rate and float(rate[1]) >= 90.0 and int(rate[3]) >= 20, done.stdout
    responsive = re.search(r"Responsiveness:\s+([\d.]+)%", done.stdout)
    preserved = re.search(r"Preservation:\s+([\d.]+)%", done.stdout)
    assert responsive and float(responsive[1]) >= 90.0 and preserved and float(preserved[1]) > 50.0
    assert "Re-plan time:" in done.stdout and "Scenario pass rate" not in done.stdout  # only this suite ran


def test_a_disruption_with_two_kinds_fails_as_invalid(tmp_path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text((DEFAULT_DISRUPTIONS / "rome.yaml").read_text(encoding="utf-8").replace(
        "    closed: Colosseum\n", "    closed: Colosseum\n    skip: Pantheon\n"), encoding="utf-8")
    done = tripwright(tmp_path, "eval", str(bad))
    assert done.returncode == 1 and "invalid disruption file" in done.stdout and "exactly one of" in done.stdout
