"""The shipped preparation of Tripwright's own notes (``fixtures/notes/builtin_pack.json``): it is
what importing each note would store, it is used only for the exact file packed, and seeding a
fresh store from it needs neither the tokenizer nor libphonenumber."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from engine.notes import builtin_pack
from engine.notes.builtin_pack import PACK, build_pack, packed_note

EXE = Path(sys.executable).with_name("tripwright")


def test_the_shipped_pack_is_what_preparing_the_notes_gives_now():
    shipped = json.loads(PACK.read_text(encoding="utf-8"))
    rebuilt = build_pack()
    assert sorted(shipped["notes"]) == sorted(p.name for p in builtin_pack.NOTES_DIR.glob("*.md"))
    assert shipped == json.loads(json.dumps(rebuilt)), "run: python -m engine.notes.builtin_pack"


def test_an_edited_note_is_not_taken_from_the_pack(tmp_path):
    paris = builtin_pack.NOTES_DIR / "paris.md"
    assert packed_note(paris) is not None and packed_note(paris).chunks
    edited = tmp_path / "paris.md"
    shutil.copy(paris, edited)
    edited.write_text(edited.read_text(encoding="utf-8") + "\nOne more tip.\n", encoding="utf-8")
    assert packed_note(edited) is None
    (tmp_path / "elsewhere.md").write_text("# Not shipped\n\nA tip.\n", encoding="utf-8")
    assert packed_note(tmp_path / "elsewhere.md") is None


def test_seeding_a_fresh_store_loads_no_tokenizer_or_phone_metadata(tmp_path):
    """``tripwright notes ask`` on a fresh database seeds the shipped notes and answers from them,
    and its import log (``-X importtime``) never shows bpe_openai or phonenumbers."""
    env = {k: v for k, v in os.environ.items() if k not in ("TRIPWRIGHT_EMBEDDING_MODEL", "SIMULATE_EMPTY_RAG")}
    env |= {"TRIPWRIGHT_DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.db'}", "TRIPWRIGHT_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-X", "importtime", str(EXE), "notes", "ask", "Louvre entrance",
                           "--destination", "paris", "--json"], capture_output=True, text=True, env=env, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    answer = json.loads(done.stdout)
    assert answer["answer_status"] == "found" and "Porte des Lions" in answer["passages"][0]["text"]
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "engine.notes.library" in imported  # the log is the one of the run that seeded
    assert not {m for m in imported if m.split(".")[0] in ("bpe_openai", "phonenumbers")}
