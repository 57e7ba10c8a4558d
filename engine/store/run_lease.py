"""Which ``running`` runs still have a live owner: a lease per run, held by the process doing it.

A run row says ``running`` until its process closes it, so a process killed mid-plan leaves the
row (and its idempotency claim) looking busy. The lease tells a live run from an orphan without a
schema change, and the OS or the server drops it however the owner dies (SIGKILL included):

- SQLite: ``<database>.runs/<run_id>.lock`` beside the database file, ``flock``-ed by the owner;
- PostgreSQL: a session advisory lock keyed by the run id, on a connection the owner keeps open,
  so a run of another machine sharing the server is judged the same way.

A run started without a lease (``Runs.start`` called directly, or by an older Tripwright) counts
as orphaned once its process is not the one asking.
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

from sqlalchemy import Engine, text

try:
    import fcntl
except ImportError:  # Windows: no flock; leases are then never held (runs judged as before)
    fcntl = None  # type: ignore[assignment]

ADVISORY_NAMESPACE = 741_320  # first key of pg_advisory_lock(int4, int4): ours, apart from the migration lock


class Lease:
    """Held until :meth:`release` (idempotent) or until the process dies."""

    def __init__(self, release: object = None) -> None:
        self._release = release

    def release(self) -> None:
        release, self._release = self._release, None
        if callable(release):
            release()


class RunLeases:
    def __init__(self, engine: Engine, sqlite_path: Path | None) -> None:
        self._engine = engine
        self._folder = sqlite_path.with_name(sqlite_path.name + ".runs") if sqlite_path else None
        self._held: set[Lease] = set()
        self._lock = threading.Lock()

    def hold(self, run_id: str) -> Lease:
        lease = self._hold(run_id)
        with self._lock:
            self._held.add(lease)
        inner = lease._release

        def release() -> None:
            with self._lock:
                self._held.discard(lease)
            if callable(inner):
                inner()
        lease._release = release
        return lease

    def release_all(self) -> None:
        """On ``Store.close``: runs of a closed store can no longer be recorded, and a PostgreSQL
        lease holds a pooled connection that must not outlive the engine."""
        with self._lock:
            held = list(self._held)
        for lease in held:
            lease.release()

    def _hold(self, run_id: str) -> Lease:
        if self._folder is None:
            return self._hold_advisory(run_id)
        if fcntl is None:
            return Lease()
        self._folder.mkdir(exist_ok=True)
        path = self._file(run_id)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a fresh run id: nobody else holds it
        os.write(fd, f"pid {os.getpid()}\n".encode())

        def release() -> None:
            path.unlink(missing_ok=True)  # before unlocking: a checker never finds a stale file
            os.close(fd)
        return Lease(release)

    def is_held(self, run_id: str) -> bool:
        """Whether a live process (this one included) holds the run's lease."""
        if self._folder is None:
            return self._advisory_held(run_id)
        if fcntl is None:
            return False
        path = self._file(run_id)
        try:
            fd = os.open(path, os.O_RDWR)
        except FileNotFoundError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        finally:
            os.close(fd)
        path.unlink(missing_ok=True)  # its owner died without cleaning up
        return False

    def _file(self, run_id: str) -> Path:
        safe = hashlib.sha256(run_id.encode()).hexdigest()[:32]  # any run id, a safe file name
        return self._folder / f"{safe}.lock"  # type: ignore[operator]

    # -- PostgreSQL ----------------------------------------------------------------------------
    @staticmethod
    def _key(run_id: str) -> int:
        return int.from_bytes(hashlib.sha256(run_id.encode()).digest()[:4], "big", signed=True)

    def _hold_advisory(self, run_id: str) -> Lease:
        conn = self._engine.connect()
        try:
            conn.execute(text("SELECT pg_advisory_lock(:ns, :key)"), {"ns": ADVISORY_NAMESPACE, "key": self._key(run_id)})
            conn.commit()  # the lock is the session's; no transaction stays open
        except BaseException:
            conn.close()
            raise

        def release() -> None:
            try:
                conn.execute(text("SELECT pg_advisory_unlock(:ns, :key)"),
                             {"ns": ADVISORY_NAMESPACE, "key": self._key(run_id)})
                conn.commit()
            finally:
                conn.close()
        return Lease(release)

    def _advisory_held(self, run_id: str) -> bool:
        params = {"ns": ADVISORY_NAMESPACE, "key": self._key(run_id)}
        with self._engine.connect() as conn:
            free = conn.execute(text("SELECT pg_try_advisory_lock(:ns, :key)"), params).scalar()
            if free:
                conn.execute(text("SELECT pg_advisory_unlock(:ns, :key)"), params)
            conn.commit()
        return not free
