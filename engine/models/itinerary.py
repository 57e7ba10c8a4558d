"""ItineraryV1: what the user gets (seed §3.6 + the output fields of SPEC_DECISIONS §3)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal, Union

from pydantic import AwareDatetime, Field, SerializerFunctionWrapHandler, model_serializer, model_validator

from .common import ChoiceKind, Geo, Provenance, TimeWindow, Value
from .intent import IntentV1
from .multi_city import MultiCityIntent, PlannedLeg
from .repair import RepairDiff
from .road_trip import Anchor, Drive, RoadTripIntent
from .violations import Violation

SCHEMA_VERSION = "1.0"
DISCLAIMER = "Prices and times are estimates; verify before booking."


class Activity(Value):
    id: str
    ref: str = ""  # the option it books: venue, hotel or flight id ("" for transfers)
    role: str = ""  # arrival | checkin | activity | meal | checkout | departure | transfer | omitted
    window: TimeWindow
    kind: ChoiceKind
    name: str  # in the traveller's language when the source gives it ("Kinkaku-ji") …
    geo: Geo | None
    notes: str
    locked: bool = False
    confidence: Literal["high", "low"] = "high"
    cost_usd_cents: int = 0
    provenance: Provenance | None = None
    address: str | None = Field(default=None, max_length=300)  # the place's street address, when known
    # The true moments (``window`` is clipped to the day: a flight landing after midnight shows
    # 23:59 there). ISO 8601 with the UTC offset of the zone where each happens, named in
    # ``start_tz``/``end_tz`` (a flight leaves in its origin's zone and lands in its destination's).
    start: AwareDatetime | None = None
    end: AwareDatetime | None = None
    start_tz: str | None = None
    end_tz: str | None = None
    # … and the local name on the signs ("金閣寺") when it differs (issue 31 §3); written only when set
    local_name: str | None = Field(default=None, max_length=255)

    @property
    def shown_name(self) -> str:
        """The name every renderer shows: the traveller's with the local one beside it."""
        return f"{self.name} ({self.local_name})" if self.local_name else self.name

    @model_serializer(mode="wrap")
    def _without_unset_local_name(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        if isinstance(data, dict) and data.get("local_name", 0) is None:
            del data["local_name"]
        return data

    @model_validator(mode="after")
    def _true_span(self) -> "Activity":
        if (self.start is None) != (self.end is None):
            raise ValueError("start and end come together")
        if self.start is not None and self.end is not None and self.end < self.start:
            raise ValueError(f"end {self.end.isoformat()} is before start {self.start.isoformat()}")
        return self


class DayItinerary(Value):
    date: date
    activities: list[Activity]
    anchor: Anchor | None = None  # road trips: the overnight stop
    drive: Drive | None = None  # road trips: the day's driving
    tz: str | None = None  # the day's IANA zone when it differs from the trip's (road trips)
    path: list[Geo] = Field(default_factory=list)  # road trips: the driven geometry
    # road trips, INV-PACE-01's exemptions: "travel_only" (nothing to stop at within reach of the
    # day's drive, re-checked by verify) or "rest" (a rest day the traveller asked for: no driving)
    exemption: Literal["travel_only", "rest"] | None = None
    # multi-city trips: the index of the stay the day belongs to (where the night is spent; the last
    # day: where the flight home leaves from). Written only when set, so one-city days read as before.
    stay: int | None = Field(default=None, ge=0)

    @model_serializer(mode="wrap")
    def _without_unset_stay(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        if isinstance(data, dict) and data.get("stay", 0) is None:
            del data["stay"]
        return data


AnyIntent = Annotated[Union[IntentV1, RoadTripIntent, MultiCityIntent], Field(discriminator="mode")]


class CostBreakdown(Value):
    flights_usd_cents: int
    lodging_usd_cents: int
    attractions_usd_cents: int
    transit_usd_cents: int
    daily_spend_usd_cents: int
    total_usd_cents: int
    meals_usd_cents: int = 0  # planned meals at their restaurants' prices (in the total)
    currency_disclaimer: str
    # the parts whose figures are estimates, not published prices: "flights", "lodging", "meals",
    # "attractions", "transit", "daily_spend" (OSM city packs; estimated flights)
    estimated_parts: list[str] = Field(default_factory=list)


class Decision(Value):
    node: str
    rationale: str
    alternatives_considered: int
    selected: str


class Citation(Value):
    claim: str
    provenance: Provenance


class ItineraryV1(Value):
    schema_version: str = SCHEMA_VERSION
    status: Literal["ok", "error"] = "ok"
    message: str = ""
    itinerary_id: str
    intent: AnyIntent
    days: list[DayItinerary]
    cost_breakdown: CostBreakdown
    decisions: list[Decision]
    citations: list[Citation]
    violations: list[Violation] = Field(default_factory=list)
    repairs: list[RepairDiff] = Field(default_factory=list)
    degraded_tools: list[str] = Field(default_factory=list)
    disclaimer: str = DISCLAIMER
    created_at: datetime
    trace_id: str
    run_id: str = ""
    # The planning day (``--today``) whose FX and prices the plan used; ``tripwright verify``
    # re-derives as-of this day. None in files written before it existed.
    planning_date: date | None = None
    # seed 001 llmMeta for a model-made plan (counts only: never prompts, chat or names); {} otherwise
    llm_meta: dict[str, Any] = Field(default_factory=dict)
    # credits owed where the plan shows others' data ("© OpenStreetMap contributors (ODbL)")
    attributions: list[str] = Field(default_factory=list)
    # multi-city trips: the legs between stays (issue 33); written only when there are some
    legs: list[PlannedLeg] = Field(default_factory=list)

    @model_serializer(mode="wrap")
    def _without_empty_legs(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        if isinstance(data, dict) and data.get("legs", 0) == []:
            del data["legs"]
        return data


class PlanFailure(Value):
    """What ``--out`` holds when no feasible plan exists after bounded repair (exit 3)."""

    schema_version: str = SCHEMA_VERSION
    status: Literal["error"] = "error"
    reason: str | None = None  # "invalid_model_output" when a model's answer was invalid twice
    message: str
    intent: AnyIntent
    itinerary: None = None
    violations: list[Violation]
    attempts: list[RepairDiff]
    best_total_usd_cents: int | None = None
    trace_id: str
    run_id: str
