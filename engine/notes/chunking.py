"""Chunking (seed §11.1): 900–1,100 ``cl100k_base`` tokens, 150-token overlap, sentence breaks.

Balanced rather than greedy: a document of T tokens gets n = ceil((T − 150) / 950) chunks (the
fewest that fit 1,100 tokens each with the overlaps), each aiming at (T + (n − 1)·150) / n
tokens, so the last chunk is not a sliver. A 5,000-token document is therefore 6 chunks of about
960 tokens (5 chunks of at most 1,100 with four 150-token overlaps cover only 4,900 tokens: the
seed's "about 5"). Chunks end at sentence ends; each next chunk starts at the sentence start
nearest to 150 tokens before the previous end. A sentence longer than a chunk is cut by tokens.
A document shorter than 1,100 tokens is one chunk. A sentence longer than ``MAX_SENTENCE_CHARS``
(a note with no sentence end, a pasted blob) is first cut by characters, at a space where there is
one: the tokenizer refuses to encode a very long run in one piece.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass

from .tokens import count_tokens, encoding, token_counts

MAX_TOKENS = 1100
MIN_TOKENS = 900
OVERLAP = 150
MAX_SENTENCE_CHARS = 4000  # at least one character per token: a piece this long is cut by tokens after
# A sentence ends at . ! ? … (with closing quotes/brackets) before whitespace, or before a blank
# line; the whitespace goes with the next sentence, as cl100k_base attaches it to the next word.
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"'”’)\]]*(?=\s)|(?=\n\s*\n)")


@dataclass(frozen=True)
class Chunk:
    text: str
    tokens: int


def sentences(text: str) -> list[str]:
    """Sentences with their leading whitespace, so joining them gives the text back."""
    out, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        if m.end() > start:
            out.append(text[start:m.end()])
            start = m.end()
    if start < len(text):
        out.append(text[start:])
    return [s for s in out if s.strip()]


def _by_characters(sentence: str) -> list[str]:
    """A sentence cut into runs of at most MAX_SENTENCE_CHARS characters, each ending at the last
    space of its run when it has one (joined, they give the sentence back)."""
    out, start = [], 0
    while len(sentence) - start > MAX_SENTENCE_CHARS:
        end = start + MAX_SENTENCE_CHARS
        space = sentence.rfind(" ", start + MAX_SENTENCE_CHARS // 2, end)
        end = space + 1 if space > 0 else end
        out.append(sentence[start:end])
        start = end
    out.append(sentence[start:])
    return out


def _pieces(text: str) -> tuple[list[str], list[int]]:
    """Sentences, with any sentence longer than a chunk cut into token windows."""
    parts: list[str] = []
    counts: list[int] = []
    found = [run for s in sentences(text) for run in
             (_by_characters(s) if len(s) > MAX_SENTENCE_CHARS else [s])]
    for sentence, n in zip(found, token_counts(found)):
        if n <= MAX_TOKENS - OVERLAP:
            parts.append(sentence)
            counts.append(n)  # counted once: a 20 MB note has half a million sentences
            continue
        ids = encoding().encode(sentence)
        step = MAX_TOKENS - OVERLAP
        windows = [encoding().decode(ids[i:i + step]) for i in range(0, len(ids), step)]
        parts += windows
        counts += token_counts(windows)
    return parts, counts


def chunk_text(text: str) -> list[Chunk]:
    parts, counts = _pieces(text.strip())
    total = sum(counts)
    if total == 0:
        return []
    if total <= MAX_TOKENS:
        return [Chunk("".join(parts).strip(), total)]
    n = math.ceil((total - OVERLAP) / (MAX_TOKENS - OVERLAP))
    target = (total + (n - 1) * OVERLAP) / n
    chunks, start = [], 0
    after = list(itertools.accumulate(reversed(counts)))[::-1]  # after[i]: tokens from part i on
    while start < len(parts):
        end = _chunk_end(counts, start, target, after[start])
        body = "".join(parts[start:end]).strip()
        chunks.append(Chunk(body, count_tokens(body)))
        if end >= len(parts):
            break
        start = _overlap_start(counts, start, end)
    return chunks


def _chunk_end(counts: list[int], start: int, target: float, rest: int) -> int:
    """End (exclusive) whose size is nearest ``target`` without passing MAX_TOKENS; the rest of
    the document (``rest`` tokens from ``start`` on) when it fits."""
    if rest <= MAX_TOKENS:
        return len(counts)
    size, best, best_gap = 0, start + 1, math.inf
    for i in range(start, len(counts)):
        size += counts[i]
        if size > MAX_TOKENS and i > start:
            break
        if abs(size - target) < best_gap:
            best, best_gap = i + 1, abs(size - target)
    return best


def _overlap_start(counts: list[int], start: int, end: int) -> int:
    """The sentence start nearest to OVERLAP tokens before ``end`` (always after ``start``)."""
    back, best, best_gap = 0, end, math.inf
    for i in range(end - 1, start, -1):
        back += counts[i]
        if abs(back - OVERLAP) < best_gap:
            best, best_gap = i, abs(back - OVERLAP)
        if back > OVERLAP:
            break
    return best
