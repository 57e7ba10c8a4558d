"""Tripwright's own notes, shipped prepared: ``fixtures/notes/builtin_pack.json`` holds each
``fixtures/notes/*.md`` already stripped and chunked, keyed by the file's SHA-256.

Preparing them needs the cl100k_base tokenizer (about 500 ms of CPU to load) and libphonenumber's
metadata (about 350 ms to import), and a fresh data dir seeds them while the first plan runs:
that CPU competed with the planner and the GUI thread for the GIL. The pack is used only for a
file whose bytes are the ones packed; an edited note is prepared as any other. A test rebuilds
the pack and compares it with the shipped one.

Rebuild after editing a note:  python -m engine.notes.builtin_pack
"""

from __future__ import annotations

import hashlib
import json
import sys
from functools import lru_cache
from pathlib import Path

from .prepared import PreparedNote

NOTES_DIR = Path(__file__).resolve().parents[2] / "fixtures" / "notes"
PACK = NOTES_DIR / "builtin_pack.json"
FORMAT = 1


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@lru_cache(maxsize=1)
def _pack() -> dict:
    try:
        data = json.loads(PACK.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data.get("notes", {}) if data.get("format") == FORMAT else {}


def packed_note(path: Path) -> PreparedNote | None:
    """The packed preparation of ``path``, or None when it is not packed or has changed since."""
    entry = _pack().get(path.name)
    if entry is None or entry.get("sha256") != file_digest(path):
        return None
    return PreparedNote.from_json(entry["note"])


def build_pack(notes_dir: Path = NOTES_DIR) -> dict:
    """Prepare every shipped note the way an import would (the slow path, on purpose)."""
    from .destinations import resolve_destination
    from .prepared import prepare_note
    from .reading import read_note_file

    notes = {}
    for path in sorted(notes_dir.glob("*.md")):
        note = prepare_note(read_note_file(path), resolve_destination(path.stem), path.name)
        notes[path.name] = {"sha256": file_digest(path), "note": note.as_json()}
    return {"format": FORMAT, "notes": notes}


def main() -> int:
    PACK.write_text(json.dumps(build_pack(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {PACK}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
