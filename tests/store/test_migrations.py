"""Schema and migrations: the app migrates itself, additively, after a backup, and never past a
schema it does not know."""

from __future__ import annotations

import re
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, event, text

from engine.errors import StoreError
from engine.store import OrgContext, Store, migrate, sqlite_file
from engine.store.database import make_engine, resolve_url
from engine.store.schema import Base
from engine.store.schema_notes import FULLTEXT_TABLES, VECTOR_COLUMN

from .conftest import planned, run_together

VERSIONS = Path(migrate.SCRIPTS) / "versions"


def test_a_new_database_is_at_head_and_matches_the_models(store):
    assert store.schema_revision() == migrate.head()
    def modelled(name, type_, _parent) -> bool:  # the full-text indexes live outside the models
        return not (type_ == "table" and name.startswith(FULLTEXT_TABLES)) and name != VECTOR_COLUMN

    with store._engine.connect() as conn:
        diffs = compare_metadata(MigrationContext.configure(conn, opts={"include_name": modelled}), Base.metadata)
    assert diffs == []


def test_head_is_the_newest_migration_script():
    assert migrate.HEAD == migrate.head()


def test_opening_a_current_database_does_not_load_alembic(tmp_path):
    import subprocess
    import sys

    url = f"sqlite:///{tmp_path / 'current.db'}"
    Store.open(url).close()  # created and migrated to head
    code = ("import sys\nfrom engine.store import Store\n"
            f"Store.open({url!r}).close()\n"
            "print(any(m == 'alembic' or m.startswith('alembic.') for m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "False"  # (unconfigured structlog may print before)


def test_no_migration_script_drops_anything():
    scripts = sorted(VERSIONS.glob("*.py"))
    assert len(scripts) >= 2
    for script in scripts:
        source = script.read_text(encoding="utf-8")
        assert not re.search(r"\bdrop\b|drop_", source, re.IGNORECASE), script.name
        assert "render_as_batch" not in source  # batch mode is set once, in env.py
    assert "render_as_batch=True" in (VERSIONS.parent / "env.py").read_text(encoding="utf-8")


def test_the_sql_the_migrations_send_has_no_drop(db_url):
    engine = make_engine(resolve_url(db_url))
    sent: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *a: sent.append(a[2]))
    migrate.upgrade(engine)
    engine.dispose()
    assert any(s.lstrip().upper().startswith("CREATE TABLE") for s in sent)
    assert [s for s in sent if re.search(r"\bDROP\b", s, re.IGNORECASE)] == []


def test_history_and_versions_are_guarded_by_triggers(store, org_a, itinerary):
    with store.org(org_a) as repo:
        trip = repo.trips.create("T")
        repo.versions.save(trip.trip_id, itinerary)
    for sql in ("UPDATE audit_log SET action = 'x'", "DELETE FROM audit_log",
                "UPDATE itinerary_version SET number = 99"):
        with pytest.raises(Exception, match="cannot be changed"), store._engine.begin() as conn:
            conn.execute(text(sql))
    with store.org(org_a) as repo:
        assert [e.action for e in repo.audit_log()] == ["version_saved", "trip_created"]


def test_a_version_goes_only_with_its_trip(store, org_a, itinerary):
    """0005: plain SQL cannot delete a saved version; purging the trip (retention, 90 days after
    the user deleted it) still takes its versions with it through the cascade."""
    from datetime import timedelta

    from engine.store.retention import prune
    with store.org(org_a) as repo:
        kept, purged = repo.trips.create("Kept"), repo.trips.create("Purged")
        for trip in (kept, purged):
            repo.versions.save(trip.trip_id, itinerary)
        repo.trips.delete(purged.trip_id)
    for sql in ("DELETE FROM itinerary_version", f"DELETE FROM itinerary_version WHERE trip_id = '{kept.trip_id}'"):
        with pytest.raises(Exception, match="a version goes only with its trip"), store._engine.begin() as conn:
            conn.execute(text(sql))
    prune(store, now=datetime.now(timezone.utc) + timedelta(days=91))
    with store._engine.connect() as conn:
        left = conn.execute(text("SELECT trip_id FROM itinerary_version")).scalars().all()
    assert left == [kept.trip_id]


def _stamp(url: str, revision: str) -> None:
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})
    engine.dispose()


def test_a_newer_schema_is_refused_and_left_untouched(db_url, tmp_path):
    Store.open(db_url).close()
    _stamp(db_url, "ffff_from_the_future")
    path = Path(db_url.removeprefix("sqlite:///")) if db_url.startswith("sqlite") else None
    before = path.read_bytes() if path else None
    with pytest.raises(StoreError) as err:
        Store.open(db_url)
    message = str(err.value)
    assert "newer" in message and "ffff_from_the_future" in message and "\n" not in message
    if path:
        assert path.read_bytes() == before and sqlite_file.list_backups(path) == []


def test_an_older_database_is_backed_up_then_migrated(tmp_path):
    path = tmp_path / "tripwright.db"
    engine = create_engine(f"sqlite:///{path}")
    cfg = migrate.alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        conn.execute(text("INSERT INTO org (org_id, name, personal, created_at) "
                          "VALUES ('o1', 'Old org', 1, '2026-01-01 00:00:00.000000')"))
    engine.dispose()
    with Store.open(f"sqlite:///{path}") as store:
        assert store.schema_revision() == migrate.head()
    backups = sqlite_file.list_backups(path)
    assert len(backups) == 1 and "rev0001" in backups[0].name
    conn = sqlite3.connect(backups[0])
    try:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [("0001",)]
        assert conn.execute("SELECT name FROM org").fetchall() == [("Old org",)]
    finally:
        conn.close()
    Store.open(f"sqlite:///{path}").close()
    assert len(sqlite_file.list_backups(path)) == 1  # nothing to migrate, no new backup


def test_backups_rotate_and_keep_the_last_three(tmp_path):
    with Store.open(f"sqlite:///{tmp_path / 'tripwright.db'}") as store:
        made = [store.backup() for _ in range(5)]
    kept = sqlite_file.list_backups(tmp_path / "tripwright.db")
    assert kept == made[-3:]
    assert all(sqlite_file.quick_check(p) == "ok" for p in kept)


def test_backup_of_postgres_is_refused_clearly(store):
    if store.is_sqlite:
        pytest.skip("SQLite backs up fine")
    with pytest.raises(StoreError, match="pg_dump"):
        store.backup()


def test_two_processes_opening_a_new_database_at_once_both_succeed(db_url):
    """The second opener waits for the first one's migration lock, then finds nothing to do."""
    assert run_together(lambda: Store.open(db_url, busy_timeout_s=10).close(), 3, timeout_s=30) == []
    with Store.open(db_url) as store:
        assert store.schema_revision() == migrate.head()


def _at_revision(url: str, revision: str):
    """An engine on ``url`` whose schema was brought to ``revision`` only (an older Tripwright)."""
    engine = make_engine(resolve_url(url))
    cfg = migrate.alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
    return engine


def _inserting(conn):
    """``insert(table, **values)`` as raw rows: JSON and timestamps typed, nothing from the models."""
    from sqlalchemy import column, table

    from engine.store.columns import JSONDoc, UTCDateTime
    ts = UTCDateTime()

    def insert(table_name: str, /, **values) -> None:
        types = {k: JSONDoc if isinstance(v, (dict, list)) else ts if isinstance(v, datetime) else None
                 for k, v in values.items()}
        conn.execute(table(table_name, *(column(k, t) for k, t in types.items())).insert().values(**values))

    return insert


def _rows_of_0002(conn, itinerary) -> OrgContext:
    """An org, a user, a trip and its version as a 0002-era Tripwright wrote them (no plan, no note)."""
    now = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)
    insert = _inserting(conn)
    insert("org", org_id="o-old", name="Old org", personal=True, created_at=now)
    insert("user", org_id="o-old", user_id="u-old", email="me@old.example", display_name="Me",
           failed_logins=0, created_at=now)
    insert("trip", org_id="o-old", trip_id="t-old", name="Paris (2026)", mode="city", created_by="u-old",
           created_at=now, updated_at=now, version_count=1)
    doc = itinerary.model_dump(mode="json")
    insert("itinerary_version", org_id="o-old", version_id="v-old", trip_id="t-old", number=1, status="ok",
           intent=doc["intent"], itinerary=doc, repairs=[], llm_meta={"model": "old"}, run_id=None,
           total_usd_cents=doc["cost_breakdown"]["total_usd_cents"], day_count=len(doc["days"]),
           blocking_count=0, advisory_count=0, created_by="u-old", created_at=now)
    return OrgContext("o-old", "u-old")


def test_upgrading_a_0002_database_with_data_keeps_it(db_url, itinerary):
    engine = _at_revision(db_url, "0002")
    with engine.begin() as conn:
        ctx = _rows_of_0002(conn, itinerary)
    engine.dispose()
    with Store.open(db_url) as store:
        assert store.schema_revision() == migrate.head()
        with store.org(ctx) as repo:
            detail = repo.trips.open("t-old")
            old = repo.versions.get("t-old", 1)
            assert detail.trip.name == "Paris (2026)" and detail.latest == old
            assert old.itinerary_v1() == itinerary and old.llm_meta == {"model": "old"}
            assert old.plan is None and old.plan_v1() is None and old.note == ""
            assert repo.versions.llm_revisions_left("t-old") == 2  # the old LLM revision counts
            repo.versions.save("t-old", itinerary, plan=planned().plan, note="Edited")
        with store.org(ctx) as repo:
            assert repo.versions.get("t-old", 2).plan_v1() == planned().plan
        with pytest.raises(Exception, match="cannot be changed"), store._engine.begin() as conn:
            conn.execute(text("UPDATE itinerary_version SET note = 'x'"))  # still guarded after the ALTER
    if db_url.startswith("sqlite"):
        backups = sqlite_file.list_backups(Path(db_url.removeprefix("sqlite:///")))
        assert [b.name for b in backups if "rev0002" in b.name]


def _rows_of_0003(conn, result) -> OrgContext:
    """A trip as a 0003-era Tripwright wrote it: v1 planned, v2 an edit saved by run r-old whose
    checkpoints hold full copies of the plan; documents as JSON, nothing says what v2 came from."""
    from engine.store.checkpoints import checkpoint_docs
    now = datetime(2026, 11, 20, 12, 0, tzinfo=timezone.utc)
    insert = _inserting(conn)
    insert("org", org_id="o-3", name="Org of 0003", personal=True, created_at=now)
    insert("user", org_id="o-3", user_id="u-3", email="me@3.example", display_name="Me", failed_logins=0,
           created_at=now)
    insert("trip", org_id="o-3", trip_id="t-3", name="Paris", mode="city", created_by="u-3", created_at=now,
           updated_at=now, version_count=2)
    insert("agent_run", org_id="o-3", run_id="r-old", trip_id="t-3", user_id="u-3", trace_id="abc", status="completed",
           progress_pct=100, latest_node="responder", intent=result.itinerary.intent.model_dump(mode="json"),
           checkpoints=checkpoint_docs(result.checkpoints), cost_micro_usd=0, error_message="", created_at=now,
           updated_at=now, completed_at=now)
    doc = result.itinerary.model_dump(mode="json")
    for number, note, run_id in ((1, "Planned", None), (2, "Locked Louvre", "r-old")):
        insert("itinerary_version", org_id="o-3", version_id=f"v-{number}", trip_id="t-3", number=number, status="ok",
               intent=doc["intent"], itinerary=doc, repairs=[], llm_meta={}, run_id=run_id,
               plan=result.plan.model_dump(mode="json"), note=note,
               total_usd_cents=doc["cost_breakdown"]["total_usd_cents"], day_count=len(doc["days"]),
               blocking_count=0, advisory_count=0, created_by="u-3", created_at=now)
    insert("run_event", org_id="o-3", run_id="r-old", seq=0, ts=now, node="intent", status="started",
           payload=result.events[0].model_dump(mode="json"))
    return OrgContext("o-3", "u-3")


def test_upgrading_a_0003_database_with_data_keeps_it(db_url):
    """0004 adds compressed columns and parent links; what 0003 wrote reads back unchanged."""
    from sqlalchemy import inspect

    from engine.store.checkpoints import checkpoint_docs
    from engine.store.lineage import undo_line
    result = planned()
    engine = _at_revision(db_url, "0003")
    with engine.begin() as conn:
        ctx = _rows_of_0003(conn, result)
    engine.dispose()
    with Store.open(db_url) as store:
        assert store.schema_revision() == migrate.head()
        indexes = {ix["name"] for ix in inspect(store._engine).get_indexes("itinerary_version")}
        assert {"ix_itinerary_version_run_id", "ix_itinerary_version_lineage"} <= indexes
        with store.org(ctx) as repo:
            old = [repo.versions.get("t-3", n) for n in (1, 2)]
            assert [(v.note, v.based_on, v.parent) for v in old] == [("Planned", None, None), ("Locked Louvre", None, 1)]
            assert all(v.itinerary_v1() == result.itinerary and v.plan_v1() == result.plan for v in old)
            detail = repo.runs.detail("r-old")  # the old plain checkpoints still read
            assert [c.model_dump() for c in detail.checkpoints] == checkpoint_docs(result.checkpoints)
            assert repo.runs.replay("r-old") == result.events[:1]
            # After an undo to v1, a new edit: the new row records its parent and is compressed.
            repo.versions.save("t-3", result.itinerary, plan=result.plan, note="Removed Orsay", based_on=1)
        with store.org(ctx) as repo:
            links = repo.versions.links("t-3")
            assert [(v.number, v.parent) for v in links] == [(1, None), (2, 1), (3, 1)]
            assert undo_line(links) == ([1, 3], 1)
            assert repo.versions.get("t-3", 3).plan_v1() == result.plan
        with store._engine.connect() as conn:
            rows = conn.execute(text("SELECT number, itinerary_z IS NULL, plan_z IS NULL FROM itinerary_version "
                                     "ORDER BY number")).all()
        assert [tuple(r) for r in rows] == [(1, True, True), (2, True, True), (3, False, False)]
        for sql in ("UPDATE itinerary_version SET based_on = 2", "DELETE FROM audit_log"):
            with pytest.raises(Exception, match="cannot be changed"), store._engine.begin() as conn:
                conn.execute(text(sql))  # 0004's ALTERs left 0002's guards in place
    if db_url.startswith("sqlite"):
        backups = sqlite_file.list_backups(Path(db_url.removeprefix("sqlite:///")))
        assert [b.name for b in backups if "rev0003" in b.name]
