"""The default engine's file: where it lives, the checks before opening it, rolling backups, and
recovery from a damaged or emptied file.

Everything here uses the stdlib ``sqlite3`` module directly, before SQLAlchemy touches the file,
so a corrupt or locked file is reported without being written to. A damaged or 0-byte database is
never silently started afresh: it is moved aside and the newest good backup restored, with one
line saying so (``Recovery.notice``); with no good backup a damaged file is left where it is and
the store refuses to open (an empty file with no backup at all has nothing to restore: it is
moved aside and a new database started, and the user is told).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

import platformdirs

from ..errors import StoreError

DB_NAME = "tripwright.db"
BACKUP_DIR = "backups"
BACKUPS_KEPT = {"daily": 7, "migration": 3, "manual": 3}  # the last N of each kind
DAILY = timedelta(hours=24)  # a daily copy when the newest backup of any kind is older
SQLITE_MAGIC = b"SQLite format 3\x00"
# The newest revision in migrations/versions (migrate.HEAD; tests/store/test_migrations.py checks): here,
# with the standard library, so a read that needs a current schema (trip_rows) can tell without SQLAlchemy.
SCHEMA_HEAD = "0009"


def data_dir() -> Path:
    """``TRIPWRIGHT_HOME`` when set (tests, portable installs), else the platform's data dir."""
    home = os.environ.get("TRIPWRIGHT_HOME")
    return Path(home) if home else platformdirs.user_data_path("tripwright", appauthor=False)


def default_path() -> Path:
    return data_dir() / DB_NAME


@dataclass(frozen=True)
class Preflight:
    has_data: bool
    notice: str = ""  # one line for the user when the file had to be recovered


def has_own_notes(path: Path) -> bool:
    """Whether the SQLite file holds a note someone imported (not only Tripwright's own): one
    read-only query with the standard library, so a plain ``plan`` on a store with no notes of
    the traveller's pays neither SQLAlchemy nor the sign-in (~0.5 s). In doubt (locked, damaged),
    True: the full path decides and says why."""
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1.0) as conn:
            row = conn.execute("SELECT 1 FROM knowledge_item WHERE source_kind != 'tripwright' "
                               "AND deleted_at IS NULL LIMIT 1").fetchone()
    except sqlite3.OperationalError as exc:
        return "no such table" not in str(exc)
    except sqlite3.DatabaseError:
        return True
    return row is not None


def preflight(path: Path, timeout_s: float) -> Preflight:
    """Refuse a file we must not touch, recover a damaged or emptied one from its backups."""
    _ensure_writable_dir(path.parent)
    if not path.exists():
        return Preflight(False)
    try:
        if path.stat().st_size == 0:
            raise _Damaged("empty (0 bytes)", empty=True)
        _check_header(path)
        _quick_check(path, timeout_s)
    except _Damaged as damage:
        return _recover(path, damage)
    return Preflight(True)


@contextlib.contextmanager
def opening(path: Path, timeout_s: float) -> Iterator[None]:
    """One opener at a time checks, recovers and migrates the file (``<db>.lock``, flock): a file
    another opener is creating this instant is never taken for an emptied one."""
    try:
        import fcntl
    except ImportError:  # Windows: no flock; openers are not serialised
        yield
        return
    _ensure_writable_dir(path.parent)
    fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise StoreError(f"the database {path} is being opened by another program; "
                                     "try again in a moment") from None
                time.sleep(0.02)
        yield
    finally:
        os.close(fd)


class _Damaged(Exception):
    def __init__(self, what: str, *, empty: bool = False) -> None:
        super().__init__(what)
        self.what = what
        self.empty = empty  # nothing in the file to lose


def _recover(path: Path, damage: _Damaged) -> Preflight:
    good = next((b for b in reversed(list_backups(path)) if _usable(b)), None)
    folder, what = path.parent / BACKUP_DIR, damage.what
    if good is None and not damage.empty:
        raise StoreError(f"{path} is {what} and no good backup is in {folder}; it was left untouched — "
                         "move it away to start a new database")
    aside = _move_aside(path)
    if good is None:
        return Preflight(False, f"the database {path} was {what} and there is no good backup in {folder}: "
                                f"it was moved to {aside.name} and a new, empty database started")
    _restore(good, path)
    made = datetime.fromtimestamp(good.stat().st_mtime, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return Preflight(True, f"the database {path} was {what}: it was moved to {aside.name} and the backup "
                           f"of {made} restored ({good}); changes made after that backup are lost")


def _usable(backup: Path) -> bool:
    try:
        _check_header(backup)
        return quick_check(backup) == "ok"
    except (_Damaged, StoreError, sqlite3.Error):
        return False


def _move_aside(path: Path) -> Path:
    """``tripwright-damaged-<stamp>.db`` beside it, with its -wal/-shm (a stale WAL must never be
    replayed onto the restored file)."""
    aside = path.with_name(f"{path.stem}-damaged-{_stamp()}{path.suffix}")
    for suffix in ("", "-wal", "-shm"):
        source = Path(f"{path}{suffix}")
        if source.exists():
            source.replace(Path(f"{aside}{suffix}"))
    return aside


def _restore(backup: Path, path: Path) -> None:
    from engine.atomic import atomic_path
    with atomic_path(path) as partial:
        shutil.copyfile(backup, partial)


def _stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")


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
        raise _Damaged("not a SQLite database (corrupt or a foreign file)")


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
        raise _Damaged(f"damaged ({exc})") from None
    if rows != [("ok",)]:
        first = rows[0][0] if rows else "no answer"
        raise _Damaged(f"damaged (integrity check: {first})")


def describe_sqlite_error(path: Path, exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if "locked" in text or "busy" in text:
        return (f"the database {path} is locked by another program (is Tripwright already running?); "
                "try again when it is closed")
    if "readonly" in text or "read-only" in text:
        return f"the database {path} is read-only; Tripwright needs to write to it"
    return f"the database {path} cannot be used: {text}"


def backup(path: Path, label: str) -> Path:
    """Copy the live database with ``VACUUM INTO`` (consistent even with WAL) and keep the last
    few of its kind (daily, before a migration, manual). Written atomically: a crash mid-copy
    leaves no half backup among the backups."""
    from engine.atomic import atomic_path
    folder = path.parent / BACKUP_DIR
    folder.mkdir(exist_ok=True)
    target = folder / f"{path.stem}-{_stamp()}-{label}.db"
    try:
        with atomic_path(target) as staged:
            conn = sqlite3.connect(path, isolation_level=None)
            try:
                conn.execute("VACUUM INTO ?", (str(staged),))
            finally:
                conn.close()
    except sqlite3.Error as exc:
        raise StoreError(f"could not back up {path} to {folder}: {exc}") from None
    kind = _kind(target)
    for old in [b for b in list_backups(path) if _kind(b) == kind][:-BACKUPS_KEPT[kind]]:
        old.unlink(missing_ok=True)
    return target


def _kind(backup: Path) -> str:
    label = backup.stem.rsplit("-", 1)[-1]
    return "migration" if label.startswith("rev") else label if label in BACKUPS_KEPT else "manual"


def daily_backup_due(path: Path) -> bool:
    """True when no backup of any kind was made in the last 24 hours."""
    newest = list_backups(path)[-1:]
    return not newest or time.time() - newest[0].stat().st_mtime > DAILY.total_seconds()


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
