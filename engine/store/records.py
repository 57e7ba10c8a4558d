"""What the store hands out: frozen pydantic values, never ORM objects (ARCHITECTURE)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..models import IntentV1, ItineraryV1, PlanV1

TripMode = Literal["city", "road_trip", "multi_city"]
RunState = Literal["running", "completed", "error", "cancelled"]


class Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TripSummary(Record):
    trip_id: str
    name: str
    mode: TripMode
    created_by: str
    created_at: datetime
    updated_at: datetime
    deleted: bool
    version_count: int


class VersionSummary(Record):
    """A version without its documents: enough for lists, diffs of totals and the UI."""

    trip_id: str
    number: int
    status: str
    total_usd_cents: int | None
    day_count: int
    blocking_count: int
    advisory_count: int
    run_id: str | None
    created_by: str
    created_at: datetime
    note: str = ""  # what made this version (the app's undo label); "" when not given
    based_on: int | None = None  # the version it was made from; None for a first one and older rows

    @property
    def parent(self) -> int | None:
        return parent_number(self.number, self.based_on)


def parent_number(number: int, based_on: int | None) -> int | None:
    """The version ``number`` was made from. Versions saved before the store recorded it
    (``based_on`` None) are read as made from the one before them, as they were shown then."""
    if based_on is not None:
        return based_on
    return number - 1 if number > 1 else None


class VersionLink(Record):
    """The least a reopened trip needs of each version: where it sits in the history, its label."""

    number: int
    based_on: int | None
    note: str

    @property
    def parent(self) -> int | None:
        return parent_number(self.number, self.based_on)


class Version(VersionSummary):
    intent: dict[str, Any]
    itinerary: dict[str, Any]
    repairs: list[Any]
    llm_meta: dict[str, Any]
    plan: dict[str, Any] | None = None  # the PlanV1 as JSON; None for road trips and older versions

    @property
    def llm_revision(self) -> bool:
        """Made by an LLM (counts towards MAX_VERSIONS); deterministic re-plans are not."""
        return bool(self.llm_meta)

    def plan_v1(self) -> PlanV1 | None:
        """The plan the next edit starts from (a reopened city trip stays editable)."""
        return PlanV1.model_validate(self.plan) if self.plan is not None else None

    def itinerary_v1(self) -> ItineraryV1:
        """The city itinerary contract (road-trip itineraries are validated by their own model)."""
        return ItineraryV1.model_validate(self.itinerary)

    def intent_v1(self) -> IntentV1:
        return IntentV1.model_validate(self.intent)


class TripDetail(Record):
    """What opening a trip shows: the trip, its versions (newest last) and the latest in full."""

    trip: TripSummary
    versions: list[VersionSummary]
    latest: Version | None
    members: list[str]


class DayChange(Record):
    date: str
    change: Literal["added", "removed", "changed"]
    detail: str = ""


class VersionDiff(Record):
    trip_id: str
    from_number: int
    to_number: int
    days_added: list[str]
    days_removed: list[str]
    days_changed: list[DayChange]
    cost_delta_usd_cents: int | None
    violations_added: list[str]
    violations_removed: list[str]

    @property
    def unchanged(self) -> bool:
        return not (self.days_added or self.days_removed or self.days_changed or self.violations_added
                    or self.violations_removed or self.cost_delta_usd_cents)


class Checkpoint(Record):
    node: str
    digest: str
    snapshot: Any


class RunStatus(Record):
    """The polling fallback: what the UI shows for a run after a restart (SPEC_DECISIONS §1)."""

    run_id: str
    trip_id: str | None
    trace_id: str
    status: RunState
    progress_pct: int = Field(ge=0, le=100)
    latest_node: str
    error_message: str
    cost_micro_usd: int
    created_at: datetime
    updated_at: datetime
    completed_at: datetime | None

    @property
    def interrupted(self) -> bool:
        """Left ``running`` by a process that died, and failed as such at the next start."""
        return self.status == "error" and self.error_message.startswith("interrupted")


class RunDetail(RunStatus):
    intent: dict[str, Any]
    checkpoints: list[Checkpoint]
    tool_log: list[Any] | None


class IdempotencyHit(Record):
    key: str
    status: Literal["pending", "completed", "error"]
    run_id: str | None
    version_number: int | None


class AuditRecord(Record):
    ts: datetime
    org_id: str
    user_id: str | None
    action: str
    target_type: str
    target_id: str
    detail: dict[str, Any]



class NoteItem(Record):
    """One imported note (destination notes, issue 13) without its text."""

    item_id: str
    destination: str
    title: str
    source_kind: str  # file | pasted | tripwright
    source_name: str
    created_by: str
    created_at: datetime
    deleted: bool
    chunk_count: int
    metadata: dict[str, Any] = Field(default_factory=dict)


class NoteChunk(Record):
    chunk_id: str
    item_id: str
    destination: str
    ordinal: int
    text: str
    token_count: int
    title: str
    source_kind: str
    source_name: str


class NoteVectors(Record):
    chunk_ids: list[str]
    blobs: list[bytes]


MAX_NAME = 200  # a trip's name, in characters


def trip_name_for(intent: Any) -> str:
    """"Paris, 5 days", "Los Angeles → Chicago via Route 66, 7 days" or "Lisbon → Porto, 6 days"."""
    days = f"{intent.days} day{'s' if intent.days != 1 else ''}"
    if intent.mode == "road_trip":
        via = f" via {intent.route}" if intent.route else ""
        name = f"{intent.origin} → {intent.terminus}{via}, {days}"
    elif intent.mode == "multi_city":
        name = f"{' → '.join(s.city for s in intent.stays)}, {days}"
    else:
        name = f"{intent.city}, {days}"
    return name if len(name) <= MAX_NAME else name[:MAX_NAME - 1] + "…"
