"""``tripwright plan --save`` and ``tripwright trips`` against a real SQLite store file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

EXE = Path(sys.executable).with_name("tripwright")
INTENT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "paris.json"


def tw(db: Path, *args: str) -> subprocess.CompletedProcess:
    env = os.environ | {"TRIPWRIGHT_DATABASE_URL": f"sqlite:///{db}"}
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, env=env, timeout=120)


def test_plan_save_versions_list_show_delete(tmp_path) -> None:
    db = tmp_path / "trips.sqlite3"
    first = tw(db, "plan", "--intent", str(INTENT), "--save", "--name", "Paris <b>June</b>", "--today", "2026-11-23")
    assert first.returncode == 0, first.stderr
    listed = tw(db, "trips", "list")
    trip_id, *_ = listed.stdout.split()
    assert "Paris <b>June</b>" in listed.stdout and "1 trip(s)" in listed.stdout
    again = tw(db, "plan", "--intent", str(INTENT), "--save", "--trip", trip_id, "--today", "2026-11-23")
    assert again.returncode == 0 and "version 2" in again.stderr
    shown = tw(db, "trips", "show", trip_id)
    assert shown.returncode == 0 and "2 version(s)" in shown.stdout and "v2" in shown.stdout
    assert tw(db, "trips", "delete", trip_id).returncode == 0
    assert "0 trip(s)" in tw(db, "trips", "list").stdout


def test_store_errors_are_one_line_exit_2(tmp_path) -> None:
    db = tmp_path / "garbage.sqlite3"
    db.write_bytes(b"this is not a database" * 100)
    done = tw(db, "trips", "list")
    assert done.returncode == 2 and done.stderr.startswith("tripwright: database:")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert db.read_bytes() == b"this is not a database" * 100  # untouched
    missing = tw(tmp_path / "ok.sqlite3", "trips", "show", "no-such-trip")
    assert missing.returncode == 2 and "no trip" in missing.stderr


def test_saved_version_holds_the_itinerary(tmp_path) -> None:
    db = tmp_path / "trips.sqlite3"
    out = tmp_path / "it.json"
    assert tw(db, "plan", "--intent", str(INTENT), "--save", "--out", str(out), "--today", "2026-11-23").returncode == 0
    from engine.store import Accounts, Store
    store = Store.open(f"sqlite:///{db}")
    try:
        ctx = Accounts(store).first_run()
        with store.org(ctx) as repo:
            trip = repo.trips.list()[0]
            version = repo.versions.get(trip.trip_id)
        saved = version.itinerary if isinstance(version.itinerary, dict) else json.loads(version.itinerary)
        assert saved["cost_breakdown"] == json.loads(out.read_text())["cost_breakdown"]
    finally:
        store.close()


def test_a_repeated_save_within_the_ttl_reuses_the_version(tmp_path) -> None:
    db = tmp_path / "trips.sqlite3"
    base = ("plan", "--intent", str(INTENT), "--save", "--today", "2026-11-23")
    first = tw(db, *base, "--name", "Paris")
    trip_id = tw(db, "trips", "list").stdout.split()[0]
    second = tw(db, *base, "--trip", trip_id)
    out, events = tmp_path / "again.json", tmp_path / "again.jsonl"
    again = tw(db, *base, "--trip", trip_id, "--out", str(out), "--events", str(events))
    assert first.returncode == second.returncode == again.returncode == 0, again.stderr
    assert "saved as version 2" in second.stderr
    assert f"reused version 2 of trip {trip_id}" in again.stderr and "saved as" not in again.stderr
    assert again.stdout.startswith("Paris: 5 days")  # the summary, from the stored version
    assert json.loads(out.read_text())["status"] == "ok"  # --out written from the stored itinerary
    assert len(events.read_text().splitlines()) >= 10  # the stored run's events, replayed
    assert "2 version(s)" in tw(db, "trips", "show", trip_id).stdout
    other_day = tw(db, "plan", "--intent", str(INTENT), "--save", "--trip", trip_id, "--today", "2026-11-24")
    assert other_day.returncode == 0 and "saved as version 3" in other_day.stderr  # another FX date


def test_a_new_trip_is_named_from_the_intent_and_an_unknown_trip_fails_before_planning(tmp_path) -> None:
    db = tmp_path / "trips.sqlite3"
    assert tw(db, "plan", "--intent", str(INTENT), "--save", "--today", "2026-11-23").returncode == 0
    assert tw(db, "trips", "list").stdout.split("\n")[0].endswith("Paris, 5 days")
    missing = tw(db, "plan", "--intent", str(INTENT), "--save", "--trip", "nope", "--out", str(tmp_path / "x.json"))
    assert missing.returncode == 2 and missing.stderr.startswith("tripwright: trip: no trip")
    assert missing.stderr.count("\n") == 1 and not (tmp_path / "x.json").exists()


def test_an_infeasible_saved_plan_exits_3_and_leaves_no_empty_trip(tmp_path) -> None:
    db = tmp_path / "trips.sqlite3"
    poor = tmp_path / "poor.json"
    poor.write_text(json.dumps(json.loads(INTENT.read_text()) | {"budget_usd_cents": 100000}))
    done = tw(db, "plan", "--intent", str(poor), "--save", "--today", "2026-11-23")
    assert done.returncode == 3 and "budget" in done.stderr
    assert "0 trip(s)" in tw(db, "trips", "list").stdout


def test_a_plan_of_another_mode_is_refused_for_an_existing_trip(tmp_path) -> None:
    """``--trip ID`` of a city trip with a road-trip intent: exit 2 before planning, nothing saved."""
    from tests.engine.test_cli import ROAD
    db = tmp_path / "trips.sqlite3"
    assert tw(db, "plan", "--intent", str(INTENT), "--save", "--today", "2026-11-23").returncode == 0
    trip_id = tw(db, "trips", "list").stdout.split()[0]
    road = tmp_path / "road.json"
    road.write_text(json.dumps(ROAD))
    out = tmp_path / "road_out.json"
    refused = tw(db, "plan", "--intent", str(road), "--save", "--trip", trip_id, "--out", str(out), "--today", "2026-11-23")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert refused.stderr.startswith(f"tripwright: trip: trip {trip_id} is a city trip; this plan is a road trip")
    assert not out.exists() and " v1 " in tw(db, "trips", "list").stdout
