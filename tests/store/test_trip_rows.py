"""``trips list``'s standard-library read of the personal file (engine/store/trip_rows.py): the
same rows as ``Trips.list`` when the full open would only read, and no answer (the full path)
whenever the full open has something to do — create, recover, migrate, back up, sign in, fail a run."""

from __future__ import annotations

import os
import sqlite3
from datetime import timedelta
from pathlib import Path

from engine.store import Accounts, PlanRecorder, SecretStore, Store, sqlite_file
from engine.store.columns import utcnow
from engine.store.trip_rows import personal_trips

from .conftest import FAST_HASHER, PASSWORD, paris_intent


def _personal(path: Path, names: list[str]):
    """A personal file as the CLI leaves it: first run, trips, its daily backup taken."""
    with Store.open(f"sqlite:///{path}") as store:
        accounts = Accounts(store, SecretStore(), hasher=FAST_HASHER)
        ctx = accounts.first_run()
        with store.org(ctx) as repo:
            ids = [repo.trips.create(name).trip_id for name in names]
            repo.trips.delete(ids[-1])  # deleted trips are not listed
        sqlite_file.backup(path, "daily")
    return ctx, ids


def _listed(path: Path, ctx):
    with Store.open(f"sqlite:///{path}") as store, store.org(ctx) as repo:
        return [(t.trip_id, t.name, t.mode, t.version_count, t.updated_at) for t in repo.trips.list()]


def test_the_rows_are_the_stores_in_its_order(tmp_path, memory_keyring):
    path = tmp_path / "tripwright.db"
    ctx, ids = _personal(path, ["Paris, 5 days", "名古屋 “quoted” 🗼", "'; DROP TABLE trip; --", "gone"])
    with Store.open(f"sqlite:///{path}") as store, store.org(ctx) as repo:  # a tie on updated_at: by id
        for trip in repo.trips.list():
            repo.trips.row(trip.trip_id).updated_at = utcnow().replace(microsecond=0) - timedelta(days=1)
        repo.trips.rename(ids[0], "Paris again")
    quick = personal_trips(path)
    assert quick is not None and len(quick) == 3
    assert [(t.trip_id, t.name, t.mode, t.version_count, t.updated_at) for t in quick] == _listed(path, ctx)
    assert quick[0].name == "Paris again"


def test_no_answer_without_a_healthy_current_file(tmp_path, memory_keyring):
    path = tmp_path / "tripwright.db"
    assert personal_trips(path) is None  # the full open creates it
    _personal(path, ["Kept", "gone"])
    assert personal_trips(path) is not None
    with sqlite3.connect(path) as conn:  # an older schema: the full open migrates it
        conn.execute("UPDATE alembic_version SET version_num = '0008'")
    assert personal_trips(path) is None
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = ?", (sqlite_file.SCHEMA_HEAD,))
    for backup in sqlite_file.list_backups(path):  # the daily copy is due: the full open takes it
        os.utime(backup, (backup.stat().st_atime, backup.stat().st_mtime - 2 * 86400))
    assert personal_trips(path) is None
    sqlite_file.backup(path, "daily")
    assert personal_trips(path) is not None
    path.write_bytes(b"not a database at all" * 300)  # damaged: the full open recovers from a backup
    assert personal_trips(path) is None


def test_no_answer_when_a_sign_in_is_needed(tmp_path, memory_keyring):
    path = tmp_path / "tripwright.db"
    ctx, _ = _personal(path, ["Kept", "gone"])
    with Store.open(f"sqlite:///{path}") as store:
        Accounts(store, SecretStore(), hasher=FAST_HASHER).set_password(ctx, PASSWORD)
    sqlite_file.backup(path, "daily")
    assert personal_trips(path) is None


def test_no_answer_while_a_run_is_left_running(tmp_path, memory_keyring):
    path = tmp_path / "tripwright.db"
    ctx, _ = _personal(path, ["Kept", "gone"])
    with Store.open(f"sqlite:///{path}") as store:
        recorder = PlanRecorder(store, ctx)
        ticket = recorder.begin(paris_intent(), trip_name="Half planned")
        assert personal_trips(path) is None  # the full sign-in fails it when its process is gone
        recorder.abandon(ticket, error="stopped")
    assert personal_trips(path) is not None
