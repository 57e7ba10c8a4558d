"""The window's saved trips: signing in, the org's trip list, saving every version and run as it
happens, and reopening the trip that was open when the app closed.

Every database call goes through ``asyncio.to_thread`` (app/workspace.py is synchronous and
thread-safe), so the GUI thread never waits on the disk, the network or Argon2. Without a usable
store (a locked or corrupt file, an unreachable server, nobody signed in) the app keeps working
in memory and says so in the status bar; nothing the user has open is lost.
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import structlog
from PySide6.QtCore import QObject, QTimer, Signal
from qasync import asyncSlot

from engine.errors import TripwrightError, one_line
from widgets.trip_list_model import dated_trip_name

from .run_notice import show_last_run
from .trip_session import TripVersion

if TYPE_CHECKING:
    from .workspace import Workspace

log = structlog.get_logger("tripwright.app.library")
EVENT_BATCH = 16  # events written together while a run streams (one short transaction each)
PRUNE_EVERY_MS = 24 * 3600 * 1000  # retention runs at start-up (Workspace.start) and then daily


@dataclass
class Recording:
    """One planning run as it is being written to the store."""

    ticket: object
    trip_id: str
    created_trip: bool
    based_on: int | None = None  # the stored version the run started from (its parent in the history)
    pending: list = field(default_factory=list)
    writes: list[asyncio.Task] = field(default_factory=list)


@dataclass(frozen=True)
class Reused:
    """The same request was planned moments ago: its stored version, shown instead of a new run."""

    trip_id: str
    number: int | None  # None while that run is still in flight


class TripLibrary(QObject):
    state_changed = Signal()  # signed in or out, the store opened or failed

    def __init__(self, window, *, url: str | None = None, enabled: bool = True,
                 prune_every_ms: int = PRUNE_EVERY_MS) -> None:
        super().__init__(window)
        self.w = window
        self.url = url
        self.enabled = enabled
        self.workspace: Workspace | None = None
        self.problem = ""  # why trips are not being saved, when they are not
        self.login_dialog = None
        self.ready = False  # start() has done all it does without the user (tests and the bench wait for it)
        self._shown: tuple[str | None, int | None] | None = None  # the trip and version to remember
        self._remembering: asyncio.Future | None = None
        # Daily retention while the app runs (started with the store). No Qt parent: QTimer(self)
        # crashed in PySide6 here, inside this QObject's __init__; close() stops it.
        self.prune_timer = QTimer()
        self.prune_timer.setInterval(prune_every_ms)
        self.prune_timer.timeout.connect(self.prune)
        self.last_prune = None  # the latest daily PruneReport (start-up's is logged by Workspace.start)

    @property
    def active(self) -> bool:
        return self.workspace is not None and self.workspace.signed_in

    # -- start-up and accounts -----------------------------------------------------------------
    @asyncSlot()
    async def start(self) -> None:
        """Open the store, sign in (or ask to), then list the trips and reopen the last one."""
        if not self.enabled or self.workspace is not None:
            return
        try:
            self.workspace = await asyncio.to_thread(_start_workspace, self.url, self.w.secrets)
        except TripwrightError as exc:
            self._unavailable(one_line(exc))
        else:
            self.prune_timer.start()
            self.state_changed.emit()
            if self.workspace.signed_in:
                await self._after_sign_in()
            else:
                self.ask_login()
            if self.workspace.store.recovery:  # a damaged database was replaced by a backup
                self.w.show_message(f"Trips: {self.workspace.store.recovery}", "warning")
            self.state_changed.emit()
        self.ready = True
        self.state_changed.emit()  # the window leaves its "Opening…" state

    @asyncSlot()
    async def prune(self) -> None:
        """The retention policy, off the GUI thread (the timer's daily tick)."""
        if self.workspace is None:
            return
        report = await self._call(self.workspace.prune, quiet=True)
        if report is not None:
            self.last_prune = report

    def _unavailable(self, problem: str) -> None:
        self.problem = problem
        self.w.show_message(f"Trips are not being saved: {problem}", "warning")
        self.state_changed.emit()

    def ask_login(self) -> None:
        from .login_dialog import LoginDialog

        if self.workspace is None:
            return
        if self.login_dialog is not None:
            self.login_dialog.raise_()
            return
        dialog = LoginDialog(self.workspace.accounts, parent=self.w)
        dialog.logged_in.connect(self._logged_in)
        dialog.cancelled.connect(self._login_cancelled)
        self.login_dialog = dialog
        self.problem = "sign in to see and save the org's trips"
        dialog.show()

    @asyncSlot(object)
    async def _logged_in(self, login) -> None:
        self.login_dialog = None
        await asyncio.to_thread(self.workspace.sign_in, login)
        self.problem = ""
        await self._after_sign_in()
        self.state_changed.emit()

    def _login_cancelled(self) -> None:
        self.login_dialog = None
        self.w.show_message("Not signed in: trips are planned but not saved. Sign in from the File menu.", "info")
        self.state_changed.emit()

    def _use_tool_cache(self, ws) -> None:
        """Real tool answers (weather, geocoding) are kept in the signed-in org's tool cache."""
        from engine.tools.durable_cache import StoreToolCache
        executor = self.w.planning.toolbox.executor
        executor.durable = StoreToolCache(ws.store, ws.ctx) if ws is not None and ws.ctx is not None else None
        self.w.planning.org_id = ws.ctx.org_id if ws is not None and ws.ctx is not None else None
        self.w.planning.user_id = ws.ctx.user_id if ws is not None and ws.ctx is not None else None

    @asyncSlot()
    async def sign_out(self) -> None:
        if not self.active:
            return
        self.w.new_trip()
        await asyncio.to_thread(self.workspace.sign_out)
        self._use_tool_cache(None)
        self.w.trip_list.set_trips([])
        self.state_changed.emit()
        self.ask_login()

    async def _after_sign_in(self) -> None:
        ws = self.workspace
        self._use_tool_cache(ws)
        if ws.keyring_warning:
            self.w.show_message(f"Remember-me: {ws.keyring_warning}", "warning")
        if ws.maintenance:
            self.w.show_status(f"Store: {ws.maintenance}", 10_000)
        await self.refresh()
        if self.w.trip.current is None:
            await self.reopen_last()

    # -- the list ------------------------------------------------------------------------------
    async def refresh(self) -> None:
        if not self.active:
            return
        listing = await self._call(self.workspace.list_trips)
        if listing is not None:
            self.w.trip_list.set_trips(listing.trips, listing.latest)
            self.w.trip_list.set_current(self.w.trip.trip_id)

    async def reopen_last(self) -> None:
        last = await self._call(self.workspace.last_open)
        if last:
            await self.open_trip(*last, quiet=True)

    @asyncSlot(str)
    async def open_requested(self, trip_id: str) -> None:
        await self.open_trip(trip_id)

    async def open_trip(self, trip_id: str, number: int | None = None, *, quiet: bool = False) -> bool:
        """Show the trip at version ``number`` (the latest when None) with the undo history the
        user had; only that version is loaded now, the others when undo/redo reaches them."""
        opened = await self._call(self.workspace.open_trip, trip_id, number, quiet=quiet)
        if opened is None or not opened.session.versions:
            return False
        self.w.controller.cancel()
        self.w.trip.replace_with(opened.session)
        version = self.w.trip.current
        self.w.show_version(version)
        self.w.progress.replay(version.events)
        self.w.trip_list.set_current(trip_id)
        self.w.diagnostics.refresh(version.events, self.w.planning.toolbox.executor.stats,
                                     self.w.planning.toolbox.executor.breaker_states())
        self.w.show_status(f"Opened \u201c{opened.summary.name}\u201d ({self.w.trip.label()})", 10_000)
        self.remember_shown()
        await show_last_run(self.w, self.workspace, trip_id)
        return True

    async def load_version(self, trip_id: str, number: int) -> TripVersion | None:
        """A version of the open trip that undo/redo reached, read off the GUI thread."""
        if not self.active:
            return None
        return await self._call(self.workspace.load_version, trip_id, number)

    @asyncSlot(str, str)
    async def rename_requested(self, trip_id: str, name: str) -> None:
        summary = await self._call(self.workspace.rename, trip_id, name)
        if summary is not None and self.w.trip.trip_id == trip_id:
            self.w.trip.name = summary.name
        await self.refresh()  # also puts the old name back when the store refused

    @asyncSlot(str)
    async def delete_requested(self, trip_id: str) -> None:
        summary = await self._call(self.workspace.delete, trip_id)
        if summary is None:
            return
        self.w.trip_list.show_deleted(summary)
        if self.w.trip.trip_id == trip_id:
            self.w.new_trip()
        await self.refresh()

    @asyncSlot(str)
    async def restore_requested(self, trip_id: str) -> None:
        if await self._call(self.workspace.restore, trip_id) is not None:
            await self.refresh()

    def remember_shown(self) -> None:
        """Persist which trip and version is on screen (the next start reopens it)."""
        if not self.active:
            return
        current = self.w.trip.current
        self._shown = (self.w.trip.trip_id, current.number if current is not None else None)
        if self._remembering is None or self._remembering.done():
            self._remembering = asyncio.ensure_future(self._write_shown())

    async def _write_shown(self) -> None:
        """One writer at a time, always ending on the newest shown version: two writes racing in
        the thread pool (undo then redo in quick succession) could otherwise land out of order."""
        written = None
        while self._shown != written:
            written = self._shown
            await asyncio.to_thread(self.workspace.remember_open, *written)

    def remember_on_close(self) -> None:
        """The window is closing: write the shown version now (a write still queued for the
        thread pool might never run once the loop stops)."""
        if self.active and self._shown is not None:
            self.workspace.remember_open(*self._shown)

    # -- recording runs ----------------------------------------------------------------------------
    async def begin(self, intent, *, new_trip: bool, request_key: str | None) -> Recording | Reused | None:
        """Start recording a run (creating the trip when ``new_trip``); a :class:`Reused` when the
        same request on the same trip was planned within the idempotency window."""
        if not self.active:
            return None
        trip_id = None if new_trip else self.w.trip.trip_id
        base = self.w.trip.current.number if trip_id is not None and self.w.trip.current is not None else None
        name = dated_trip_name(intent) if trip_id is None else None  # the Trips list tells trips apart by date
        ticket = await self._call(self.workspace.recorder.begin, intent, trip_id=trip_id, trip_name=name,
                                  request_key=request_key)
        if ticket is None:
            return None
        if ticket.duplicate is not None:
            return Reused(ticket.trip_id, ticket.duplicate.number)
        if ticket.duplicate_pending:
            return Reused(ticket.trip_id, None)
        return Recording(ticket, ticket.trip_id, created_trip=trip_id is None, based_on=base)

    def event(self, recording: Recording | None, event) -> None:
        """Called on the GUI thread for each streamed event; written in batches off it."""
        if recording is None:
            return
        recording.pending.append(event)
        if len(recording.pending) >= EVENT_BATCH:
            self._write_events(recording)

    def _write_events(self, recording: Recording) -> None:
        batch, recording.pending = recording.pending, []
        recording.writes.append(asyncio.ensure_future(
            self._call(self.workspace.recorder.record_events, recording.ticket, batch, quiet=True)))

    async def finish(self, recording: Recording | None, result, intent, version: TripVersion, *,
                     llm_meta: dict | None = None) -> TripVersion:
        """Write the rest of the run and, when it completed, the version; returns ``version``
        with its stored number (unchanged when nothing could be saved)."""
        if recording is None:
            return version
        if recording.pending:
            self._write_events(recording)
        await asyncio.gather(*recording.writes)
        saved = await self._call(self.workspace.recorder.finish, recording.ticket, result, intent=intent,
                                 note=version.edit, based_on=recording.based_on, llm_meta=llm_meta)
        if saved is None:
            return version
        return replace(version, number=saved.number)

    async def abandon(self, recording: Recording | None, result, *, error: str = "") -> None:
        """A run that ended without a version (cancelled, failed, superseded) is closed as such."""
        if recording is None:
            return
        if recording.pending:
            self._write_events(recording)
        await asyncio.gather(*recording.writes)
        await self._call(self.workspace.recorder.abandon, recording.ticket, result, error=error, quiet=True)

    def audit(self, action: str, **detail) -> None:
        """Settings and key changes go to the org's audit log (never a secret: the callers see to it)."""
        if self.active:
            asyncio.ensure_future(self._call(self.workspace.audit, action, quiet=True, **detail))

    def adopt(self, recording: Recording | None) -> None:
        """The run's version is now the session's: name the session after the stored trip."""
        if recording is None:
            return
        self.w.trip.trip_id = recording.trip_id
        asyncio.ensure_future(self.refresh())
        self.remember_shown()

    def close(self) -> None:
        """Let go of the database (connections still in use finish their work first)."""
        self.prune_timer.stop()
        if self.workspace is not None:
            self.workspace.close()

    # -- helpers ---------------------------------------------------------------------------------
    async def _call(self, fn, *args, quiet: bool = False, **kwargs):
        """``fn`` in a worker thread; a store failure is one line in the message bar and None."""
        try:
            return await asyncio.to_thread(fn, *args, **kwargs)
        except TripwrightError as exc:
            text = one_line(exc)
            log.warning("store_call_failed", call=getattr(fn, "__name__", "?"), error=text)
            if not quiet:
                self.w.show_message(text, "error")
            return None


def _start_workspace(url: str | None, secrets):
    """In a worker thread: importing the store (SQLAlchemy, Alembic, Argon2) takes about a second,
    which the window does not wait for."""
    from .workspace import Workspace

    return Workspace.start(url, secrets)


def replan_key() -> str:
    """Re-plan is an explicit request to run again: never answered from the idempotency window."""
    return uuid.uuid4().hex
