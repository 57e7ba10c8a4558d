"""Run control: node memo (partial recompute) and checkpoints (cancellation: ``engine.cancel``)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

CHECKPOINTS_KEPT = 3


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
