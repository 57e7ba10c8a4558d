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

import phonenumbers

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


def strip_pii(text: str, *, region: str | None = None) -> Stripped:
    text, emails = _EMAIL.subn(EMAIL_MARK, text)
    phones = 0
    for reg in ([region] if region else []) + [r for r in REGIONS if r != region]:
        text, found = _strip_phones(text, reg)
        phones += found
    return Stripped(text, emails, phones)


def _strip_phones(text: str, region: str) -> tuple[str, int]:
    spans = [(m.start, m.end) for m in phonenumbers.PhoneNumberMatcher(text, region, leniency=phonenumbers.Leniency.VALID)]
    for start, end in reversed(spans):
        text = text[:start] + PHONE_MARK + text[end:]
    return text, len(spans)
