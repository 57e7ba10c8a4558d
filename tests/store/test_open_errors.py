"""Opening the database: where it lives, how it is configured, and bad input — a locked or corrupt
file, a read-only data dir, an unreachable server, a bad URL — always one clear line, data untouched."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from engine.errors import StoreError
from engine.store import Store, sqlite_file
from engine.store.database import ENV_URL

ROOT = Path(__file__).resolve().parents[2]


def _one_line(err: pytest.ExceptionInfo) -> str:
    message = str(err.value)
    assert message and "\n" not in message and "Traceback" not in message
    return message


def test_default_engine_is_a_sqlite_file_in_tripwright_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPWRIGHT_HOME", str(tmp_path / "home"))
    monkeypatch.delenv(ENV_URL, raising=False)
    with Store.open() as store:
        assert store.path == (tmp_path / "home" / "tripwright.db").resolve() and store.is_sqlite
        with store._engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert store.integrity() == "ok"


def test_database_url_from_the_environment(tmp_path, monkeypatch, db_url):
    monkeypatch.setenv("TRIPWRIGHT_HOME", str(tmp_path / "unused"))
    monkeypatch.setenv(ENV_URL, db_url)
    with Store.open() as store:
        assert store.is_sqlite == db_url.startswith("sqlite") and store.integrity() == "ok"
    assert not (tmp_path / "unused" / "tripwright.db").exists()


@pytest.mark.parametrize("url", ["mysql://u@h/db", "sqlite://", "sqlite:///:memory:", "::not a url::"])
def test_unsupported_urls_are_refused(url):
    with pytest.raises(StoreError) as err:
        Store.open(url)
    _one_line(err)


@pytest.mark.parametrize("content", [b"\x00garbage\xff" * 500, b"SQLite format 3\x00" + os.urandom(8192)])
def test_a_corrupt_file_is_refused_and_left_untouched(tmp_path, content):
    path = tmp_path / "tripwright.db"
    path.write_bytes(content)
    with pytest.raises(StoreError) as err:
        Store.open(f"sqlite:///{path}")
    message = _one_line(err)
    assert "no good backup" in message and "left untouched" in message
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tripwright.db", "tripwright.db.lock"]


def test_a_file_locked_by_another_program_is_refused(tmp_path):
    path = tmp_path / "tripwright.db"
    Store.open(f"sqlite:///{path}").close()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("PRAGMA locking_mode=EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")
    other.execute("CREATE TABLE other_program (x)")
    try:
        with pytest.raises(StoreError) as err:
            Store.open(f"sqlite:///{path}", busy_timeout_s=0.2)
        assert "locked" in _one_line(err)
    finally:
        other.execute("ROLLBACK")
        other.close()
    with Store.open(f"sqlite:///{path}") as store:
        assert store.integrity() == "ok"


def test_a_held_write_lock_makes_saving_fail_cleanly(tmp_path, accounts_for):
    path = tmp_path / "tripwright.db"
    store, ctx = accounts_for(f"sqlite:///{path}", busy_timeout_s=0.2)
    with store.org(ctx) as repo:
        trip = repo.trips.create("Before the lock")
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreError) as err, store.org(ctx) as repo:
            repo.trips.rename(trip.trip_id, "During the lock")
        assert "locked" in _one_line(err)
        with store.org(ctx) as repo:  # WAL: reading still works while another program writes
            assert repo.trips.get(trip.trip_id).name == "Before the lock"
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    with store.org(ctx) as repo:
        assert repo.trips.rename(trip.trip_id, "After").name == "After"
    store.close()


def _run_without_root_powers(code: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    """As root, permissions do not apply; drop CAP_DAC_OVERRIDE so they do (like a normal user)."""
    cmd = [sys.executable, "-c", code]
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("running as root without setpriv: cannot make a directory read-only")
        caps = "-dac_override,-dac_read_search"
        cmd = ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}", *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **env}, cwd=ROOT, timeout=60)


@pytest.mark.parametrize("with_existing_db", [False, True])
def test_a_read_only_data_dir_is_refused_clearly(with_existing_db):
    folder = Path(tempfile.mkdtemp(prefix="tw-ro-"))
    try:
        home = folder / "home"
        home.mkdir()
        if with_existing_db:
            Store.open(f"sqlite:///{home / 'tripwright.db'}").close()
        before = {p.name: p.read_bytes() for p in home.iterdir()}
        folder.chmod(0o755)
        home.chmod(0o555)
        code = ("from engine.store import Store\nfrom engine.errors import StoreError\n"
                "try:\n    Store.open()\nexcept StoreError as e:\n    print(e); raise SystemExit(3)\n")
        done = _run_without_root_powers(code, {"TRIPWRIGHT_HOME": str(home), ENV_URL: ""})
        assert done.returncode == 3, done.stderr
        assert "read-only" in done.stdout and done.stdout.count("\n") == 1 and not done.stderr
        assert {p.name: p.read_bytes() for p in home.iterdir()} == before
    finally:
        folder.joinpath("home").chmod(0o755)
        shutil.rmtree(folder)


def test_an_unreachable_postgres_server_is_one_clear_line():
    with pytest.raises(StoreError) as err:
        Store.open("postgresql://tripwright:s3cret-pw@127.0.0.1:1/tripwright")
    message = _one_line(err)
    assert "cannot reach the PostgreSQL server" in message and "s3cret-pw" not in message


def test_quick_check_helper_reports_ok(tmp_path):
    path = tmp_path / "tripwright.db"
    Store.open(f"sqlite:///{path}").close()
    assert sqlite_file.quick_check(path) == "ok"
