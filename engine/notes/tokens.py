"""cl100k_base token counts, offline: ``bpe-openai`` embeds the vocabulary (tiktoken would
download it on first use, which fails offline — docs/PLATFORM_NOTES.md)."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def encoding():  # noqa: ANN201 (bpe_openai's Encoding)
    import warnings

    with warnings.catch_warnings():  # bpe-openai 0.1.4 loads its data with importlib.resources.open_binary
        warnings.simplefilter("ignore", DeprecationWarning)
        import bpe_openai

        return bpe_openai.build_encoding_from_name("cl100k_base")


def count_tokens(text: str) -> int:
    return len(encoding().encode(text)) if text else 0


def token_counts(texts: list[str]) -> list[int]:
    # one encode per text: bpe-openai's encode_batch sets up a thread pool per call (10x slower)
    encode = encoding().encode
    return [len(encode(t)) for t in texts]
