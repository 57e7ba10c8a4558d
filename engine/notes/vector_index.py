"""Chunk vectors as stored and searched in numpy, and each model's calibrated answer threshold.

Stored: ``knowledge_chunk.embedding`` holds float32 rows under ``embedding_model``. An endpoint's
model stores one row per chunk (its dimension is the blob's length, checked against the
question's). The local model (``LocalEmbedder.windows``) stores one row per passage window of the
chunk (``engine.notes.passages``), in order, under a name that carries its dimension
(``wordllama-l2_supercat-256``); a chunk's score is its best window's cosine, and that window is
the passage a plan cites.

Calibration (issue 24): cosines of different models live on different scales — WordLlama's mean
of static token vectors puts a paraphrase near 0.5 and unrelated tips near 0.1, where an endpoint
model puts them near 0.8 and 0.5 — so τ = 0.70 cannot apply to both. Each model has its own
threshold ``τ_m`` (``MODEL_TAUS``, measured by ``bench/notes_calibration.py`` on the labelled set
in ``tests/notes/labelled.py``: the best F1 at a "found" precision ≥ 0.9; a model not measured —
an endpoint's, which no test can reach — keeps the seed's τ), and a cosine is mapped
to a confidence piecewise linearly so that ``τ_m`` → τ and 1 → 1: every passage then answers at
the one τ of the seed, whichever signal found it.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .passages import windows

TAU = 0.70  # the seed's answer threshold, on the confidence scale
MODEL_TAUS = {"wordllama-l2_supercat-256": 0.40}  # bench/notes_calibration.py, fusion "max"


def model_tau(model: str) -> float:
    return MODEL_TAUS.get(model, TAU)


def confidence(model: str, cosine: float) -> float:
    """The model's cosine on the confidence scale (its τ_m maps to TAU)."""
    tau = model_tau(model)
    if cosine <= tau:
        return max(0.0, TAU * cosine / tau)
    return min(1.0, TAU + (1 - TAU) * (cosine - tau) / (1 - tau))


def chunk_vectors(embedder, texts: Sequence[str]) -> list[bytes]:  # noqa: ANN001
    """The stored vectors of each chunk text: one row, or one row per window (one embed call)."""
    if not getattr(embedder, "windows", False):
        matrix = embedder.embed(list(texts))
        return [row.tobytes() for row in matrix]
    per_chunk = [[w.context for w in windows(t)] or [t] for t in texts]
    matrix = embedder.embed([c for contexts in per_chunk for c in contexts])
    out, start = [], 0
    for contexts in per_chunk:
        out.append(matrix[start:start + len(contexts)].tobytes())
        start += len(contexts)
    return out


@dataclass(frozen=True)
class Hit:
    cosine: float
    window: int  # index of the best window (0 for a one-row chunk)


@dataclass(frozen=True)
class _Matrix:
    ids: list[str]          # chunk ids, in the matrix's order
    starts: np.ndarray      # first row of each chunk
    rows: np.ndarray        # (rows, dims) float32
    where: dict[str, int]   # chunk id -> its index in ids


_CACHE: dict[tuple, tuple] = {}  # (db, org, destination, model, dims) -> (generation, _Matrix)
_LOCK = threading.Lock()


def load(key: tuple, generation: tuple, knowledge, destination: str, model: str, dims: int,  # noqa: ANN001
         *, multi: bool) -> _Matrix:
    """The destination's vectors of this model and size, cached until its chunks change. Blobs of
    another size (a model whose size changed between imports) are left out."""
    with _LOCK:
        hit = _CACHE.get(key)
    if hit and hit[0] == generation:
        return hit[1]
    found = knowledge.vectors(destination, model)
    row_bytes = 4 * dims
    keep = [i for i, blob in enumerate(found.blobs)
            if blob and (len(blob) % row_bytes == 0 if multi else len(blob) == row_bytes)]
    counts = np.array([len(found.blobs[i]) // row_bytes for i in keep], dtype=np.int64)
    rows = (np.frombuffer(b"".join(found.blobs[i] for i in keep), dtype=np.float32).reshape(-1, dims)
            if keep else np.zeros((0, dims), np.float32))
    ids = [found.chunk_ids[i] for i in keep]
    starts = np.r_[0, np.cumsum(counts)[:-1]].astype(np.int64) if keep else np.zeros(0, np.int64)
    matrix = _Matrix(ids, starts, rows, {cid: i for i, cid in enumerate(ids)})
    with _LOCK:
        _CACHE[key] = (generation, matrix)
    return matrix


def nearest(matrix: _Matrix, query: np.ndarray, k: int, also: Sequence[str] = ()) -> dict[str, Hit]:
    """The ``k`` chunks whose best row is closest to ``query``, and the chunks ``also`` asked for
    (the full-text candidates, so fusion knows both signals of each): chunk id -> (cosine, row)."""
    if not matrix.ids:
        return {}
    cos = matrix.rows @ query
    best = np.maximum.reduceat(cos, matrix.starts) if len(cos) != len(matrix.ids) else cos
    picked = set(np.argpartition(-best, min(k, len(best) - 1))[:k].tolist())
    picked |= {matrix.where[cid] for cid in also if cid in matrix.where}
    out = {}
    for i in picked:
        start = int(matrix.starts[i])
        end = int(matrix.starts[i + 1]) if i + 1 < len(matrix.starts) else len(cos)
        out[matrix.ids[i]] = Hit(float(best[i]), int(np.argmax(cos[start:end])))
    return out


def forget(destination: str) -> None:
    """Drop the cached matrices of ``destination`` (its vectors were replaced in place)."""
    with _LOCK:
        for key in [k for k in _CACHE if k[2] == destination]:
            del _CACHE[key]
