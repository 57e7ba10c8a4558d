"""PII stripping before anything is stored or embedded (seed §10.4): e-mail addresses and phone
numbers, international and local formats — in time linear in the text (issue 25 §2).

E-mail addresses are found from their "at" (``@``, full-width ``＠``, ``(at)``, ``[at]``,
``{at}``, `` at `` before a spelled-out ``dot``), then a bounded local part backwards (≤ 64
characters, RFC 5321) and a bounded domain forwards (≤ 8 labels of ≤ 63): no pattern ever scans
the text from every position, so a 5 MB word costs what reading it costs.

Phones are found by ``phonenumbers`` (libphonenumber's metadata), not a regex: only short digit
runs (≤ 32 characters) reach its matcher; a number written with ``+`` or ``00`` is recognised
anywhere; a local number when it is valid in one of the regions a traveller's note is likely to
use (the destination's country first). Dates and times ("2027-06-15 09:00", "15/06/2027",
"9.30") are set aside before the matcher sees the run, a number after "#", "order", "booking",
"ref" or "no." is a reference, not a phone, and vanity numbers ("1-800-FLOWERS") are read with
their letters as digits.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

EMAIL_MARK = "[email removed]"
PHONE_MARK = "[phone removed]"
REGIONS = ("US", "FR", "IT", "JP", "GB", "DE", "ES", "CA", "AU", "NL", "CH", "BE")


@dataclass(frozen=True)
class Stripped:
    text: str
    emails: int
    phones: int


def strip_pii(text: str, *, region: str | None = None) -> Stripped:
    text, emails = _strip_emails(text)
    regions = ([region.upper()] if region else []) + [r for r in REGIONS if r != (region or "").upper()]
    text, vanity = _strip_vanity(text)
    text, phones = _strip_phones(text, regions)
    return Stripped(text, emails, phones + vanity)


# -- e-mail addresses ---------------------------------------------------------------------------
_LOCAL_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.!#$%&'*+/=?^_`|~-"
_DOT = r"(?:[.．]|[ \t]?[(\[{<][ \t]?dot[ \t]?[)\]}>][ \t]?|[ \t]+dot[ \t]+)"
_SPELLED_DOT = r"(?:[ \t]?[(\[{<][ \t]?dot[ \t]?[)\]}>][ \t]?|[ \t]+dot[ \t]+)"
_LABEL = r"[^\W_](?:[\w-]{0,61}[^\W_])?"
_DOMAIN_SRC = rf"{_LABEL}(?:{_DOT}{_LABEL}){{0,7}}{_DOT}[^\W\d_]{{2,24}}\b"
_SPELLED_SRC = rf"{_LABEL}(?:{_SPELLED_DOT}{_LABEL}){{0,7}}{_SPELLED_DOT}[^\W\d_]{{2,24}}\b"
_DOMAIN = re.compile(_DOMAIN_SRC, re.IGNORECASE)
_SPELLED_DOMAIN = re.compile(_SPELLED_SRC, re.IGNORECASE)
# An "at" only where a domain follows (checked by the regex engine, so "a@a@a@…" costs no Python).
_AT = re.compile(rf"(?:[ \t]?[@＠][ \t]?|[ \t]?[(\[{{<][ \t]?at[ \t]?[)\]}}>][ \t]?)(?={_DOMAIN_SRC})"
                 rf"|[ \t]+at[ \t]+(?={_SPELLED_SRC})", re.IGNORECASE)


def _strip_emails(text: str) -> tuple[str, int]:
    out, last, count = [], 0, 0
    for at in _AT.finditer(text):
        if at.start() < last:
            continue
        start = _local_start(text, at.start(), last)
        if start is None:
            continue
        word_at = at.group().strip().lower() == "at"  # " at ": only before a spelled-out "dot"
        domain = (_SPELLED_DOMAIN if word_at else _DOMAIN).match(text, at.end(), min(len(text), at.end() + 600))
        if domain is None:
            continue
        out.append(text[last:start] + EMAIL_MARK)
        last = domain.end()
        count += 1
    out.append(text[last:])
    return "".join(out), count


def _local_start(text: str, end: int, floor: int) -> int | None:
    """Where the local part ending at ``end`` starts (≤ 64 characters back), or None."""
    window = text[max(floor, end - 65):end]
    start = end - (len(window) - len(window.rstrip(_LOCAL_CHARS)))  # str.rstrip: the scan runs in C
    while start > floor and end - start <= 64 and (text[start - 1].isalnum() or text[start - 1] in _LOCAL_CHARS):
        start -= 1  # a non-ASCII letter ("jöhn"): rarely more than a step or two
    return start if 0 < end - start <= 64 else None


# -- phone numbers ------------------------------------------------------------------------------
# Candidate runs: digits with the separators people type, starting at "+", a digit or "(" (one
# greedy class: linear). A run longer than ``MAX_RUN`` is split where a list would be ("  ", "/",
# " - "); a piece still longer is a table of numbers, not a phone, and is left alone.
_DIGIT_RUN = re.compile(r"\+?[\d(][\d \t().\-/]*\d")
_LIST_BREAK = re.compile(r"[ \t]{2,}|[ \t]*/[ \t]*|[ \t]+-[ \t]+")
MAX_RUN = 32
# libphonenumber's matcher costs ~0.1 ms a region; past this many candidates in one text, a
# candidate of 7–15 digits is removed without asking (privacy first, and the time stays bounded).
MAX_ASKED = 5_000
# Set aside before the matcher sees a run: ISO dates and date-times, day/month/year, clock times.
_DATE_TIME = re.compile(r"(?<!\d[./ -])\b(?:\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2})?)?"
                        r"|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{1,2}[:h]\d{2}|\d{1,2}\.\d{2})\b(?![./-]\d)")
_REFERENCE = re.compile(r"(?:#|\b(?:order|booking|ref|reference|invoice|ticket|confirmation|no|nr|n°)\b\.?)"
                        r"[ \t]*[:#]?[ \t]*$", re.IGNORECASE)
_VANITY = re.compile(r"(?<![\w+])(?:\+?1[ \t.-]?)?\(?\d{3}\)?[ \t.-]?[A-Z\d]{3}[ \t.-]?[A-Z\d]{4,7}\b")


def _strip_phones(text: str, regions: list[str]) -> tuple[str, int]:
    shadow = _DATE_TIME.sub(lambda m: "_" * len(m.group()), text)  # same positions, no digits
    out, last, found, asked = [], 0, 0, 0
    for start, end in _candidates(shadow):
        if _REFERENCE.search(shadow, max(0, start - 16), start):
            continue
        asked += 1
        if asked > MAX_ASKED:
            digits = _digits(shadow[start:end])
            cleaned, n = (PHONE_MARK, 1) if 7 <= digits <= 15 else ("", 0)
        else:
            cleaned, n = _phones_in(text[start:end], tuple(regions))
        if n:
            out.append(text[last:start] + cleaned)
            last = end
            found += n
    out.append(text[last:])
    return "".join(out), found


def _candidates(shadow: str):
    """(start, end) of each digit run worth asking about: ≤ ``MAX_RUN`` characters, ≥ 6 digits."""
    for run in _DIGIT_RUN.finditer(shadow):
        pieces = [(run.start(), run.end())]
        if run.end() - run.start() > MAX_RUN:
            pieces, at = [], run.start()
            for gap in _LIST_BREAK.finditer(shadow, run.start(), run.end()):
                pieces.append((at, gap.start()))
                at = gap.end()
            pieces.append((at, run.end()))
        for start, end in pieces:
            if end - start <= MAX_RUN and _digits(shadow[start:end]) >= 6:
                yield start, end


def _digits(piece: str) -> int:
    return sum(map(str.isdigit, piece))


@functools.lru_cache(maxsize=4096)
def _phones_in(piece: str, regions: tuple[str, ...]) -> tuple[str, int]:
    """Imported here: libphonenumber's metadata takes about 350 ms to import, which the app's
    start-up and a text with no digit run need not pay."""
    import phonenumbers

    found = 0
    for region in regions:
        spans = [(m.start, m.end) for m in
                 phonenumbers.PhoneNumberMatcher(piece, region, leniency=phonenumbers.Leniency.VALID)]
        for start, end in reversed(spans):
            piece = piece[:start] + PHONE_MARK + piece[end:]
        found += len(spans)
    return piece, found


def _strip_vanity(text: str) -> tuple[str, int]:
    """"1-800-FLOWERS": three or more capital letters in a North American number's last part,
    valid once the letters are read as the keypad's digits."""
    if not any(c.isupper() for c in text):
        return text, 0
    count = 0

    def one(m: re.Match) -> str:
        nonlocal count
        if sum(c.isupper() for c in m.group()) < 3 or not _valid_vanity(m.group()):
            return m.group()
        count += 1
        return PHONE_MARK
    return _VANITY.sub(one, text), count


def _valid_vanity(candidate: str) -> bool:
    import phonenumbers
    digits = phonenumbers.convert_alpha_characters_in_number(candidate)
    try:
        number = phonenumbers.parse(digits[:20] if len(digits) <= 20 else digits, "US")
    except phonenumbers.NumberParseException:
        return False
    return phonenumbers.is_valid_number(number)
