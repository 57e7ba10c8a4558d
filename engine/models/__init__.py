"""Contracts (pydantic v2). Import from here: ``from engine.models import IntentV1``.

pydantic v2 contracts (frozen values, `extra="forbid"`): `IntentV1`, `PlanV1`/`DayPlan`/`Slot`/`Choice`,
tool results, `Violation`, `RepairDiff`/`Move`, `StreamEvent`, `ItineraryV1`, `PlanFailure`. `python -m
engine.models.publish` writes `docs/itinerary.schema.json` (a test keeps it current)
"""

from .common import (TIER_ORDER, ChoiceKind, DataSource, Geo, Money, Provenance, Tier, TimeWindow,
                     TransitMode, Value, VenueType, format_usd, minutes_of, time_of)
from .events import CRITICAL_STATUSES, EventStatus, ModelUsage, StreamEvent
from .intent import MAX_CITY_DAYS, MIN_CITY_DAYS, DateWindow, IntentV1, LockedSlot, Preferences
from .multi_city import (MAX_STAY_NIGHTS, MAX_TRIP_DAYS, BookedLeg, LegMode, LegRequest, MultiCityIntent,
                         PlannedLeg, Stay)
from .road_trip import MAX_ROAD_DAYS, MIN_ROAD_DAYS, Anchor, Drive, RoadTripIntent, RoadTripPreferences
from .itinerary import (DISCLAIMER, AnyIntent, SCHEMA_VERSION, Activity, Citation, CostBreakdown, DayItinerary,
                        Decision, ItineraryV1, PlanFailure)
from .plan import Assumptions, Choice, ChoiceFeatures, DayPlan, PlanV1, Removal, Slot, SlotRole
from .repair import MOVE_PRIORITY, Move, MoveType, RepairDiff
from .tool_results import WEEKDAYS, Attraction, FareTier, FlightOption, FXRate, Lodging, TransitLeg, WeatherDay
from .violations import Violation, ViolationKind

__all__ = [name for name in dir() if not name.startswith("_")]
