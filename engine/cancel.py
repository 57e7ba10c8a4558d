"""Cancelling long work from any thread: the planner's runs, a city pack's fetch, an offline map's
download. A :class:`CancelToken` is checked between steps and cancels an awaited step at once."""

from __future__ import annotations

import asyncio
import threading
from typing import Awaitable, TypeVar

from engine.errors import PlanCancelled

T = TypeVar("T")


class CancelToken:
    """Checked between nodes; a long await inside one (a model call) is cancelled at once through
    :meth:`interruptible`. ``cancel()`` may come from any thread (the app's GUI thread)."""

    def __init__(self) -> None:
        self._cancelled = False
        self._lock = threading.Lock()
        self._waiting: set[tuple[asyncio.AbstractEventLoop, asyncio.Future]] = set()

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            waiting = list(self._waiting)
        for loop, task in waiting:  # the task's own loop cancels it (and its HTTP request)
            try:
                loop.call_soon_threadsafe(task.cancel)
            except RuntimeError:  # that loop is closed: nothing left to stop
                pass

    async def interruptible(self, awaitable: Awaitable[T]) -> T:
        """Await ``awaitable`` as a task that :meth:`cancel` cancels; then ``PlanCancelled``."""
        self.raise_if_cancelled()
        task = asyncio.ensure_future(awaitable)
        entry = (asyncio.get_running_loop(), task)
        with self._lock:
            self._waiting.add(entry)
            if self._cancelled:  # cancel() came between the check above and the registration
                task.cancel()
        try:
            return await task
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if self._cancelled and not (current is not None and current.cancelling()):
                raise PlanCancelled("planning was cancelled") from None
            raise  # the caller itself is being cancelled: let that through
        finally:
            with self._lock:
                self._waiting.discard(entry)

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def raise_if_cancelled(self) -> None:
        if self._cancelled:
            raise PlanCancelled("planning was cancelled")
