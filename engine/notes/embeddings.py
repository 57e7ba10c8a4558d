"""Embeddings from the configured OpenAI-compatible endpoint (``{base}/embeddings``).

Configured = an embedding model in Settings (or ``TRIPWRIGHT_EMBEDDING_MODEL``) and not
``TRIPWRIGHT_OFFLINE=1``; the endpoint and key are the LLM's (``OPENAI_BASE_URL``,
``OPENAI_API_KEY`` or the keyring). Unconfigured, notes are searched with the local model
(``engine.notes.local_model``: no key, nothing sent anywhere) and the full-text index. The SDK's defaults (600 s, 2 retries) are replaced by ``OPENAI_TIMEOUT_S`` and one
retry. Vectors are returned unit-length float32, so a dot product is the cosine.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from engine.errors import ToolError
from engine.log_setup import URL_USERINFO
from engine.net import bounded_http

BATCH = 64
DEFAULT_TIMEOUT_S = 60.0
MAX_REPLY_BYTES = 64 * 1024 * 1024  # decompressed: 64 vectors of 3,072 floats in JSON are ~4 MB


@dataclass(frozen=True)
class EmbeddingConfig:
    base_url: str
    api_key: str
    model: str
    timeout_s: float = DEFAULT_TIMEOUT_S


def embedding_config(environ: Mapping[str, str] | None = None, settings=None) -> EmbeddingConfig | None:  # noqa: ANN001
    """The effective configuration from ``settings`` (default: the saved ones) + environment, or
    None (lexical only)."""
    from engine.settings import apply_env, endpoint_or_default, get_api_key, load_settings

    from engine.net.network import is_loopback_url

    environ = os.environ if environ is None else environ
    settings = apply_env(settings if settings is not None else load_settings().settings, environ)
    if not settings.embedding_model:
        return None
    base = endpoint_or_default(settings.llm_endpoint)
    if environ.get("TRIPWRIGHT_OFFLINE") == "1" and not is_loopback_url(base):
        return None  # offline: lexical only, unless the endpoint is on this machine
    key = (environ.get("OPENAI_API_KEY") or "").strip()
    if not key:
        from engine.store import SecretStore
        key = get_api_key(base, SecretStore(), environ) or "none"  # local servers need no key
    try:
        timeout = float(environ.get("OPENAI_TIMEOUT_S") or DEFAULT_TIMEOUT_S)
    except ValueError:
        timeout = DEFAULT_TIMEOUT_S
    return EmbeddingConfig(base_url=base, api_key=key, model=settings.embedding_model, timeout_s=timeout)


def make_embedder(config: EmbeddingConfig | None, environ: Mapping[str, str] | None = None):  # noqa: ANN201
    """The endpoint's embedder when one is configured, else the local model's (reads nothing
    until it embeds), or None when ``TRIPWRIGHT_LOCAL_EMBEDDINGS=0`` (words only)."""
    if config is not None:
        return Embedder(config)
    from .local_model import LocalEmbedder, local_model_enabled

    return LocalEmbedder() if local_model_enabled(environ) else None


class Embedder:
    windows = False  # one vector per chunk
    local = False

    def __init__(self, config: EmbeddingConfig, *, batch: int = BATCH) -> None:
        self.config = config
        self.batch = batch
        self._client = None  # the synchronous client, made on first use

    @property
    def model(self) -> str:
        return self.config.model

    async def aembed(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), dims) float32, unit rows. ToolError with one line when the endpoint fails."""
        import openai

        client = openai.AsyncOpenAI(base_url=self.config.base_url, api_key=self.config.api_key,
                                    timeout=self.config.timeout_s, max_retries=1, http_client=self._http(sync=False))
        rows: list[list[float]] = []
        try:
            async with client:
                for start in range(0, len(texts), self.batch):
                    batch = list(texts[start:start + self.batch])
                    raw = await client.embeddings.with_raw_response.create(
                        model=self.config.model, input=batch, encoding_format="base64")
                    rows += _raw_vectors(raw.http_response.json(), len(batch))
        except (openai.OpenAIError, bounded_http.ReplyRefused) as exc:
            refused = bounded_http.refusal(exc)
            raise ToolError("embeddings", f"{self.where} failed: {refused or _reason(exc)}") from None
        return unit_rows(np.asarray(rows, dtype=np.float32))

    @property
    def where(self) -> str:
        """The endpoint as it may be shown: no user:password part."""
        return URL_USERINFO.sub(r"\1", self.config.base_url)

    def _http(self, *, sync: bool):
        """The SDK's HTTP client behind the reply caps (decompressed size, total time), redirects
        kept on the endpoint's origin (engine.net.bounded_http)."""
        import httpx2
        from openai import DefaultAsyncHttpxClient, DefaultHttpxClient
        if sync:
            transport = bounded_http.sync_transport(httpx2, cap=MAX_REPLY_BYTES, total_s=self.config.timeout_s)
            return DefaultHttpxClient(transport=transport, event_hooks={"response": [bounded_http.sync_redirect_guard]})
        transport = bounded_http.async_transport(httpx2, cap=MAX_REPLY_BYTES, total_s=self.config.timeout_s)
        return DefaultAsyncHttpxClient(transport=transport, event_hooks={"response": [bounded_http.redirect_guard]})

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Synchronous form for worker threads and the CLI: one kept-alive ``openai.OpenAI``
        client (thread-safe) instead of a new event loop and client per call (~100 ms each)."""
        import openai

        if self._client is None:
            self._client = openai.OpenAI(base_url=self.config.base_url, api_key=self.config.api_key,
                                         timeout=self.config.timeout_s, max_retries=1, http_client=self._http(sync=True))
        rows: list[list[float]] = []
        try:
            for start in range(0, len(texts), self.batch):
                batch = list(texts[start:start + self.batch])
                raw = self._client.embeddings.with_raw_response.create(
                    model=self.config.model, input=batch, encoding_format="base64")
                rows += _raw_vectors(raw.http_response.json(), len(batch))
        except (openai.OpenAIError, bounded_http.ReplyRefused) as exc:
            refused = bounded_http.refusal(exc)
            raise ToolError("embeddings", f"{self.where} failed: {refused or _reason(exc)}") from None
        return unit_rows(np.asarray(rows, dtype=np.float32))


def _raw_vectors(payload: dict, expected: int) -> list:
    """Vectors from the JSON answer itself: base64 float32 (what we ask for) or plain lists (what
    some servers send anyway). Parsing 1,536 floats into the SDK's models costs ~50 ms a call."""
    try:
        data = sorted(payload["data"], key=lambda d: d["index"])
        rows = [np.frombuffer(base64.b64decode(d["embedding"]), dtype=np.float32)
                if isinstance(d["embedding"], str) else d["embedding"] for d in data]
    except (KeyError, TypeError, ValueError) as exc:
        raise ToolError("embeddings", f"unexpected answer ({type(exc).__name__})") from None
    if len(rows) != expected:
        raise ToolError("embeddings", f"asked for {expected} vectors, got {len(rows)}")
    return rows


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    if matrix.ndim != 2 or matrix.shape[0] == 0:
        return matrix.reshape(0, 0) if matrix.size == 0 else matrix
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    if not np.all(np.isfinite(matrix)) or np.any(norms == 0):
        raise ToolError("embeddings", "the endpoint returned an empty or invalid vector")
    return (matrix / norms).astype(np.float32)


def _reason(exc: Exception) -> str:
    status = getattr(exc, "status_code", None)
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return f"HTTP {status}: {text}"[:200] if status else text[:200]
