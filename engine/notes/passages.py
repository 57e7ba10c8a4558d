"""Passage windows of a chunk: what the local model embeds and what a plan cites.

A chunk (about 1,000 tokens) usually holds many tips; the mean of its tokens says little about any
one of them. So it is cut into windows of whole sentences, at most ``WINDOW_CHARS`` characters
(a longer sentence is a window of its own), never across a paragraph or a heading. A heading — a
short line with no sentence end, followed by a blank line ("Louvre") — is never a window: it is
the *context* of the windows under it, prepended to them when they are embedded or scored, so
"Use the Porte des Lions entrance …" under "Louvre" is about the Louvre. Windows are a pure
function of the chunk's text, so they are recomputed, never stored; a chunk's stored vectors are
its windows' in order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .chunking import sentences

WINDOW_CHARS = 300  # also the longest citation
HEADING_CHARS = 80
_ENDS = ".!?…:;\"'”’)]"
_PARAGRAPH = re.compile(r"\n\s*\n")


@dataclass(frozen=True)
class Window:
    start: int
    end: int
    text: str      # the sentences, as written
    heading: str   # the heading above them in the chunk ("" when none)

    @property
    def context(self) -> str:
        """What is embedded and scored: the heading and the sentences."""
        return f"{self.heading}\n{self.text}" if self.heading else self.text


def is_heading(sentence: str, next_sentence: str | None) -> bool:
    line = sentence.strip()
    return (bool(line) and len(line) <= HEADING_CHARS and "\n" not in line and line[-1] not in _ENDS
            and (next_sentence is None or _PARAGRAPH.match(next_sentence) is not None))


@lru_cache(maxsize=8192)
def windows(text: str) -> tuple[Window, ...]:
    """The chunk's windows, in order. A chunk made only of headings is one window of itself."""
    parts = sentences(text)
    out: list[Window] = []
    heading, group, pos = "", [], 0  # group: (start, end) spans of the window being filled
    spans = []
    for s in parts:
        start = text.index(s, pos)
        spans.append((start, start + len(s)))
        pos = start + len(s)

    def close() -> None:
        if group:
            start, end = group[0][0], group[-1][1]
            body = text[start:end]
            lead = len(body) - len(body.lstrip())
            out.append(Window(start + lead, end, body.strip(), heading))
            group.clear()

    for i, (s, span) in enumerate(zip(parts, spans)):
        following = parts[i + 1] if i + 1 < len(parts) else None
        if is_heading(s, following):
            close()
            heading = s.strip()
            continue
        if group and (_PARAGRAPH.match(s) or span[1] - group[0][0] - _lead(text, group[0]) > WINDOW_CHARS):
            close()
        group.append(span)
    close()
    if not out and text.strip():
        out.append(Window(len(text) - len(text.lstrip()), len(text.rstrip()), text.strip(), ""))
    return tuple(out)


def _lead(text: str, span: tuple[int, int]) -> int:
    body = text[span[0]:span[1]]
    return len(body) - len(body.lstrip())


def trimmed(text: str, limit: int = WINDOW_CHARS) -> str:
    """``text`` cut to ``limit`` characters at a word, with an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:") + "…"
