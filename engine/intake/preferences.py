"""Soft preferences read from a trip prompt: themes, travelling with kids, no red-eyes, the pace.

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

# the traveller's pace (engine/models/visit_time.py): "a relaxed trip", "not too rushed", "see as much as we can"
_RELAXED = re.compile(
    r"\b(?:relax(?:ed|ing)?|slow(?:[\s-]paced)?|leisurely|laid[\s-]?back|easy[\s-]?going|unhurried|take it easy"
    r"|(?:plenty of|lots of|some) (?:rest|down[\s-]?time|free time)"
    r"|not (?:too |very |so )?(?:rushed|busy|packed|hectic))\b", re.IGNORECASE)
_PACKED = re.compile(
    r"\b(?:(?:jam[\s-]|action[\s-]|fully[\s-])?packed(?! lunch)|fast[\s-]paced|full[\s-]on|hectic"
    r"|busy (?:days?|trip|schedule|itinerary)|(?:see|do) as much as (?:possible|we can|i can)"
    r"|every minute)\b", re.IGNORECASE)


def pace_in(text: str) -> str:
    """"relaxed", "packed" or (nothing said) "balanced"; a negated packed pace ("not too packed",
    "no rush") reads as relaxed."""
    if _RELAXED.search(text) or re.search(r"\bno rush\b", text, re.IGNORECASE):
        return "relaxed"
    if any(not _negated(text, m.start()) for m in _PACKED.finditer(text)):
        return "packed"
    return "balanced"


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
