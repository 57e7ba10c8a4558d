"""Retrieval behind one interface (seed §11.1, §11.3): lexical (FTS5 BM25 / PostgreSQL
full-text) always, vectors too when an embeddings endpoint is configured — hybrid then.

Top-8 candidates → MMR (λ = 0.5) → top-3; a passage counts only at confidence ≥ τ = 0.70
(cosine for vectors, the calibrated coverage of ``terms`` for lexical; in hybrid a passage takes
the higher of the two). None at τ → ``unknown``, no passages: never a guess.

Vectors on SQLite are searched by brute-force cosine in numpy over the stored float32 blobs (this
CPython's sqlite3 cannot load sqlite-vec; ~10,000 chunks take a few ms); the matrix of a
destination is cached per process until its chunks change. PostgreSQL with pgvector (migration
0009's column present) ranks by cosine distance in the database instead; PostgreSQL without it
uses the numpy path. ``Retriever.vector_search`` says which one the last question used.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from engine.errors import InputError

from . import terms as T
from .embeddings import Embedder

TAU = 0.70
CANDIDATES = 8
TOP = 3
MMR_LAMBDA = 0.5


@dataclass(frozen=True)
class Passage:
    chunk_id: str
    item_id: str
    text: str
    score: float
    source: str
    method: str  # lexical | vector

    def as_json(self) -> dict:
        return {"text": self.text, "score": round(self.score, 4), "source": self.source,
                "item_id": self.item_id, "chunk_id": self.chunk_id, "method": self.method}


@dataclass(frozen=True)
class Answer:
    status: str  # found | unknown
    passages: list[Passage] = field(default_factory=list)
    method: str = "lexical"

    def as_json(self) -> dict:
        return {"answer_status": self.status, "method": self.method,
                "passages": [p.as_json() for p in self.passages]}


def source_label(kind: str, name: str, title: str) -> str:
    if kind == "tripwright":
        return f"Tripwright's notes: {title}"
    return f"pasted: {title}" if kind == "pasted" else name


def rag_disabled() -> bool:
    """SIMULATE_EMPTY_RAG=1 (seed §16.3): retrieval returns nothing."""
    return os.environ.get("SIMULATE_EMPTY_RAG") == "1"


_EMBEDDING_CALLS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="notes-embed")
_VECTORS: dict[tuple, tuple] = {}  # (db, org, destination, model) -> (generation, ids, matrix)
_VECTORS_LOCK = threading.Lock()


METHODS = ("lexical", "vector", "hybrid")
_WORD_SETS: dict[str, frozenset[str]] = {}  # chunk id -> its words (chunks never change)
_WORD_SETS_MAX = 4096


def chunk_words(chunk) -> frozenset[str]:  # noqa: ANN001 (NoteChunk)
    """A chunk's ``word_set``, computed once per process: confidence and MMR both need it."""
    found = _WORD_SETS.get(chunk.chunk_id)
    if found is None:
        if len(_WORD_SETS) >= _WORD_SETS_MAX:
            _WORD_SETS.clear()
        found = _WORD_SETS[chunk.chunk_id] = T.word_set(chunk.text)
    return found


class Retriever:
    """One org's notes in one store. ``embedder`` None = lexical only."""

    def __init__(self, store, ctx, embedder: Embedder | None = None) -> None:  # noqa: ANN001
        self.store, self.ctx, self.embedder = store, ctx, embedder
        self._df: dict[tuple, int] = {}
        self.vector_search: str | None = None  # pgvector | numpy: how the last question's vectors were searched

    def ask(self, question: str, destination: str, *, method: str | None = None) -> Answer:
        """``method``: lexical, vector or hybrid; by default hybrid with an embedder, else lexical."""
        method = method or ("hybrid" if self.embedder else "lexical")
        if method not in METHODS or (method != "lexical" and self.embedder is None):
            raise InputError("method", f"{method!r} needs an embeddings endpoint" if method in METHODS
                             else f"one of {', '.join(METHODS)}")
        if rag_disabled():
            return Answer("unknown", [], method)
        words = T.query_terms(question) if method != "vector" else []
        # the endpoint embeds the question while the full-text index is searched
        pending = (_EMBEDDING_CALLS.submit(self.embedder.embed, [question])
                   if method != "lexical" and question.strip() else None)
        with self.store.org(self.ctx) as repo:
            generation = repo.knowledge.generation(destination)  # read once: weights and vectors key on it
            lex, chunks = self._lexical(repo.knowledge, destination, words, generation)
            qvec = pending.result()[0] if pending is not None else None
            scored = dict(lex)
            if qvec is not None:
                for cid, cos in self._vector(repo.knowledge, destination, qvec, generation).items():
                    scored[cid] = max(scored.get(cid, 0.0), cos)
            rank = {cid: i for i, cid in enumerate(lex)}  # full-text rank breaks ties of confidence
            best = sorted(scored.items(), key=lambda kv: (-kv[1], rank.get(kv[0], CANDIDATES), kv[0]))[:CANDIDATES]
            missing = [cid for cid, _ in best if cid not in chunks]
            chunks |= {c.chunk_id: c for c in repo.knowledge.chunks(missing)}
        picked = mmr([(cid, s) for cid, s in best if cid in chunks],
                     {cid: chunk_words(c) for cid, c in chunks.items()})
        passages = [Passage(cid, chunks[cid].item_id, chunks[cid].text, s,
                            source_label(chunks[cid].source_kind, chunks[cid].source_name, chunks[cid].title),
                            "vector" if s > lex.get(cid, 0.0) else "lexical")
                    for cid, s in picked if s >= TAU]
        return Answer("found" if passages else "unknown", passages, method)

    # -- lexical ---------------------------------------------------------------------------------
    def _lexical(self, knowledge, destination: str, words: list[str],  # noqa: ANN001
                 generation: tuple[int, str]) -> tuple[dict[str, float], dict]:
        """Calibrated confidence of the full-text candidates (in rank order), and the chunks read."""
        if not words:
            return {}, {}
        frequencies: dict[str, int] = {}
        weights = self.weights(knowledge, destination, words, frequencies, generation=generation)
        ids = knowledge.lexical(destination, words, CANDIDATES, frequencies=frequencies)
        if not ids:
            return {}, {}
        chunks = {c.chunk_id: c for c in knowledge.chunks(ids)}
        return {cid: T.coverage(words, weights, chunk_words(c)) for cid, c in chunks.items()}, chunks

    def weights(self, knowledge, destination: str, words: list[str],  # noqa: ANN001
                frequencies: dict[str, int] | None = None, *,
                generation: tuple[int, str] | None = None) -> dict[str, float]:
        """BM25 IDF of each word over the destination's searchable chunks (document counts cached
        by generation, which changes when an item is imported, deleted or restored);
        ``frequencies`` receives the counts."""
        n, newest = generation or knowledge.generation(destination)
        out = {}
        for w in words:
            key = (destination, n, newest, w)
            if key not in self._df:
                self._df[key] = knowledge.document_frequency(destination, w)
            out[w] = T.idf(n, self._df[key])
            if frequencies is not None:
                frequencies[w] = self._df[key]
        return out

    # -- vectors ---------------------------------------------------------------------------------
    def _vector(self, knowledge, destination: str, qvec: np.ndarray,  # noqa: ANN001
                generation: tuple[int, str]) -> dict[str, float]:
        if knowledge.in_database_vectors():
            self.vector_search = "pgvector"
            return knowledge.nearest(destination, self.embedder.model, qvec, CANDIDATES)
        self.vector_search = "numpy"
        ids, matrix = self._matrix(knowledge, destination, qvec.shape[0], generation)
        if not ids:
            return {}
        with _one_blas_thread():
            cos = matrix @ qvec
        top = np.argpartition(-cos, min(CANDIDATES, len(ids) - 1))[:CANDIDATES]
        return {ids[i]: float(cos[i]) for i in top}

    def _matrix(self, knowledge, destination: str, dims: int,  # noqa: ANN001
                generation: tuple[int, str]) -> tuple[list[str], np.ndarray]:
        """The destination's vectors of this model and size (a model's size can change between
        imports: vectors of another size are left out), cached until the chunks change."""
        key = (self.store.identity, self.ctx.org_id, destination, self.embedder.model, dims)
        with _VECTORS_LOCK:
            hit = _VECTORS.get(key)
        if hit and hit[0] == generation:
            return hit[1], hit[2]
        found = knowledge.vectors(destination, self.embedder.model)
        keep = [i for i, blob in enumerate(found.blobs) if len(blob) == 4 * dims]
        ids = [found.chunk_ids[i] for i in keep]
        matrix = (np.frombuffer(b"".join(found.blobs[i] for i in keep), dtype=np.float32).reshape(len(keep), dims)
                  if keep else np.zeros((0, dims), np.float32))
        with _VECTORS_LOCK:
            _VECTORS[key] = (generation, ids, matrix)
        return ids, matrix


@lru_cache(maxsize=1)
def _blas():  # noqa: ANN202 (threadpoolctl.ThreadpoolController; finding the libraries costs ~5 ms, once)
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def _one_blas_thread():  # noqa: ANN202
    """A matrix-vector product over ~60 MB is bound by memory, not arithmetic: a second BLAS
    thread only adds hand-offs, which on two shared, busy cores doubled its time (measured
    ~10 ms on one thread against ~25 ms on two, 10,000 × 1,536)."""
    return _blas().limit(limits=1, user_api="blas")


def mmr(candidates: Sequence[tuple[str, float]], stems: dict[str, frozenset[str]], *, k: int = TOP,
        lam: float = MMR_LAMBDA) -> list[tuple[str, float]]:
    """Maximal marginal relevance: each pick maximises λ·relevance − (1−λ)·max similarity to the
    picks so far (similarity: Jaccard of the passages' words), so three near-copies (overlapping
    chunks, the same tip imported twice) do not crowd out a different passage."""
    left, picked = list(candidates), []
    similar: dict[tuple[str, str], float] = {}  # each pair once: ~0.3 ms per pair of long chunks

    def similarity(a: str, b: str) -> float:
        if (a, b) not in similar:
            similar[(a, b)] = _jaccard(stems[a], stems[b])
        return similar[(a, b)]

    while left and len(picked) < k:
        def gain(item: tuple[str, float]) -> float:
            sim = max((similarity(item[0], p) for p, _ in picked), default=0.0)
            return lam * item[1] - (1 - lam) * sim
        best = max(left, key=gain)
        picked.append(best)
        left.remove(best)
    return picked


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    common = len(a & b) if len(a) <= len(b) else len(b & a)  # one set operation, not two
    return common / (len(a) + len(b) - common)
