"""The tool cache table (the durable L2 behind the executor's in-memory cache) and idempotency.

Idempotency (SPEC_DECISIONS §1, seed §9.3): the same trip + the same intent digest within the TTL
returns the stored run instead of planning (and paying an LLM) twice.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

from pydantic_core import to_jsonable_python
from sqlalchemy import select

from ..errors import InputError
from .columns import utcnow
from .records import IdempotencyHit
from .schema import Idempotency, ToolCacheEntry
from .tenancy import OrgContext, OrgSession

DEFAULT_IDEMPOTENCY_TTL = timedelta(minutes=10)


def idempotency_key(trip_id: str | None, intent_digest: str) -> str:
    return hashlib.sha256(f"{trip_id or '-'}|{intent_digest}".encode()).hexdigest()


class ToolCache:
    def __init__(self, session: OrgSession, ctx: OrgContext) -> None:
        self._s = session
        self._org = ctx.org_id

    def get(self, key: str, *, now: datetime | None = None) -> Any | None:
        row = self._s.get(ToolCacheEntry, {"cache_key": key, "org_id": self._org})
        if row is None or row.expires_at <= (now or utcnow()):
            return None
        return row.payload

    def put(self, key: str, tool: str, payload: Any, ttl: timedelta) -> None:
        now = utcnow()
        row = self._s.get(ToolCacheEntry, {"cache_key": key, "org_id": self._org})
        if row is None:
            row = ToolCacheEntry(cache_key=key)
            self._s.add(row)
        row.tool, row.payload = tool, to_jsonable_python(payload)
        row.created_at, row.expires_at = now, now + ttl
        self._s.flush()


class IdempotencyKeys:
    def __init__(self, session: OrgSession, ctx: OrgContext) -> None:
        self._s = session
        self._ctx = ctx
        self._org = ctx.org_id

    def claim(self, key: str, ttl: timedelta = DEFAULT_IDEMPOTENCY_TTL) -> IdempotencyHit | None:
        """None: the caller owns the key and should do the work. A hit: the work is done (or
        in flight) — use its run instead. An expired claim is taken over."""
        now = utcnow()
        row = self._s.get(Idempotency, {"key": key, "org_id": self._org})
        if row is not None and row.ttl_until > now and row.status != "error":
            return IdempotencyHit(key=key, status=row.status, run_id=row.run_id,  # type: ignore[arg-type]
                                  version_number=row.version_number)
        if row is None:
            row = Idempotency(key=key)
            self._s.add(row)
        row.user_id, row.status, row.run_id, row.version_number = self._ctx.user_id, "pending", None, None
        row.created_at, row.ttl_until = now, now + ttl
        self._s.flush()
        return None

    def complete(self, key: str, *, run_id: str, version_number: int | None = None,
                 status: str = "completed", response_hash: str | None = None) -> None:
        row = self._s.get(Idempotency, {"key": key, "org_id": self._org})
        if row is None:
            raise InputError("idempotency_key", "complete() without claim()")
        row.status, row.run_id, row.version_number, row.response_hash = status, run_id, version_number, response_hash
        self._s.flush()

    def lookup(self, key: str) -> IdempotencyHit | None:
        row = self._s.scalars(select(Idempotency).where(Idempotency.key == key)).first()
        if row is None or row.ttl_until <= utcnow():
            return None
        return IdempotencyHit(key=key, status=row.status, run_id=row.run_id,  # type: ignore[arg-type]
                              version_number=row.version_number)
