"""Saved e-mails (``.eml``) and web pages (``.html``): the schema.org markup airlines, hotels and
booking sites embed for mail clients — JSON-LD ``<script type="application/ld+json">`` blocks and
microdata — as plain dicts, plus what the text path needs when a mail has none (its text, a
calendar or PDF attachment).

Bounded for hostile files (``bench/bookings_bench.py``: a 10 MB mail in ~0.5 s on 2 busy cores):
the stdlib parser (``policy.default``) reads at most ~``2 × MAX_PARTS`` parts (it spends ~0.4 ms a
part) and the readers use ``MAX_PARTS``, decoding only ``text/html``, ``text/plain``, calendars and
the first PDF; JSON-LD blocks are found by one linear scan of each HTML part — a script ends at
its first ``</script``, as an HTML parser reads it — at most ``MAX_BLOCKS`` of at most
``MAX_BLOCK_CHARS`` each, parsed by ``json`` (a block that is not JSON, or nested past Python's
limit, is skipped and counted); microdata is read by BeautifulSoup from a window of
``MICRODATA_WINDOW`` characters from the first ``itemscope`` (BeautifulSoup's tree takes ~2 s a
MB here, so a whole 10 MB part is never handed to it). What is left out is counted in
``skipped``.

The scans go in ``SCAN_CHUNK`` slices (``_search``): one regex call over a 10 MB part holds the
GIL for ~0.1 s, which the app's GUI thread would feel as a stall while an import reads a file.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.feedparser import BytesFeedParser
from typing import Any

from engine.imports.collect import html_lines

from .microdata import microdata_items

MAX_PARTS = 100
MAX_MESSAGES = 25  # messages inside a mail (forwards of forwards): the stdlib parser recurses into each
MAX_BLOCKS = 20
MAX_BLOCK_CHARS = 200_000
MICRODATA_WINDOW = 64_000
MAX_HTML_TEXT_CHARS = 400_000  # of an HTML part turned into text for the model
SCAN_CHUNK = 256 * 1024  # characters a regex scans in one call (a few ms: other threads get the GIL)
SCAN_OVERLAP = 4096  # longer than any match the scans look for (a script tag is ≤ 2,010 characters)
_SCRIPT = re.compile(r"<script\b([^>]{0,2000})>", re.IGNORECASE)
_LD_TYPE = re.compile(r"""type\s*=\s*["']?\s*application/ld\+json""", re.IGNORECASE)
_LD_TAG = re.compile(r"""<script\b[^>]{0,2000}?type\s*=\s*["']?\s*application/ld\+json""", re.IGNORECASE)
_SCRIPT_END = re.compile(r"</script", re.IGNORECASE)
_ITEMSCOPE = re.compile(r"\bitemscope\b", re.IGNORECASE)
_WRAPPERS = re.compile(r"^\s*(?:<!--|//\s*<!\[CDATA\[|<!\[CDATA\[)|(?:-->|//\s*\]\]>|\]\]>)\s*$")
_DASH_LINE = re.compile(rb"^--", re.MULTILINE)
_INNER_MESSAGE = re.compile(rb"^content-type:\s*message/", re.MULTILINE | re.IGNORECASE)
_CALENDAR_TYPES = ("text/calendar", "application/ics", "text/x-vcalendar")


@dataclass
class Markup:
    """Items found in a file's HTML, in order, and what could not be read, by reason."""

    items: list[Any] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    blocks: int = 0


@dataclass
class MailParts:
    html: list[str] = field(default_factory=list)
    plain: list[str] = field(default_factory=list)
    calendars: list[bytes] = field(default_factory=list)
    pdf: bytes | None = None
    over_cap: int = 0


def mail_parts(data: bytes) -> MailParts:
    """The parts of a saved e-mail the readers use, decoded (quoted-printable, base64, charset).
    The parser spends ~0.4 ms a part, so a mail of thousands of parts is cut before the line that
    could open part ``2 × MAX_PARTS`` (a line starting ``--``; base64 never starts one), and
    before the header that would open message ``MAX_MESSAGES + 1`` inside it: the parser recurses
    into each ``message/rfc822`` part, so a mail forwarded thousands of times (no boundary lines at
    all) would exhaust the stack."""
    parts = MailParts()
    data, parts.over_cap = _cut(data)
    parser = BytesFeedParser(policy=policy.default)
    for at in range(0, len(data), SCAN_CHUNK):  # fed in slices: no one call holds the GIL for long
        parser.feed(data[at: at + SCAN_CHUNK])
    message = parser.close()
    for n, part in enumerate(message.walk()):
        if n >= MAX_PARTS:
            parts.over_cap += 1
            continue
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        filename = (part.get_filename() or "").lower()
        if ctype == "text/html":
            parts.html.append(_text(part))
        elif ctype == "text/plain" and not part.is_attachment():
            parts.plain.append(_text(part))
        elif ctype in _CALENDAR_TYPES or filename.endswith(".ics"):
            parts.calendars.append(_bytes(part))
        elif parts.pdf is None and (ctype == "application/pdf" or filename.endswith(".pdf")):
            parts.pdf = _bytes(part)
    return parts


def _cut(data: bytes) -> tuple[bytes, int]:
    data, over = _cut_at(data, _DASH_LINE, 2 * MAX_PARTS)
    data, deeper = _cut_at(data, _INNER_MESSAGE, MAX_MESSAGES)
    return data, over + deeper


def _cut_at(data: bytes, line_start: re.Pattern, keep: int) -> tuple[bytes, int]:
    """``data`` cut before the ``keep + 1``-th line ``line_start`` matches, and how many were cut."""
    pos, seen = 0, 0
    while (line := _search(line_start, data, pos)) is not None:
        if seen == keep:
            return data[:line.start()], 1 + _count(line_start, data, line.end())
        seen, pos = seen + 1, max(line.end(), line.start() + 1)
    return data, 0


def _text(part: EmailMessage) -> str:
    try:
        return part.get_content()
    except (LookupError, ValueError, UnicodeError, AssertionError):  # an unknown or lying charset
        return _bytes(part).decode("utf-8", "replace")


def _bytes(part: EmailMessage) -> bytes:
    payload = part.get_payload(decode=True)
    return payload if isinstance(payload, bytes) else b""


def _search(pattern: re.Pattern, text: str, pos: int = 0) -> re.Match | None:
    """``pattern.search(text, pos)`` in slices of ``SCAN_CHUNK`` (with ``SCAN_OVERLAP`` so a match
    across a slice's end is found whole); the same first match, with the GIL let go between slices."""
    while pos < len(text):
        end = min(len(text), pos + SCAN_CHUNK)
        found = pattern.search(text, pos, end if end == len(text) else end + SCAN_OVERLAP)
        if found is not None:
            return pattern.search(text, found.start()) if found.end() >= end + SCAN_OVERLAP else found
        pos = end
    return None


def _count(pattern: re.Pattern, text: str, pos: int) -> int:
    count = 0
    while (found := _search(pattern, text, pos)) is not None:
        count, pos = count + 1, max(found.end(), found.start() + 1)
    return count


def markup_of(html_parts: list[str]) -> Markup:
    """Every JSON-LD block and microdata item of the parts, in order."""
    found = Markup()
    window_left = MICRODATA_WINDOW
    for html in html_parts:
        _json_ld(html, found)
        start = _search(_ITEMSCOPE, html)
        if start is None:
            continue
        if window_left <= 0:
            found.skipped["microdata past the size cap"] += 1
            continue
        begin = html.rfind("<", 0, start.start())
        window = html[max(begin, 0): max(begin, 0) + window_left]
        window_left -= len(window)
        found.items.extend(microdata_items(window))
        if _search(_ITEMSCOPE, html, max(begin, 0) + len(window)):
            found.skipped["microdata past the size cap"] += 1
    return found


def _json_ld(html: str, found: Markup) -> None:
    pos = 0
    while (tag := _search(_SCRIPT, html, pos)) is not None:
        pos = tag.end()
        if not _LD_TYPE.search(tag.group(1)):
            continue
        end = _search(_SCRIPT_END, html, pos)
        if end is None:  # no script ends after this one: none further can be read either
            found.skipped["malformed JSON-LD"] += 1
            return
        block, pos = html[tag.end(): end.start()], end.end()
        found.blocks += 1
        if found.blocks > MAX_BLOCKS:  # the rest counted in one pass, not read
            found.skipped["JSON-LD past the block cap"] += 1 + _count(_LD_TAG, html, pos)
            return
        if len(block) > MAX_BLOCK_CHARS:
            found.skipped["JSON-LD too large"] += 1
        else:
            _parse_block(block, found)


def _parse_block(block: str, found: Markup) -> None:
    text = _WRAPPERS.sub("", block.strip())
    try:
        found.items.append(json.loads(text))
    except (ValueError, RecursionError):  # not JSON, a number past int's digit limit, nested too deep
        found.skipped["malformed JSON-LD"] += 1


def html_text(html: str) -> str:
    """An HTML part as the lines a reader sees (scripts and styles dropped), by the stdlib
    tokenizer over at most ``MAX_HTML_TEXT_CHARS``."""
    return html_lines(html, MAX_HTML_TEXT_CHARS)
