"""Provenance stamping for tool results (seed §3.7: tool, call_ts, cache_hit, response_digest)."""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from typing import Any

from engine.canonical import digest
from engine.models import DataSource, Provenance


def stamp(tool: str, payload: Any, *, data_source: DataSource = "fixture", ref_id: str | None = None,
          source_url: str | None = None, cache_hit: bool = False) -> Provenance:
    """``payload`` is what the tool answered; a str is hashed as is (the hot path for transit)."""
    response = hashlib.sha256(payload.encode()).hexdigest() if isinstance(payload, str) else digest(payload)
    return Provenance.model_construct(source="tool", tool=tool, call_ts=datetime.now(timezone.utc),
                                      cache_hit=cache_hit, response_digest=response, ref_id=ref_id,
                                      source_url=source_url, data_source=data_source)


def usd_cents(amount_local: float, rate_to_usd: float) -> int:
    """Local major units → USD cents, rounded half up once (ADR-004)."""
    return int(amount_local * rate_to_usd * 100 + 0.5)
