"""Planning off the GUI thread: the engine runs on one long-lived engine loop in its own thread
(a worker thread per run hands the run to it and waits) and reports back on the GUI loop
(``call_soon_threadsafe``), so the window never stalls.

Qt-free on purpose: the GUI passes its running loop (qasync's) and callbacks; tests use a plain
asyncio loop. One run at a time: starting a new run cancels the one in flight.

Cancel is immediate for the caller: the engine only checks its token between nodes (a cold
road-trip planner node can take seconds), so ``cancel()`` also settles the awaiting ``plan()``
at once with a ``cancelled`` result ending in a cancelled event. The worker stops at its next
node; whatever it reports after the cancel is dropped.
"""

from __future__ import annotations

import asyncio
import queue
import threading
import weakref
from datetime import datetime, timezone
from typing import Any, Callable

import structlog

from engine.cancel import CancelToken
from engine.frontend import settled_result
from engine.models import EventStatus, StreamEvent
from engine.pipeline import PlanningSession, PlanResult

EventSink = Callable[[Any], None]
CANCEL_NOTE = "cancelled by the user"


class _Run:
    """One run's hand-off state, touched only on the GUI loop."""

    def __init__(self, token: CancelToken, done: asyncio.Future, on_event: EventSink | None) -> None:
        self.token = token
        self.done = done
        self.on_event = on_event
        self.events: list[StreamEvent] = []

    def deliver(self, event: StreamEvent) -> None:
        if self.done.done():
            return  # cancelled (or finished): later reports of this run are dropped
        self.events.append(event)
        if self.on_event is not None:
            self.on_event(event)

    def settle(self, setter, value) -> None:
        if not self.done.done():
            setter(value)

    def cancel_now(self) -> None:
        """Settle the awaiting caller with a cancelled result built from the events so far."""
        if self.done.done():
            return
        last = self.events[-1] if self.events else None
        event = StreamEvent(trace_id=last.trace_id if last else "", run_id=last.run_id if last else "",
                            seq=len(self.events), node="responder", status=EventStatus.cancelled,
                            ts=datetime.now(timezone.utc), args_digest="", decision_note=CANCEL_NOTE,
                            progress_pct=last.progress_pct if last else 0)
        self.deliver(event)
        result = settled_result(run_id=event.run_id, trace_id=event.trace_id, status="cancelled",
                                events=list(self.events))
        self.done.set_result(result)


class PlannerService:
    def __init__(self, session: PlanningSession, gui_loop: asyncio.AbstractEventLoop) -> None:
        self.session = session
        self.gui_loop = gui_loop
        self._run: _Run | None = None
        self._lock = threading.Lock()  # a PlanningSession is used by one run at a time
        self.worker: threading.Thread | None = None  # the one planner thread, started on first use
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._pending: list[threading.Event] = []
        self._engine_loop: asyncio.AbstractEventLoop | None = None

    def engine_loop(self) -> asyncio.AbstractEventLoop:
        """The one long-lived loop every run executes on (started on first use): the HTTP client,
        rate limiters and breakers of the real tools live on it across runs."""
        if self._engine_loop is None:
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="tripwright-engine-loop", daemon=True)
            thread.start()
            self._engine_loop = loop
            self._stop_engine = weakref.finalize(self, _stop_loop, loop, thread)  # also at exit
        return self._engine_loop

    def shutdown(self, timeout: float = 5.0) -> None:
        """Close the engine loop's HTTP client and stop the loop (at app exit)."""
        loop, self._engine_loop = self._engine_loop, None
        if loop is None:
            return
        closing = asyncio.run_coroutine_threadsafe(self.session.toolbox.network.aclose(), loop)
        try:
            closing.result(timeout)
        finally:
            self._stop_engine()

    @property
    def running(self) -> bool:
        return any(not done.is_set() for done in self._pending)

    def join(self, timeout: float | None = None) -> bool:
        """Wait for every job handed to the planner thread; True when none is left."""
        for done in list(self._pending):
            done.wait(timeout)
        self._pending = [d for d in self._pending if not d.is_set()]
        return not self._pending

    def _start(self, work) -> threading.Event:
        """Queue ``work`` for the planner thread; the returned event is set when it has run.
        One long-lived thread, not one per plan: ``Thread.start()`` blocks the GUI thread until the
        new thread gets the GIL, 80–120 ms while the engine loop is busy (a drag's re-plan)."""
        if self.worker is None:
            self.worker = threading.Thread(target=_serve, args=(self._jobs,), name="tripwright-planner", daemon=True)
            self.worker.start()
            weakref.finalize(self, self._jobs.put, None)  # the thread ends with its service
        self._pending = [d for d in self._pending if not d.is_set()]
        done = threading.Event()
        self._pending.append(done)
        self._jobs.put((work, done))
        return done

    async def warm_up(self, fn: Callable[[], Any]) -> None:
        """Run ``fn`` (loading the engine's lazy data: gazetteer, time zones) in a worker thread,
        one at a time with planning runs, so the first plan does not pay for it on the clock and
        the GUI thread never competes with two busy threads. Failures are the first plan's to report."""
        done: asyncio.Future = self.gui_loop.create_future()

        def work() -> None:
            with self._lock:
                try:
                    fn()
                except Exception:  # noqa: BLE001 — a warm-up is only a head start
                    structlog.get_logger(__name__).debug("warm_up_failed", exc_info=True)
            try:
                self.gui_loop.call_soon_threadsafe(lambda: done.done() or done.set_result(None))
            except RuntimeError:
                pass

        self._start(work)
        await done

    def cancel(self) -> None:
        """Settle the current ``plan()`` as cancelled now; the engine stops at its next node.
        Call on the GUI loop's thread."""
        run = self._run
        if run is not None:
            run.token.cancel()
            run.cancel_now()

    async def on_engine(self, coro) -> Any:
        """Await ``coro`` on the engine loop: a model's client lives there (the chat brief before a
        run, closing the client after one)."""
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.engine_loop()))

    async def plan(self, intent, *, on_event: EventSink | None = None, edits=None,
                   run_id: str | None = None, drafter=None) -> PlanResult:
        self.cancel()
        token = CancelToken()
        run = self._run = _Run(token, self.gui_loop.create_future(), on_event)

        def post(callback, *args) -> None:
            try:
                self.gui_loop.call_soon_threadsafe(callback, *args)
            except RuntimeError:  # the GUI loop closed while the worker finished: nobody is waiting
                pass

        def work() -> None:
            with self._lock:
                if token.cancelled:
                    return
                try:
                    result = asyncio.run_coroutine_threadsafe(self.session.plan(
                        intent, on_event=lambda e: post(run.deliver, e), cancel=token, edits=edits, run_id=run_id,
                        drafter=drafter),
                        self.engine_loop()).result()
                except BaseException as exc:  # noqa: BLE001 — handed to the awaiting coroutine
                    post(run.settle, run.done.set_exception, exc)
                else:
                    post(run.settle, run.done.set_result, result)

        self._start(work)
        try:
            return await run.done
        finally:
            if self._run is run:
                self._run = None


def _stop_loop(loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
    if not loop.is_closed():
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


def _serve(jobs: queue.SimpleQueue) -> None:
    """The planner thread: queued jobs in order, until the ``None`` its service's finalizer sends."""
    while (job := jobs.get()) is not None:
        work, done = job
        try:
            work()  # plan and warm-up jobs hand their own errors on; anything else must not end the thread
        except Exception:  # noqa: BLE001
            structlog.get_logger(__name__).exception("planner_job_failed")
        finally:
            done.set()
