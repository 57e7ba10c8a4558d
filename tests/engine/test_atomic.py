"""The one atomic writer (engine/atomic.py, issue 30 §4): streamed writes and writes by
name leave the old file or the new one, never half of either, and nothing beside it."""

from __future__ import annotations

import os
import re
import sqlite3
import zipfile
from pathlib import Path

import pytest

from engine.atomic import atomic_file, atomic_path

ROOT = Path(__file__).resolve().parents[2]


def test_atomic_file_streams_bytes_and_text_into_place(tmp_path):
    target = tmp_path / "tiles.pmtiles"
    with atomic_file(target) as handle:
        for i in range(3):
            handle.write(bytes([i]) * 4)
        assert not target.exists()  # nothing is in place before the block ends
    assert target.read_bytes() == b"\x00" * 4 + b"\x01" * 4 + b"\x02" * 4

    with atomic_file(target, "w") as handle:
        handle.write("héllo")
    assert target.read_bytes() == "héllo".encode("utf-8")
    assert os.listdir(tmp_path) == ["tiles.pmtiles"]


@pytest.mark.parametrize("error", [ValueError("the writer failed"), KeyboardInterrupt()])
def test_atomic_file_leaves_no_partial_file_when_the_writer_raises(tmp_path, error):
    target = tmp_path / "index.json"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(type(error)):
        with atomic_file(target, "w") as handle:
            handle.write("half of the new")
            raise error
    assert target.read_text(encoding="utf-8") == "old"
    assert os.listdir(tmp_path) == ["index.json"]


def test_atomic_file_leaves_nothing_when_there_was_no_file_before(tmp_path):
    with pytest.raises(RuntimeError):
        with atomic_file(tmp_path / "new.bin") as handle:
            handle.write(b"partial")
            raise RuntimeError("stop")
    assert os.listdir(tmp_path) == []


def test_atomic_file_refuses_modes_that_do_not_write_a_whole_file(tmp_path):
    with pytest.raises(ValueError, match="mode"):
        with atomic_file(tmp_path / "x", "ab"):
            pass


def test_atomic_path_takes_a_file_written_by_name(tmp_path):
    target = tmp_path / "places.sqlite3"
    with atomic_path(target) as tmp:
        assert tmp.parent == tmp_path and tmp.name.startswith(".places.sqlite3.")
        conn = sqlite3.connect(tmp)
        conn.execute("CREATE TABLE t (x)")
        conn.execute("INSERT INTO t VALUES (42)")
        conn.commit()
        conn.close()
    assert sqlite3.connect(target).execute("SELECT x FROM t").fetchall() == [(42,)]
    assert os.listdir(tmp_path) == ["places.sqlite3"]


def test_atomic_path_keeps_the_old_file_when_the_writer_raises(tmp_path):
    target = tmp_path / "bundle.zip"
    target.write_bytes(b"old zip")
    with pytest.raises(OSError):
        with atomic_path(target) as tmp:
            with zipfile.ZipFile(tmp, "w") as zf:
                zf.writestr("report.json", "{}")
            raise OSError(28, "No space left on device")
    assert target.read_bytes() == b"old zip"
    assert os.listdir(tmp_path) == ["bundle.zip"]


def test_atomic_path_names_the_target_when_the_rename_fails(tmp_path):
    folder = tmp_path / "taken"
    folder.mkdir()
    (folder / "keep").write_text("x", encoding="utf-8")
    with pytest.raises(OSError) as err:
        with atomic_path(folder) as tmp:
            tmp.write_bytes(b"new")
    assert err.value.filename == str(folder)
    assert sorted(os.listdir(tmp_path)) == ["taken"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_atomic_path_keeps_the_permissions_of_the_file_it_replaces(tmp_path):
    target = tmp_path / "private.db"
    target.write_bytes(b"old")
    target.chmod(0o600)
    with atomic_path(target) as tmp:
        tmp.write_bytes(b"new")
    assert target.stat().st_mode & 0o777 == 0o600


_SELF_MADE = re.compile(r"\bos\.(replace|rename)\(|tempfile\.(mkstemp|NamedTemporaryFile)\(|\.replace\((tmp|partial|staged)\)")
# The one rename that moves a file aside rather than writes one: settings.json → settings.json.bad.
_MOVES_ASIDE = {"engine/settings.py": 1}


def test_no_module_writes_a_file_atomically_on_its_own():
    """Every temp-file-and-rename goes through engine/atomic.py (one fsync habit)."""
    found: dict[str, int] = {}
    for folder in ("engine", "app", "widgets"):
        for path in (ROOT / folder).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            if rel == "engine/atomic.py":
                continue
            hits = len(_SELF_MADE.findall(path.read_text(encoding="utf-8")))
            if hits:
                found[rel] = hits
    assert found == _MOVES_ASIDE
