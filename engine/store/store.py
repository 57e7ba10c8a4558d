"""The store facade: open (check, back up, migrate), then work inside one org at a time.

    store = Store.open()                      # SQLite in the data dir, or TRIPWRIGHT_DATABASE_URL
    ctx = Accounts(store).first_run()         # or .login(email, password) / .resume()
    with store.org(ctx) as repo:              # one Session, one transaction, one org
        trip = repo.trips.create("Paris in June")
        repo.versions.save(trip.trip_id, itinerary)

Every failure of the database itself surfaces as a one-line :class:`StoreError`.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import structlog
from sqlalchemy import Engine, text
from sqlalchemy.engine import URL

from ..errors import StoreError
from . import audit, migrate, sqlite_file
from .cache import IdempotencyKeys, ToolCache
from .records import AuditRecord
from .database import make_engine, resolve_url, safe_url, sqlite_path, translated
from .run_lease import RunLeases
from .runs import Runs
from .tenancy import OrgContext, OrgSession, org_session, system_session
from .trips import Trips

if TYPE_CHECKING:
    from .group import GroupPlanning
    from .knowledge import Knowledge
    from .versions import Versions

log = structlog.get_logger("tripwright.store")


class OrgScope:
    """The repositories of one org context, sharing one Session (and so one transaction).

    ``versions``, ``knowledge`` and ``group`` are made on first use: their modules load the plan
    models and numpy, which a ``trips list`` never needs (issue 34 §5)."""

    def __init__(self, session: OrgSession, ctx: OrgContext, leases: RunLeases | None = None) -> None:
        self.session = session
        self.ctx = ctx
        self.trips = Trips(session, ctx)
        self.runs = Runs(session, ctx, leases)
        self.tool_cache = ToolCache(session, ctx)
        self.idempotency = IdempotencyKeys(session, ctx)

    @functools.cached_property
    def versions(self) -> "Versions":
        from .versions import Versions
        return Versions(self.session, self.ctx)

    @functools.cached_property
    def knowledge(self) -> "Knowledge":
        from .knowledge import Knowledge
        return Knowledge(self.session, self.ctx)

    @functools.cached_property
    def group(self) -> "GroupPlanning":
        from .group import GroupPlanning
        return GroupPlanning(self.session, self.ctx)

    def audit(self, action: str, *, target_type: str = "", target_id: str = "", **detail: Any) -> None:
        """Record an action the store does not see itself (exports, settings and key changes)."""
        audit.record(self.session, org_id=self.ctx.org_id, user_id=self.ctx.user_id, action=action,
                     target_type=target_type, target_id=target_id, **detail)

    def audit_log(self, *, action: str | None = None, limit: int = 200) -> list[AuditRecord]:
        return audit.entries(self.session, action=action, limit=limit)


class Store:
    def __init__(self, engine: Engine, url: URL) -> None:
        self._engine = engine
        # SQLite: BEGIN IMMEDIATE for transactions that read and then write (see ``org``).
        self._writer = engine.execution_options(sqlite_immediate=True)
        self.url = url
        self.run_leases = RunLeases(engine, sqlite_path(url))
        self.recovery = ""  # set by open(): what was done to a damaged database, for the user

    @classmethod
    def open(cls, url: str | None = None, *, busy_timeout_s: float = 5.0) -> "Store":
        """Check the file (SQLite: recover a damaged or emptied one from its backups, take the
        daily backup), back it up and migrate when the schema is behind, and return a ready
        store; ``recovery`` then holds the one line to show the user, if any. Raises StoreError
        with one line when the database cannot be used."""
        resolved = resolve_url(url)
        path = sqlite_path(resolved)
        with sqlite_file.opening(path, busy_timeout_s) if path else contextlib.nullcontext():
            checked = sqlite_file.preflight(path, busy_timeout_s) if path else sqlite_file.Preflight(False)
            engine = make_engine(resolved, busy_timeout_s=busy_timeout_s)
            try:
                with translated(resolved):
                    migrated = migrate.upgrade(engine, before=lambda rev: cls._backup_before(path, rev, checked.has_data))
                # after the schema check: a database this build refuses is left byte for byte
                if path and checked.has_data and sqlite_file.daily_backup_due(path):
                    cls._daily_backup(path)
            except BaseException:
                engine.dispose()
                raise
        if checked.notice:
            log.info("store_recovered", notice=checked.notice)  # the caller shows the notice itself
        log.debug("store_opened", database=safe_url(resolved), migrated=migrated)
        store = cls(engine, resolved)
        store.recovery = checked.notice
        return store

    @staticmethod
    def _daily_backup(path: Path) -> None:
        """A missed daily copy (disk full) must not keep the user from their trips: logged only."""
        try:
            sqlite_file.backup(path, "daily")
        except StoreError as exc:
            log.warning("daily_backup_failed", error=str(exc))

    @staticmethod
    def _backup_before(path: Path | None, rev: str | None, has_data: bool) -> None:
        if path is not None and has_data:
            sqlite_file.backup(path, f"rev{rev or 'none'}")

    # -- facts ---------------------------------------------------------------------------------
    @property
    def is_sqlite(self) -> bool:
        return self.url.get_backend_name() == "sqlite"

    @property
    def path(self) -> Path | None:
        return sqlite_path(self.url)

    @property
    def display_url(self) -> str:
        return safe_url(self.url)

    @property
    def identity(self) -> str:
        """A short stable name for this database (keyring entries are per database)."""
        return hashlib.sha256(self.display_url.encode()).hexdigest()[:16]

    def schema_revision(self) -> str | None:
        with translated(self.url), self._engine.connect() as conn:
            return migrate.current(conn)

    # -- sessions --------------------------------------------------------------------------------
    @contextlib.contextmanager
    def org(self, ctx: OrgContext | None, *, write: bool = False) -> Iterator[OrgScope]:
        """One Session for one org context; commits on success, rolls back on any error.

        ``write=True`` takes SQLite's write lock when the transaction begins. Use it when a
        transaction reads before it writes and may run beside another writer (a worker thread
        recording a run while the UI saves): a plain ``BEGIN`` would fail at its first write
        with "database is locked" once the other writer commits (a stale WAL snapshot cannot be
        upgraded), whereas ``BEGIN IMMEDIATE`` simply waits its turn. PostgreSQL ignores it."""
        engine = self._writer if write else self._engine
        with self._transaction(org_session(engine, ctx)) as session:
            yield OrgScope(session, ctx, self.run_leases)  # type: ignore[arg-type]

    @contextlib.contextmanager
    def system(self) -> Iterator[OrgSession]:
        """Unscoped session for the account service, first run and retention (store-internal)."""
        with self._transaction(system_session(self._engine)) as session:
            yield session

    @contextlib.contextmanager
    def _transaction(self, session: OrgSession) -> Iterator[OrgSession]:
        try:
            with translated(self.url):
                with session.begin():
                    yield session
        finally:
            session.close()

    # -- maintenance -------------------------------------------------------------------------------
    def backup(self) -> Path:
        if self.path is None:
            raise StoreError("backups of a PostgreSQL database are the server's job (pg_dump)")
        return sqlite_file.backup(self.path, "manual")

    def integrity(self) -> str:
        """``"ok"`` or the first problem (SQLite ``quick_check``; PostgreSQL: a round trip)."""
        if self.path is not None:
            return sqlite_file.quick_check(self.path)
        with translated(self.url), self._engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        return "ok"

    def close(self) -> None:
        self.run_leases.release_all()
        self._engine.dispose()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

