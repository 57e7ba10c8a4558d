"""``tripwright notes import|list|delete|ask`` through the real executable (SPEC_DECISIONS §3)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .documents import HOURS_SENTENCE, paris_guide
from .embedding_server import EmbeddingServer

EXE = Path(sys.executable).with_name("tripwright")
INTENT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "paris.json"


def tw(db: Path, *args: str, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("TRIPWRIGHT_EMBEDDING_MODEL", "SIMULATE_EMPTY_RAG")}
    environ |= {"TRIPWRIGHT_DATABASE_URL": f"sqlite:///{db}", "TRIPWRIGHT_OFFLINE": "1"} | env
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, env=environ, input=stdin,
                          timeout=180)


def one_line_error(done: subprocess.CompletedProcess, *words: str) -> None:
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("tripwright: ") and "Traceback" not in done.stderr
    assert done.stderr.strip().count("\n") == 0, done.stderr
    for w in words:
        assert w in done.stderr


def test_import_list_ask_delete(tmp_path):
    db = tmp_path / "notes.sqlite3"
    guide = tmp_path / "paris-guide.md"
    guide.write_text("# Paris guide\n\n" + paris_guide())
    done = tw(db, "notes", "import", str(guide), "--destination", "Paris")
    assert done.returncode == 0, done.stderr
    item_id = done.stdout.split()[0]
    assert "paris" in done.stdout and "chunk(s)" in done.stdout
    listed = tw(db, "notes", "list", "--destination", "paris")
    assert item_id in listed.stdout and "Tripwright" in listed.stdout and "2 note(s)" in listed.stdout
    asked = tw(db, "notes", "ask", "Eiffel Tower hours", "--destination", "paris", "--json")
    answer = json.loads(asked.stdout)
    assert answer["answer_status"] == "found" and HOURS_SENTENCE in answer["passages"][0]["text"]
    assert set(answer["passages"][0]) >= {"text", "score", "source", "item_id"}
    assert answer["passages"][0]["source"] == "paris-guide.md" and answer["passages"][0]["item_id"] == item_id
    unknown = json.loads(tw(db, "notes", "ask", "best sushi in Osaka", "--destination", "paris", "--json").stdout)
    assert unknown == {"answer_status": "unknown", "method": "hybrid", "passages": []}  # the local model too
    plain = tw(db, "notes", "ask", "best sushi in Osaka", "--destination", "paris")
    assert plain.stdout.strip() == "Information not available."
    assert tw(db, "notes", "delete", item_id).returncode == 0
    assert item_id not in tw(db, "notes", "list").stdout
    one_line_error(tw(db, "notes", "delete", item_id), "no note")


def test_pasted_text_and_a_generated_pdf_with_pii(tmp_path):
    from fpdf import FPDF

    db = tmp_path / "notes.sqlite3"
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.multi_cell(0, 8, "Trastevere host: call Luca on +39 347 123 4567 or write to luca.host@example.it. "
                         "The gate code of the Vicolo del Cinque flat is given at check-in.")
    path = tmp_path / "host-rules.pdf"
    pdf.output(str(path))
    done = tw(db, "notes", "import", str(path), "--destination", "rome")
    assert done.returncode == 0, done.stderr
    assert "removed 1 e-mail(s), 1 phone(s)" in done.stdout
    pasted = tw(db, "notes", "import", "-", "--destination", "tokyo", "--title", "From Aiko",
                stdin="Aiko says: the Yanaka cat cafe opens at 11. Mail aiko@example.jp")
    assert pasted.returncode == 0 and "From Aiko" in pasted.stdout
    answer = json.loads(tw(db, "notes", "ask", "Vicolo del Cinque gate code", "--destination", "rome", "--json").stdout)
    assert answer["answer_status"] == "found" and "[phone removed]" in answer["passages"][0]["text"]
    raw = db.read_bytes() + (Path(f"{db}-wal").read_bytes() if Path(f"{db}-wal").exists() else b"")
    for secret in (b"347 123 4567", b"luca.host@example.it", b"aiko@example.jp"):
        assert secret not in raw


@pytest.mark.parametrize("name,content,words", [
    ("photo.md", b"\x89PNG\r\n\x1a\n\x00\x00binary", ("photo.md", "binary")),
    ("empty.txt", b"", ("empty.txt", "empty")),
])
def test_bad_files_are_one_line_exit_2_and_nothing_is_imported(tmp_path, name, content, words):
    db = tmp_path / "notes.sqlite3"
    good = tmp_path / "good.txt"
    good.write_text("A good tip about the Colosseum.")
    bad = tmp_path / name
    bad.write_bytes(content)
    one_line_error(tw(db, "notes", "import", str(good), str(bad), "--destination", "rome"), *words)
    assert "good.txt" not in tw(db, "notes", "list").stdout  # checked before anything was stored


def test_a_50_mb_file_and_an_unknown_destination(tmp_path):
    db = tmp_path / "notes.sqlite3"
    huge = tmp_path / "huge.txt"
    with huge.open("wb") as f:
        f.truncate(50 * 1024 * 1024)
    one_line_error(tw(db, "notes", "import", str(huge), "--destination", "paris"), "huge.txt", "50 MB")
    tip = tmp_path / "tip.txt"
    tip.write_text("Somewhere nice.")
    one_line_error(tw(db, "notes", "import", str(tip), "--destination", "Qwxzzyplonk"), "destination",
                   "unknown destination")
    one_line_error(tw(db, "notes", "ask", "hours", "--json"), "--destination")
    one_line_error(tw(db, "notes", "frobnicate"))


def test_vectors_from_a_local_endpoint_and_one_failing_mid_import(tmp_path):
    db = tmp_path / "notes.sqlite3"
    guide = tmp_path / "guide.txt"
    guide.write_text(paris_guide())
    second = tmp_path / "second.txt"
    second.write_text(paris_guide().replace("Eiffel", "Montparnasse"))
    with EmbeddingServer() as server:
        env = {"TRIPWRIGHT_OFFLINE": "0", "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "test-key",
               "TRIPWRIGHT_EMBEDDING_MODEL": "test-embed"}
        assert tw(db, "notes", "import", str(guide), "--destination", "paris", **env).returncode == 0
        answer = json.loads(tw(db, "notes", "ask", "Eiffel timetable", "--destination", "paris", "--json",
                               **env).stdout)
        assert answer["answer_status"] == "found" and answer["method"] == "hybrid"
        assert answer["passages"][0]["method"] == "vector"
        assert json.loads(tw(db, "notes", "ask", "Eiffel timetable", "--destination", "paris", "--json",
                             TRIPWRIGHT_LOCAL_EMBEDDINGS="0").stdout)["answer_status"] == "unknown"  # words only
        server.fail_from = len(server.requests) + 1
        failed = tw(db, "notes", "import", str(second), "--destination", "paris", **env)
        one_line_error(failed, "embeddings", "HTTP 500", "nothing of this file was stored")
    assert "second" not in tw(db, "notes", "list").stdout


def test_plan_save_cites_the_notes(tmp_path):
    db = tmp_path / "notes.sqlite3"
    out = tmp_path / "it.json"
    done = tw(db, "plan", "--intent", str(INTENT), "--save", "--out", str(out), "--today", "2026-11-23")
    assert done.returncode == 0, done.stderr
    itinerary = json.loads(out.read_text())
    rag = [c for c in itinerary["citations"] if c["provenance"]["source"] == "rag"]
    assert rag and all("/" in c["provenance"]["ref_id"] for c in rag)
    notes = [a["notes"] for d in itinerary["days"] for a in d["activities"]]
    assert any("From Tripwright's notes:" in n for n in notes)


def test_a_saved_road_trip_cites_the_notes_of_its_towns(tmp_path):
    db = tmp_path / "notes.sqlite3"
    tips = tmp_path / "holbrook.txt"
    tips.write_text("Ask for a Wigwam Motel teepee at the back, away from the railway.")
    assert tw(db, "notes", "import", str(tips), "--destination", "Holbrook, AZ").returncode == 0
    out = tmp_path / "road.json"
    done = tw(db, "plan", "--prompt", "Los Angeles to Chicago via Route 66, 7 days from 2027-05-03", "--save",
              "--out", str(out), "--today", "2026-11-23")
    assert done.returncode == 0, done.stderr
    itinerary = json.loads(out.read_text())
    motel = next(a for d in itinerary["days"] for a in d["activities"] if a["name"].startswith("Wigwam Motel"))
    assert "From your notes: Ask for a Wigwam Motel teepee at the back" in motel["notes"]
    mine = [c for c in itinerary["citations"] if c["provenance"]["source"] == "rag"
            and c["provenance"]["data_source"] == "user"]
    assert mine and mine[0]["claim"] in motel["notes"]


def test_the_louvre_question_then_plans_with_and_without_save_cite_the_advice(tmp_path):
    from .labelled import LOUVRE_ADVICE, NOTES

    db = tmp_path / "notes.sqlite3"
    title, text = NOTES["paris"]
    note = tmp_path / "louvre.md"
    note.write_text(text)
    assert tw(db, "notes", "import", str(note), "--destination", "paris").returncode == 0
    asked = tw(db, "notes", "ask", "Which Louvre entrance avoids the queue?", "--destination", "paris")
    assert asked.returncode == 0 and LOUVRE_ADVICE in asked.stdout  # no key, no network: the local model
    assert "rue Cler" not in asked.stdout  # the passage that answers, not the whole note
    out = tmp_path / "it.json"
    done = tw(db, "plan", "--intent", str(INTENT), "--out", str(out), "--today", "2026-11-23")  # no --save
    assert done.returncode == 0, done.stderr
    itinerary = json.loads(out.read_text())
    louvre = next(a for d in itinerary["days"] for a in d["activities"] if a["name"] == "Musée du Louvre")
    assert f"From your notes: {LOUVRE_ADVICE}" in louvre["notes"]
    mine = [c for c in itinerary["citations"] if c["provenance"]["source"] == "rag"
            and c["provenance"]["data_source"] == "user"]
    assert mine and all(LOUVRE_ADVICE in c["claim"] or "From your notes:" in c["claim"] for c in mine)

    first = tw(db, "plan", "--intent", str(INTENT), "--save", "--name", "Paris", "--today", "2026-11-23")
    assert first.returncode == 0 and "saved as version 1" in first.stderr, first.stderr
    trip = first.stderr.split("of trip ")[1].split()[0]
    save = ("plan", "--intent", str(INTENT), "--save", "--trip", trip, "--out", str(out), "--today", "2026-11-23")
    assert "saved as version 2" in tw(db, *save).stderr
    assert "reused version 2" in tw(db, *save).stderr  # the same request, the same notes
    more = tmp_path / "orsay.txt"
    more.write_text("Musée d'Orsay: the clock window on the fifth floor is the best photo spot.")
    assert tw(db, "notes", "import", str(more), "--destination", "paris").returncode == 0
    after = tw(db, *save)
    assert after.returncode == 0 and "saved as version 3" in after.stderr, after.stderr  # a new note: a new plan
    orsay = next(a for d in json.loads(out.read_text())["days"] for a in d["activities"]
                 if a["name"] == "Musée d'Orsay")
    assert "From your notes: Musée d'Orsay: the clock window" in orsay["notes"]
