"""The audit log: who did what, when — written in the same transaction as the change itself.

Append-only twice over: the ORM refuses to update or delete an entry (tenancy guard) and a
database trigger refuses it too. ``detail`` is checked so no secret can be written by mistake.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from .records import AuditRecord
from .schema import AuditEntry

SECRET_KEY = re.compile(r"password|passwd|token|secret|api_?key|hash|credential", re.IGNORECASE)

# The actions issue 4 asks for; other issues may add their own strings.
LOGIN = "login"
LOGIN_FAILED = "login_failed"
LOCKED_OUT = "locked_out"
LOGOUT = "logout"
PASSWORD_SET = "password_set"
TOKEN_REUSE = "remember_token_reuse"
TRIP_CREATED = "trip_created"
TRIP_RENAMED = "trip_renamed"
TRIP_DELETED = "trip_deleted"
TRIP_DISCARDED = "trip_discarded"  # a new trip removed again: its first plan never produced a version
VERSION_SAVED = "version_saved"
EXPORTED = "exported"
SETTINGS_CHANGED = "settings_changed"
KEY_CHANGED = "key_changed"


def _check_detail(detail: dict[str, Any]) -> dict[str, Any]:
    bad = [k for k in detail if SECRET_KEY.search(k)]
    if bad:
        raise ValueError(f"audit detail must not carry secrets (keys {bad})")
    return detail


def record(session: Session, *, org_id: str, user_id: str | None, action: str, target_type: str = "",
           target_id: str = "", **detail: Any) -> None:
    """Add one entry to the caller's transaction (flushed and committed with the change)."""
    session.add(AuditEntry(org_id=org_id, user_id=user_id, action=action, target_type=target_type,
                           target_id=target_id, detail=_check_detail(detail)))


def entries(session: Session, *, action: str | None = None, limit: int = 200) -> list[AuditRecord]:
    """Newest first, within the session's org (the tenancy criteria add the org filter)."""
    stmt = select(AuditEntry).order_by(AuditEntry.entry_id.desc()).limit(limit)
    if action:
        stmt = stmt.where(AuditEntry.action == action)
    return [_record(e) for e in session.scalars(stmt)]


def _record(e: AuditEntry) -> AuditRecord:
    return AuditRecord(ts=e.ts, org_id=e.org_id, user_id=e.user_id, action=e.action,
                       target_type=e.target_type, target_id=e.target_id, detail=dict(e.detail or {}))
