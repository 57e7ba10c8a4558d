"""Store performance figures (issue 4 targets) on a fresh SQLite file, or any URL given:

    .venv/bin/python bench/store_bench.py [--quick] [--json] [--url postgresql://...]

Targets (warm, in-process, SQLite, 2 cores): save a version (a real 5-day Paris itinerary,
~60 KB of JSON, one transaction with its audit entry) p50 ≤ 10 ms; list 1,000 trips p50 ≤ 50 ms;
open a trip with 20 versions (the list of versions + the latest in full) p50 ≤ 20 ms. Reported
beside it: the app reopening that trip as an undo history (every version in full, validated).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

from argon2 import PasswordHasher

from engine.models import IntentV1
from engine.pipeline import PlanningSession
from engine.store import Accounts, Login, OrgContext, SecretStore, Store, sqlite_file

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from app.workspace import Workspace  # noqa: E402 (Qt-free: the app's link to the store)

PARIS = {"city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
         "budget_usd_cents": 400000, "airports": ["CDG", "ORY"], "origin_airport": "JFK",
         "prefs": {"themes": ["art", "food"]}}
TARGETS_MS = {"save_version_ms": 10, "list_1000_trips_ms": 50, "open_trip_20_versions_ms": 20}


def _p50_ms(fn: Callable[[], object], reps: int) -> float:
    fn()  # warm: statement caches, pydantic validators
    samples = []
    for _ in range(reps):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(samples), 2)


def _itinerary():
    session = PlanningSession(today=date(2026, 11, 23))
    return asyncio.run(session.plan(IntentV1.model_validate(PARIS))).itinerary


def _fill(store: Store, ctx: OrgContext, trips: int) -> str:
    """``trips`` trips in one transaction; returns the id of the first."""
    with store.org(ctx) as repo:
        ids = [repo.trips.create(f"Trip {i}").trip_id for i in range(trips)]
    return ids[0]


def run(url: str | None = None, quick: bool = False) -> dict:
    reps = 10 if quick else 50
    itinerary = _itinerary()
    with tempfile.TemporaryDirectory() as tmp:
        with Store.open(url or f"sqlite:///{Path(tmp) / 'bench.db'}") as store:
            accounts = Accounts(store, SecretStore(), hasher=PasswordHasher(time_cost=1, memory_cost=256, parallelism=1))
            ctx = accounts.create_org(f"bench-{time.time_ns()}", "bench@example.com", None)
            save_trip = _fill(store, ctx, 1)
            open_trip = _fill(store, ctx, 999)

            def save() -> None:
                with store.org(ctx) as repo:
                    repo.versions.save(save_trip, itinerary)

            def listing() -> None:
                with store.org(ctx) as repo:
                    assert len(repo.trips.list()) == 1000

            for _ in range(20):
                with store.org(ctx) as repo:
                    repo.versions.save(open_trip, itinerary)

            def opening() -> None:
                with store.org(ctx) as repo:
                    assert len(repo.trips.open(open_trip).versions) == 20

            workspace = Workspace(store, accounts)
            workspace.sign_in(Login(ctx))

            def reopening() -> None:
                assert len(workspace.open_trip(open_trip).session.versions) == 20

            figures = {"engine": store.url.get_backend_name(),
                       "save_version_ms": _p50_ms(save, reps),
                       "list_1000_trips_ms": _p50_ms(listing, reps),
                       "open_trip_20_versions_ms": _p50_ms(opening, reps),
                       "app_reopen_20_versions_ms": _p50_ms(reopening, max(reps // 5, 3))}
            if store.path is not None:  # the daily copy: VACUUM INTO of this whole database
                figures["daily_backup_ms"] = _p50_ms(lambda: sqlite_file.backup(store.path, "daily"), max(reps // 5, 3))
                figures["store_open_ms"] = _p50_ms(lambda: Store.open(str(store.url)).close(), max(reps // 5, 3))
            return figures


def main(argv: list[str]) -> int:
    url = argv[argv.index("--url") + 1] if "--url" in argv else None
    figures = run(url, quick="--quick" in argv)
    if "--json" in argv:
        print(json.dumps(figures, indent=2))
        return 0
    for key, value in figures.items():
        target = TARGETS_MS.get(key) if figures["engine"] == "sqlite" else None  # targets are for SQLite
        print(f"{key:28} {value}" + (f"  (target ≤ {target} ms{'' if value <= target else ', MISSED'})"
                                     if target else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
