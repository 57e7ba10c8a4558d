"""TodayV1: a saved trip read on one of its days (issue 36 §1) — what is now, what is next, when
to leave for it and how, whether it is open, the day's weather and booking codes, and which day
the map shows. Made by ``engine/trip_today.py``; printed by ``tripwright today``, shown by the
app's Today panel. Not part of the itinerary: a saved itinerary is never changed by reading it."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import AwareDatetime, Field

from .common import TimeWindow, Value
from .itinerary import Activity


class TodayLeg(Value):
    """How to get to the next activity: the plan's transfer before it (or, for a day's first
    visit from the hotel, the same transit tool's leg)."""

    name: str  # "Metro transfer", "Drive to Tucumcari, NM"
    mode: str | None = None  # walk | metro | bus | taxi | drive; None when the plan does not say
    minutes: int = Field(ge=0)
    notes: str = ""
    from_plan: bool = True  # False: asked of the transit tool (the plan had no transfer before it)


class TodayHours(Value):
    """The next place's opening hours on its date (the venue's ``opening_hours`` rule)."""

    known: bool  # False: nobody published hours; the windows are the plan's cautious guess
    windows: list[TimeWindow] = Field(default_factory=list)  # empty: closed that date
    open_now: bool | None = None  # None: the next activity is not today
    open_at_arrival: bool
    note: str = ""  # the rule's comment for that date ("free admission")


class TodayWeather(Value):
    said: str  # one line for the traveller, with the data credit when a service gave it
    source: Literal["live", "plan", "typical"]  # live: a forecast asked now; plan: the plan's own figure
    precip_prob: float | None = None
    temp_c_low: float | None = None
    temp_c_high: float | None = None


class TodayBooking(Value):
    kind: Literal["flight", "hotel", "event"]
    what: str  # "TP 202 LIS→JFK 18:05", "Hotel Avenida (check-out)"
    confirmation: str | None = None


class TodayV1(Value):
    at: AwareDatetime  # the clock the answer is for, in the day's zone
    under_way: bool  # the trip's dates include today in the trip's zone (each day's, on a road trip)
    mode: Literal["city", "road_trip"] = "city"
    place: str  # "Paris", "Chicago → Santa Monica"
    first_day: date
    last_day: date
    tz: str  # today's zone (the first day's when not under way)
    day_index: int | None = None  # 0-based; the day the map shows
    day_date: date | None = None  # today's date in the trip (None when not under way)
    now: Activity | None = None  # start ≤ at < end
    next: Activity | None = None  # the next visit, meal, check-in/out or flight after ``at``
    leave_at: str | None = None  # "HH:MM" on the next activity's clock
    leave_date: date | None = None  # the day ``leave_at`` is on (tomorrow, when nothing is left today)
    leave_in_minutes: int | None = None  # negative: it is already time to go
    how: TodayLeg | None = None
    hours: TodayHours | None = None  # of the next activity, when it is a venue with hours
    weather: TodayWeather | None = None
    bookings: list[TodayBooking] = Field(default_factory=list)
