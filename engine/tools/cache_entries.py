"""A tool call's cache entry: its key (the tool, the canonical request, the adapter's variant) and
the answer as the cache serves it (its provenance saying ``cache_hit``)."""

from __future__ import annotations

import hashlib
from typing import Any, Callable

from engine.canonical import canonical_json


def cache_key(tool: str, request: Any, variant: str = "") -> str:
    """sha256 of the tool name, the canonical request (sorted keys, no whitespace) and the
    adapter's variant. Neither holds a secret: adapters keep their keys to themselves. A request
    asked hundreds of times a run and never kept in the durable cache (a transit leg) may give its
    own stable text (``cache_text``: pydantic's JSON, fields in declaration order, ~5x faster)."""
    own = getattr(request, "cache_text", None)
    text = own() if own is not None else canonical_json(request)
    return hashlib.sha256(f"{tool}|{variant}|{text}".encode()).hexdigest()


def adapter_variant(fn: Callable[[Any], Any]) -> str:
    """The ``cache_variant`` of the adapter ``fn`` is a method of ("" for plain functions and
    adapters whose answer depends on the request alone)."""
    return getattr(getattr(fn, "__self__", None), "cache_variant", "")


def mark_cached(result: Any) -> Any:
    """The cached answer, its provenance saying ``cache_hit=True`` and, for a real answer, that
    the cache rung served it (seed §3.7, §12)."""
    if isinstance(result, list):
        return [mark_cached(r) for r in result]
    as_cached = getattr(result, "as_cached", None)
    if as_cached is not None:
        return as_cached()
    provenance = getattr(result, "provenance", None)
    if provenance is None or provenance.cache_hit:
        return result
    update: dict[str, Any] = {"cache_hit": True}
    if provenance.data_source == "real":
        update["data_source"] = "cache"
    return result.model_copy(update={"provenance": provenance.model_copy(update=update)})
