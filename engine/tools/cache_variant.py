"""What, besides the request, changes an adapter's answer: its ``cache_variant``, part of the
executor's cache key. Computed once when the adapter is made (the cached-call path stays a
couple of attribute reads). Never built from a secret."""

from __future__ import annotations

from typing import Any, Mapping

from engine.canonical import digest


def variant_digest(config: Any) -> str:
    """A short digest of ``config`` ("" when empty: the plain answer needs no variant)."""
    return digest(config)[:16] if config else ""


def rates_variant(rates_to_usd: Mapping[str, float]) -> str:
    """Adapters that convert local prices to USD answer differently under other rates."""
    return variant_digest(dict(rates_to_usd))
