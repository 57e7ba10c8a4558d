"""Run control: cancellation, node memo (partial recompute) and checkpoints."""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Awaitable, TypeVar

from engine.errors import PlanCancelled

T = TypeVar("T")

CHECKPOINTS_KEPT = 3


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


@dataclass
class NodeMemo:
    """Node outputs keyed by (node, input digest); counts reuse per run."""

    store: dict[tuple[str, Any], Any] = field(default_factory=dict)
    hits: int = 0
    misses: int = 0
    limit: int = 512

    def get(self, node: str, key: Any) -> tuple[bool, Any]:
        found = (node, key) in self.store
        self.hits += found
        self.misses += not found
        return found, self.store.get((node, key))

    def count(self, hits: int, misses: int) -> None:
        """Sub-nodes run inside a node (tool calls) count towards reuse too."""
        self.hits += hits
        self.misses += misses

    def put(self, node: str, key: Any, value: Any) -> None:
        if len(self.store) >= self.limit:
            self.store.pop(next(iter(self.store)))
        self.store[(node, key)] = value

    def reset_counts(self) -> None:
        self.hits = self.misses = 0

    @property
    def reuse(self) -> float:
        total = self.hits + self.misses
        return self.hits / total if total else 0.0


@dataclass(frozen=True)
class Checkpoint:
    node: str
    digest: str
    snapshot: Any


class Checkpoints:
    """The last three snapshots of a run (after planner, selector, verifier; before responder)."""

    def __init__(self) -> None:
        self._items: deque[Checkpoint] = deque(maxlen=CHECKPOINTS_KEPT)

    def save(self, node: str, digest: str, snapshot: Any) -> None:
        self._items.append(Checkpoint(node, digest, snapshot))

    def last(self) -> Checkpoint | None:
        return self._items[-1] if self._items else None

    def all(self) -> list[Checkpoint]:
        return list(self._items)
