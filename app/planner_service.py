"""Planning off the GUI thread: the engine runs in a worker thread with its own event loop and
reports back on the GUI loop (``call_soon_threadsafe``), so the window never stalls.

Qt-free on purpose: the GUI passes its running loop (qasync's) and callbacks; tests use a plain
asyncio loop. One run at a time: starting a new run cancels the one in flight.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Callable

from engine.pipeline import CancelToken, PlanningSession
from engine.pipeline.run import PlanResult

EventSink = Callable[[Any], None]


class PlannerService:
    def __init__(self, session: PlanningSession, gui_loop: asyncio.AbstractEventLoop) -> None:
        self.session = session
        self.gui_loop = gui_loop
        self._token: CancelToken | None = None
        self._lock = threading.Lock()  # a PlanningSession is used by one run at a time
        self.worker: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self.worker is not None and self.worker.is_alive()

    def cancel(self) -> None:
        """Stops the current run at its next node boundary (within a few milliseconds)."""
        if self._token is not None:
            self._token.cancel()

    async def plan(self, intent, *, on_event: EventSink | None = None, edits=None) -> PlanResult:
        self.cancel()
        token = self._token = CancelToken()
        done: asyncio.Future = self.gui_loop.create_future()

        def deliver(event) -> None:
            if on_event is not None:
                self.gui_loop.call_soon_threadsafe(on_event, event)

        def settle(setter, value) -> None:
            if not done.done():
                setter(value)

        def work() -> None:
            with self._lock:
                try:
                    result = asyncio.run(self.session.plan(intent, on_event=deliver, cancel=token, edits=edits))
                except BaseException as exc:  # noqa: BLE001 — handed to the awaiting coroutine
                    self.gui_loop.call_soon_threadsafe(settle, done.set_exception, exc)
                else:
                    self.gui_loop.call_soon_threadsafe(settle, done.set_result, result)

        self.worker = threading.Thread(target=work, name="tripwright-planner", daemon=True)
        self.worker.start()
        return await done
