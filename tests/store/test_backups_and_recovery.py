"""Rolling backups (daily, before each migration, manual; the last few of each kind) and a damaged
or emptied database: moved aside, the newest good backup restored, and the user told in one line —
never silently started afresh."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.errors import StoreError
from engine.store import Accounts, SecretStore, Store, sqlite_file

EXE = Path(sys.executable).with_name("tripwright")
DAY = 24 * 3600


def _make_db(path: Path, trip_name: str = "Kept trip"):
    with Store.open(f"sqlite:///{path}") as store:
        ctx = Accounts(store, SecretStore()).first_run()
        with store.org(ctx) as repo:
            repo.trips.create(trip_name)
    return ctx


def _trip_names(path: Path, ctx) -> list[str]:
    with Store.open(f"sqlite:///{path}") as store, store.org(ctx) as repo:
        return [t.name for t in repo.trips.list()]


def _age(backup: Path, seconds: float) -> None:
    old = time.time() - seconds
    os.utime(backup, (old, old))


def test_a_daily_backup_is_taken_when_the_newest_is_a_day_old(tmp_path, memory_keyring):
    path = tmp_path / "tripwright.db"
    _make_db(path)
    assert sqlite_file.list_backups(path) == []  # a new database had nothing to back up
    Store.open(f"sqlite:///{path}").close()
    (first,) = sqlite_file.list_backups(path)
    assert first.name.endswith("-daily.db") and sqlite_file.quick_check(first) == "ok"
    Store.open(f"sqlite:///{path}").close()
    assert sqlite_file.list_backups(path) == [first]  # one a day, not one per start
    _age(first, DAY + 60)
    Store.open(f"sqlite:///{path}").close()
    assert len(sqlite_file.list_backups(path)) == 2


def test_each_kind_keeps_its_own_last_copies(tmp_path, memory_keyring):
    path = tmp_path / "tripwright.db"
    _make_db(path)
    daily = [sqlite_file.backup(path, "daily") for _ in range(9)]
    manual = [sqlite_file.backup(path, "manual") for _ in range(4)]
    migration = [sqlite_file.backup(path, "rev0002") for _ in range(4)]
    assert sqlite_file.list_backups(path) == sorted(daily[-7:] + manual[-3:] + migration[-3:])


@pytest.mark.parametrize("damage", [b"", b"\x00" * 8192, b"SQLite format 3\x00" + b"\xff" * 8192],
                         ids=["empty", "zeros", "bad-pages"])
def test_a_damaged_database_is_moved_aside_and_the_newest_good_backup_restored(tmp_path, memory_keyring, damage):
    path = tmp_path / "tripwright.db"
    ctx = _make_db(path)
    older = sqlite_file.backup(path, "manual")
    newest_but_bad = sqlite_file.backup(path, "manual")
    newest_but_bad.write_bytes(b"\x00" * 4096)  # a backup can be damaged too: the next one is used
    path.write_bytes(damage)
    Path(f"{path}-wal").write_bytes(b"stale wal")  # must not be replayed onto the restored file
    with Store.open(f"sqlite:///{path}") as store:
        notice = store.recovery
        assert store.integrity() == "ok"
    (aside,) = tmp_path.glob("tripwright-damaged-*.db")
    assert aside.read_bytes() == damage and Path(f"{aside}-wal").read_bytes() == b"stale wal"
    assert "\n" not in notice and str(path) in notice and aside.name in notice and str(older) in notice
    assert "restored" in notice and "lost" in notice
    assert _trip_names(path, ctx) == ["Kept trip"]


def test_a_damaged_database_without_a_good_backup_is_left_untouched(tmp_path, memory_keyring):
    path = tmp_path / "tripwright.db"
    _make_db(path)
    sqlite_file.backup(path, "manual").write_bytes(b"junk")
    path.write_bytes(b"\x00" * 8192)
    with pytest.raises(StoreError) as err:
        Store.open(f"sqlite:///{path}")
    message = str(err.value)
    assert "no good backup" in message and str(path.parent / "backups") in message and "\n" not in message
    assert path.read_bytes() == b"\x00" * 8192 and not list(tmp_path.glob("*damaged*"))


def test_an_empty_file_with_no_backup_is_replaced_and_the_user_told(tmp_path, memory_keyring):
    path = tmp_path / "tripwright.db"
    path.write_bytes(b"")
    with Store.open(f"sqlite:///{path}") as store:
        assert "0 bytes" in store.recovery and "new, empty database" in store.recovery
        assert store.integrity() == "ok"
    assert len(list(tmp_path.glob("tripwright-damaged-*.db"))) == 1


def test_the_cli_restores_and_says_so_in_one_line(tmp_path, memory_keyring):
    path = tmp_path / "tripwright.db"
    _make_db(path, "Paris for the CLI")
    sqlite_file.backup(path, "manual")
    path.write_bytes(b"\x00" * 8192)
    env = os.environ | {"TRIPWRIGHT_DATABASE_URL": f"sqlite:///{path}", "TRIPWRIGHT_HOME": str(tmp_path)}
    done = subprocess.run([str(EXE), "trips", "list"], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"tripwright: the database {path} was not a SQLite database") and "restored" in line
    assert "Paris for the CLI" in done.stdout
