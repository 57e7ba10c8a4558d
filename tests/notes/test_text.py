"""Notes text handling without a database: chunking, PII stripping, reading files, terms, MMR."""

from __future__ import annotations

import pytest

from engine.errors import InputError
from engine.notes import terms as T
from engine.notes.chunking import MAX_TOKENS, MIN_TOKENS, OVERLAP, chunk_text, sentences
from engine.notes.pii import EMAIL_MARK, PHONE_MARK, strip_pii
from engine.notes.reading import MAX_BYTES, read_note_file
from engine.notes.retrieval import mmr
from engine.notes.tokens import count_tokens, encoding

from .documents import paris_guide


def numbered_document(tokens: int) -> str:
    """Distinct sentences (numbered), so every chunk has exactly one place in the text."""
    out, i = [], 0
    while count_tokens(" ".join(out)) < tokens:
        i += 1
        out.append(f"Tip {i}: the queue at gate {i % 7} is shortest before {8 + i % 4} o'clock on weekdays.")
    return " ".join(out)


def test_a_5000_token_document_is_about_5_chunks_of_900_to_1100_tokens_with_150_overlap():
    text = numbered_document(5000)
    total = count_tokens(text)
    assert 5000 <= total <= 5050
    chunks = chunk_text(text)
    assert len(chunks) in (5, 6)  # 5 chunks of ≤1,100 with 150 overlaps cover only 4,900 tokens
    for c in chunks:
        assert MIN_TOKENS <= count_tokens(c.text) <= MAX_TOKENS
        assert c.tokens == count_tokens(c.text)
    starts = [text.index(c.text) for c in chunks]
    assert starts[0] == 0 and starts == sorted(starts)
    assert text.endswith(chunks[-1].text)
    for a, start_a, start_b in zip(chunks, starts, starts[1:]):
        shared = text[start_b:start_a + len(a.text)]
        assert OVERLAP - 30 <= count_tokens(shared) <= OVERLAP + 30, count_tokens(shared)


def test_chunks_end_at_sentence_ends():
    for c in chunk_text(paris_guide())[:-1]:
        assert c.text.rstrip()[-1] in ".!?", c.text[-30:]


def test_short_text_is_one_chunk_and_a_sentence_longer_than_a_chunk_is_cut_by_tokens():
    assert [c.text for c in chunk_text("One sentence. Two.")] == ["One sentence. Two."]
    endless = " ".join(["word"] * 3000)  # no sentence break at all
    chunks = chunk_text(endless)
    assert len(chunks) >= 3 and all(c.tokens <= MAX_TOKENS for c in chunks)


def test_sentences_join_back_to_the_text():
    text = "Open at 9. Closed Tuesdays!  Really?\n\nNew paragraph (with “quotes.”) Last"
    assert "".join(sentences(text)) == text
    assert len(sentences(text)) == 5


def test_the_tokenizer_is_cl100k_base_offline():
    assert encoding().encode("Hello") == [9906]


@pytest.mark.parametrize("original", [
    "john@example.com", "j.doe+trip@mail.example.co.uk", "marie (at) example.fr",
    "+33 6 12 34 56 78", "0033 6 12 34 56 78", "06 12 34 56 78", "(212) 736-3100", "+1 212-736-3100",
    "03-3822-1111", "+81 3-3822-1111", "06 6988 4676", "+39 06 6988 4676", "020 7946 0958",
])
def test_emails_and_phones_are_removed_in_international_and_local_formats(original):
    text = f"Contact {original} for details. The museum opens 09:00-18:00 on 2027-05-03; tickets 17 EUR."
    clean = strip_pii(text, region="FR").text
    assert original not in clean
    assert EMAIL_MARK in clean or PHONE_MARK in clean
    assert "09:00-18:00 on 2027-05-03; tickets 17 EUR" in clean  # hours, dates, prices stay


def test_reading_markdown_html_and_text(tmp_path):
    md = tmp_path / "tips.md"
    md.write_text("# Louvre tips\n\nUse the **Porte des Lions** entrance.\n\n- Closed on Tuesdays\n")
    note = read_note_file(md)
    assert note.kind == "markdown" and "Porte des Lions entrance" in note.text and "**" not in note.text
    html = tmp_path / "mail.html"
    html.write_text("<html><head><style>p{}</style><script>alert(1)</script></head>"
                    "<body><p>Meet at the <b>Trevi</b> fountain.</p></body></html>")
    read = read_note_file(html)
    assert "Trevi" in read.text and "alert" not in read.text and "p{}" not in read.text
    txt = tmp_path / "plain"
    txt.write_text("Just text.")
    assert read_note_file(txt).kind == "text"


def test_a_generated_pdf_is_read(tmp_path):
    from fpdf import FPDF

    pdf = FPDF()
    for page in range(3):
        pdf.add_page()
        pdf.set_font("helvetica", size=12)
        pdf.multi_cell(0, 8, f"Page {page + 1}. The Eiffel Tower hours are 09:30 to 23:45.")
    path = tmp_path / "guide.pdf"
    pdf.output(str(path))
    note = read_note_file(path)
    assert note.kind == "pdf" and note.pages == 3
    assert "Page 3" in note.text and "09:30 to 23:45" in note.text


@pytest.mark.parametrize("name,content,message", [
    ("photo.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
    ("empty.md", b"", "empty"),
    ("blank.txt", b"   \n\n  ", "no text"),
    ("fake.pdf", b"hello", "not a PDF"),
    ("broken.pdf", b"%PDF-1.4\n garbage", "unreadable PDF"),
    ("latin1.txt", "café".encode("latin-1"), "not UTF-8"),
])
def test_bad_files_are_one_clear_error(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(InputError, match=message) as err:
        read_note_file(path)
    assert err.value.field == f"file {name}" and "\n" not in str(err.value)


def test_a_50_mb_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.txt"
    with path.open("wb") as f:
        f.truncate(50 * 1024 * 1024)
    assert path.stat().st_size > MAX_BYTES
    with pytest.raises(InputError, match="50 MB is over the 20 MB limit"):
        read_note_file(path)


def test_lexical_confidence_is_calibrated_to_the_best_possible_score():
    words = T.query_terms("What are the Eiffel Tower hours?")
    assert words == ["eiffel", "tower", "hours"]
    weights = {"eiffel": T.idf(10, 1), "tower": T.idf(10, 3), "hours": T.idf(10, 6)}
    assert T.coverage(words, weights, T.word_set("Eiffel Tower: open 9-23, hour by hour.")) == 1.0
    partial = T.coverage(words, weights, T.word_set("Tower hours vary."))
    assert 0 < partial < 0.5  # the rarest word (the name) is missing
    assert T.query_terms("Musée du Louvre", place_name=True) == ["louvre"]
    assert T.query_terms("Central Park", place_name=True) == ["central"]


def test_mmr_prefers_a_different_passage_over_a_near_copy():
    stems = {"a": T.word_set("eiffel tower hours nine to midnight"),
             "a2": T.word_set("eiffel tower hours nine to midnight daily"),
             "b": T.word_set("eiffel tower tickets online")}
    picked = mmr([("a", 0.95), ("a2", 0.94), ("b", 0.80)], stems, k=2)
    assert [p for p, _ in picked] == ["a", "b"]


@pytest.mark.parametrize("text", ["x" * 1_000_000, "é" * 1_000_000, ("abcdefghij " * 100_000)[:1_000_000]])
def test_a_million_characters_with_no_sentence_end_are_chunked_by_characters(text):
    chunks = chunk_text(text)
    assert chunks and all(c.tokens <= MAX_TOKENS for c in chunks)
    assert all(c.tokens == count_tokens(c.text) for c in chunks[:3])
    assert "".join(chunks[0].text.split()) and text.startswith(chunks[0].text)
    assert text.rstrip().endswith(chunks[-1].text)
