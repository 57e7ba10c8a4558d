"""PII stripping before anything is stored or embedded (seed §10.4): e-mail addresses and phone
numbers, international and local formats.

Phones are found by ``phonenumbers`` (libphonenumber's metadata), not a regex: a number written
with ``+`` or ``00`` is recognised anywhere; a local number is recognised when it is valid in one
of the regions a traveller's note is likely to use (the destination's country first, then the
countries of the fixture cities and the commonest home countries). Dates, opening hours and
prices are not valid phone numbers, so they stay.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

EMAIL_MARK = "[email removed]"
PHONE_MARK = "[phone removed]"
# RFC 5322's dot-atom local part, a domain with at least one dot; also "name (at) host.tld".
_EMAIL = re.compile(r"[\w.!#$%&'*+/=?^`{|}~-]+(?:@|\s?[(\[]at[)\]]\s?)[\w-]+(?:\.[\w-]+)+", re.IGNORECASE)
REGIONS = ("US", "FR", "IT", "JP", "GB", "DE", "ES", "CA", "AU", "NL", "CH", "BE")


@dataclass(frozen=True)
class Stripped:
    text: str
    emails: int
    phones: int


# Anything that could be a phone number: 6+ digits with the separators people type between them.
_DIGIT_RUN = re.compile(r"(?:\+|\b00)?[\d(][\d\s().\-/]{4,}\d")


def strip_pii(text: str, *, region: str | None = None) -> Stripped:
    text, emails = _EMAIL.subn(EMAIL_MARK, text)
    regions = ([region] if region else []) + [r for r in REGIONS if r != region]
    out, phones, last = [], 0, 0
    for run in _DIGIT_RUN.finditer(text):
        if sum(c.isdigit() for c in run.group()) < 6:
            continue
        piece, found = _strip_phones(run.group(), regions)
        out.append(text[last:run.start()] + piece)
        phones += found
        last = run.end()
    out.append(text[last:])
    return Stripped("".join(out), emails, phones)


def _strip_phones(piece: str, regions: list[str]) -> tuple[str, int]:
    """Only digit runs reach libphonenumber's matcher (a whole guidebook would take seconds).
    Imported here: its metadata takes about 350 ms to import, which the app's start-up and a
    text with no digit run need not pay."""
    import phonenumbers

    found = 0
    for region in regions:
        spans = [(m.start, m.end) for m in
                 phonenumbers.PhoneNumberMatcher(piece, region, leniency=phonenumbers.Leniency.VALID)]
        for start, end in reversed(spans):
            piece = piece[:start] + PHONE_MARK + piece[end:]
        found += len(spans)
    return piece, found
