"""After a restart, the stored status of the open trip's last run (SPEC_DECISIONS §1, the polling
fallback): a run a killed Tripwright left ``running`` was failed as interrupted at start-up, and the
window says so — "Last run interrupted while drafting the plan, Tue 24 Nov 03:40" — in the progress
panel and the status bar. The version shown is the last one that was saved."""

from __future__ import annotations

import asyncio
from datetime import datetime

import structlog

from engine.errors import TripwrightError
from widgets.event_log_model import node_name
from engine.store.records import RunStatus

log = structlog.get_logger("tripwright.app")

SHOW_MS = 15_000


def interrupted_line(run: RunStatus, last_event_at: datetime | None) -> str | None:
    """The one line for an interrupted run (None for any other outcome), in local time."""
    if not run.interrupted:
        return None
    when = (last_event_at or run.created_at).astimezone()
    step = node_name(run.latest_node).lower() if run.latest_node else "the start"
    return f"Last run interrupted while {step}, {when:%a %d %b %H:%M}"


async def show_last_run(window, workspace, trip_id: str) -> str | None:
    """Read the trip's last run off the GUI thread; show the line when it was interrupted."""
    try:
        found = await asyncio.to_thread(workspace.last_run, trip_id)
    except TripwrightError as exc:  # the trip itself is on screen: a missing notice is no error
        log.warning("last_run_unreadable", trip_id=trip_id, error=str(exc))
        return None
    line = interrupted_line(*found) if found is not None else None
    if line is not None and window.trip.trip_id == trip_id:
        window.progress.status_label.setText(line)
        window.show_status(line, SHOW_MS)
    return line
