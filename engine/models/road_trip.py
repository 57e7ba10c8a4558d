"""Road-trip contracts (SPEC_DECISIONS §2.6 intent, §3 day fields) and their validation."""

from __future__ import annotations

import re
from datetime import date
from typing import Literal

from pydantic import Field, field_validator, model_validator

from .bookings import Bookings
from .common import Geo, Value

MIN_ROAD_DAYS = 1
MAX_ROAD_DAYS = 30
# The one home of the road trip's pacing and corridor defaults: the form, the prompt reader and the
# planner all read these (change the daily mileage cap or the corridor width here).
DEFAULT_MAX_DAILY_MILES = 400.0
MAX_DAILY_MILES_LIMIT = 1000.0
DEFAULT_CORRIDOR_MILES = 50.0
MAX_CORRIDOR_MILES_LIMIT = 300.0
_MARKUP = re.compile(r"[<>{}\x00-\x1f\x7f]")


def _place(v: str) -> str:
    v = " ".join(v.split())
    if not v:
        raise ValueError("must name a place")
    if len(v) > 120:
        raise ValueError("place names are at most 120 characters")
    if _MARKUP.search(v):
        raise ValueError(f"{v!r} contains markup or control characters; give a plain place name")
    return v


class RoadTripPreferences(Value):
    themes: list[str] = Field(default_factory=list)
    kid_friendly: bool = False


class RoadTripIntent(Value):
    mode: Literal["road_trip"] = "road_trip"
    origin: str
    terminus: str
    days: int
    start_date: date
    trip_type: Literal["one_way", "round_trip"] = "one_way"
    route: str | None = None
    max_daily_miles: float = Field(default=DEFAULT_MAX_DAILY_MILES, gt=0, le=MAX_DAILY_MILES_LIMIT)
    corridor_max_deviation_miles: float = Field(default=DEFAULT_CORRIDOR_MILES, gt=0, le=MAX_CORRIDOR_MILES_LIMIT)
    stops: list[str] = Field(default_factory=list, max_length=20)
    # Places to visit on the way without sleeping there ("Add a stop here" → a visit, on the map).
    visits: list[str] = Field(default_factory=list, max_length=20)
    # A rest day in each (FB-02, INV-PACE-01's exemption): no driving, the town's own sights; a
    # town named twice rests two days. Each is also a night of the trip ("a rest day in Moab").
    rest_days: list[str] = Field(default_factory=list, max_length=10)
    prefs: RoadTripPreferences = Field(default_factory=RoadTripPreferences)
    travellers: int = Field(default=1, ge=1, le=12)  # SPEC_DECISIONS §2.9: meals per person, beds by room
    rooms: int | None = Field(default=None, ge=1, le=12)  # None: one per two travellers
    # An imported route (plan --route-file): its track as (lat, lon), the corridor instead of a named route.
    route_track: list[tuple[float, float]] | None = Field(default=None, min_length=2, max_length=2000)
    route_track_name: str | None = Field(default=None, max_length=120)
    # Stops the traveller removed on the map (their ids): the planner picks others in their place.
    skip_stops: list[str] = Field(default_factory=list, max_length=200)
    # The traveller's booked lodging (issue 21 §1): that night's fixed anchor (engine/roadtrip/booked_night.py).
    bookings: Bookings | None = None

    _places = field_validator("origin", "terminus")(lambda v: _place(v))

    @field_validator("stops", "visits", "rest_days")
    @classmethod
    def _stops(cls, v: list[str]) -> list[str]:
        return [_place(s) for s in v]

    @field_validator("days")
    @classmethod
    def _days(cls, v: int) -> int:
        if not MIN_ROAD_DAYS <= v <= MAX_ROAD_DAYS:
            raise ValueError(f"a road trip lasts {MIN_ROAD_DAYS}-{MAX_ROAD_DAYS} days, got {v}")
        return v

    @model_validator(mode="after")
    def _ends(self) -> "RoadTripIntent":
        same = self.origin.casefold() == self.terminus.casefold()
        if same and self.trip_type == "one_way":
            raise ValueError("terminus: a one-way trip must end somewhere other than its origin "
                             "(use trip_type round_trip to come back)")
        if self.route_track is not None and any(not (-90 <= a <= 90 and -180 <= b <= 180) for a, b in self.route_track):
            raise ValueError("route_track: coordinates outside latitude/longitude ranges")
        if self.route_track is not None and self.route:
            raise ValueError("route_track: give a named route or an imported track, not both")
        if len(self.rest_days) >= self.days:
            raise ValueError(f"rest_days: {len(self.rest_days)} rest day(s) leave no day to drive in {self.days}")
        if self.rooms is not None and self.rooms > self.travellers:
            raise ValueError(f"rooms: {self.rooms} rooms for {self.travellers} traveller(s)")
        return self


class Anchor(Value):
    """Where a road-trip day ends (its overnight stop)."""

    name: str
    geo: Geo | None
    confidence: Literal["high", "low"] = "high"
    route_progress_miles: float | None = None
    distance_from_origin_miles: float
    admin1: str = ""
    country: str = ""
    source: Literal["route_town", "gazetteer", "interpolated", "user"] = "gazetteer"
    note: str = ""  # why low confidence, which fallback was used


class Drive(Value):
    miles: float = Field(ge=0)
    hours: float = Field(ge=0)
    from_name: str
    to_name: str
    # "routed": miles, hours and the day's path from the routing service (TRIPWRIGHT_ROUTING_URL);
    # "estimated": the planner's road-factor estimate (1.3 × straight line off a named route)
    source: Literal["estimated", "routed"] = "estimated"
