"""One identity key for a place's name, in every script: what de-duplication compares.

Latin names fold as they always have: accents dropped, lower case, punctuation to one space
("Musée d'Orsay" → ``musee d orsay``). Letters and digits of every other script (Japanese,
Chinese, Korean, Cyrillic, Greek, Arabic, Hebrew, Devanagari, Thai, …) are kept, in NFKC form and
case-folded, with the marks that belong to them ("京都国立近代美術館" → itself, "МУЗЕЙ" → ``музей``):
before, they were dropped, so every non-Latin name had the key ``''`` and any two of one kind
within a few hundred metres were taken for one place.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_ASCII_SEPARATORS = re.compile(r"[\x00-\x2f\x3a-\x60\x7b-\x7f]+")  # ASCII but a-z and 0-9


@lru_cache(maxsize=65536)
def name_key(name: str) -> str:
    """The name folded for comparison (see the module docstring); '' only for a name with no
    letter or digit at all."""
    if name.isascii() or not any(_non_latin(ch) for ch in name if not ch.isascii()):
        return _latin_key(name)
    parts: list[str] = []
    foreign: list[str] = []  # the current run of non-Latin letters, digits and their marks
    for ch in unicodedata.normalize("NFC", name):
        if _non_latin(ch) or (foreign and unicodedata.category(ch).startswith("M")):
            foreign.append(ch)
            continue
        if foreign:
            parts.append(unicodedata.normalize("NFKC", "".join(foreign)).casefold())
            foreign = []
        parts.append(unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode().lower())
    if foreign:
        parts.append(unicodedata.normalize("NFKC", "".join(foreign)).casefold())
    return _ASCII_SEPARATORS.sub(" ", "".join(parts)).strip()


def _latin_key(name: str) -> str:
    """The key as it always was, for a name with no letter of another script: quicker."""
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return _ASCII_SEPARATORS.sub(" ", folded).strip()


def _non_latin(ch: str) -> bool:
    """A letter or digit that ASCII folding would lose and that is not a Latin letter (a Latin
    ``ß`` or ``ø`` is dropped, as it always was)."""
    if ch.isascii() or not ch.isalnum():
        return False
    if any(c.isascii() for c in unicodedata.normalize("NFKD", ch)):
        return False  # é, ², ｆ: ASCII folding keeps their letter
    return "LATIN" not in unicodedata.name(ch, "")
