"""Notes in the traveller's words for the printed and calendar exports (PDF, iCalendar)."""

from __future__ import annotations

import re

_COORDINATE_PAIR = re.compile(r"\s*\(\s*[-+]?\d{1,3}\.\d+\s*,\s*[-+]?\d{1,3}\.\d+\s*\)")


def traveller_text(text: str) -> str:
    """A note as a traveller reads it: a place's raw "(35.5281, -108.7426)" left out (the map,
    GEO and GPX carry positions)."""
    return _COORDINATE_PAIR.sub("", text)


def shorten_at_word(text: str, limit: int) -> str:
    """``text`` on one line, cut after the last whole word that fits ``limit`` characters (with an
    ellipsis) — never in the middle of a word."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    if text[limit - 1] != " " and " " in head:
        head = head[: head.rindex(" ")]
    return head.rstrip(" ,;:.") + "\u2026"
