"""Repair diffs and moves (seed §7.3)."""

from __future__ import annotations

from enum import Enum

from pydantic import Field

from .common import Provenance, Value


class MoveType(str, Enum):
    swap_airport = "swap_airport"
    downgrade_hotel = "downgrade_hotel"
    reorder_days = "reorder_days"
    replace_activity = "replace_activity"
    # a multi-city trip's chain (issue 33 §3): never in a one-city plan's MOVE_PRIORITY
    move_night = "move_night"  # a night from one stay to the next (or back)
    swap_leg_mode = "swap_leg_mode"  # a leg by another mode
    shift_leg = "shift_leg"  # a leg leaving at another time
    downgrade_stay_tier = "downgrade_stay_tier"  # one stay's hotel a tier down


MOVE_PRIORITY = [MoveType.swap_airport, MoveType.downgrade_hotel,
                 MoveType.reorder_days, MoveType.replace_activity]


class Move(Value):
    move_type: MoveType
    node_ref: str
    old_value: str
    new_value: str
    reason: str = ""
    # what it did in the traveller's words, when the values do not say it (the hotels' names);
    # written only when given
    detail: str = Field(default="", exclude_if=lambda detail: not detail)
    provenance: Provenance


class RepairDiff(Value):
    cycle: int
    moves: list[Move]
    delta_usd_cents: int  # negative = savings
    delta_minutes: int  # travel-time change
    violations_before: int
    violations_after: int
