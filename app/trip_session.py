"""The open trip, in memory: its intent and a linear history of planned versions with undo/redo.

Qt-free and engine-typed on purpose: a version is what a trip version row holds (intent,
itinerary, the plan the next edit starts from, the run's summary and events, and what the user
did to get there). When the app is signed in to the store, ``trip_id`` names the trip's row and
each version carries its stored ``number`` (app/workspace.py loads and saves them).

Undo/redo move a pointer; a new version after an undo drops the versions after the pointer (as
every editor does). The session outlives the window: a new ``MainWindow`` given the same
``TripSession`` shows the open trip again.

A trip reopened from the store has only its shown version loaded; the others on its undo line
are :class:`UnloadedVersion` (number and label) until undo/redo reaches them and the controller
loads them (``fill``). The shown version (``current``) is always a full :class:`TripVersion`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.models import IntentV1, ItineraryV1, PlanV1, RoadTripIntent, StreamEvent

Intent = IntentV1 | RoadTripIntent


@dataclass(frozen=True)
class RunSummary:
    """What a version's planning run came to, in plain values."""

    run_id: str
    status: str  # completed | error | cancelled
    events: int
    total_usd_cents: int
    violations: int  # advisory violations left in the itinerary
    reuse: float  # share of pipeline nodes answered from the memo

    @classmethod
    def of(cls, result: Any) -> "RunSummary":
        itinerary = result.itinerary
        return cls(run_id=result.run_id, status=result.status, events=len(result.events),
                   total_usd_cents=itinerary.cost_breakdown.total_usd_cents if itinerary else 0,
                   violations=len(itinerary.violations) if itinerary else 0, reuse=float(result.reuse))


@dataclass(frozen=True)
class TripVersion:
    intent: Intent
    itinerary: ItineraryV1
    plan: PlanV1 | None  # city trips: the plan the next edit starts from; road trips: None
    summary: RunSummary
    edit: str  # what made this version, e.g. "Planned" or "Locked Louvre"
    events: tuple[StreamEvent, ...] = ()
    number: int | None = None  # the stored version's number; None when not saved

    @property
    def mode(self) -> str:
        return self.intent.mode

    @classmethod
    def of(cls, result: Any, intent: Intent, edit: str) -> "TripVersion":
        return cls(intent=intent, itinerary=result.itinerary, plan=result.plan, summary=RunSummary.of(result),
                   edit=edit, events=tuple(result.events))


@dataclass(frozen=True)
class UnloadedVersion:
    """A stored version on a reopened trip's undo line, not loaded until undo/redo reaches it."""

    number: int
    edit: str


@dataclass
class TripSession:
    """One open trip: the versions planned so far and which one is shown."""

    versions: list[TripVersion | UnloadedVersion] = field(default_factory=list)
    pointer: int = -1  # index of the shown version; -1 when nothing has been planned
    trip_id: str | None = None  # the stored trip; None until its first version is saved
    name: str = ""  # the stored trip's name
    changes: int = 0  # bumped when the history is replaced or cut: a load started before is stale
    stored_count: int = 0  # how many versions the stored trip has (undone branches too), as the Trips list says

    @property
    def current(self) -> TripVersion | None:
        return self.versions[self.pointer] if self.pointer >= 0 else None  # type: ignore[return-value]

    @property
    def intent(self) -> Intent | None:
        current = self.current
        return current.intent if current is not None else None

    @property
    def can_undo(self) -> bool:
        return self.pointer > 0

    @property
    def can_redo(self) -> bool:
        return self.pointer < len(self.versions) - 1

    def push(self, version: TripVersion) -> TripVersion:
        """Make ``version`` the current one; versions after the pointer (undone ones) are dropped."""
        del self.versions[self.pointer + 1:]
        self.versions.append(version)
        self.pointer = len(self.versions) - 1
        if version.number is not None:  # stored numbers count up: the newest is the trip's count
            self.stored_count = max(self.stored_count, version.number)
        self.changes += 1
        return version

    def step(self, delta: int, start: int | None = None) -> int | None:
        """Index ``delta`` versions away from ``start`` (the shown one), None past either end."""
        index = (self.pointer if start is None else start) + delta
        return index if self.versions and 0 <= index < len(self.versions) else None

    def is_loaded(self, index: int) -> bool:
        return isinstance(self.versions[index], TripVersion)

    def fill(self, index: int, version: TripVersion) -> None:
        """Put the loaded ``version`` in place of the unloaded one it was read for."""
        entry = self.versions[index]
        if isinstance(entry, UnloadedVersion) and entry.number == version.number:
            self.versions[index] = version

    def move_to(self, index: int) -> TripVersion:
        """Show the version at ``index`` (loaded: the shown version is always a full one)."""
        version = self.versions[index]
        if not isinstance(version, TripVersion):
            raise ValueError(f"version {version.number} is not loaded yet")
        self.pointer = index
        return version

    def undo(self) -> TripVersion | None:
        """Back one version, when it is loaded (else see ``step``/``fill``)."""
        index = self.step(-1)
        return self.move_to(index) if index is not None and self.is_loaded(index) else None

    def redo(self) -> TripVersion | None:
        index = self.step(1)
        return self.move_to(index) if index is not None and self.is_loaded(index) else None

    def clear(self) -> None:
        """New trip: forget every version (the stored trip, if any, stays in the store)."""
        self.versions.clear()
        self.pointer = -1
        self.trip_id, self.name, self.stored_count = None, "", 0
        self.changes += 1

    def replace_with(self, other: "TripSession") -> None:
        """Show another trip (opened from the store) in this session, keeping its identity."""
        self.versions[:] = other.versions
        self.pointer, self.trip_id, self.name = other.pointer, other.trip_id, other.name
        self.stored_count = other.stored_count
        self.changes += 1

    def label(self) -> str:
        """``"v3/3"``: the shown version's stored number out of the trip's stored versions — the
        numbers the Trips list shows, undone branches included; in memory, the position in the
        undo history ("" before the first plan)."""
        current = self.current
        if current is not None and current.number is not None and self.stored_count:
            return f"v{current.number}/{self.stored_count}"
        return f"v{self.pointer + 1}/{len(self.versions)}" if self.versions else ""
