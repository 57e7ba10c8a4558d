"""Passage windows of a chunk: what the local model embeds and what a plan cites.

A chunk (about 1,000 tokens) usually holds many tips; the mean of its tokens says little about any
one of them. So it is cut into windows of whole sentences, at most ``WINDOW_CHARS`` characters
(a longer sentence is a window of its own), never across a paragraph or a heading. A heading — a
short line with no sentence end, followed by a blank line ("Louvre") — is never a window: it is
the *context* of the windows under it, prepended to them when they are embedded or scored, so
"Use the Porte des Lions entrance …" under "Louvre" is about the Louvre. Windows are a pure
function of the chunk's text, so they are recomputed, never stored; a chunk's stored vectors are
its windows' in order (so a change to how windows are cut must rename ``local_model.MODEL``: the
notes are then embedded again, as for any model change).
"""

from __future__ import annotations

import re
from collections.abc import Callable
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


@dataclass(frozen=True)
class Sentence:
    start: int
    end: int
    text: str       # stripped
    heading: str    # the heading above it in the chunk ("" when none)
    paragraph: int  # sentences of one paragraph share it


@lru_cache(maxsize=8192)
def units(text: str) -> tuple[Sentence, ...]:
    """The chunk's sentences that are not headings, each with its heading and paragraph."""
    parts = sentences(text)
    out: list[Sentence] = []
    heading, paragraph, pos = "", 0, 0
    for i, s in enumerate(parts):
        start = text.index(s, pos)
        pos = start + len(s)
        if _PARAGRAPH.match(s):
            paragraph += 1
        if is_heading(s, parts[i + 1] if i + 1 < len(parts) else None):
            heading = s.strip()
            continue
        lead = len(s) - len(s.lstrip())
        out.append(Sentence(start + lead, start + len(s.rstrip()), s.strip(), heading, paragraph))
    return tuple(out)


@lru_cache(maxsize=8192)
def windows(text: str) -> tuple[Window, ...]:
    """The chunk's windows, in order. A chunk made only of headings is one window of itself."""
    out: list[Window] = []
    group: list[Sentence] = []

    def close() -> None:
        if group:
            out.append(Window(group[0].start, group[-1].end, text[group[0].start:group[-1].end], group[0].heading))
            group.clear()

    for s in units(text):
        if group and (s.paragraph != group[0].paragraph or s.heading != group[0].heading
                      or s.end - group[0].start > WINDOW_CHARS):
            close()
        group.append(s)
    close()
    if not out and text.strip():
        out.append(Window(len(text) - len(text.lstrip()), len(text.rstrip()), text.strip(), ""))
    return tuple(out)


def best_passage(text: str, score: Callable[[str], float]) -> tuple[float, str]:
    """The best-scoring sentences of a chunk: each sentence is scored with its heading as context;
    the passage is the longest run of consecutive best-scoring sentences of one paragraph (at most
    ``WINDOW_CHARS`` characters, the earliest on a tie) — under a heading naming the place, its
    whole paragraph; in a paragraph about several things, the sentence that names it."""
    found = units(text)
    if not found:
        return 0.0, ""
    scores = [score(f"{s.heading}\n{s.text}" if s.heading else s.text) for s in found]
    top = max(scores)
    best: tuple[int, int] = (-1, 0)  # (length, first index)
    i = 0
    while i < len(found):
        if scores[i] != top:
            i += 1
            continue
        j = i
        while (j + 1 < len(found) and scores[j + 1] == top and found[j + 1].paragraph == found[i].paragraph
               and found[j + 1].end - found[i].start <= WINDOW_CHARS):
            j += 1
        length = min(found[j].end - found[i].start, WINDOW_CHARS)
        if length > best[0]:
            best = (length, i)
        i = j + 1
    first = best[1]
    last = first
    while (last + 1 < len(found) and scores[last + 1] == top and found[last + 1].paragraph == found[first].paragraph
           and found[last + 1].end - found[first].start <= WINDOW_CHARS):
        last += 1
    return top, trimmed(text[found[first].start:found[last].end])


def trimmed(text: str, limit: int = WINDOW_CHARS) -> str:
    """``text`` cut to ``limit`` characters at a word, with an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:") + "…"
