"""Today (issue 36 §1, engine/trip_today.py + engine/today_sources.py): a trip the real planner
made (the Paris example with its booked flights and hotel, and a road trip across time zones)
read at fixed clocks. Expectations are read off the itinerary itself (its transfers, its
activities' true times) and off the fixture venues' own hours, never typed in."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from engine.catalog import default_catalog
from engine.errors import InputError
from engine.models import IntentV1, ItineraryV1
from engine.pipeline import PlanningSession
from engine.today_sources import today_offline_or_live
from engine.tools.toolbox import build_toolbox
from engine.tools.requests import VenueRequest
from engine.trip_today import on_trip_clock, read_today, today_index

BOOKED = Path(__file__).resolve().parents[2] / "docs" / "examples" / "paris-booked.json"
PARIS = ZoneInfo("Europe/Paris")


@pytest.fixture(scope="module")
def booked() -> ItineraryV1:
    intent = IntentV1.model_validate_json(BOOKED.read_text(encoding="utf-8"))
    result = asyncio.run(PlanningSession(today=date(2026, 11, 23)).plan(intent))
    assert result.itinerary is not None
    return result.itinerary


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    monkeypatch.setenv("TRIPWRIGHT_OFFLINE", "1")


def _visits(itin: ItineraryV1, di: int):
    return [a for a in itin.days[di].activities if a.role in ("activity", "meal")]


def test_during_a_visit_now_is_it_and_next_is_the_following_visit_with_the_plans_leg(booked) -> None:
    before = booked.model_dump_json()
    day = booked.days[1]
    acts = day.activities
    visit = _visits(booked, 1)[0]
    now = visit.start + (visit.end - visit.start) / 2
    today = today_offline_or_live(booked, now)
    assert today.under_way and today.day_index == 1 and today.day_date == day.date
    assert today.now == visit
    following = next(a for a in acts if a.start > now and a.role not in ("transfer", "omitted"))
    assert today.next == following
    transfer = acts[acts.index(following) - 1]
    assert transfer.role == "transfer"  # the plan's own leg before it
    leave = following.start - timedelta(minutes=transfer.window.minutes)
    assert today.leave_at == f"{leave:%H:%M}" and today.leave_date == following.start.date()
    assert today.leave_in_minutes == int((leave - now).total_seconds() // 60)
    assert today.how is not None and today.how.name == transfer.name and today.how.from_plan
    assert today.how.mode == transfer.notes.split(",")[0]
    assert booked.model_dump_json() == before  # reading a trip never changes it


def test_next_place_is_open_at_arrival_by_its_own_dated_hours(booked) -> None:
    visit = _visits(booked, 2)[0]
    early = datetime.combine(visit.start.date(), time(5, 0), PARIS)
    today = today_offline_or_live(booked, early)
    assert today.next == visit and today.hours is not None
    toolbox = build_toolbox(default_catalog(), today=early.date())
    venue = (toolbox.dining.by_id("Paris", visit.ref) if visit.role == "meal"
             else toolbox.attractions.by_id(VenueRequest(city="Paris", venue_id=visit.ref)))
    windows = list(venue.windows_on(visit.start.date()))
    assert today.hours.windows == windows and windows
    assert today.hours.open_at_arrival  # the plan put it inside its hours
    assert today.hours.open_now is (any(w.start <= time(5, 0) < w.end for w in windows))
    assert today.hours.open_now is False  # nothing in the fixtures opens at 05:00


def test_first_visit_of_a_day_gets_the_transit_tools_leg_from_the_hotel(booked) -> None:
    day = next(d for d in booked.days[1:-1] if d.activities[0].role in ("activity", "meal"))
    first = day.activities[0]
    today = today_offline_or_live(booked, first.start - timedelta(hours=3))
    assert today.next == first and today.how is not None and not today.how.from_plan
    assert today.how.minutes > 0 and today.how.mode in ("walk", "metro", "bus", "taxi")
    leave = first.start - timedelta(minutes=today.how.minutes)
    assert today.leave_at == f"{leave:%H:%M}"
    # without the tools (the pure read), there is no leg to leave by: no leave time is made up
    bare = read_today(booked, first.start - timedelta(hours=3))
    assert bare.next == first and bare.how is None and bare.leave_at is None


def test_departure_day_shows_the_flight_and_hotel_codes_and_leaves_when_the_plan_does(booked) -> None:
    last = booked.days[-1]
    departure = next(a for a in last.activities if a.role == "departure")
    transfer = last.activities[last.activities.index(departure) - 1]
    now = transfer.start - timedelta(minutes=30)
    today = today_offline_or_live(booked, now)
    assert today.next == departure
    assert today.leave_at == f"{transfer.start:%H:%M}"  # the plan's airport buffer kept
    held = booked.intent.bookings
    flight = next(f for f in held.flights if f.departure.date() == last.date)
    codes = {(b.kind, b.confirmation) for b in today.bookings}
    assert ("flight", flight.confirmation) in codes and ("hotel", held.hotel.confirmation) in codes
    assert any(flight.flight_number in b.what for b in today.bookings)
    middle = today_offline_or_live(booked, datetime.combine(booked.days[2].date, time(12), PARIS))
    assert [b.kind for b in middle.bookings] == ["hotel"]  # no flight that day; the stay goes on


def test_offline_weather_is_the_plans_own_claim_for_the_day(booked) -> None:
    day = booked.days[1]
    today = today_offline_or_live(booked, datetime.combine(day.date, time(12), PARIS))
    claims = [c.claim for c in booked.citations if day.date.isoformat() in c.claim and "rain" in c.claim]
    assert today.weather is not None and today.weather.source == "plan" and today.weather.said == claims[0]


@pytest.mark.standin_urls("TRIPWRIGHT_OPEN_METEO_URL")
def test_online_weather_is_asked_live_through_the_executor(booked, server, monkeypatch) -> None:
    monkeypatch.delenv("DISABLE_WEATHER_API", raising=False)
    day = booked.days[1]
    today = today_offline_or_live(booked, datetime.combine(day.date, time(12), PARIS))
    assert server.hits("/v1/forecast"), "the forecast was not asked"
    asked = server.hits("/v1/forecast")[-1].query
    assert asked["start_date"] == asked["end_date"] == day.date.isoformat()
    assert today.weather is not None and today.weather.source == "live"
    assert "Open-Meteo" in today.weather.said and today.weather.temp_c_low == 11.0


def test_not_under_way_before_and_after(booked) -> None:
    first, last = booked.days[0].date, booked.days[-1].date
    before = read_today(booked, datetime.combine(first - timedelta(days=3), time(12), PARIS))
    after = read_today(booked, datetime.combine(last + timedelta(days=1), time(9), PARIS))
    for t in (before, after):
        assert not t.under_way and t.now is None and t.next is None and t.leave_at is None
        assert t.first_day == first and t.last_day == last
    payload = json.loads(before.model_dump_json())
    assert payload["under_way"] is False and payload["now"] is None and payload["next"] is None


def test_a_plain_local_time_is_read_on_the_trips_clock_and_a_naive_now_is_refused_by_the_pure_read(booked) -> None:
    local = datetime.combine(booked.days[1].date, time(10, 40))
    aware = on_trip_clock(booked, local)
    assert aware == local.replace(tzinfo=PARIS) and aware.utcoffset() == timedelta(hours=2)
    with pytest.raises(InputError):
        read_today(booked, local)


def test_a_road_trip_reads_each_day_on_its_own_zone() -> None:
    from engine.geocode import GazetteerIndex
    from engine.models import RoadTripIntent
    from engine.roadtrip.itinerary import road_itinerary
    from engine.roadtrip.planner import plan_road_trip
    import os
    import tempfile
    home = os.environ.get("TRIPWRIGHT_HOME") or tempfile.mkdtemp()
    intent = RoadTripIntent(origin="Chicago, IL", terminus="Santa Monica, CA", days=8,
                            start_date=date(2027, 5, 3), route="Route 66")
    itin = road_itinerary(plan_road_trip(intent, GazetteerIndex.open(home)), intent, [], trace_id="t", run_id="r")
    zones = {d.tz for d in itin.days}
    assert len(zones) > 1  # the route crosses zones
    di = next(i for i, d in enumerate(itin.days) if d.tz != itin.days[0].tz and d.drive and d.drive.miles > 0)
    day = itin.days[di]
    zone = ZoneInfo(day.tz)
    # 00:30 local on that day is still the day before in UTC-wise earlier zones: the day's own zone decides
    early = datetime.combine(day.date, time(0, 30), zone)
    assert today_index(itin, early) == di
    today = read_today(itin, early)
    assert today.under_way and today.tz == day.tz and today.at.tzinfo is not None
    first_stop = next(a for a in day.activities if a.role not in ("transfer", "omitted"))
    drive = day.activities[day.activities.index(first_stop) - 1]
    assert today.next == first_stop and drive.role == "transfer"  # the morning's drive leads to it
    assert today.how is not None and today.how.mode == "drive" and today.how.name == drive.name
    assert today.leave_at == f"{first_stop.start - timedelta(minutes=drive.window.minutes):%H:%M}"
    assert today_index(itin, datetime.combine(itin.days[0].date - timedelta(days=1), time(12), UTC)) is None
