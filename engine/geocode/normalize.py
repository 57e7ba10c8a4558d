"""Place-name normalisation shared by the index builder and the query parser.

``normalise("St. Moritz")`` → ``"saint moritz"``; ``normalise("Zürich")`` → ``"zurich"``;
``normalise("Coeur d'Alene")`` → ``"coeur dalene"``; ``normalise("Ft. Worth")`` → ``"fort worth"``.

The key keeps only ``[a-z0-9 ]``: accents are folded (NFKD, combining marks dropped, plus the
Latin letters NFKD does not decompose: ß ø æ œ ł đ ı þ ...), apostrophes vanish, every other
punctuation mark becomes a space, and a few abbreviations are spelled out as whole words
(St/Saint, Ste/Sainte, Mt/Mount, Ft/Fort). A string with no Latin letters or digits (Cyrillic,
CJK, ...) normalises to ``""``: the offline index holds only Latin-script names.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["normalise", "fold", "is_latin"]

# Letters NFKD leaves alone; mapped to their usual ASCII spelling.
_EXTRA = str.maketrans({
    "ß": "ss", "ẞ": "ss", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE",
    "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th",
    "ı": "i", "ħ": "h", "Ħ": "H", "ŧ": "t", "Ŧ": "T", "ŀ": "l", "Ŀ": "L", "ĸ": "k",
    "ŉ": "n", "ſ": "s", "ƒ": "f",
})
_APOSTROPHES = str.maketrans("", "", "'’‘`´ʻʼʹ")
_NON_KEY = re.compile(r"[^a-z0-9]+")
_COMBINING = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
_ABBREV = {"st": "saint", "ste": "sainte", "mt": "mount", "ft": "fort"}


def fold(text: str) -> str:
    """Accent-fold to (mostly) ASCII, keeping case and punctuation."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKD", text.translate(_EXTRA))
    return _COMBINING.sub("", text)


def normalise(text: str) -> str:
    """The lookup key of a place name (see module docstring)."""
    key = _NON_KEY.sub(" ", fold(text).translate(_APOSTROPHES).lower()).strip()
    if not key:
        return ""
    words = key.split()
    if any(w in _ABBREV for w in words):
        words = [_ABBREV.get(w, w) for w in words]
    return " ".join(words)


def is_latin(text: str) -> bool:
    """True when ``text`` folds to plain ASCII (Latin script, with or without accents)."""
    return fold(text).isascii()
