"""Hostile imports (issue 25 §2): notes, chat exports and their PII pass — bounded, linear, refused
in one line — through the real readers and the real ``tripwright`` executable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.notes.pii import EMAIL_MARK, PHONE_MARK, strip_pii

EXE = Path(sys.executable).with_name("tripwright")


# -- the PII pass -------------------------------------------------------------------------------
@pytest.mark.parametrize("written", [
    "john @ example.com", "john at example dot com", "john[at]example[dot]com", "john＠example.com",
    "john{at}example.com", "john (at) example (dot) com", "JOHN@EXAMPLE.COM", "j.doe+trip@mail.example.co.uk",
    "jöhn.müller@exämple.de", "山田@example.jp",
])
def test_obfuscated_email_addresses_are_removed(written) -> None:
    clean = strip_pii(f"Write to {written} before Friday.").text
    assert clean == f"Write to {EMAIL_MARK} before Friday.", clean


@pytest.mark.parametrize(("written", "region"), [
    ("1-800-FLOWERS", "US"), ("1-800-356-9377", "US"), ("(212) 736-3100", "US"), ("+1 212-736-3100", "FR"),
    ("+33 6 12 34 56 78", "US"), ("06.12.34.56.78", "FR"), ("0033 6 12 34 56 78", "FR"), ("03-3822-1111", "JP"),
    ("+44 20 7946 0958", "US"), ("020 7946 0958", "GB"), ("+49 30 901820", "US"), ("+39 06 6988 4676", "IT"),
])
def test_phone_numbers_in_real_world_formats_are_removed(written, region) -> None:
    clean = strip_pii(f"Call {written} to book.", region=region).text
    assert clean == f"Call {PHONE_MARK} to book.", clean


@pytest.mark.parametrize("kept", [
    "2027-06-15 09:00", "2027-06-15T09:00", "15/06/2027 14:30", "15.06.2027", "06/15/2027 at 9.30",
    "open 09:00-18:00", "from 9h30 to 18h", "order #2125551234", "booking ref 4155552671", "tickets 17.50 EUR",
    "Ticket no. 3128675309", "ISBN 978-2-07-036822-8", "meet at the museum. Then lunch", "open at 9.30 daily",
    "1 2 3 4 5 6 7 8 9 10 11 12",
])
def test_dates_times_prices_and_references_survive(kept) -> None:
    assert strip_pii(f"Note: {kept}.", region="US").text == f"Note: {kept}.", kept


PII_IN_A_CHILD = """
import sys
from engine.notes.pii import strip_pii
text = {text}
out = strip_pii(text)
print(len(out.text))
"""


@pytest.mark.parametrize("text", ['"a" * 5_000_000', '"a." * 2_500_000', '("x" * 64 + "@") * 77_000',
                                  '"aa.aa@" * 840_000', '("ö" * 70 + "@ab.cd ") * 60_000',
                                  '"a@" * 2_500_000', '"1 " * 2_500_000', '"(at) " * 1_000_000',
                                  '"+1 212-736-3100 " * 300_000', '"9" * 5_000_000'])
def test_the_pii_pass_finishes_on_5_mb_of_hostile_text(text) -> None:
    """Before: a 16,000-character word took 21 s and 64 KB never finished (backtracking)."""
    done = subprocess.run([sys.executable, "-c", PII_IN_A_CHILD.format(text=text)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-300:]
    assert int(done.stdout) > 0


# -- notes and chat imports through the CLI -----------------------------------------------------
def tw(home: Path, *args: str, stdin=None, stdin_bytes: bytes | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "TRIPWRIGHT_"))}
    env |= {"TRIPWRIGHT_HOME": str(home), "TRIPWRIGHT_OFFLINE": "1"}
    return subprocess.run([str(EXE), *args], capture_output=True, env=env, timeout=120, stdin=stdin,
                          input=stdin_bytes)


def refused(done: subprocess.CompletedProcess, *words: str) -> str:
    err = done.stderr.decode()
    assert done.returncode == 2, (done.returncode, err[-500:])
    assert err.startswith("tripwright: ") and "Traceback" not in err and err.strip().count("\n") == 0, err
    for w in words:
        assert w in err, err
    return err


def stored_notes(home: Path) -> int:
    import sqlite3
    db = home / "tripwright.db"
    if not db.exists():
        return 0
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT count(*) FROM knowledge_item WHERE source_kind IN ('file', 'pasted')").fetchone()[0]
    except sqlite3.OperationalError:
        return 0
    finally:
        conn.close()


@pytest.fixture()
def home(tmp_path: Path) -> Path:
    return tmp_path / "home"


def test_notes_import_from_dev_zero_is_refused_at_the_cap(home) -> None:
    with open("/dev/zero", "rb") as zero:
        refused(tw(home, "notes", "import", "-", "--destination", "Paris", stdin=zero), "stdin", "larger than 8 MB")


@pytest.mark.parametrize(("data", "words"), [
    (b"Caf\xe9 near the Louvre", "not UTF-8 text"),
    (b"Louvre tips. " * 1000 + b"\x00 hidden", "control character (U+0000"),
    (b"Louvre \x1b]0;pwned\x07 tips", "control character (U+001B"),
])
def test_notes_import_of_stdin_decodes_strictly_and_refuses_control_characters(home, data, words) -> None:
    refused(tw(home, "notes", "import", "-", "--destination", "Paris", stdin_bytes=data), "stdin", words)
    assert stored_notes(home) == 0


def test_a_note_file_with_a_nul_after_its_first_8_kb_is_refused(home, tmp_path) -> None:
    note = tmp_path / "tips.txt"
    note.write_bytes(b"The Louvre opens at nine. " * 400 + b"\x00")
    refused(tw(home, "notes", "import", str(note), "--destination", "Paris"), "tips.txt", "U+0000")
    assert stored_notes(home) == 0


def test_pipes_and_devices_are_refused_not_read(home, tmp_path) -> None:
    fifo = tmp_path / "chat.txt"
    os.mkfifo(fifo)
    refused(tw(home, "notes", "import", str(fifo), "--destination", "Paris"), "not a regular file")
    refused(tw(home, "chat", "import", "some-trip", str(fifo)), "not a regular file")
    refused(tw(home, "chat", "import", "some-trip", "/dev/zero"), "not a regular file")


def _object_stream_bomb(padding_mb: int) -> bytes:
    """A one-page PDF 1.5 whose page tree sits in a FlateDecode object stream padded with
    ``padding_mb`` MB of spaces (compressed ~1,000:1), found through an xref stream."""
    import struct
    import zlib
    pages, header = b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>", b"2 0 "
    z = zlib.compressobj(9)
    packed = (z.compress(header + pages + b"\n") + b"".join(z.compress(b" " * 2**20) for _ in range(padding_mb))
              + z.flush())
    objs = {1: b"<< /Type /Catalog /Pages 2 0 R >>",
            3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
            4: b"<< /Length 5 >>\nstream\nBT ET\nendstream",
            5: b"<< /Type /ObjStm /N 1 /First %d /Length %d /Filter /FlateDecode >>\nstream\n" % (len(header), len(packed))
            + packed + b"\nendstream"}
    out, at = bytearray(b"%PDF-1.5\n"), {}
    for n, body in objs.items():
        at[n] = len(out)
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    rows = [(0, 0, 65535), (1, at[1], 0), (2, 5, 0), (1, at[3], 0), (1, at[4], 0), (1, at[5], 0), (1, xref, 0)]
    table = b"".join(struct.pack(">BIH", *row) for row in rows)
    out += (b"6 0 obj\n<< /Type /XRef /Size 7 /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n" % len(table)
            + table + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % xref)
    return bytes(out)


def test_a_pdf_bomb_is_refused_in_one_line(home, tmp_path) -> None:
    """1 GB of FlateDecode in an object stream: pypdf stops at its limit (LimitReachedError)."""
    from engine.notes.reading import pdf_text
    assert pdf_text(_object_stream_bomb(0), "file sane.pdf") == ""  # the same file, unpadded, reads
    pdf = tmp_path / "guide.pdf"
    pdf.write_bytes(_object_stream_bomb(1000))
    refused(tw(home, "notes", "import", str(pdf), "--destination", "Paris"), "guide.pdf", "unreadable PDF",
            "inflates past the size limit")
    assert stored_notes(home) == 0


def test_a_telegram_export_nested_100000_deep_is_refused_in_one_line(home, tmp_path) -> None:
    deep = tmp_path / "result.json"
    deep.write_text('{"messages": [' + "[" * 100_000 + "]" * 100_000 + "]}")
    refused(tw(home, "chat", "import", "some-trip", str(deep)), "result.json", "nests its JSON too deeply")


def test_chat_list_shows_escapes_and_bidi_controls_visibly(home) -> None:
    done = tw(home, "plan", "--prompt", "5 days in Paris from 2027-06-15, flying from JFK, budget $4000", "--save", "--today", "2026-11-23")
    assert done.returncode == 0, done.stderr.decode()
    trip = tw(home, "trips", "list").stdout.decode().split()[0]
    hostile = "\x1b]0;pwned\x07Louvre\u202e at 9\x1b[2J"
    assert tw(home, "chat", "post", trip, hostile).returncode == 0
    shown = tw(home, "chat", "list", trip).stdout.decode()
    assert "\x1b" not in shown and "\u202e" not in shown and "\x07" not in shown
    assert "\\x1b]0;pwned\\x07Louvre\\u202e at 9\\x1b[2J" in shown


def test_a_route_file_that_is_a_pipe_is_refused_not_waited_on(tmp_path) -> None:
    from engine.errors import InputError
    from engine.roadtrip.route_file import read_route_file
    fifo = tmp_path / "track.gpx"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="track.gpx is not a regular file"):
        read_route_file(fifo)


@pytest.mark.parametrize("escaped", ["\\u0000", "\\u001b]0;pwned\\u0007"])
def test_control_characters_escaped_in_a_telegram_export_are_refused(escaped) -> None:
    from engine.errors import InputError
    from engine.llm.chat_import import parse_telegram
    doc = ('{"messages": [{"id": 1, "type": "message", "date": "2023-12-31T21:41:05", "from": "Ann", '
           f'"text": "Louvre {escaped} at 9"}}]}}')
    with pytest.raises(InputError, match=r"messages\[0\]: holds a control character"):
        parse_telegram(doc)



def test_a_file_names_escapes_never_reach_the_store_or_the_terminal(home, tmp_path) -> None:
    """A file's name becomes the note's title and source: its control characters are dropped."""
    note = tmp_path / "tips\x1b]0;pwned\x07.md"
    note.write_text("The Louvre opens at nine on weekdays and closes at six.")
    done = tw(home, "notes", "import", str(note), "--destination", "Paris")
    assert done.returncode == 0, done.stderr.decode()
    listed = tw(home, "notes", "list").stdout.decode() + done.stdout.decode()
    assert "\x1b" not in listed and "\x07" not in listed and "tips]0;pwned" in listed


def test_control_characters_written_as_html_entities_are_dropped_from_a_note(tmp_path) -> None:
    from engine.notes.reading import read_note_file
    page = tmp_path / "tips.html"
    page.write_text("<html><body><p>Louvre &#27;]0;pwned&#7; opens at nine&#1;.</p></body></html>")
    assert read_note_file(page).text == "Louvre ]0;pwned opens at nine."
