"""The executor's durable L2: the store's ``tool_cache`` table (org-scoped, expiring rows).

Only results that name their type go here (real answers: weather, geocoding) — fixture answers are
instant and would only fill the table. A store that cannot be read or written is a cache miss, never
a failed plan.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import structlog

from engine.errors import StoreError

log = structlog.get_logger("tripwright.tools")

FOREVER = timedelta(days=3650)  # "cached forever": ten years, so the expiry column stays a date


class StoreToolCache:
    def __init__(self, store: Any, ctx: Any) -> None:
        self._store = store
        self._ctx = ctx

    def get(self, key: str) -> Any | None:
        try:
            with self._store.org(self._ctx) as repo:
                return repo.tool_cache.get(key)
        except StoreError as exc:
            log.warning("tool_cache_unreadable", error=str(exc))
            return None

    def put(self, key: str, tool: str, payload: Any, ttl_s: float | None) -> None:
        ttl = FOREVER if ttl_s is None else timedelta(seconds=ttl_s)
        try:
            with self._store.org(self._ctx, write=True) as repo:
                repo.tool_cache.put(key, tool, payload, ttl)
        except StoreError as exc:
            log.warning("tool_cache_unwritable", error=str(exc))
