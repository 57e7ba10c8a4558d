"""Programmatic Alembic: the app migrates itself on open, after a backup, never downgrading.

A database stamped with a revision this build does not know was written by a newer Tripwright:
we stop with a clear message instead of guessing (and touch nothing).

Alembic (about 11 MB and a parse of every migration script) is loaded only when the schema is
not at ``HEAD``: a database already current, every start but the first after an update, is
checked with one SELECT. A test keeps ``HEAD`` equal to the newest migration script.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sqlalchemy import Connection, Engine, inspect, text

from ..errors import StoreError
from .sqlite_file import SCHEMA_HEAD

SCRIPTS = Path(__file__).resolve().parent / "migrations"
MIGRATION_LOCK = 7_413_200_404  # any fixed number: one migrator at a time per database
HEAD = SCHEMA_HEAD  # the newest revision (set in sqlite_file.py; tests/store/test_migrations.py checks)


def alembic_config():  # noqa: ANN201 (alembic.config.Config, imported on demand)
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(SCRIPTS))
    return cfg


def scripts():  # noqa: ANN201 (alembic.script.ScriptDirectory)
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config())


def head() -> str:
    return scripts().get_current_head() or ""


def current(conn: Connection) -> str | None:
    """The stamped revision (None for an empty database), read without Alembic."""
    if not inspect(conn).has_table("alembic_version"):
        return None
    return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def pending(engine: Engine) -> tuple[str | None, bool]:
    """(current revision, whether an upgrade is needed); StoreError when the schema is newer."""
    with engine.connect() as conn:
        rev = current(conn)
    if rev == HEAD:
        return rev, False
    if rev is not None and _unknown(rev):
        raise StoreError(f"the database schema (revision {rev}) is newer than this Tripwright "
                         f"(knows up to {head()}); update Tripwright — the data was left untouched")
    return rev, rev != head()


def _unknown(rev: str) -> bool:
    try:
        return scripts().get_revision(rev) is None
    except Exception:  # noqa: BLE001 — alembic raises its own error types for unknown ids
        return True


def upgrade(engine: Engine, *, before: Callable[[str | None], None] | None = None) -> bool:
    """Bring the schema to head; ``before(current)`` runs first (the backup). Returns whether
    anything was applied. Two processes starting at once: the second waits for the first's
    lock (SQLite ``BEGIN IMMEDIATE``, a PostgreSQL advisory lock), then finds nothing to do."""
    _, needed = pending(engine)
    if not needed:
        return False
    cfg = alembic_config()
    with engine.connect() as conn:
        conn = conn.execution_options(sqlite_immediate=True)
        with conn.begin():
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            rev = current(conn)
            if rev == head():
                return False
            if before is not None:
                before(rev)
            from alembic import command

            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
    return True
