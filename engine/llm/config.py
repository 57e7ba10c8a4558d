"""Where and how the model is asked: endpoint, key, model, timeout, the cost kill switch (retries
are the shared tool executor's policy, engine/tools/executor.py).

Read from the environment (``OPENAI_BASE_URL`` / ``OPENAI_API_KEY`` / ``OPENAI_MODEL`` /
``OPENAI_TIMEOUT_S``) over the saved settings; the app passes the keyring's key itself."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Mapping
from urllib.parse import urlsplit

from engine.errors import ModelUnavailable

DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MAX_COST_USD = 0.10  # seed 002 §15.1: alert above $0.10 a run; here it stops asking
LOCAL_KEY = "not-needed"  # local servers (Ollama, llama.cpp) take any key; the SDK wants one


@dataclass(frozen=True)
class LLMConfig:
    base_url: str
    model: str
    api_key: str = LOCAL_KEY
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_cost_usd: float = DEFAULT_MAX_COST_USD

    def __repr__(self) -> str:  # the key never reaches a log line
        return f"LLMConfig(base_url={self.base_url!r}, model={self.model!r}, timeout_s={self.timeout_s})"


def _float(environ: Mapping[str, str], name: str, default: float) -> float:
    text = (environ.get(name) or "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise ModelUnavailable(f"{name}={text!r} is not a number") from None
    if value <= 0:
        raise ModelUnavailable(f"{name} must be more than 0")
    return value


def check_base_url(url: str) -> str:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 — a port that is not a number raises here
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ModelUnavailable(f"the LLM base URL {url!r} is not an http(s) URL")
    return url.rstrip("/")


def config_from_env(environ: Mapping[str, str] | None = None, *, settings=None,
                    api_key: str | None = None) -> LLMConfig:
    """The effective config; ``ModelUnavailable`` when it cannot work (offline, bad URL)."""
    env = os.environ if environ is None else environ
    from engine.settings import DEFAULT_LLM_ENDPOINT, DEFAULT_LLM_MODEL
    from engine.net.network import is_loopback_url
    base = (env.get("OPENAI_BASE_URL") or "").strip() or (settings.llm_endpoint if settings else "") \
        or DEFAULT_LLM_ENDPOINT
    base = check_base_url(base)
    if env.get("TRIPWRIGHT_OFFLINE") == "1" and not is_loopback_url(base):
        raise ModelUnavailable("TRIPWRIGHT_OFFLINE=1: only a model on this machine (localhost) is asked")
    model = (env.get("OPENAI_MODEL") or "").strip() or (settings.llm_model if settings else "") or DEFAULT_LLM_MODEL
    key = (env.get("OPENAI_API_KEY") or "").strip() or api_key or LOCAL_KEY
    return LLMConfig(base_url=base, model=model, api_key=key,
                     timeout_s=_float(env, "OPENAI_TIMEOUT_S", DEFAULT_TIMEOUT_S),
                     max_cost_usd=_float(env, "TRIPWRIGHT_LLM_MAX_COST_USD", DEFAULT_MAX_COST_USD))
