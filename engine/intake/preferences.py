"""Soft preferences read from a trip prompt: themes, travelling with kids, no red-eyes.

Each is a keyword rule on the cleaned prompt text; a word right after "no"/"not"/"without"
does not count ("no museums", "not with kids").
"""

from __future__ import annotations

import re

from .vocabulary import THEME_WORDS

_THEME_PATTERNS = {theme: re.compile(rf"\b(?:{'|'.join(words)})\b", re.IGNORECASE)
                   for theme, words in THEME_WORDS.items()}

_NEGATION_BEFORE = re.compile(r"\b(?:no|not|without|skip|avoid(?:ing)?|hate)\b(?:\s+\w+)?\s*$",
                              re.IGNORECASE)
_KIDS = re.compile(
    r"\b(?:kids?|child(?:ren)?|toddlers?|bab(?:y|ies)|famil(?:y|ies)|sons?|daughters?"
    r"|\d+[\s-]*(?:year|yr)s?[\s-]*olds?)\b", re.IGNORECASE | re.ASCII)
_KIDS_EXCLUDED = re.compile(r"\b(?:kid|child)[\s-]*free\b|\badults?[\s-]+only\b", re.IGNORECASE)
_NO_OVERNIGHT = re.compile(
    r"\b(?:no|not|avoid(?:ing)?|without|hate)\s+(?:any\s+)?"
    r"(?:red[\s-]?eyes?|overnight|night\s+flights?)", re.IGNORECASE)


def themes_in(text: str) -> list[str]:
    """Themes in the order they are first mentioned, skipping negated ones ("no museums")."""
    found = []
    for theme, pattern in _THEME_PATTERNS.items():
        first = next((m.start() for m in pattern.finditer(text)
                      if not _negated(text, m.start())), None)
        if first is not None:
            found.append((first, theme))
    return [theme for _, theme in sorted(found)]


def wants_kid_friendly(text: str) -> bool:
    """True for "with kids", "toddler", "family", "with my 5-year-old" -- unless negated."""
    if _KIDS_EXCLUDED.search(text):
        return False
    return any(not _negated(text, m.start()) for m in _KIDS.finditer(text))


def avoids_overnight(text: str) -> bool:
    """True for "no red-eyes", "avoid overnight flights", "no night flights"."""
    return bool(_NO_OVERNIGHT.search(text))


def _negated(text: str, position: int) -> bool:
    return bool(_NEGATION_BEFORE.search(text[max(0, position - 24):position]))
