"""The Group dock's controller: the open trip's ideas, chat, feedback and reactions through the
store (``app/group_room.py``, every call in a worker thread), the AI buttons' enabling rules, the
diff of the shown version, and a poll so teammates' additions appear without a restart (on
PostgreSQL, or a shared SQLite file): every ``POLL_MS`` the trip's change marker (row counts) is
read, and the dock reloads when it moved."""

from __future__ import annotations

import asyncio

import structlog
from PySide6.QtCore import QObject, QTimer
from qasync import asyncSlot

from engine.errors import TripwrightError
from engine.itinerary_diff import diff_itineraries

from .group_room import GroupRoom, GroupSnapshot

log = structlog.get_logger("tripwright.app.group")
POLL_MS = 3000  # the brief's "≤ 5 s"


class GroupService(QObject):
    def __init__(self, window, panel, reaction_bars) -> None:  # noqa: ANN001
        super().__init__(window)
        self.w, self.panel, self.bars = window, panel, reaction_bars
        self.room = GroupRoom(None)
        self.snapshot: GroupSnapshot | None = None
        self.busy = False  # a model run of this dock is in flight
        self._polling = False
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self.poll)
        p = panel
        p.ideas.idea_added.connect(self.add_idea)
        p.ideas.idea_reacted.connect(self.react_to_idea)
        p.chat.message_posted.connect(self.post)
        p.chat.import_chosen.connect(self.import_chat)
        p.feedback.feedback_sent.connect(self.send_feedback)
        for bar in reaction_bars:
            bar.reacted.connect(self.react)
        window.library.state_changed.connect(self.store_changed)

    # -- which trip --------------------------------------------------------------------------------
    @property
    def trip_id(self) -> str | None:
        return self.w.trip.trip_id if self.w.library.active else None

    @property
    def shown_number(self) -> int | None:
        current = self.w.trip.current
        return current.number if current is not None else None

    def store_changed(self) -> None:
        self.room.workspace = self.w.library.workspace
        if self.w.library.active:
            self.timer.start()
        else:
            self.timer.stop()
        self.trip_shown()

    def trip_shown(self) -> None:
        """The window shows another trip or version: reload the dock (off the GUI thread)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # a window driven without its qasync loop: nothing can be read
            return
        asyncio.ensure_future(self.refresh())

    # -- reading -----------------------------------------------------------------------------------
    async def refresh(self) -> GroupSnapshot | None:
        trip_id, number = self.trip_id, self.shown_number
        if trip_id is None or number is None:
            self.snapshot = None
            why = "Sign in to plan trips together." if not self.w.library.active else \
                "Open or plan a saved trip to plan it with your group."
            self.panel.show_empty(why)
            self.panel.changes.show_nothing("Open a trip: what each new version changed shows here.")
            for bar in self.bars:
                bar.setVisible(False)
            self.update_ai_state()
            return None
        snap = await self.call(self.room.snapshot, trip_id, number, quiet=True)
        if snap is None or (self.trip_id, self.shown_number) != (trip_id, number):
            return None  # failed (logged), or another trip/version is shown by now
        self._apply(snap)
        await self._show_diff(trip_id, number)
        return snap

    def _apply(self, snap: GroupSnapshot) -> None:
        self.snapshot = snap
        p = self.panel
        p.show_trip(self.w.trip.name or self.w.trip_title(), snap.version, snap.latest)
        p.ideas.set_ideas(snap.ideas)
        p.chat.set_messages(snap.chat)
        p.feedback.set_feedback(snap.version, snap.feedback)
        for bar in self.bars:
            bar.set_title(f"v{snap.version}:")
            bar.set_counts(snap.reactions)
            bar.setVisible(True)
        self.update_ai_state()

    async def _show_diff(self, trip_id: str, number: int) -> None:
        def compute():
            found = self.room.previous(trip_id, number)
            return None if found is None else (found[0], diff_itineraries(found[1], found[2]))
        done = await self.call(compute, quiet=True)
        if done is None:
            self.panel.changes.show_nothing(f"v{number} is the trip's first version: nothing to compare."
                                            if number == 1 else f"v{number} cannot be compared.")
        else:
            self.panel.changes.show_diff(done[1], done[0], number)

    def update_ai_state(self) -> None:
        snap, busy = self.snapshot, self.busy  # another run (the form's) is simply superseded, as by Plan
        running = (False, "The model is planning this trip")
        if snap is None:
            plan = running if busy else (True, "Plan the Trip form's request with the model")
            self.panel.set_ai_state(self.panel.status_label.text(), plan,
                                    (False, "Plan and save a trip first"))
            return
        capped = snap.llm_left == 0
        cap_reason = "The trip has as many model-made versions as allowed (TRIPWRIGHT_MAX_VERSIONS)"
        plan = running if busy else (False, cap_reason) if capped else \
            (True, "Plan this trip again with the model, from the form, the ideas and the chat brief")
        if busy:
            revise = running
        elif not snap.status.enabled:
            revise = (False, snap.status.label)
        elif capped:
            revise = (False, cap_reason)
        elif snap.version != snap.latest:
            revise = (False, f"Show the latest version (v{snap.latest}) to revise it")
        elif self.w.trip.current is not None and self.w.trip.current.mode == "road_trip":
            revise = (False, "The model does not revise road trips yet")
        else:
            revise = (True, f"Ask the model for v{snap.latest + 1} from {snap.status.label}")
        left = "no model-made version left" if capped else f"{snap.llm_left} model-made version(s) left"
        self.panel.set_ai_state(f"{snap.status.label} \u00b7 {left}", plan, revise)

    @asyncSlot()
    async def poll(self) -> None:
        trip_id = self.trip_id
        if trip_id is None or self._polling or self.snapshot is None:
            return
        self._polling = True
        try:
            marker = await self.call(self.room.marker, trip_id, quiet=True)
        finally:
            self._polling = False
        if marker is not None and self.snapshot is not None and marker != self.snapshot.marker \
                and trip_id == self.trip_id:
            await self.refresh()

    # -- writing -----------------------------------------------------------------------------------
    async def _write(self, fn, *args, done=None) -> object | None:
        trip_id = self.trip_id
        if trip_id is None:
            self.w.show_message("Open a saved trip first: ideas, chat and feedback belong to a trip.", "info")
            return None
        result = await self.call(fn, trip_id, *args)
        if result is not None:
            if done is not None:
                done()
            await self.refresh()
        return result

    @asyncSlot(str, int)
    async def add_idea(self, title: str, priority: int):
        return await self._write(self.room.add_idea, title, priority, done=self.panel.ideas.added)

    @asyncSlot(str, str)
    async def react_to_idea(self, idea_id: str, emoji: str):
        return await self._write(self.room.react_to_idea, idea_id, emoji)

    @asyncSlot(str)
    async def post(self, text: str):
        who = self.w.library.workspace.identity if self.w.library.active else None
        author = (who.display_name or who.email) if who is not None else ""  # teammates see who wrote
        return await self._write(self.room.post, text, author, done=self.panel.chat.posted)

    @asyncSlot(str)
    async def import_chat(self, path: str):
        done = await self._write(self.room.import_chat, path)
        if done is not None:
            again = f"; {done.known} already there" if done.known else ""
            self.w.show_status(f"Imported {done.added} {done.source} message(s) from {done.people} people{again}.",
                               10_000)
        return done

    @asyncSlot(str, int)
    async def send_feedback(self, text: str, rating: int):
        return await self._write(self.room.add_feedback, text, rating or None, self.shown_number,
                                 done=self.panel.feedback.sent)

    @asyncSlot(str)
    async def react(self, emoji: str):
        done = await self._write(self.room.react, emoji, self.shown_number)
        if done is not None and not done[1]:
            self.w.show_status(f"You had already reacted {emoji} to v{done[0]}.", 6000)
        return done

    async def call(self, fn, *args, quiet: bool = False):
        """``fn`` in a worker thread; a refusal (bad input, the store) is one line and None."""
        try:
            return await asyncio.to_thread(fn, *args)
        except TripwrightError as exc:
            text = " ".join(str(exc).split())
            log.warning("group_call_failed", call=getattr(fn, "__name__", "?"), error=text)
            if not quiet:
                self.w.show_message(text, "error")
            return None
