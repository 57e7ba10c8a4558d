"""Store performance figures (issue 4 targets) on a fresh SQLite file, or any URL given:

    .venv/bin/python bench/store_bench.py [--quick] [--json] [--no-cli] [--url postgresql://...]

Targets (warm, in-process, SQLite, 2 cores): save a version (a real 5-day Paris itinerary,
~60 KB of JSON, one transaction with its audit entry) p50 ≤ 10 ms; list 1,000 trips p50 ≤ 50 ms;
open a trip with 20 versions (the list of versions + the latest in full) p50 ≤ 20 ms. Reported
beside it: the app reopening that trip as an undo history.

Storage and reopening (issue 9 targets): ≤ 25 KB of database per stored version on average (the
itinerary with its PlanV1, as the app saves them), the bytes a saved ``tripwright plan --save``
run adds (the version, its run, events and checkpoints; the first run into a fresh data dir is
reported apart since it also creates the schema; always SQLite in a fresh data dir, ``--no-cli``
skips it), and the app reopening a trip of 1,000 versions ≤ 200 ms. Measured on 2 busy cores
(--quick), before → after migration 0004 and the lazy reopen: SQLite 115,220 → 13,476 bytes per
version, 284,672 → 20,480 bytes per saved CLI run (first run 532,480 → 282,624, mostly the
schema), reopening 1,000 versions 9.5–14 s → 35 ms; PostgreSQL 38,666 → 15,729 bytes per
version, 36 s → 41 ms.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from argon2 import PasswordHasher

from engine.models import IntentV1
from engine.pipeline import PlanningSession
from engine.store import Accounts, Login, OrgContext, SecretStore, Store, sqlite_file

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from app.workspace import Workspace  # noqa: E402 (Qt-free: the app's link to the store)
from bench.timing import p50_ms  # noqa: E402

PARIS = {"city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
         "budget_usd_cents": 400000, "airports": ["CDG", "ORY"], "origin_airport": "JFK",
         "prefs": {"themes": ["art", "food"]}}
TARGETS_MS = {"save_version_ms": 10, "list_1000_trips_ms": 50, "open_trip_20_versions_ms": 20,
              "app_reopen_1000_versions_ms": 200}
TARGET_BYTES = {"bytes_per_version": 25_000}
ROOT = Path(__file__).resolve().parents[1]
INTENT_FILE = ROOT / "docs" / "examples" / "paris.json"


def _planned():
    session = PlanningSession(today=date(2026, 11, 23))
    return asyncio.run(session.plan(IntentV1.model_validate(PARIS)))


def _db_bytes(store: Store) -> int:
    """What the database holds now: SQLite pages in use (after folding the WAL in), or the
    PostgreSQL relations (tables, indexes, TOAST) of the schema in use."""
    with store._engine.begin() as conn:  # noqa: SLF001 (a bench measures the file itself)
        if store.is_sqlite:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
            pages = conn.exec_driver_sql("PRAGMA page_count").scalar() - conn.exec_driver_sql(
                "PRAGMA freelist_count").scalar()
            return pages * conn.exec_driver_sql("PRAGMA page_size").scalar()
        return conn.exec_driver_sql(
            "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind = 'r'").scalar()


def _fill(store: Store, ctx: OrgContext, trips: int) -> str:
    """``trips`` trips in one transaction; returns the id of the first."""
    with store.org(ctx) as repo:
        ids = [repo.trips.create(f"Trip {i}").trip_id for i in range(trips)]
    return ids[0]


def _history(store: Store, ctx: OrgContext, trip_id: str, planned, count: int) -> None:
    """``count`` versions as the app saves them: itinerary, intent and the PlanV1, each made from
    the one before."""
    with store.org(ctx) as repo:
        for _ in range(count):
            repo.versions.save(trip_id, planned.itinerary, plan=planned.plan, note="Moved a stop")


def _sqlite_file_bytes(path: Path) -> int:
    """Pages in use in a SQLite file another process wrote (its WAL folded in first)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = conn.execute("PRAGMA page_count").fetchone()[0] - conn.execute("PRAGMA freelist_count").fetchone()[0]
        return pages * conn.execute("PRAGMA page_size").fetchone()[0]
    finally:
        conn.close()


def cli_runs(runs: int = 3) -> dict:
    """The real ``tripwright plan --save`` into a fresh data dir: what the first run leaves there
    (the database with its schema, and every other file), then what each further saved run adds
    (a new request each: another planning day)."""
    exe = Path(sys.executable).with_name("tripwright")
    with tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items() if k != "TRIPWRIGHT_DATABASE_URL"}
        env |= {"TRIPWRIGHT_HOME": home, "TRIPWRIGHT_OFFLINE": "1"}
        sizes = []
        for day in range(runs):
            subprocess.run([str(exe), "plan", "--intent", str(INTENT_FILE), "--save", "--today", f"2026-11-{23 + day}"],
                           env=env, check=True, capture_output=True, timeout=300)
            sizes.append(_sqlite_file_bytes(Path(home) / "tripwright.db"))
            if day == 0:
                first_dir = sum(f.stat().st_size for f in Path(home).rglob("*") if f.is_file())
        return {"first_cli_run_db_bytes": sizes[0], "first_cli_run_data_dir_bytes": first_dir,
                "bytes_per_saved_cli_run": round((sizes[-1] - sizes[0]) / (runs - 1))}


def run(url: str | None = None, quick: bool = False) -> dict:
    reps = 10 if quick else 50
    planned = _planned()
    itinerary = planned.itinerary
    with tempfile.TemporaryDirectory() as tmp:
        with Store.open(url or f"sqlite:///{Path(tmp) / 'bench.db'}") as store:
            accounts = Accounts(store, SecretStore(), hasher=PasswordHasher(time_cost=1, memory_cost=256, parallelism=1))
            ctx = accounts.create_org(f"bench-{time.time_ns()}", "bench@example.com", None)
            save_trip = _fill(store, ctx, 1)
            open_trip = _fill(store, ctx, 999)
            long_trip = _fill(store, ctx, 1)
            sized_trip = _fill(store, ctx, 1)

            def save() -> None:
                with store.org(ctx) as repo:
                    repo.versions.save(save_trip, itinerary)

            def listing() -> None:
                with store.org(ctx) as repo:
                    assert len(repo.trips.list()) == 1002

            _history(store, ctx, open_trip, planned, 20)

            def opening() -> None:
                with store.org(ctx) as repo:
                    assert len(repo.trips.open(open_trip).versions) == 20

            workspace = Workspace(store, accounts)
            workspace.sign_in(Login(ctx))

            def reopening() -> None:
                assert len(workspace.open_trip(open_trip).session.versions) == 20

            before = _db_bytes(store)
            _history(store, ctx, sized_trip, planned, 100)
            per_version = round((_db_bytes(store) - before) / 100)
            _history(store, ctx, long_trip, planned, 1000)

            def reopening_long() -> None:
                assert len(workspace.open_trip(long_trip).session.versions) == 1000

            figures = {"engine": store.url.get_backend_name(),
                       "save_version_ms": p50_ms(save, reps),
                       "list_1000_trips_ms": p50_ms(listing, reps),
                       "open_trip_20_versions_ms": p50_ms(opening, reps),
                       "app_reopen_20_versions_ms": p50_ms(reopening, max(reps // 5, 3)),
                       "app_reopen_1000_versions_ms": p50_ms(reopening_long, 1 if quick else 3),
                       "bytes_per_version": per_version}
            if store.path is not None:  # the daily copy: VACUUM INTO of this whole database
                figures["daily_backup_ms"] = p50_ms(lambda: sqlite_file.backup(store.path, "daily"), max(reps // 5, 3))
                figures["store_open_ms"] = p50_ms(lambda: Store.open(str(store.url)).close(), max(reps // 5, 3))
            return figures


def main(argv: list[str]) -> int:
    url = argv[argv.index("--url") + 1] if "--url" in argv else None
    figures = run(url, quick="--quick" in argv)
    if "--no-cli" not in argv:
        figures |= cli_runs()
    if "--json" in argv:
        print(json.dumps(figures, indent=2))
        return 0
    for key, value in figures.items():
        target = (TARGETS_MS | TARGET_BYTES).get(key) if figures["engine"] == "sqlite" else None  # targets: SQLite
        unit = "bytes" if key in TARGET_BYTES else "ms"
        print(f"{key:30} {value}" + (f"  (target ≤ {target} {unit}{'' if value <= target else ', MISSED'})"
                                     if target else ""))
    return 0


if __name__ == "__main__":
    from engine.log_setup import configure
    configure(0)  # warnings only, to stderr: a run logs each node and tool call at INFO
    raise SystemExit(main(sys.argv[1:]))
