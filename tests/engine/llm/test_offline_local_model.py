"""TRIPWRIGHT_OFFLINE=1 means no network attempt: a model on this machine (Ollama, LM Studio on
localhost) is still asked, anything else is not — and the plan falls back to the rule-based one."""

from __future__ import annotations

import pytest

from engine.errors import ModelUnavailable
from engine.llm.config import config_from_env
from engine.net.network import is_loopback_url


@pytest.mark.parametrize("url, local", [
    ("http://127.0.0.1:11434/v1", True), ("http://localhost:1234/v1", True), ("http://[::1]:8080/v1", True),
    ("http://127.8.9.10/v1", True), ("https://api.openai.com/v1", False), ("http://10.0.0.5:11434/v1", False),
    ("http://localhost.example.com/v1", False), ("not a url", False)])
def test_only_this_machine_counts_as_local(url, local) -> None:
    assert is_loopback_url(url) is local


def test_offline_asks_a_local_model_and_refuses_a_remote_one() -> None:
    local = config_from_env({"TRIPWRIGHT_OFFLINE": "1", "OPENAI_BASE_URL": "http://127.0.0.1:11434/v1"})
    assert local.base_url == "http://127.0.0.1:11434/v1"
    with pytest.raises(ModelUnavailable, match="only a model on this machine"):
        config_from_env({"TRIPWRIGHT_OFFLINE": "1", "OPENAI_BASE_URL": "https://api.openai.com/v1"})
    with pytest.raises(ModelUnavailable, match="not an http"):  # a bad URL is named as such, offline or not
        config_from_env({"TRIPWRIGHT_OFFLINE": "1", "OPENAI_BASE_URL": "localhost 11434"})
