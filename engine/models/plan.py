"""PlanV1: the working plan the planner builds and repair edits (seed §3.2)."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field, model_validator

from .common import ChoiceKind, Geo, Provenance, TimeWindow, Value

SlotRole = Literal["arrival", "checkin", "activity", "meal", "checkout", "departure"]


class ChoiceFeatures(Value):
    cost_usd_cents: int = Field(ge=0)
    travel_seconds: int | None = Field(default=None, ge=0)
    indoor: bool | None = None
    themes: list[str] = Field(default_factory=list)


class Choice(Value):
    choice_id: str
    kind: ChoiceKind
    option_ref: str
    label: str
    geo: Geo | None = None
    features: ChoiceFeatures
    score: float | None = None
    provenance: Provenance


class Slot(Value):
    window: TimeWindow
    role: SlotRole
    choices: list[Choice] = Field(min_length=1)
    locked: bool = False
    # the traveller put it here (moved, replaced or retimed it): a re-plan for a changed trip (an
    # import, a model's draft) puts it back (engine/kept_edits.py); written only when true
    placed: bool = Field(default=False, exclude_if=lambda placed: not placed)

    @property
    def selected(self) -> Choice:
        """``choices[0]`` is the selected option; the rest are ranked fallbacks."""
        return self.choices[0]


class DayPlan(Value):
    date: date
    slots: list[Slot] = Field(default_factory=list)

    @model_validator(mode="after")
    def _no_overlap(self) -> "DayPlan":
        ordered = sorted(self.slots, key=lambda s: s.window.start)
        for a, b in zip(ordered, ordered[1:]):
            if a.window.overlaps(b.window):
                raise ValueError(
                    f"slots on {self.date}: {a.selected.label} {a.window.label()} overlaps "
                    f"{b.selected.label} {b.window.label()}")
        if ordered != self.slots:
            object.__setattr__(self, "slots", ordered)
        return self


class Removal(Value):
    """A visit or meal the traveller took out of day ``day`` (0-based): re-plans may fill that
    day's free time with another place, never with this one."""

    day: int = Field(ge=0)
    ref: str
    role: SlotRole


class Assumptions(Value):
    local_currency: str = "USD"
    fx_rate_to_usd: float = Field(default=1.0, gt=0)  # as-of T-1
    fx_as_of: date | None = None
    daily_spend_est_cents: int = Field(ge=0)  # per traveller per day, beside the priced meals
    travellers: int = Field(default=1, ge=1)  # per-person costs scale with it (SPEC_DECISIONS §2.9)
    rooms: int = Field(default=1, ge=1)  # lodging scales with rooms
    transit_buffer_minutes: int = 15
    airport_buffer_minutes: int = 120
    museum_buffer_minutes: int = 20


class PlanV1(Value):
    days: list[DayPlan] = Field(min_length=1)
    assumptions: Assumptions
    rng_seed: int
    branch: str = ""  # which planner branch produced it, e.g. "CDG/mid"
    removed: list[Removal] = Field(default_factory=list)  # what the traveller took out (edits.Remove)

    @model_validator(mode="after")
    def _consecutive(self) -> "PlanV1":
        for a, b in zip(self.days, self.days[1:]):
            if (b.date - a.date).days != 1:
                raise ValueError(f"days must be consecutive: {a.date} then {b.date}")
        return self

    def slots(self):
        """Every (day_index, slot_index, slot) in order."""
        for di, day in enumerate(self.days):
            for si, slot in enumerate(day.slots):
                yield di, si, slot

    def find(self, choice_id: str) -> tuple[int, int] | None:
        for di, si, slot in self.slots():
            if slot.selected.choice_id == choice_id:
                return di, si
        return None

    def with_slot(self, di: int, si: int, slot: Slot | None) -> "PlanV1":
        """A copy with one slot replaced (or removed when ``slot`` is None)."""
        day = self.days[di]
        slots = list(day.slots)
        if slot is None:
            del slots[si]
        else:
            slots[si] = slot
        days = list(self.days)
        days[di] = DayPlan(date=day.date, slots=slots)
        return self.model_copy(update={"days": days})
