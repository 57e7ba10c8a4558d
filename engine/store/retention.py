"""Retention (seed §9.4): heavy and stale rows are pruned; user-facing history is kept.

- ``agent_run.tool_log``: cleared 24 h after the run started (it is the bulky part).
- ``agent_run`` rows (and their events, by cascade): deleted after 30 days, except a run that
  produced a saved version: reopening that version shows its history, so the run stays as long as
  the version does (a purged trip's versions go first; their runs at the next prune).
- ``idempotency``: deleted 24 h after its TTL ran out.
- ``tool_cache``: deleted once expired.  ``remember_token``: deleted once expired.
- soft-deleted trips: purged (with their versions) 90 days after deletion.
- ``audit_log``: never (append-only).
Runs across every org: it deletes by age only and reads nothing back, so it uses the system
session; the app calls :func:`prune` at start-up and then daily.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, delete, exists, null, select, update

from .columns import utcnow
from .schema import AgentRun, Idempotency, ItineraryVersion, RememberToken, ToolCacheEntry, Trip

TOOL_LOG_TTL = timedelta(hours=24)
RUN_TTL = timedelta(days=30)
IDEMPOTENCY_GRACE = timedelta(hours=24)
DELETED_TRIP_TTL = timedelta(days=90)


@dataclass(frozen=True)
class PruneReport:
    tool_logs: int
    runs: int
    idempotency: int
    tool_cache: int
    remember_tokens: int
    trips: int


def _count(result) -> int:  # noqa: ANN001
    return max(result.rowcount or 0, 0)


def prune(store, now: datetime | None = None) -> PruneReport:  # noqa: ANN001 (Store; import cycle)
    now = now or utcnow()
    opts = {"synchronize_session": False}
    made_a_version = exists(select(ItineraryVersion.version_id).where(and_(
        ItineraryVersion.run_id == AgentRun.run_id, ItineraryVersion.org_id == AgentRun.org_id)))
    with store.system() as s:
        trips = s.execute(delete(Trip).where(Trip.deleted_at < now - DELETED_TRIP_TTL).execution_options(**opts))
        runs = s.execute(delete(AgentRun).where(AgentRun.created_at < now - RUN_TTL, ~made_a_version)
                         .execution_options(**opts))
        logs = s.execute(update(AgentRun).where(AgentRun.created_at < now - TOOL_LOG_TTL, AgentRun.tool_log.is_not(None))
                         .values(tool_log=null()).execution_options(**opts))
        keys = s.execute(delete(Idempotency).where(Idempotency.ttl_until < now - IDEMPOTENCY_GRACE)
                         .execution_options(**opts))
        cache = s.execute(delete(ToolCacheEntry).where(ToolCacheEntry.expires_at < now).execution_options(**opts))
        tokens = s.execute(delete(RememberToken).where(RememberToken.expires_at < now).execution_options(**opts))
        return PruneReport(tool_logs=_count(logs), runs=_count(runs), idempotency=_count(keys),
                           tool_cache=_count(cache), remember_tokens=_count(tokens), trips=_count(trips))
