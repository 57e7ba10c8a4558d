"""The default engine's file: where it lives, the checks before opening it, rotating backups.

Everything here uses the stdlib ``sqlite3`` module directly, before SQLAlchemy touches the file,
so a corrupt or locked file is reported without being written to.
"""

from __future__ import annotations

import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import platformdirs

from ..errors import StoreError

DB_NAME = "tripwright.db"
BACKUP_DIR = "backups"
BACKUPS_KEPT = 3
SQLITE_MAGIC = b"SQLite format 3\x00"


def data_dir() -> Path:
    """``TRIPWRIGHT_HOME`` when set (tests, portable installs), else the platform's data dir."""
    home = os.environ.get("TRIPWRIGHT_HOME")
    return Path(home) if home else platformdirs.user_data_path("tripwright", appauthor=False)


def default_path() -> Path:
    return data_dir() / DB_NAME


def preflight(path: Path, timeout_s: float) -> bool:
    """Refuse a file we must not touch; returns whether the file already holds data."""
    _ensure_writable_dir(path.parent)
    if not path.exists() or path.stat().st_size == 0:
        return False
    _check_header(path)
    _quick_check(path, timeout_s)
    return True


def _ensure_writable_dir(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the data directory {folder}: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StoreError(f"the data directory {folder} is read-only; Tripwright needs to write there "
                         "(set TRIPWRIGHT_HOME to a writable folder)")


def _check_header(path: Path) -> None:
    try:
        with path.open("rb") as fh:
            head = fh.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise StoreError(f"cannot read the database {path}: {exc.strerror or exc}") from None
    if head != SQLITE_MAGIC:
        raise StoreError(f"{path} is not a Tripwright database (corrupt or foreign file); it was left "
                         "untouched — move it away or restore a backup")


def _quick_check(path: Path, timeout_s: float) -> None:
    """``PRAGMA quick_check`` read-only; a lock or a damaged page becomes one clear line."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=timeout_s)
        try:
            rows = conn.execute("PRAGMA quick_check").fetchall()
        finally:
            conn.close()
    except sqlite3.OperationalError as exc:
        raise StoreError(describe_sqlite_error(path, exc)) from None
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path} is damaged ({exc}); it was left untouched — restore a backup") from None
    if rows != [("ok",)]:
        first = rows[0][0] if rows else "no answer"
        raise StoreError(f"{path} failed its integrity check ({first}); it was left untouched — "
                         "restore a backup")


def describe_sqlite_error(path: Path, exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if "locked" in text or "busy" in text:
        return (f"the database {path} is locked by another program (is Tripwright already running?); "
                "try again when it is closed")
    if "readonly" in text or "read-only" in text:
        return f"the database {path} is read-only; Tripwright needs to write to it"
    return f"the database {path} cannot be used: {text}"


def backup(path: Path, label: str) -> Path:
    """Copy the live database with ``VACUUM INTO`` (consistent even with WAL) and keep the last 3."""
    folder = path.parent / BACKUP_DIR
    folder.mkdir(exist_ok=True)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    target = folder / f"{path.stem}-{stamp}-{label}.db"
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("VACUUM INTO ?", (str(target),))
    finally:
        conn.close()
    for old in list_backups(path)[:-BACKUPS_KEPT]:
        old.unlink(missing_ok=True)
    return target


def list_backups(path: Path) -> list[Path]:
    """Oldest first (names carry a sortable UTC stamp)."""
    folder = path.parent / BACKUP_DIR
    return sorted(folder.glob(f"{path.stem}-*.db")) if folder.is_dir() else []


def quick_check(path: Path) -> str:
    """The raw answer of ``PRAGMA quick_check`` (``"ok"`` when healthy), for tests and diagnostics."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return "\n".join(r[0] for r in conn.execute("PRAGMA quick_check").fetchall())
    finally:
        conn.close()
