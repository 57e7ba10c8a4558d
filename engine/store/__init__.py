"""Persistence: org-scoped repositories over SQLite (default) or PostgreSQL (teams).

Public surface (ORM rows never leave this package; everything returned is a pydantic record):
``Store`` (open/migrate/backup), ``OrgContext`` + ``Store.org(ctx)`` → ``OrgScope`` with
``trips``, ``versions``, ``runs``, ``tool_cache``, ``idempotency`` and ``audit``; ``Accounts``
(first run, passwords, lockout, remember-me) over a ``SecretStore``; ``prune`` (retention).
"""

from .accounts import Accounts, Login
from .records import (AuditRecord, Checkpoint, DayChange, IdempotencyHit, RunDetail, RunStatus, TripDetail,
                      TripSummary, Version, VersionDiff, VersionSummary)
from .retention import PruneReport, prune
from .secret_store import SecretStore
from .store import OrgScope, Store
from .tenancy import OrgContext

__all__ = ["Accounts", "AuditRecord", "Checkpoint", "DayChange", "IdempotencyHit", "Login", "OrgContext",
           "OrgScope", "PruneReport", "RunDetail", "RunStatus", "SecretStore", "Store", "TripDetail",
           "TripSummary", "Version", "VersionDiff", "VersionSummary", "prune"]
