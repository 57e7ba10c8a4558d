"""Reading a note file into plain text: Markdown, plain text, HTML and PDF, each by a well-kept
parser (markdown-it-py, BeautifulSoup, pypdf). Anything else — a binary file, an empty one, one
over the size limit — is an :class:`InputError` naming the file, before anything is stored."""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from pathlib import Path

from engine.errors import InputError
from engine.imports.untrusted import read_regular, strict_text, without_controls

MAX_BYTES = 20 * 1024 * 1024  # a guidebook PDF fits; a 50 MB file is refused
MAX_PDF_PAGES = 2000
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
    try:
        size = path.stat().st_size
    except OSError:
        size = 0
    if size > MAX_BYTES and path.is_file():
        raise InputError(field, f"{size / 2**20:.0f} MB is over the {MAX_BYTES // 2**20} MB limit for a note")
    data = read_regular(path, MAX_BYTES, field)  # a pipe or device refused; at most the cap + 1 read
    size = len(data)
    kind = _kind(path, data)
    raw = ""
    if kind == "pdf":
        text = pdf_text(data, field)
        pages = text.count("\f") + 1
        text = text.replace("\f", "\n\n")
    else:
        raw = _decode(data, field)
        text = markdown_text(raw) if kind == "markdown" else html_text(raw) if kind == "html" else raw
        text = without_controls(text)  # an entity (&#27;, &#0;) rendered into a control character
        pages = 0
    if not text.strip():
        raise InputError(field, "the file holds no text" if size else "the file is empty")
    heading = _MD_HEADING.search(raw) if kind == "markdown" else None
    title = heading.group(1).strip() if heading else path.stem.replace("_", " ").replace("-", " ").strip()
    title = without_controls(title)[:200] or without_controls(path.name)  # a file name may hold escapes
    return ReadNote(title=title, text=text, kind=kind, pages=pages)


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
    """Strict UTF-8 with no NUL or other control character anywhere (not only in the first 8 KB)."""
    return strict_text(data, field, what="text (import Markdown, text, HTML or PDF)")


def markdown_text(source: str) -> str:
    """Markdown rendered by markdown-it-py and read back as text (no markup words indexed)."""
    from markdown_it import MarkdownIt

    return html_text(MarkdownIt("commonmark").render(source))


def html_text(source: str) -> str:
    from bs4 import BeautifulSoup

    import warnings

    from bs4 import XMLParsedAsHTMLWarning
    with warnings.catch_warnings():  # a file that looks like XML is still read as the HTML it was given as
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
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
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(io.BytesIO(data))
        if len(reader.pages) > MAX_PDF_PAGES:
            raise InputError(field, f"a PDF of {len(reader.pages):,} pages; a note is at most {MAX_PDF_PAGES}")
        text = "\f".join(page.extract_text() or "" for page in reader.pages)
    except PyPdfError as exc:  # LimitReachedError too: a stream that inflates past pypdf's limit
        raise InputError(field, f"unreadable PDF ({_pdf_reason(exc)})") from None
    except (ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError, zlib.error) as exc:
        raise InputError(field, f"unreadable PDF ({type(exc).__name__})") from None
    return without_controls(text)  # form feeds (the page breaks) are kept


def _pdf_reason(exc: Exception) -> str:
    from pypdf.errors import LimitReachedError
    if isinstance(exc, LimitReachedError):
        return "a compressed stream inflates past the size limit"
    return type(exc).__name__
