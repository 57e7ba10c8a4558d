"""``StoreNotesLookup``: the synthesizer's view of an org's notes — lexical, offline, fast.

Planning must stay fast and offline, so a plan's lookups never call an endpoint: a place is found
by its name's distinctive words ("Musée du Louvre" → "louvre"), with the same calibrated
confidence as ``notes ask`` (``terms.coverage``, τ = 0.70); then the best passage window of the
best chunk is the hint (``passages.best_passage``: whole sentences, ≤ 300 characters, scored with
the heading above them — "Use the Porte des Lions entrance …" under "Louvre" is about the Louvre,
and the heading itself is never the hint), and it too must reach τ. A destination with up to ``SNAPSHOT_MAX`` chunks is
read once per change and searched in memory; a bigger one goes through the full-text index. Hints
are remembered per (destination, its generation, place), so a re-plan costs one query
(``revision``) however many places it visits.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from . import terms as T
from .hints import UNANSWERED, NoteHint
from .passages import WINDOW_CHARS, best_passage
from .retrieval import CANDIDATES, TAU, Retriever, chunk_words, rag_disabled, source_label

MAX_HINT_CHARS = WINDOW_CHARS
SNAPSHOT_MAX = 400
NAMED = 0.5  # calibrated coverage from which a note is taken to name the place


@dataclass
class _Snapshot:
    generation: tuple
    chunks: list | None  # NoteChunk records; None = too many, use the full-text index
    words: list[frozenset[str]] = field(default_factory=list)
    hints: dict[str, NoteHint | None] = field(default_factory=dict)

    def df(self, word: str) -> int:
        return sum(1 for ws in self.words if T.has_word(ws, word))


class StoreNotesLookup:
    active = True

    def __init__(self, store, ctx) -> None:  # noqa: ANN001
        self.store, self.ctx = store, ctx
        self._snapshots: dict[str, _Snapshot] = {}
        self._slugs: dict[str, str | None] = {}
        self._lock = threading.Lock()
        self._retriever = Retriever(store, ctx)

    def about(self, destination: str, place: str) -> NoteHint | None:
        if rag_disabled():
            return UNANSWERED  # retrieval is down: the traveller is told it is unknown, not nothing
        slug = self._slug(destination)
        if slug is None:
            return None
        snap = self._snapshots.get(slug) or self._refresh(slug)
        if place not in snap.hints:
            words = T.query_terms(place, place_name=True)
            snap.hints[place] = self._find(slug, snap, words) if words else None
        return snap.hints[place]

    def revision(self, destination: str) -> str:
        """Called once per plan (the synthesizer's memo key): re-reads the destination only when
        its chunks changed."""
        slug = self._slug(destination)
        if slug is None:
            return f"none:{rag_disabled()}"
        count, items = self._refresh(slug).generation
        return f"{count}:{items}:{rag_disabled()}"

    # -- finding -----------------------------------------------------------------------------------
    def _find(self, slug: str, snap: _Snapshot, words: list[str]) -> NoteHint | None:
        if snap.chunks is not None:
            n = len(snap.chunks)
            weights = {w: T.idf(n, snap.df(w)) for w in words}
            chunks, word_sets = snap.chunks, snap.words
        else:
            with self.store.org(self.ctx) as repo:  # a big destination: the full-text index
                frequencies: dict[str, int] = {}
                weights = self._retriever.weights(repo.knowledge, slug, words, frequencies)
                chunks = repo.knowledge.chunks(repo.knowledge.lexical(slug, words, CANDIDATES,
                                                                      frequencies=frequencies))
            word_sets = [chunk_words(c) for c in chunks]
        hint = _best(chunks, word_sets, words, weights)
        if hint is not None:
            return hint
        # "information not available" only where the traveller's own notes name the place (most of
        # its name's weight) and still do not answer at τ; otherwise the activity gets no line
        named = any(c.source_kind != "tripwright" and T.coverage(words, weights, ws) >= NAMED
                    for c, ws in zip(chunks, word_sets))
        return UNANSWERED if named else None

    def _slug(self, destination: str) -> str | None:
        """The destination's slug; None for a place nobody can name (a road trip's town the
        gazetteer does not know): it has no notes."""
        if destination not in self._slugs:
            from engine.errors import InputError

            from .destinations import resolve_destination
            try:
                self._slugs[destination] = resolve_destination(destination).slug
            except InputError:
                self._slugs[destination] = None
        return self._slugs[destination]

    def _refresh(self, slug: str) -> _Snapshot:
        from .library import NotesLibrary

        NotesLibrary(self.store, self.ctx).ensure_builtin()
        with self._lock, self.store.org(self.ctx) as repo:
            generation = repo.knowledge.generation(slug)
            snap = self._snapshots.get(slug)
            if snap is None or snap.generation != generation:
                if generation[0] > SNAPSHOT_MAX:
                    snap = _Snapshot(generation, None)
                else:
                    chunks = repo.knowledge.destination_chunks(slug)
                    snap = _Snapshot(generation, chunks, [T.word_set(c.text) for c in chunks])
                self._snapshots[slug] = snap
            return snap


def _best(chunks: list, word_sets: list[frozenset[str]], words: list[str],
          weights: dict[str, float]) -> NoteHint | None:
    if not chunks:
        return None
    # ties go to the traveller's own notes, then to the earlier chunk
    score, _own, index = max((T.coverage(words, weights, ws), chunks[i].source_kind != "tripwright", -i)
                             for i, ws in enumerate(word_sets))
    if score < TAU:
        return None
    chunk = chunks[-index]
    cov, text = best_passage(chunk.text, lambda s: T.coverage(words, weights, T.word_set(s)))
    if cov < TAU:
        return None
    return NoteHint(text=text, item_id=chunk.item_id, chunk_id=chunk.chunk_id, score=score,
                    source=source_label(chunk.source_kind, chunk.source_name, chunk.title),
                    builtin=chunk.source_kind == "tripwright")
