"""Issue 25 §2: a note with a NUL or another control character is refused before anything is
stored — on SQLite and on PostgreSQL (which would refuse a NUL itself, mid-import): one
``InputError`` naming the file, no note and no chunk in the database. (The CLI's own refusal, on
SQLite, is in tests/engine/test_hostile_imports.py.)"""

from __future__ import annotations

import pytest

from engine.errors import InputError
from engine.notes.library import NotesLibrary


@pytest.mark.parametrize("bad", [b"\x00 and more", b"\x1b]0;pwned\x07"])
def test_a_control_character_is_refused_before_the_database_on_both_engines(store, org_a, tmp_path, bad) -> None:
    library = NotesLibrary(store, org_a)
    note = tmp_path / "tips.txt"
    note.write_bytes(b"The Louvre opens at nine. " * 400 + bad)
    with pytest.raises(InputError, match=r"U\+00(00|1B)"):
        library.import_file(note, "Paris")
    with pytest.raises(InputError, match=r"U\+00(00|1B)"):
        library.import_text("Louvre tips." + bad.decode("latin-1"), "Paris")
    assert [n for n in library.list() if n.source_kind != "tripwright"] == []
    fine = tmp_path / "fine.txt"
    fine.write_text("The Louvre opens at nine.")
    library.import_file(fine, "Paris")  # the same library stores a clean note
    assert [n.source_name for n in library.list() if n.source_kind != "tripwright"] == ["fine.txt"]
