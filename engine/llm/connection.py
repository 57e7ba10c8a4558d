"""Settings → "Test connection": list the endpoint's models, or say exactly why not. Synchronous
(its own event loop) so the app runs it on a worker thread."""

from __future__ import annotations

import asyncio

from engine.errors import ModelUnavailable

from .client import LLMClient
from .config import LLMConfig, LOCAL_KEY, check_base_url

TEST_TIMEOUT_S = 10.0


def test_connection(endpoint: str, model: str, api_key: str | None, timeout_s: float = TEST_TIMEOUT_S) -> str:
    """One line for the dialog: the models found (and whether ``model`` is among them), or the error."""
    try:
        config = LLMConfig(base_url=check_base_url(endpoint), model=model, api_key=api_key or LOCAL_KEY,
                           timeout_s=timeout_s)
        models = asyncio.run(_listed(LLMClient(config)))
    except ModelUnavailable as exc:
        return f"Failed: {exc.reason}"
    shown = ", ".join(models[:8]) + (f" and {len(models) - 8} more" if len(models) > 8 else "")
    found = "" if model in models else f" — {model!r} is not among them"
    return f"Connected: {len(models)} model(s): {shown}{found}"


async def _listed(client: LLMClient) -> list[str]:
    try:
        return await client.list_models()
    finally:
        await client.close()


test_connection.__test__ = False  # a product function, not a pytest test
