"""``StoreNotesLookup``: the synthesizer's view of an org's notes, lexical and in memory.

Planning must stay fast and offline, so a plan's lookups never call an endpoint: a place is found
by its name's distinctive words ("Musée du Louvre" → "louvre"), with the same calibrated
confidence as ``notes ask`` (``terms.coverage``, τ = 0.70). A destination's chunks are read once
per change (one query) and searched in memory; then the best sentence of the best chunk is the
hint, and it too must reach τ.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from . import terms as T
from .chunking import sentences
from .hints import NoteHint
from .retrieval import TAU, rag_disabled, source_label

MAX_HINT_CHARS = 280


@dataclass
class _Snapshot:
    generation: tuple
    chunks: list  # NoteChunk
    stems: list[frozenset[str]]

    sentences: dict[int, list[tuple[str, frozenset[str]]]] = field(default_factory=dict)

    def sentences_of(self, index: int) -> list[tuple[str, frozenset[str]]]:
        if index not in self.sentences:
            self.sentences[index] = [(s.strip(), T.stems(s)) for s in sentences(self.chunks[index].text)]
        return self.sentences[index]

    def df(self, word: str) -> int:
        s = T.stem(word)
        return sum(1 for st in self.stems if s in st)


class StoreNotesLookup:
    active = True

    def __init__(self, store, ctx) -> None:  # noqa: ANN001
        self.store, self.ctx = store, ctx
        self._snapshots: dict[str, _Snapshot] = {}
        self._slugs: dict[str, str] = {}
        self._lock = threading.Lock()

    def about(self, destination: str, place: str) -> NoteHint | None:
        if rag_disabled():
            return None
        slug = self._slug(destination)
        snap = self._snapshots.get(slug) or self._refresh(slug)
        words = T.query_terms(place, place_name=True)
        if not snap.chunks or not words:
            return None
        n = len(snap.chunks)
        weights = {w: T.idf(n, snap.df(w)) for w in words}
        # ties go to the traveller's own notes, then to the earlier chunk
        score, _own, index = max((T.coverage(words, weights, st), snap.chunks[i].source_kind != "tripwright", -i)
                                 for i, st in enumerate(snap.stems))
        if score < TAU:
            return None
        chunk = snap.chunks[-index]
        # ties go to the fuller sentence: a heading ("Louvre tips") names the place but says nothing
        best = max(((T.coverage(words, weights, st), s) for s, st in snap.sentences_of(-index)),
                   key=lambda x: (x[0], min(len(x[1]), MAX_HINT_CHARS)))
        if best[0] < TAU:
            return None
        text = best[1] if len(best[1]) <= MAX_HINT_CHARS else best[1][:MAX_HINT_CHARS - 1] + "…"
        return NoteHint(text=text, item_id=chunk.item_id, chunk_id=chunk.chunk_id, score=score,
                        source=source_label(chunk.source_kind, chunk.source_name, chunk.title),
                        builtin=chunk.source_kind == "tripwright")

    def revision(self, destination: str) -> str:
        """Called once per plan (the synthesizer's memo key): re-reads the destination's chunks only
        when they changed, so the plan's lookups then cost no query at all."""
        count, newest = self._refresh(self._slug(destination)).generation
        return f"{count}:{newest.isoformat() if newest else ''}:{rag_disabled()}"

    def _slug(self, destination: str) -> str:
        if destination not in self._slugs:
            from .destinations import resolve_destination
            self._slugs[destination] = resolve_destination(destination).slug
        return self._slugs[destination]

    def _refresh(self, slug: str) -> _Snapshot:
        from .library import NotesLibrary

        NotesLibrary(self.store, self.ctx).ensure_builtin()
        with self._lock, self.store.org(self.ctx) as repo:
            generation = repo.knowledge.generation(slug)
            snap = self._snapshots.get(slug)
            if snap is None or snap.generation != generation:
                chunks = repo.knowledge.destination_chunks(slug)
                snap = _Snapshot(generation, chunks, [T.stems(c.text) for c in chunks])
                self._snapshots[slug] = snap
            return snap
