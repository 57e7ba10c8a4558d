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
