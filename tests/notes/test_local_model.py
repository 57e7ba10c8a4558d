"""The local embedding model (issue 24): WordLlama's own vectors, read from the installed wheel."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from engine.notes.local_model import DIMS, LocalEmbedder, _model, _package_dir
from engine.notes.reading import read_note_file

from .labelled import NOTES, QUESTIONS

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "notes"


def _texts() -> list[str]:
    return ([q for _, q, _ in QUESTIONS] + [t for _, t in NOTES.values()]
            + [read_note_file(p).text for p in sorted(FIXTURES.glob("*.md"))] + ["two  spaces", " lead", "end "])


def test_the_weights_and_the_tokenizer_are_inside_the_installed_package():
    root = _package_dir()
    assert (root / "weights" / f"l2_supercat_{DIMS}.safetensors").stat().st_size > 10_000_000
    assert (root / "tokenizers" / "l2_supercat_tokenizer_config.json").is_file()


def test_word_by_word_token_ids_are_the_whole_texts_ids():
    model = _model()
    texts = _texts()
    whole = [e.ids for e in model.tokenizer.encode_batch(texts, add_special_tokens=False)]
    assert model._ids(texts) == whole


def test_the_vectors_are_wordllamas_own_unit_mean_of_token_vectors():
    from wordllama.inference import WordLlamaInference

    model = _model()
    texts = _texts()[:40]
    reference = WordLlamaInference(model.table, model.tokenizer.__class__.from_str(model.tokenizer.to_str()))
    expected = reference.embed(texts, norm=True)
    got = LocalEmbedder().embed(texts)
    assert got.shape == (len(texts), DIMS) and got.dtype == np.float32
    assert np.allclose(got, expected, atol=1e-5)
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


def test_a_text_without_tokens_is_a_zero_row_not_nan():
    got = LocalEmbedder().embed(["", "Louvre"])
    assert not np.any(got[0]) and np.isfinite(got).all() and abs(np.linalg.norm(got[1]) - 1) < 1e-5
