"""Reading a note file into plain text: Markdown, plain text, HTML and PDF, each by a well-kept
parser (markdown-it-py, BeautifulSoup, pypdf). Anything else — a binary file, an empty one, one
over the size limit — is an :class:`InputError` naming the file, before anything is stored."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from engine.errors import InputError

MAX_BYTES = 20 * 1024 * 1024  # a guidebook PDF fits; a 50 MB file is refused
_MD_HEADING = re.compile(r"^#\s+(.+)$", re.MULTILINE)
TEXT_SUFFIXES = {".txt": "text", ".text": "text", ".md": "markdown", ".markdown": "markdown",
                 ".html": "html", ".htm": "html", ".pdf": "pdf"}


@dataclass(frozen=True)
class ReadNote:
    title: str
    text: str
    kind: str  # text | markdown | html | pdf
    pages: int = 0


def read_note_file(path: Path) -> ReadNote:
    path = Path(path)
    field = f"file {path.name}"
    if not path.is_file():
        raise InputError(field, "no such file")
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise InputError(field, f"{size / 2**20:.0f} MB is over the {MAX_BYTES // 2**20} MB limit for a note")
    data = path.read_bytes()
    kind = _kind(path, data)
    raw = ""
    if kind == "pdf":
        text = pdf_text(data, field)
        pages = text.count("\f") + 1
        text = text.replace("\f", "\n\n")
    else:
        raw = _decode(data, field)
        text = markdown_text(raw) if kind == "markdown" else html_text(raw) if kind == "html" else raw
        pages = 0
    if not text.strip():
        raise InputError(field, "the file holds no text" if size else "the file is empty")
    heading = _MD_HEADING.search(raw) if kind == "markdown" else None
    title = heading.group(1).strip() if heading else path.stem.replace("_", " ").replace("-", " ").strip()
    return ReadNote(title=title[:200] or path.name, text=text, kind=kind, pages=pages)


def _kind(path: Path, data: bytes) -> str:
    if data.startswith(b"%PDF-"):
        return "pdf"
    kind = TEXT_SUFFIXES.get(path.suffix.lower())
    if kind == "pdf":
        raise InputError(f"file {path.name}", "not a PDF (no %PDF header)")
    if kind is None:
        head = data[:512].lstrip().lower()
        kind = "html" if head.startswith((b"<!doctype html", b"<html")) else "text"
    return kind


def _decode(data: bytes, field: str) -> str:
    if b"\x00" in data[:8192]:
        raise InputError(field, "a binary file, not text (import Markdown, text, HTML or PDF)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(field, "not UTF-8 text (import Markdown, text, HTML or PDF)") from None


def markdown_text(source: str) -> str:
    """Markdown rendered by markdown-it-py and read back as text (no markup words indexed)."""
    from markdown_it import MarkdownIt

    return html_text(MarkdownIt("commonmark").render(source))


def html_text(source: str) -> str:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(source, "html.parser")
    for tag in soup(["script", "style", "noscript", "template", "head"]):
        tag.decompose()
    lines = (line.strip() for line in soup.get_text("\n").splitlines())
    return _paragraphs(lines)


def _paragraphs(lines) -> str:  # noqa: ANN001 (an iterable of str)
    """Blank-line-separated blocks; single line breaks inside a block become spaces."""
    blocks, current = [], []
    for line in lines:
        if line:
            current.append(line)
        elif current:
            blocks.append(" ".join(current))
            current = []
    if current:
        blocks.append(" ".join(current))
    return "\n\n".join(blocks)


def pdf_text(data: bytes, field: str) -> str:
    """Pages joined with form feeds (the caller counts pages from them)."""
    import io

    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        return "\f".join(page.extract_text() or "" for page in reader.pages)
    except (PdfReadError, ValueError, KeyError, TypeError) as exc:
        raise InputError(field, f"unreadable PDF ({type(exc).__name__})") from None
