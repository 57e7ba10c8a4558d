"""Which reader a booking file needs, and the two ways in: without a model (sync) and with one.

The kind is found by content first — ``%PDF-``, ``BEGIN:VCALENDAR``, mail headers on the first
line, a ``<`` — then by the name's extension. An e-mail or web page is read from its schema.org
markup; a mail without any, from its calendar attachment; otherwise (and for a PDF or text) its
text goes to the model. The file itself is read as the places importer reads one (regular files
only, opened without blocking, at most ``MAX_FILE_BYTES`` + 1 bytes).
"""

from __future__ import annotations

import os
import re
from datetime import date
from pathlib import Path

from engine.errors import InputError, ModelUnavailable

from .calendar_file import read_calendar
from .email_markup import html_text, mail_parts, markup_of
from .result import BookingsImport, Collected
from .schema_org import read_reservations
from .text_booking import ForModel, by_hand, pdf_text, plain_text, prepared, read_with_model
from .values import FIELD, Context, fail

_HEADER = re.compile(rb"^(?:From |[A-Za-z][A-Za-z0-9-]{1,40}:[ \t])")
_MAIL_HEADERS = re.compile(rb"(?im)^(?:from|to|subject|date|mime-version|content-type|received|message-id):")
_SUFFIXES = {".eml": "email", ".mht": "email", ".html": "html", ".htm": "html", ".ics": "ics", ".ical": "ics",
             ".pdf": "pdf", ".txt": "text", ".text": "text"}
_BLANK = b"\xef\xbb\xbf \t\r\n"


def read_file(path: str | os.PathLike[str]) -> bytes:
    """The file's bytes, refused in one ``bookings`` line when it is not a readable regular file."""
    from engine.imports.saved_places import read_capped

    try:
        return read_capped(path)
    except InputError as exc:
        raise InputError(FIELD, exc.message) from None


def detect_kind(data: bytes, name: str) -> str | None:
    """``"email"``, ``"html"``, ``"ics"``, ``"pdf"``, ``"text"`` or None."""
    head = data[:4096].lstrip(_BLANK)
    if head.startswith(b"%PDF-"):
        return "pdf"
    if head[:200].upper().startswith(b"BEGIN:VCALENDAR"):
        return "ics"
    if _HEADER.match(head) and len(_MAIL_HEADERS.findall(head)) >= 2:
        return "email"
    if head.startswith(b"<"):
        return "html"
    return _SUFFIXES.get(Path(name).suffix.casefold())


def without_model(data: bytes, name: str, today: date | None, legs: bool = False) -> BookingsImport | ForModel:
    """What the file's markup or calendar says, or its text prepared for the model. ``legs``: read
    train and bus tickets too (``BookingsImport.legs``), for a multi-city trip."""
    ctx = Context(label=_label(name), today=today or date.today(), legs=legs)
    if not data.strip(_BLANK):
        fail(ctx.label, "is empty")
    kind = detect_kind(data, name)
    found = Collected(ctx)
    if kind == "email":
        return _email(data, ctx, found)
    if kind == "html":
        html = _decoded(data)
        return _markup([html], ctx, found, "html") or _for_model(html_text(html), ctx, found, "html")
    if kind == "ics":
        read_calendar(data, ctx, found, "ics")
        return found.result("ics", "calendar")
    if kind == "pdf":
        return _for_model(pdf_text(data, ctx), ctx, found, "pdf")
    if kind == "text":
        return _for_model(plain_text(data, ctx), ctx, found, "text")
    fail(ctx.label, "is not an e-mail (.eml), web page (.html), calendar (.ics), PDF or text file")


def _email(data: bytes, ctx: Context, found: Collected) -> BookingsImport | ForModel:
    parts = mail_parts(data)
    found.skip("e-mail parts past the cap", parts.over_cap)
    done = _markup(parts.html, ctx, found, "email")
    if done is not None:
        return done
    for calendar in parts.calendars:
        read_calendar(calendar, ctx, found, "email")
    if not found.empty:
        return found.result("email", "calendar")
    text = "\n\n".join(parts.plain) or "\n\n".join(html_text(h) for h in parts.html[:2])
    if parts.pdf is not None:
        text += "\n\n" + pdf_text(parts.pdf, ctx)
    return _for_model(text, ctx, found, "email")


def _markup(html_parts: list[str], ctx: Context, found: Collected, source: str) -> BookingsImport | None:
    """The bookings the markup states; None when it states none (not even a train)."""
    markup = markup_of(html_parts)
    found.skipped.update(markup.skipped)
    if read_reservations(markup.items, ctx, found, source):
        return found.result(source, "markup")
    return None


def _for_model(text: str, ctx: Context, found: Collected, source: str) -> ForModel:
    return ForModel(ctx=ctx, text=prepared(text, ctx), source=source, found=found)


def _decoded(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", "replace")


def _label(name: str) -> str:
    base = Path(name).name or name
    return base if base.isprintable() and len(base) <= 120 else repr(base[:120])


# -- the ways in ------------------------------------------------------------------------------------
def parse_bookings(data: bytes, name: str, *, today: date | None = None, legs: bool = False) -> BookingsImport:
    """Bookings from bytes in memory (a drop, a paste), without a model: a file only a model can
    read is the "enter it by hand" line."""
    step = without_model(data, name, today, legs)
    if isinstance(step, ForModel):
        raise by_hand(step, "its text has no booking markup, and reading it takes a model")
    return step


async def aparse_bookings(data: bytes, name: str, client=None, *, today: date | None = None,
                          legs: bool = False) -> BookingsImport:
    """As ``parse_bookings``, asking the model for text without markup. ``client``: an
    ``engine.llm.client.LLMClient`` (the caller's, left open), or a function making one when a file
    needs it (e.g. ``lambda: LLMClient(config_from_env(...))``; closed after), or None. No client,
    or one that cannot be made or used (``ModelUnavailable``), is the "enter it by hand" line."""
    step = without_model(data, name, today, legs)
    if not isinstance(step, ForModel):
        return step
    if client is None:
        raise by_hand(step, "no model is set up: Settings → Model, or OPENAI_BASE_URL")
    made = None
    try:
        if callable(client):
            client = made = client()
        return await read_with_model(client, step)
    except ModelUnavailable as exc:
        raise by_hand(step, f"the model cannot be used: {exc.reason}") from None
    finally:
        if made is not None:
            await made.close()


def read_bookings(path: str | os.PathLike[str], *, today: date | None = None, legs: bool = False) -> BookingsImport:
    return parse_bookings(read_file(path), os.fspath(path), today=today, legs=legs)


async def aread_bookings(path: str | os.PathLike[str], client=None, *, today: date | None = None,
                         legs: bool = False) -> BookingsImport:
    return await aparse_bookings(read_file(path), os.fspath(path), client, today=today, legs=legs)
