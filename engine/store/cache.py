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
from sqlalchemy.exc import IntegrityError

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

    def claim(self, key: str, ttl: timedelta = DEFAULT_IDEMPOTENCY_TTL, *,
              run_id: str | None = None) -> IdempotencyHit | None:
        """None: the caller owns the key and should do the work (``run_id``, when given, tells a
        later duplicate which run to follow). A hit: the work is done (or in flight) — use its run
        instead. An expired or failed claim is taken over."""
        now = utcnow()
        row = self._s.get(Idempotency, {"key": key, "org_id": self._org})
        if row is None:
            return self._insert(Idempotency(key=key, user_id=self._ctx.user_id, status="pending", run_id=run_id,
                                            created_at=now, ttl_until=now + ttl))
        if row.ttl_until > now and row.status != "error":
            return _hit(row)
        row.user_id, row.status, row.run_id, row.version_number = self._ctx.user_id, "pending", run_id, None
        row.created_at, row.ttl_until = now, now + ttl
        self._s.flush()
        return None

    def _insert(self, row: Idempotency) -> IdempotencyHit | None:
        """Claim a new key. On PostgreSQL two transactions can both miss the row and the second
        INSERT then fails on the key: the savepoint keeps our transaction usable, and we answer
        like a duplicate of the claim that won. (SQLite claimers serialise on the write lock when
        they use ``Store.org(write=True)``.)"""
        try:
            with self._s.begin_nested():
                self._s.add(row)
            return None
        except IntegrityError:
            winner = self._s.scalars(select(Idempotency).where(Idempotency.key == row.key)).first()
            if winner is None:
                raise
            return _hit(winner)

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
        return _hit(row)


def _hit(row: Idempotency) -> IdempotencyHit:
    return IdempotencyHit(key=row.key, status=row.status, run_id=row.run_id,  # type: ignore[arg-type]
                          version_number=row.version_number)
