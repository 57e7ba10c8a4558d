"""Engines for the two supported databases, and translation of driver errors into StoreError.

SQLite (default): one file, WAL so the UI can read while a plan is saved, foreign keys on (off by
default in SQLite), ``synchronous=NORMAL`` (durable against a process crash, which is what the
SIGKILL test proves), explicit ``BEGIN`` so pysqlite's implicit transactions never surprise us.
PostgreSQL (teams): any ``postgresql://`` URL, driven by psycopg 3.
"""

from __future__ import annotations

import sqlite3
import time

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError

from ..errors import StoreError
from .sqlite_file import default_path, describe_sqlite_error

ENV_URL = "TRIPWRIGHT_DATABASE_URL"
PG_CONNECT_TIMEOUT_S = 5


def resolve_url(url: str | None) -> URL:
    """The explicit URL, else ``TRIPWRIGHT_DATABASE_URL``, else the SQLite file in the data dir."""
    raw = url or os.environ.get(ENV_URL) or f"sqlite:///{default_path()}"
    try:
        parsed = make_url(raw)
    except ArgumentError:
        raise StoreError("the database URL is not valid (expected sqlite:///PATH or postgresql://...)") from None
    backend = parsed.get_backend_name()
    if backend == "postgresql":
        return parsed.set(drivername="postgresql+psycopg")
    if backend == "sqlite":
        if not parsed.database or parsed.database == ":memory:":
            raise StoreError("an in-memory SQLite database cannot hold trips; give a file path")
        return parsed.set(drivername="sqlite+pysqlite")
    raise StoreError(f"unsupported database {backend!r}: use SQLite (default) or PostgreSQL")


def sqlite_path(url: URL) -> Path | None:
    return Path(url.database).resolve() if url.get_backend_name() == "sqlite" and url.database else None


def safe_url(url: URL) -> str:
    """The URL for messages and logs: never the password."""
    return url.render_as_string(hide_password=True)


def make_engine(url: URL, *, busy_timeout_s: float = 5.0) -> Engine:
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(url, busy_timeout_s)
    return create_engine(url, pool_pre_ping=True, connect_args={"connect_timeout": PG_CONNECT_TIMEOUT_S})


def _set_wal(cur, busy_timeout_s: float) -> None:  # noqa: ANN001 (DBAPI cursor)
    """Switch to WAL, retrying while another opener holds the lock: SQLite answers a journal-mode
    change with SQLITE_BUSY at once, without calling the busy handler (seen when two processes
    open a new database together)."""
    deadline = time.monotonic() + busy_timeout_s
    while True:
        try:
            cur.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _sqlite_engine(url: URL, busy_timeout_s: float) -> Engine:
    engine = create_engine(url, connect_args={"timeout": busy_timeout_s, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _configure(dbapi_conn, _record) -> None:  # noqa: ANN001 (DBAPI objects)
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves (below)
        cur = dbapi_conn.cursor()
        _set_wal(cur, busy_timeout_s)
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute(f"PRAGMA busy_timeout={int(busy_timeout_s * 1000)}")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn) -> None:  # noqa: ANN001
        # IMMEDIATE takes the write lock up front (migrations); plain BEGIN lets readers share.
        immediate = conn.get_execution_options().get("sqlite_immediate")
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


def describe(url: URL, exc: BaseException) -> str:
    """One line for any database failure, never the password, never a traceback."""
    cause = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    path = sqlite_path(url)
    if path is not None:
        return describe_sqlite_error(path, cause)
    text = (str(cause).strip().splitlines() or [type(cause).__name__])[0]
    if isinstance(exc, DBAPIError) and exc.connection_invalidated or "connect" in text.lower():
        return f"cannot reach the PostgreSQL server at {safe_url(url)}: {text}"
    return f"the database at {safe_url(url)} failed: {text}"


@contextlib.contextmanager
def translated(url: URL) -> Iterator[None]:
    """Re-raise driver and SQLAlchemy errors as a one-line StoreError."""
    try:
        yield
    except SQLAlchemyError as exc:
        raise StoreError(describe(url, exc)) from None
