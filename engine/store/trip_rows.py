"""``tripwright trips list`` on the personal SQLite file, read with the standard library only.

Opening the store the full way (SQLAlchemy, the pydantic records, the sign-in) costs most of a
second before the first row; a list of trips reads five columns of one table. So when the full
open would do nothing but read — the file is healthy, its schema current, no daily backup due,
the personal user needs no password, and no run of theirs is left ``running`` for the sign-in to
fail — ``personal_trips`` answers with one read-only query. In every other case (no file yet, a
damaged or old one, a login, an orphaned run, a lock) it returns None and the caller takes the
full path, which recovers, migrates, backs up, signs in or fails the orphans as before.

The rows are what ``Trips.list`` gives for the same org, in the same order (a test compares them).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from . import sqlite_file

LIST_SQL = ("SELECT trip_id, name, mode, version_count, updated_at FROM trip "
            "WHERE org_id = ? AND deleted_at IS NULL ORDER BY updated_at DESC, trip_id")


@dataclass(frozen=True)
class TripRow:
    """The columns the list shows (a ``TripSummary``'s, without the model behind it)."""
    trip_id: str
    name: str
    mode: str
    version_count: int
    updated_at: datetime


def personal_trips(path: Path) -> list[TripRow] | None:
    """The personal org's trips, most recently changed first; None when only the full open may answer."""
    if not path.is_file() or path.stat().st_size == 0 or sqlite_file.daily_backup_due(path):
        return None
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1.0)
    except sqlite3.Error:
        return None
    try:
        return _read(conn)
    except sqlite3.Error:
        return None
    finally:
        conn.close()


def _read(conn: sqlite3.Connection) -> list[TripRow] | None:
    if conn.execute("PRAGMA quick_check").fetchall() != [("ok",)]:  # what the full open checks first
        return None
    revision = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    if revision is None or revision[0] != sqlite_file.SCHEMA_HEAD:
        return None
    # Accounts.first_run's query: the personal org's user, who signs in without a password
    user = conn.execute('SELECT u.org_id, u.user_id, u.password_hash FROM "user" u JOIN org o '
                        "ON o.org_id = u.org_id WHERE o.personal = 1 LIMIT 1").fetchone()
    if user is None or user[2] is not None:
        return None
    org_id, user_id, _ = user
    if conn.execute("SELECT 1 FROM agent_run WHERE status = 'running' AND user_id = ? LIMIT 1",
                    (user_id,)).fetchone() is not None:
        return None  # the full sign-in fails it (or leaves it to its live owner)
    return [TripRow(trip_id, name, mode, version_count, _utc(updated_at))
            for trip_id, name, mode, version_count, updated_at in conn.execute(LIST_SQL, (org_id,))]


def _utc(stored: str) -> datetime:
    """SQLAlchemy's SQLite DateTime text (naive UTC), aware as ``UTCDateTime`` returns it."""
    return datetime.fromisoformat(stored).replace(tzinfo=timezone.utc)
