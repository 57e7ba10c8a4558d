"""Whether the system can draw a piece of text (issue 22 §2.11): where no installed font has the
emoji, Qt paints an empty box, so the reaction buttons show their word alone instead."""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics

# Joiners and presentation selectors have no glyph of their own.
_INVISIBLE = frozenset({0x200D, 0xFE0E, 0xFE0F})


def drawable(text: str, font: QFont | None = None) -> bool:
    """True when every character of ``text`` has a glyph in ``font`` or an installed emoji or
    symbol font (the fonts Qt falls back to for them)."""
    family = (font or QFont()).family()
    return all(ord(ch) in _INVISIBLE or _has_glyph(family, ord(ch)) for ch in text)


@lru_cache(maxsize=512)
def _has_glyph(family: str, codepoint: int) -> bool:
    if QFontMetrics(QFont(family)).inFontUcs4(codepoint):
        return True
    return any(QFontMetrics(QFont(other)).inFontUcs4(codepoint) for other in _fallback_families())


@lru_cache(maxsize=1)
def _fallback_families() -> tuple[str, ...]:
    return tuple(f for f in QFontDatabase.families() if "emoji" in f.lower() or "symbol" in f.lower())


def with_emoji(emoji: str, word: str, font: QFont | None = None, *, can_draw=drawable) -> str:
    """``"👍 Like"`` where the emoji can be drawn, ``"Like"`` where it would be a box."""
    return f"{emoji} {word}" if can_draw(emoji, font) else word
