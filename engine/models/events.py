"""StreamEvent: one step of a planning run, as the progress panel and --events see it (seed §8.1)."""

from __future__ import annotations

from datetime import datetime
from enum import Enum

from pydantic import Field

from .common import Value


class EventStatus(str, Enum):
    started = "started"
    running = "running"
    completed = "completed"
    error = "error"
    done = "done"
    cancelled = "cancelled"
    heartbeat = "heartbeat"


CRITICAL_STATUSES = frozenset({EventStatus.started, EventStatus.completed, EventStatus.error,
                               EventStatus.done, EventStatus.cancelled})


class ModelUsage(Value):
    """One model call's figures on its event (extract, draft, summarize, revise): the progress
    panel shows them. ``cost_usd`` None: the model is not in the price table."""

    model: str
    prompt_tokens: int = Field(ge=0)
    completion_tokens: int = Field(ge=0)
    cost_usd: float | None = None


class StreamEvent(Value):
    trace_id: str
    run_id: str
    seq: int = Field(ge=0)
    node: str
    status: EventStatus
    ts: datetime
    args_digest: str
    duration_ms: int | None = None
    cache_hit: bool | None = None
    decision_note: str | None = None
    progress_pct: int = Field(default=0, ge=0, le=100)
    model_usage: ModelUsage | None = None  # model nodes only (added for the app's progress panel)
    # Why a run stopped, as a stable label (seed 002 §5.5: ``invalid_model_output``); only on
    # error events that have one. Additive: older readers ignore it.
    reason: str | None = None

    @property
    def critical(self) -> bool:
        return self.status in CRITICAL_STATUSES
