"""Persistence: org-scoped repositories over SQLite (default) or PostgreSQL (teams).

Public surface (ORM rows never leave this package; everything returned is a pydantic record):
``Store`` (open/migrate/backup), ``OrgContext`` + ``Store.org(ctx)`` → ``OrgScope`` with
``trips``, ``versions``, ``runs``, ``tool_cache``, ``idempotency`` and ``audit``; ``Accounts``
(first run, passwords, lockout, remember-me) over a ``SecretStore``; ``prune`` (retention);
``PlanRecorder`` (a planning run recorded live, idempotent, saved as a version).

The names are loaded on first use (PEP 562): SQLAlchemy, Alembic and Argon2 take about a second
to import, and a widget that only needs ``engine.store.records`` must not pay it at app start.

persistence (issue 4; `engine/store/__init__` loads its names on first use, so a widget importing
`engine.store.records` does not pay SQLAlchemy/Alembic/Argon2 at app start): `Store.open()` (SQLite file in
the data dir — `TRIPWRIGHT_HOME` overrides — WAL, foreign keys, `quick_check`; `VACUUM INTO` backups in
`backups/` — daily when none is younger than 24 h, before each migration, manual — keeping the last 7/3/3 of
each kind; a damaged or 0-byte file is moved aside as `tripwright-damaged-<stamp>.db` with its -wal/-shm and
the newest good backup restored, `Store.recovery` holding the one line the CLI and the app show; with no
good backup a damaged file is left untouched and the store refuses to open; checks, recovery and migration
run under `<db>.lock` so a file being created is never taken for an emptied one (`sqlite_file.py`;
`trip_rows.py`: `trips list` reads a healthy, current personal file with the standard library only); or
PostgreSQL from `TRIPWRIGHT_DATABASE_URL`), Alembic migrations (additive, run on open), `store.org(ctx)` →
one Session per `OrgContext` with `trips`/`versions`/`runs`/`tool_cache`/`idempotency`/`knowledge`
(destination notes: `knowledge_item` + `knowledge_chunk` with float32 vectors, migration 0006; 0008 writes
SQLite planner statistics for them so chunks are read by key; 0009 adds a pgvector column on PostgreSQL
offering the extension; full text in an FTS5 table on SQLite and a tsvector table on PostgreSQL, created by
the migration only and filled by triggers, each row carrying its org + destination scope)/`audit` returning
pydantic records (ORM rows never leave the package; `store.org(ctx, write=True)` = SQLite `BEGIN IMMEDIATE`
for read-then-write transactions beside another writer); versions are immutable (0002's trigger refuses
UPDATE; 0005's refuses DELETE while the trip exists, so only the trip purge's cascade removes them) and keep
the `PlanV1` they came from (`Version.plan_v1()`, so a reopened city trip is edited again) and a `note` (the
undo label) and `based_on` (the version they were made from; `Versions.links` reads number/parent/note from
one covering index, `lineage.undo_line` rebuilds the history the user had from them); since migration 0004
the itinerary, the plan and a run's checkpoints are stored as zlib-compressed canonical JSON
(`columns.PackedJSON`, `*_z` columns; rows from before keep their JSON columns, readers fall back to them)
and a run's checkpoints name its version's plan instead of repeating it (`checkpoints.py`): ~13 KB per
version instead of 115 KB; LLM revisions (non-empty `llm_meta`) are capped per trip at
`TRIPWRIGHT_MAX_VERSIONS` (default 3, `VersionCapError`, counted under the trip lock), deterministic re-
plans never; `PlanRecorder` (`recorder.py`, Qt-free, thread-safe, no Session kept between calls) records a
planning run live: `begin` claims the idempotency key (trip + canonical intent digest + `request_key`),
creates the trip when none is given and starts the run, or returns the duplicate (saved → `.duplicate`, in
flight → `.duplicate_pending`); `event` buffers and writes every 25 events (`record_events` writes a
caller's batch); `finish` saves the version (itinerary, intent, plan, repairs, run id, note, `based_on`) and
completes the claim; `abandon` (failed, cancelled, raised, superseded) frees the claim and removes a trip
the ticket created if it has no version; each running run holds a lease (`run_lease.py`: a flock-ed
`<db>.runs/<hash>.lock` beside a SQLite file, a session advisory lock on PostgreSQL), dropped by the OS or
the server when its process dies; `fail_orphans` (app start-up and every CLI command that opens the store)
fails only runs whose lease nobody holds, frees their claims and removes the empty trip a killed first plan
created, and `begin` takes over a pending claim whose run has no live owner; `begin` refuses a `trip_id` of
another mode (`InputError`, exit 2 on the CLI); `tenancy.py` scopes every query (the `org` table included: a
session sees its own org only) and refuses the bypasses — `org_statements.py` groups the user's WHERE/ON so
`OR` cannot outrank the org filter and refuses raw-SQL FROMs, `table()`, Core tables and aliases, and
statements the ORM does not compile (`select(exists().where(...))`); org sessions begin explicitly and take
their one connection then (their `bind` refuses every later `connect()`); a session's org lives outside
`session.info` and cannot be changed; versions and the audit log cannot be updated or deleted (bulk or
`session.delete`), nor a trip with versions hard-deleted (the database would cascade them) — a later
migration should add the database-level twin, a `BEFORE DELETE` trigger on `itinerary_version` that refuses
when the row's trip still exists (so retention's purge cascade passes; checked on SQLite and PostgreSQL);
`Accounts` (personal first run, Argon2id, lockout, remember-me token in the keyring via `SecretStore`,
hashed in the DB); `prune` (retention)
"""

from __future__ import annotations

import importlib
from typing import Any

_HOME = {
    "Accounts": "accounts", "Login": "accounts",
    "AuditRecord": "records", "Checkpoint": "records", "DayChange": "records", "IdempotencyHit": "records",
    "RunDetail": "records", "RunStatus": "records", "TripDetail": "records", "TripSummary": "records",
    "Version": "records", "NoteItem": "records", "NoteChunk": "records", "VersionDiff": "records", "VersionSummary": "records",
    "PlanRecorder": "recorder", "RunTicket": "recorder",
    "PruneReport": "retention", "prune": "retention",
    "SecretStore": "secret_store",
    "OrgScope": "store", "Store": "store",
    "OrgContext": "tenancy",
}
__all__ = sorted(_HOME)  # noqa: PLE0605 — a list, built from the lazy-import table


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'engine.store' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
