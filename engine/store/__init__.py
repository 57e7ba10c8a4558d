"""Persistence: org-scoped repositories over SQLite (default) or PostgreSQL (teams).

Public surface (ORM rows never leave this package; everything returned is a pydantic record):
``Store`` (open/migrate/backup), ``OrgContext`` + ``Store.org(ctx)`` → ``OrgScope`` with
``trips``, ``versions``, ``runs``, ``tool_cache``, ``idempotency`` and ``audit``; ``Accounts``
(first run, passwords, lockout, remember-me) over a ``SecretStore``; ``prune`` (retention);
``PlanRecorder`` (a planning run recorded live, idempotent, saved as a version).

The names are loaded on first use (PEP 562): SQLAlchemy, Alembic and Argon2 take about a second
to import, and a widget that only needs ``engine.store.records`` must not pay it at app start.
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
