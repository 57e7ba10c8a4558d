"""Agent runs: status for the UI after a restart, the event log for replay, checkpoints, cost.

A run is written as it goes (``start`` → ``record_events`` → ``finish``) so a crash leaves a
``running`` row that :meth:`Runs.fail_orphans` marks as interrupted on the next start; a finished
``PlanResult`` can also be stored in one call with :meth:`Runs.record_result`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from pydantic_core import to_jsonable_python
from sqlalchemy import func, select, update

from ..errors import InputError
from ..models import StreamEvent
from .checkpoints import pack_checkpoints, unpack_checkpoints
from .columns import utcnow
from .records import Checkpoint, RunDetail, RunState, RunStatus
from .schema import RUN_STATUSES, AgentRun, Idempotency, ItineraryVersion, RunEvent
from .run_lease import RunLeases
from .tenancy import OrgContext, OrgSession
from .trips import Trips

FINAL = ("completed", "error", "cancelled")
INTERRUPTED = "interrupted: Tripwright stopped while planning"  # RunStatus.interrupted reads the prefix


def _jsonable(value: Any) -> Any:
    return to_jsonable_python(value, fallback=str)


def result_cost_micro_usd(result: Any) -> int:
    """What a run's model calls cost (``PlanResult.cost_usd``), in micro-dollars for its row."""
    return round((getattr(result, "cost_usd", 0.0) or 0.0) * 1_000_000)


def _status(r: AgentRun) -> dict[str, Any]:
    return {"run_id": r.run_id, "trip_id": r.trip_id, "trace_id": r.trace_id, "status": r.status,
            "progress_pct": r.progress_pct, "latest_node": r.latest_node, "error_message": r.error_message,
            "cost_micro_usd": r.cost_micro_usd, "created_at": r.created_at, "updated_at": r.updated_at,
            "completed_at": r.completed_at}


class Runs:
    def __init__(self, session: OrgSession, ctx: OrgContext, leases: RunLeases | None = None) -> None:
        self._s = session
        self._ctx = ctx
        self._leases = leases

    def start(self, *, intent: Any, trace_id: str, run_id: str | None = None,
              trip_id: str | None = None) -> RunStatus:
        now = utcnow()
        run = AgentRun(trip_id=trip_id, user_id=self._ctx.user_id, trace_id=trace_id, status="running",
                       progress_pct=0, latest_node="", intent=_jsonable(intent), checkpoints=[],
                       tool_log=[], cost_micro_usd=0, error_message="", created_at=now, updated_at=now)
        if run_id:
            run.run_id = run_id
        self._s.add(run)
        self._s.flush()
        return RunStatus(**_status(run))

    def record_events(self, run_id: str, events: Iterable[StreamEvent], *, trace_id: str | None = None) -> int:
        """Append events (the stored log replayed after a reconnect) and move the progress on.
        ``trace_id``: the pipeline's trace, when the run was started before it was known."""
        run = self._row(run_id)
        if trace_id:
            run.trace_id = trace_id
        count = 0
        for e in events:
            self._s.add(RunEvent(run_id=run_id, seq=e.seq, ts=e.ts, node=e.node, status=e.status.value,
                                 payload=e.model_dump(mode="json")))
            run.progress_pct = max(run.progress_pct, e.progress_pct)
            run.latest_node = e.node
            count += 1
        run.updated_at = utcnow()
        self._s.flush()
        return count

    def finish(self, run_id: str, status: RunState, *, checkpoints: Any = None, tool_log: list[Any] | None = None,
               cost_micro_usd: int = 0, error_message: str = "", version_plan: Any = None) -> RunStatus:
        """Close the run. ``version_plan``: the plan this run's version keeps (saved in the same
        transaction); checkpoints equal to it are stored as a reference to it, not a copy."""
        if status not in FINAL:
            raise InputError("status", f"a finished run is one of {', '.join(FINAL)}")
        run = self._row(run_id)
        run.status, run.error_message, run.cost_micro_usd = status, error_message, cost_micro_usd
        if status == "completed":
            run.progress_pct = 100
        if checkpoints is not None:
            run.checkpoints_z = pack_checkpoints(checkpoints, version_plan)
        if tool_log is not None:
            run.tool_log = _jsonable(tool_log)
        run.updated_at = run.completed_at = utcnow()
        self._s.flush()
        return RunStatus(**_status(run))

    def record_result(self, result: Any, *, intent: Any, trip_id: str | None = None,
                      tool_log: list[Any] | None = None, cost_micro_usd: int | None = None) -> RunStatus:
        """Store a finished ``engine.pipeline.PlanResult`` (events, checkpoints, status) at once;
        the cost is the result's model cost (``cost_usd``) unless given."""
        if cost_micro_usd is None:
            cost_micro_usd = result_cost_micro_usd(result)
        self.start(intent=intent, trace_id=result.trace_id, run_id=result.run_id, trip_id=trip_id)
        self.record_events(result.run_id, result.events)
        message = result.failure.message if getattr(result, "failure", None) is not None else ""
        status = result.status if result.status in RUN_STATUSES else "error"
        return self.finish(result.run_id, status, checkpoints=result.checkpoints, tool_log=tool_log,
                           cost_micro_usd=cost_micro_usd, error_message=message)

    def status(self, run_id: str) -> RunStatus:
        return RunStatus(**_status(self._row(run_id)))

    def detail(self, run_id: str) -> RunDetail:
        run = self._row(run_id)
        docs = (unpack_checkpoints(run.checkpoints_z, lambda: self._version_plan(run_id))
                if run.checkpoints_z is not None else run.checkpoints or [])
        return RunDetail(**_status(run), intent=run.intent, tool_log=run.tool_log,
                         checkpoints=[Checkpoint.model_validate(c) for c in docs])

    def _version_plan(self, run_id: str) -> Any:
        """The plan kept by the version this run saved (None when there is none any more)."""
        stmt = (select(ItineraryVersion.plan_z, ItineraryVersion.plan)
                .where(ItineraryVersion.run_id == run_id).limit(1))
        row = self._s.execute(stmt).first()
        return None if row is None else row.plan_z if row.plan_z is not None else row.plan

    def latest(self, trip_id: str | None = None) -> RunStatus | None:
        stmt = select(AgentRun).order_by(AgentRun.created_at.desc()).limit(1)
        if trip_id is not None:
            stmt = stmt.where(AgentRun.trip_id == trip_id)
        run = self._s.scalars(stmt).first()
        return RunStatus(**_status(run)) if run else None

    def last_event_at(self, run_id: str) -> datetime | None:
        """When the run last reported progress (an interrupted run: about when it stopped)."""
        return self._s.scalar(select(func.max(RunEvent.ts)).where(RunEvent.run_id == run_id))

    def recent(self, limit: int = 10) -> list[RunStatus]:
        """The org's newest runs first (diagnostics: status and model cost per run)."""
        stmt = select(AgentRun).order_by(AgentRun.created_at.desc(), AgentRun.run_id).limit(limit)
        return [RunStatus(**_status(r)) for r in self._s.scalars(stmt)]

    def running(self) -> list[RunStatus]:
        rows = self._s.scalars(select(AgentRun).where(AgentRun.status == "running").order_by(AgentRun.created_at))
        return [RunStatus(**_status(r)) for r in rows]

    def replay(self, run_id: str, after: datetime | None = None) -> list[StreamEvent]:
        """The stored events strictly after ``after`` (the seed's ``?last_ts=`` reconnect)."""
        self._row(run_id)
        stmt = select(RunEvent.payload).where(RunEvent.run_id == run_id).order_by(RunEvent.seq, RunEvent.event_id)
        if after is not None:
            stmt = stmt.where(RunEvent.ts > after)
        return [StreamEvent.model_validate(p) for p in self._s.scalars(stmt)]

    def fail_orphans(self, message: str = INTERRUPTED) -> int:
        """This user's runs left ``running`` by a process that is gone become errors, and their
        pending idempotency claims fail with them, so the same request can be retried at once
        instead of waiting for the claim's TTL. A run whose lease a live process holds (a plan
        being saved by the CLI while the app starts, or the other way round) is left alone."""
        stmt = select(AgentRun.run_id).where(AgentRun.status == "running", AgentRun.user_id == self._ctx.user_id)
        return len(self.fail_if_orphaned([r for r in self._s.scalars(stmt)], message))

    def fail_if_orphaned(self, run_ids: list[str],
                         message: str = INTERRUPTED) -> list[str]:
        """Fail those of ``run_ids`` still ``running`` with no live owner; returns the ones failed.
        The UPDATE re-checks the status, so a run its owner closed meanwhile keeps its outcome."""
        orphans = [r for r in run_ids if not (self._leases and self._leases.is_held(r))]
        if not orphans:
            return []
        now = utcnow()
        failed = list(self._s.scalars(
            update(AgentRun).where(AgentRun.run_id.in_(orphans), AgentRun.status == "running")
            .values(status="error", error_message=message, updated_at=now, completed_at=now)
            .returning(AgentRun.run_id).execution_options(synchronize_session="fetch")))
        if failed:
            self._s.execute(update(Idempotency).where(Idempotency.run_id.in_(failed), Idempotency.status == "pending")
                            .values(status="error").execution_options(synchronize_session="fetch"))
            self._discard_empty_trips(failed)
        return failed

    def _discard_empty_trips(self, failed: list[str]) -> None:
        """A killed first plan leaves no empty trip behind (as ``PlanRecorder.abandon`` would
        not): a trip of a failed run with no version and no other run in flight goes."""
        trip_ids = set(self._s.scalars(select(AgentRun.trip_id).where(AgentRun.run_id.in_(failed))))
        busy = set(self._s.scalars(select(AgentRun.trip_id).where(AgentRun.status == "running")))
        trips = Trips(self._s, self._ctx)
        for trip_id in sorted(t for t in trip_ids - busy if t):
            trips.discard_if_empty(trip_id)

    def _row(self, run_id: str) -> AgentRun:
        run = self._s.get(AgentRun, run_id) if isinstance(run_id, str) else None
        if run is None:
            raise InputError("run", f"no run {run_id!r} in this org")
        return run
