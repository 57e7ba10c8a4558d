"""Retrieval behind one interface (seed §11.1, §11.3): lexical (FTS5 BM25 / PostgreSQL
full-text) always, vectors too — an embeddings endpoint's when one is configured, else the local
model's (``engine.notes.local_model``, no key, no network) — hybrid then.

Top-8 candidates → MMR (λ = 0.5) → top-3; a passage counts only at confidence ≥ τ = 0.70
(the cosine mapped by the model's calibrated threshold for vectors, ``vector_index.confidence``;
the calibrated coverage of ``terms`` for lexical). Hybrid fuses the two (``FUSION``, measured by
``bench/notes_calibration.py``): ``max`` ranks and answers by the higher confidence, ``rrf``
ranks by reciprocal rank fusion and answers by the higher confidence, ``weighted`` ranks and
answers by ``w·lexical + (1 − w)·vector``. None at τ → ``unknown``, no passages: never a guess.

Vectors on SQLite are searched by brute-force cosine in numpy over the stored float32 blobs (this
CPython's sqlite3 cannot load sqlite-vec; ~10,000 chunks take a few ms); the matrix of a
destination is cached per process until its chunks change. PostgreSQL with pgvector (migration
0009's column present) ranks by cosine distance in the database instead; PostgreSQL without it
uses the numpy path. ``Retriever.vector_search`` says which one the last question used.

Retrieval details:

- **Lexical confidence.** BM25 scores have no fixed scale, so τ = 0.70 is applied to a calibrated score: the
  BM25 of a passage with term frequencies saturated and lengths normalised away, divided by the best score
  the query could get — i.e. Σ idf(t) over the query's content words the passage holds ÷ Σ idf(t) over all
  of them, idf = ln(1 + (N − df + 0.5)/(df + 0.5)) over the destination's chunks (deleted notes are not
  counted: the full-text index keeps them for undo, so their hits are subtracted). A passage missing the
  rarest word (usually the name asked about) falls below τ. Words are folded and Snowball-stemmed; the full-
  text index (porter / 'english') only proposes candidates (those holding every word first, then any
  distinctive word), and ties of confidence keep its rank.

- **Vectors.** This CPython's sqlite3 cannot load extensions, so sqlite-vec is not used: vectors are unit
  float32 blobs on the chunk rows and searched by brute-force cosine in numpy on one BLAS thread
  (threadpoolctl; 10,000 × 1,536 in ~10 ms; the matrix of a destination is cached per process until its
  items change). PostgreSQL offering the `vector` extension (pgvector) searches in the database: migration
  0009 creates the extension (in a savepoint: a role that may not is left as it was) and adds
  `knowledge_chunk.embedding_vector` (`vector` with no dimension, any model fits; filled from the blobs
  already stored); imports write it too, and `Knowledge.nearest` ranks by `<=>` (cosine distance) over the
  org's active chunks of the destination, model and size (`vector_dims`) — an exact scan, as an HNSW index
  needs a fixed dimension; the column is `STORAGE MAIN` (in the row, not TOAST) and the size check sits in
  the ORDER BY, where the planner cannot misjudge it. Measured on the loaded 2-core machine, 10,000 × 1,536:
  vector ask p50 ~190 ms by pgvector against ~19 ms by numpy over its cached matrix — the database path
  saves the process's memory, not time, at this size. The column is mapped apart from `Base`
  (`schema_notes.ChunkVector`, still `OrgScoped`) since only those databases have it; the path is chosen per
  session by whether the column exists, and `Retriever.vector_search` says which ran. PostgreSQL without the
  extension (Debian 12's 15 ships none) and SQLite keep the numpy path; a server given the extension after
  0009 ran stays on numpy. Tests use the PostgreSQL 16 + pgvector binaries of the `pgserver` wheel (second
  server of `.ci/postgres.sh`). Hybrid = the higher of the two confidences per passage; the question is
  embedded while the full-text index is searched. `ask(method=…)` picks lexical, vector or hybrid.

- **The local model (issue 24).** Without an endpoint, WordLlama (`local_model.py`, MIT, weights in the
  wheel) embeds each chunk's passage windows (`passages.py`: whole sentences ≤ 300 characters, never across
  a paragraph or heading, the heading prepended as context) — one 256-d row per window, stored in the
  chunk's blob under `wordllama-l2_supercat-256` and kept out of pgvector's column; a chunk scores its best
  window's cosine. A mean of a thousand tokens said little about any one tip: whole-chunk vectors put a
  paraphrase and an unrelated question about the same city at the same cosine. Cosines are mapped to the
  confidence scale by each model's calibrated τ_m (`vector_index.MODEL_TAUS`, 0.40 for WordLlama;
  `bench/notes_calibration.py` on `tests/notes/labelled.py`: the best F1 at found-precision ≥ 0.9 — 28
  questions, found precision 0.80 → 0.94 and recall 0.21 → 0.79 against words alone; 18 held-out questions
  1.00/0.43 → 1.00/0.79), so the one τ 0.70 decides for both signals; fusion by the higher confidence, as
  RRF gave the same answers and a weighted sum far fewer. Token ids are taken word by word from a per-
  process cache (the same ids as encoding the text whole): 1,000 chunks embed in ~1.4 s, a question over
  10,000 chunks (~120,000 window rows) ~22 ms p50. A question first embeds the destination's chunks that
  lack the current model's vectors (`NotesLibrary.reembed`, progress to the CLI's stderr and the dock's
  status line).

- **Speed.** Without statistics SQLite read chunks by id through the tenancy filter's `(org_id,
  destination)` index, i.e. every chunk of the destination; 0008's `sqlite_stat1` rows make it use the key.
  A chunk's word set is computed once per process (confidence and MMR share it).

- **Plans.** Lookups at plan time are lexical only (a place is found by its name's distinctive words, "Musée
  du Louvre" → "louvre", an aside in parentheses left out), never call an endpoint or read the local model,
  and hand the synthesizer one passage as data: the longest run of best-scoring sentences of one paragraph
  of the best chunk, each scored with its heading (`passages.best_passage`, ≤ 300 characters) — the advice
  under a "Louvre" heading, never the heading. `bench/notes_bench.py` measures ask over 10,000 chunks, a
  100-page PDF import and the plan overhead.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from engine.errors import InputError

from . import terms as T
from . import vector_index as V
from .embeddings import Embedder
from .vector_index import TAU

CANDIDATES = 8
TOP = 3
MMR_LAMBDA = 0.5
FUSIONS = ("max", "rrf", "weighted")
FUSION = "max"
WEIGHT = 0.5  # weighted: the lexical share
RRF_K = 60


@dataclass(frozen=True)
class Passage:
    chunk_id: str
    item_id: str
    text: str
    score: float
    source: str
    method: str  # lexical | vector
    window: int | None = None  # the best passage window's index (vectors by window)

    @property
    def passage(self) -> str | None:
        """The window of the chunk its vectors matched best (≤ 300 characters), when known."""
        if self.window is None:
            return None
        from .passages import trimmed, windows

        found = windows(self.text)
        return trimmed(found[self.window].text) if self.window < len(found) else None

    def as_json(self) -> dict:
        return {"text": self.text, "score": round(self.score, 4), "source": self.source,
                "item_id": self.item_id, "chunk_id": self.chunk_id, "method": self.method,
                "passage": self.passage}


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


METHODS = ("lexical", "vector", "hybrid")
def chunk_words(chunk) -> frozenset[str]:  # noqa: ANN001 (NoteChunk)
    """A chunk's ``word_set``, computed once per process: confidence and MMR both need it."""
    return _chunk_words(chunk.chunk_id, chunk.text)


@lru_cache(maxsize=4096)  # chunks never change: keyed by id (the text rides along for the miss)
def _chunk_words(chunk_id: str, text: str) -> frozenset[str]:
    return T.word_set(text)


class Retriever:
    """One org's notes in one store. ``embedder`` None = lexical only."""

    def __init__(self, store, ctx, embedder: Embedder | None = None) -> None:  # noqa: ANN001
        self.store, self.ctx, self.embedder = store, ctx, embedder
        self._df: dict[tuple, int] = {}
        self.vector_search: str | None = None  # pgvector | numpy: how the last question's vectors were searched
        self.fusion, self.weight = FUSION, WEIGHT

    def ask(self, question: str, destination: str, *, method: str | None = None) -> Answer:
        """``method``: lexical, vector or hybrid; by default hybrid with an embedder, else lexical."""
        method = method or ("hybrid" if self.embedder else "lexical")
        if method not in METHODS or (method != "lexical" and self.embedder is None):
            raise InputError("method", f"{method!r} needs an embedding model (an endpoint, or the local one: "
                             f"TRIPWRIGHT_LOCAL_EMBEDDINGS=0 turns it off)" if method in METHODS
                             else f"one of {', '.join(METHODS)}")
        if rag_disabled():
            return Answer("unknown", [], method)
        words = T.query_terms(question)
        # the question is embedded while the full-text index is searched
        pending = (_EMBEDDING_CALLS.submit(self.embedder.embed, [question])
                   if method != "lexical" and question.strip() else None)
        with self.store.org(self.ctx) as repo:
            generation = repo.knowledge.generation(destination)  # read once: weights and vectors key on it
            lex, chunks, weights = self._lexical(repo.knowledge, destination,
                                                 words if method != "vector" else [], generation)
            qvec = pending.result()[0] if pending is not None else None
            vec = (self._vector(repo.knowledge, destination, qvec, generation, also=list(lex))
                   if qvec is not None and np.any(qvec) else {})
            missing = [cid for cid in vec if cid not in chunks]
            chunks |= {c.chunk_id: c for c in repo.knowledge.chunks(missing)}
        if method == "hybrid" and weights:  # both signals of every candidate
            lex |= {cid: T.coverage(words, weights, chunk_words(chunks[cid])) for cid in vec
                    if cid in chunks and cid not in lex}
        model = self.embedder.model if self.embedder else ""
        conf = {cid: V.confidence(model, hit.cosine) for cid, hit in vec.items()}
        best = self.fuse(lex, conf)[:CANDIDATES]
        picked = mmr([(cid, s) for cid, s in best if cid in chunks],
                     {cid: chunk_words(c) for cid, c in chunks.items()})
        passages = []
        for cid, s in picked:
            if s < TAU:
                continue
            by_vector = conf.get(cid, 0.0) > lex.get(cid, 0.0)
            window = vec[cid].window if by_vector else _lexical_window(chunks[cid].text, words, weights)
            passages.append(Passage(cid, chunks[cid].item_id, chunks[cid].text, s,
                                    source_label(chunks[cid].source_kind, chunks[cid].source_name, chunks[cid].title),
                                    "vector" if by_vector else "lexical", window))
        return Answer("found" if passages else "unknown", passages, method)

    def fuse(self, lex: dict[str, float], conf: dict[str, float]) -> list[tuple[str, float]]:
        """Candidates best first with the score compared with τ (module docstring). ``lex`` is in
        full-text rank order; ties go to the better full-text rank, then the chunk id."""
        ids = list(dict.fromkeys([*lex, *conf]))
        lex_rank = {cid: i for i, cid in enumerate(lex)}
        if self.fusion == "weighted":
            score = {c: self.weight * lex.get(c, 0.0) + (1 - self.weight) * conf.get(c, 0.0) for c in ids}
            return sorted(score.items(), key=lambda kv: (-kv[1], lex_rank.get(kv[0], CANDIDATES), kv[0]))
        score = {c: max(lex.get(c, 0.0), conf.get(c, 0.0)) for c in ids}
        if self.fusion == "rrf":
            by_lex = sorted(lex, key=lambda c: (-lex[c], lex_rank[c]))
            by_vec = sorted(conf, key=lambda c: (-conf[c], c))
            rrf = {c: 0.0 for c in ids}
            for ranked in (by_lex, by_vec):
                for r, c in enumerate(ranked):
                    rrf[c] += 1.0 / (RRF_K + r + 1)
            order = sorted(ids, key=lambda c: (-rrf[c], lex_rank.get(c, CANDIDATES), c))
            return [(c, score[c]) for c in order]
        return sorted(score.items(), key=lambda kv: (-kv[1], lex_rank.get(kv[0], CANDIDATES), kv[0]))

    # -- lexical ---------------------------------------------------------------------------------
    def _lexical(self, knowledge, destination: str, words: list[str],  # noqa: ANN001
                 generation: tuple[int, str]) -> tuple[dict[str, float], dict, dict[str, float]]:
        """Calibrated confidence of the full-text candidates (in rank order), the chunks read and
        the words' weights."""
        if not words:
            return {}, {}, {}
        frequencies: dict[str, int] = {}
        weights = self.weights(knowledge, destination, words, frequencies, generation=generation)
        ids = knowledge.lexical(destination, words, CANDIDATES, frequencies=frequencies)
        if not ids:
            return {}, {}, weights
        chunks = {c.chunk_id: c for c in knowledge.chunks(ids)}
        return {cid: T.coverage(words, weights, chunk_words(c)) for cid, c in chunks.items()}, chunks, weights

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
                generation: tuple[int, str], also: Sequence[str] = ()) -> dict[str, V.Hit]:
        multi = getattr(self.embedder, "windows", False)
        if not multi and knowledge.in_database_vectors():
            self.vector_search = "pgvector"
            found = knowledge.nearest(destination, self.embedder.model, qvec, CANDIDATES)
            return {cid: V.Hit(cos, 0) for cid, cos in found.items()}
        self.vector_search = "numpy"
        dims = qvec.shape[0]
        key = (self.store.identity, self.ctx.org_id, destination, self.embedder.model, dims)
        matrix = V.load(key, generation, knowledge, destination, self.embedder.model, dims, multi=multi)
        with _one_blas_thread():
            return V.nearest(matrix, qvec, CANDIDATES, also)


def _lexical_window(text: str, words: list[str], weights: dict[str, float]) -> int | None:
    """The window of ``text`` holding most of the question's weight (with its heading); the
    earlier on a tie."""
    from .passages import windows

    found = windows(text)
    if not words or not weights or not found:
        return None
    covered = [T.coverage(words, weights, T.word_set(w.context)) for w in found]
    return covered.index(max(covered))


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
