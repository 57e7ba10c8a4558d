"""Meaning-based search with no key and no network: WordLlama's static word embeddings.

The ``wordllama`` wheel (MIT licence) ships its weights (``l2_supercat_256.safetensors``, 32,000
tokens × 256 float32, 16 MB) and its tokenizer inside the package, so nothing is downloaded: the
files are read from the installed package directly. (WordLlama's own loader looks for the
tokenizer in a folder the wheel does not have and would then try the network, and importing it
configures the root logger; neither is wanted, so it is not imported.) A text's vector is the mean
of its tokens' vectors, made unit length — a lookup and a sum, about a millisecond for a chunk.

Loaded on first use (about 0.3 s), under a lock, by whichever worker thread asks first: building
a :class:`LocalEmbedder` reads nothing, so the app's start and the GUI thread never pay for it.
"""

from __future__ import annotations

import importlib.util
import os
import re
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from engine.errors import ToolError

PACKAGE = "wordllama"
CONFIG = "l2_supercat"
DIMS = 256
MODEL = f"wordllama-{CONFIG}-{DIMS}"  # the name vectors are stored under: model and dimension
BATCH = 256
_PIECE = re.compile(r" (?=[^ ])")  # the space before a word: pieces are a word and the spaces after it
WORD_CACHE = 200_000  # distinct words remembered (~30 MB at most)
DISABLE_ENV = "TRIPWRIGHT_LOCAL_EMBEDDINGS"  # "0": words only when no endpoint is configured


def local_model_enabled(environ=None) -> bool:  # noqa: ANN001
    environ = os.environ if environ is None else environ
    return environ.get(DISABLE_ENV, "1") != "0" and importlib.util.find_spec(PACKAGE) is not None


def _package_dir() -> Path:
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ToolError("embeddings", f"the local model needs the {PACKAGE} package (pip install {PACKAGE})")
    return Path(next(iter(spec.submodule_search_locations)))


class _Model:
    def __init__(self) -> None:
        from safetensors import safe_open
        from tokenizers import Tokenizer

        root = _package_dir()
        weights = root / "weights" / f"{CONFIG}_{DIMS}.safetensors"
        vocab = root / "tokenizers" / f"{CONFIG}_tokenizer_config.json"
        try:
            with safe_open(str(weights), framework="np", device="cpu") as f:
                self.table = np.ascontiguousarray(f.get_tensor("embedding.weight"), dtype=np.float32)
            self.tokenizer = Tokenizer.from_file(str(vocab))
        except (OSError, ValueError, RuntimeError) as exc:  # a damaged install
            raise ToolError("embeddings", f"the local model could not be read ({type(exc).__name__})") from None
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        self._words: dict[str, list[int]] = {}  # word -> its token ids
        self._words_lock = threading.Lock()
        self._space = [self.tokenizer.token_to_id("\u2581")]
        if self.table.shape[1] != DIMS:
            raise ToolError("embeddings", f"the local model has {self.table.shape[1]} dimensions, not {DIMS}")

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), DIMS), dtype=np.float32)
        for start in range(0, len(texts), BATCH):
            out[start:start + BATCH] = self._pooled(self._ids(texts[start:start + BATCH]))
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        np.divide(out, norms, out=out, where=norms > 0)  # a text with no token stays a zero row
        return out

    def _ids(self, texts: list[str]) -> list[list[int]]:
        """Token ids of each text, word by word. The Llama tokenizer writes each space as "▁" (and
        one more in front) and no token spans the "▁" that starts a word, so a text's ids are those
        of its pieces cut before each word — a word with the spaces after it — in order, the same
        ids as encoding it whole (checked by a test); a piece is encoded once per process: notes
        reuse their words, and encoding was most of the time."""
        pieces = [_PIECE.split(t) for t in texts]
        with self._words_lock:
            if len(self._words) > WORD_CACHE:
                self._words.clear()
            missing = list(dict.fromkeys(w for split in pieces for w in split if w and w not in self._words))
        known: dict[str, list[int]] = {}
        if missing:
            known = dict(zip(missing, (e.ids for e in self.tokenizer.encode_batch(missing, add_special_tokens=False))))
            with self._words_lock:
                self._words.update(known)
        cache = self._words

        def ids(split: list[str]) -> list[int]:
            out: list[int] = []
            for w in split:
                if w:
                    found = known.get(w)
                    if found is None:
                        found = cache.get(w)  # another thread may have emptied the cache since
                    out += found if found is not None else self.tokenizer.encode(w, add_special_tokens=False).ids
                elif len(split) > 1:  # an empty first piece: one space first, its "▁" stands alone
                    out += self._space
            return out
        return [ids(split) for split in pieces]

    def _pooled(self, batch: list[list[int]]) -> np.ndarray:
        """Each text's sum of token vectors (its mean once made unit length): each distinct token's
        row read once and weighted by its count — a chunk's thousand tokens are a few hundred
        distinct ones, and gathering a row per token was most of the time (measured: one
        ``np.unique`` per text beats one over the whole batch with a running sum, ~20×)."""
        out = np.zeros((len(batch), DIMS), dtype=np.float32)
        last = self.table.shape[0] - 1
        for row, ids in enumerate(batch):
            if ids:
                distinct, counts = np.unique(np.clip(np.asarray(ids), 0, last), return_counts=True)
                out[row] = counts.astype(np.float32) @ self.table[distinct]
        return out


_LOADED: _Model | None = None
_LOAD_LOCK = threading.Lock()


def _model() -> _Model:
    global _LOADED
    with _LOAD_LOCK:
        if _LOADED is None:
            _LOADED = _Model()
        return _LOADED


def loaded() -> bool:
    """Whether this process has read the model (the app's start must not)."""
    return _LOADED is not None


class LocalEmbedder:
    """The :class:`~engine.notes.embeddings.Embedder` interface, offline. ``windows``: vectors are
    made per passage window of a chunk (``engine.notes.passages``), not one per chunk: a mean of
    a thousand tokens says little about any one of its tips."""

    model = MODEL
    dims = DIMS
    windows = True
    local = True

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), 256) float32, unit rows (a zero row for a text with no token)."""
        return _model().embed([t if isinstance(t, str) else "" for t in texts])

    async def aembed(self, texts: Sequence[str]) -> np.ndarray:
        import asyncio

        return await asyncio.to_thread(self.embed, texts)
