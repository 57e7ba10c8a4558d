"""Issue 32 §3: a road trip's meal stop keeps the place's hours. Route 66's Lou Mitchell's (a diner
that closes at 15:00; its published hours in fixtures/routes/route66.json) was planned at 17:00 on
the arrival in Chicago; the route's other diners have no published hours and were shown as if they
had. A stop with published hours is visited inside them (waiting for the opening, or left out of
the day), and a meal place without them says "hours unknown" at low confidence with an advisory."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from engine.models.dated_hours import dated_hours
from engine.models.road_trip import RoadTripIntent
from engine.roadtrip.day_stops import schedule_stops
from engine.roadtrip.plan import RoadStop
from engine.roadtrip.routes import find_route
from engine.roadtrip.stop_hours import UNKNOWN_TEXT, day_windows
from tests.widgets.test_map_layers import _plan

GALLUP, FLAGSTAFF = (35.5281, -108.7426), (35.1983, -111.6513)  # Mountain (MDT in May) and Arizona (MST)


@pytest.fixture(scope="module")
def route66():
    return _plan(RoadTripIntent(origin="Los Angeles", terminus="Chicago", days=7, start_date=date(2027, 5, 3),
                                route="Route 66")), find_route("Route 66")


def _local(activity, zone: str) -> tuple[datetime, datetime]:
    return activity.start.astimezone(ZoneInfo(zone)), activity.end.astimezone(ZoneInfo(zone))


def test_a_stop_with_published_hours_is_never_planned_while_it_is_closed(route66):
    itinerary, route = route66
    known = {p.id: p for p in route.pois if p.opening_hours}
    assert "lou_mitchells" in known
    visits = [a for d in itinerary.days for a in d.activities if a.ref in known]
    for a in visits:
        start, end = _local(a, "America/Chicago")  # every POI with published hours here is in Central time
        spans = dated_hours(known[a.ref].opening_hours).day(start.date()).spans
        assert any(t0 <= start.time() and end.time() <= t1 for t0, t1 in spans), (a.name, start, end)
    # the arrival in Chicago is at 16:23: the diner (07:00-15:00) is left out of that day, not put at 17:00
    last = itinerary.days[-1]
    arrival = next(a for a in last.activities if a.role == "arrival")
    assert arrival.start.astimezone(ZoneInfo("America/Chicago")).hour >= 15
    assert all(a.ref != "lou_mitchells" for a in last.activities)


def test_a_meal_place_without_published_hours_says_so_at_low_confidence(route66):
    itinerary, route = route66
    unknown = {p.id for p in route.pois if p.kind == "food" and not p.opening_hours}
    meals = [a for d in itinerary.days for a in d.activities if a.ref in unknown]
    assert meals  # Route 66's diners are planned
    for a in meals:
        assert a.confidence == "low" and UNKNOWN_TEXT in a.notes, a
    advisories = {v.details["venue"]: v.details["message"] for v in itinerary.violations
                  if v.details.get("invariant") == "HOURS-UNKNOWN"}
    assert {a.name for a in meals} <= set(advisories)
    assert all(m.endswith("opening hours unknown; check before going") for m in advisories.values())
    sights = [a for d in itinerary.days for a in d.activities
              if a.ref in {p.id for p in route.pois if p.kind != "food"}]
    assert sights and all(a.confidence == "high" for a in sights)  # a sight's hours are another matter


def _stop(windows, minutes=60) -> RoadStop:
    return RoadStop(id="diner", name="Diner", lat=41.88, lon=-87.64, kind="food", start_min=0, end_min=minutes,
                    progress_miles=50.0, offset_miles=0.0, en_route=True, open_windows=windows, hours_known=True)


def _timed(stop: RoadStop, leg_minutes: int):
    return schedule_stops([stop], 0.0, 100.0, lambda *_: leg_minutes, start_pt=(41.0, -88.0), anchor_pt=(41.9, -87.6))


def test_a_visit_reached_before_opening_waits_and_one_reached_after_closing_is_left_out():
    early, _, _ = _timed(_stop(((11 * 60, 15 * 60),)), leg_minutes=60)  # reached 09:30, opens 11:00
    assert [(s.start_min, s.end_min, s.wait_min) for s in early] == [(11 * 60, 12 * 60, 90)]
    late, _, arrive = _timed(_stop(((7 * 60, 15 * 60),)), leg_minutes=6 * 60)  # reached 14:30: 60 min do not fit
    assert late == [] and arrive == 8 * 60 + 30 + 6 * 60  # the day drives on, without it
    lunch, _, _ = _timed(_stop(((7 * 60, 10 * 60), (17 * 60, 22 * 60))), leg_minutes=2 * 60)  # 10:30: the evening
    assert [(s.start_min, s.end_min) for s in lunch] == [(17 * 60, 18 * 60)]
    closed, _, _ = _timed(_stop(()), leg_minutes=60)  # closed all day
    assert closed == []


def test_published_hours_are_moved_onto_the_days_clock():
    """Flagstaff keeps MST all year; a day that starts in Gallup runs on MDT in May: an hour ahead."""
    assert day_windows("07:00-15:00", date(2027, 5, 5), FLAGSTAFF, GALLUP) == ((8 * 60, 16 * 60),)
    assert day_windows("07:00-15:00", date(2027, 1, 5), FLAGSTAFF, GALLUP) == ((7 * 60, 15 * 60),)
    assert day_windows("Mo 07:00-15:00; Tu off", date(2027, 5, 4), FLAGSTAFF, FLAGSTAFF) == ()


def test_a_route_poi_with_unreadable_hours_is_refused_at_load():
    from pydantic import ValidationError

    from engine.roadtrip.route_schema import RoutePOI
    with pytest.raises(ValidationError, match="not an OpenStreetMap hours rule"):
        RoutePOI(id="x", name="X", lat=1, lon=1, kind="food", duration_minutes=30,
                 description="A diner by the road.", opening_hours="whenever")


def _as_lou_mitchells(itinerary, start: datetime, end: datetime):
    """``itinerary`` with its last day's Pontiac stop made a visit to Lou Mitchell's at ``start``-``end``."""
    from engine.models import TimeWindow
    last = itinerary.days[-1]
    acts = [a.model_copy(update={"ref": "lou_mitchells", "name": "Lou Mitchell's", "start": start, "end": end,
                                 "window": TimeWindow(start=start.time(), end=end.time())})
            if a.ref == "route66_hall_of_fame_pontiac" else a for a in last.activities]
    assert acts != list(last.activities)
    return itinerary.model_copy(update={"days": [*itinerary.days[:-1], last.model_copy(update={"activities": acts})]})


def test_verify_refuses_a_saved_visit_when_the_place_is_closed(route66):
    """The plan as it was made before (Lou Mitchell's 16:54-17:54 on Sun 9 May): a blocking mismatch
    naming the hours; the same visit at 13:38 is not one."""
    from engine.roadtrip.integrity import verify_saved_road
    itinerary, _ = route66
    chicago = ZoneInfo("America/Chicago")
    late = _as_lou_mitchells(itinerary, datetime(2027, 5, 9, 16, 54, tzinfo=chicago),
                             datetime(2027, 5, 9, 17, 54, tzinfo=chicago))
    found = [v.details["message"] for v in verify_saved_road(late, None, date(2026, 12, 1)) if v.blocking]
    assert any(m.endswith("Lou Mitchell's is planned 16:54–17:54 on Sun 09 May 2027, when its published hours "
                          "are 07:00–15:00") for m in found), found
    lunch = _as_lou_mitchells(itinerary, datetime(2027, 5, 9, 13, 38, tzinfo=chicago),
                              datetime(2027, 5, 9, 14, 38, tzinfo=chicago))
    assert not any("published hours" in v.details["message"] for v in verify_saved_road(lunch, None, date(2026, 12, 1)))
