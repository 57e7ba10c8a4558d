"""The Qt-free parts of the app: the trip's version history, what a map gesture means for the
engine, and what an edit changed."""

from __future__ import annotations

import asyncio
from datetime import date

import pytest

from app.map_edits import (MoveToFreeTime, Rebased, alternatives, anchor_day, city_edit, free_window,
                           nearest_town, with_forced_stop)
from app.trip_session import RunSummary, TripSession, TripVersion
from app.version_diff import describe_change, signed, signed_usd
from engine.errors import InputError
from engine.models import RoadTripIntent
from engine.pipeline import PlanningSession
from engine.roadtrip.routes import find_route
from tests.app.conftest import TODAY
from tests.app.test_main_window import PARIS, ROUTE66


@pytest.fixture(scope="module")
def session():
    return PlanningSession(today=TODAY)


@pytest.fixture(scope="module")
def paris(session):
    return asyncio.run(session.plan(PARIS))


@pytest.fixture(scope="module")
def road(session):
    return asyncio.run(session.plan(ROUTE66))


# -- TripSession --------------------------------------------------------------------------------
def version(result, edit):
    return TripVersion.of(result, result.itinerary.intent, edit)


def test_push_undo_redo_and_a_new_edit_after_undo(paris, road):
    trip = TripSession()
    assert trip.current is None and trip.label() == "" and not trip.can_undo and not trip.can_redo
    assert trip.undo() is None and trip.redo() is None
    a, b, c = version(paris, "Planned"), version(paris, "Locked X"), version(road, "Planned road")
    trip.push(a)
    trip.push(b)
    assert trip.current is b and trip.label() == "v2/2" and trip.can_undo
    assert trip.undo() is a and trip.label() == "v1/2" and trip.can_redo
    assert trip.redo() is b and trip.redo() is None
    trip.undo()
    trip.push(c)  # drops b
    assert trip.versions == [a, c] and not trip.can_redo and trip.intent is c.intent
    trip.clear()
    assert trip.current is None and trip.versions == []


def test_a_version_keeps_what_the_store_will_need(paris, road):
    v = version(paris, "Planned")
    assert v.mode == "city" and v.plan is paris.plan and v.events == tuple(paris.events)
    assert v.summary == RunSummary.of(paris)
    assert v.summary.total_usd_cents == paris.itinerary.cost_breakdown.total_usd_cents
    assert version(road, "x").plan is None and version(road, "x").mode == "road_trip"


# -- city edits ---------------------------------------------------------------------------------
def test_rebased_edits_start_from_the_plan_on_screen(session, paris):
    target = next(a.id for a in paris.itinerary.days[1].activities if a.role == "activity")
    edit = city_edit("lock", target, paris.plan)
    assert isinstance(edit, Rebased) and edit.base is paris.plan
    locked = edit(None, None)  # the selector's plan is ignored
    di, si = locked.find(target)
    assert locked.days[di].slots[si].locked
    with pytest.raises(InputError, match="unknown map action"):
        city_edit("explode", target, paris.plan)


def test_move_finds_free_time_on_the_target_day(session, paris):
    plan = paris.plan
    target = next(s for s in plan.days[3].slots if s.role == "activity")
    # full days (issue 31 §2) leave room on some days only: the first other day with room for it
    to = next(d for d in range(len(plan.days)) if d != 3 and free_window(plan, d, target.window.minutes))
    moved = MoveToFreeTime(target.selected.choice_id, to)(plan, session.last_facts)
    di, si = moved.find(target.selected.choice_id)
    slot = moved.days[di].slots[si]
    assert di == to and slot.window.minutes == target.window.minutes
    assert not any(o.window.overlaps(slot.window) for o in moved.days[to].slots if o is not slot)
    target = target.selected.choice_id
    with pytest.raises(InputError, match="day_index"):
        MoveToFreeTime(target, 9)(plan, session.last_facts)


def test_free_window_is_none_when_the_day_is_full(paris):
    assert free_window(paris.plan, 1, 13 * 60) is None
    window = free_window(paris.plan, 4, 60)
    assert window is not None and window.minutes == 60


def test_alternatives_skip_venues_already_in_the_plan(paris):
    in_plan = {s.selected.option_ref for _, _, s in paris.plan.slots()}
    seen = 0
    for _, _, slot in paris.plan.slots():
        for alt in alternatives(paris.plan, slot.selected.choice_id):
            seen += 1
            assert alt.venue_id not in in_plan
            choice = next(c for c in slot.choices if c.option_ref == alt.venue_id)
            assert alt.cost_delta_cents == choice.features.cost_usd_cents - slot.selected.features.cost_usd_cents
    assert seen > 0
    assert alternatives(paris.plan, "no-such-id") == [] and alternatives(None, "x") == []


# -- road edits ---------------------------------------------------------------------------------
def test_nearest_town_snaps_inside_the_corridor():
    route = find_route("Route 66")
    town = nearest_town(route, 50, 35.23, -114.10)
    assert (town.town.name, town.town.admin1) == ("Kingman", "AZ")
    assert nearest_town(route, 50, 45.0, -100.0).offset_miles <= 50  # far away: still a corridor town


def test_forced_stops_are_ordered_along_the_trip_and_replace_a_dragged_stop(road):
    route = find_route("Route 66")
    itinerary = road.itinerary
    tulsa = nearest_town(route, 50, 36.154, -95.993)
    kingman = nearest_town(route, 50, 35.19, -114.05)
    one = with_forced_stop(ROUTE66, itinerary, route, tulsa)
    two = with_forced_stop(one, itinerary, route, kingman)
    assert two.stops == ["Kingman, AZ", "Tulsa, OK"]  # LA → Chicago runs against the polyline
    east = RoadTripIntent.model_validate({**ROUTE66.model_dump(), "origin": "Chicago", "terminus": "Los Angeles"})
    reversed_itinerary = itinerary.model_copy(update={"days": list(reversed(itinerary.days))})
    assert with_forced_stop(with_forced_stop(east, reversed_itinerary, route, kingman),
                            reversed_itinerary, route, tulsa).stops == ["Tulsa, OK", "Kingman, AZ"]
    assert with_forced_stop(two, itinerary, route, kingman).stops == ["Kingman, AZ", "Tulsa, OK"]  # no duplicate


def test_a_dragged_forced_stop_gives_way(session):
    route = find_route("Route 66")
    planned = asyncio.run(session.plan(ROUTE66.model_copy(update={"stops": ["Kingman, AZ"]})))
    day = next(i for i, d in enumerate(planned.itinerary.days) if d.anchor.name == "Kingman, AZ")
    gallup = nearest_town(route, 50, 35.5281, -108.7426)
    moved = with_forced_stop(planned.itinerary.intent, planned.itinerary, route, gallup, replacing_day=day)
    assert moved.stops == ["Gallup, NM"]


def test_a_booked_motels_night_is_not_dragged_elsewhere(session):
    """The Blue Swallow Motel (Tucumcari; its point from Wikipedia) booked for the third night."""
    motel = {"name": "Blue Swallow Motel", "geo": {"lat": 35.171866, "lon": -103.716421},
             "checkin": "2027-05-05", "checkout": "2027-05-06", "confirmation": "BSW20418"}
    booked = RoadTripIntent.model_validate({**ROUTE66.model_dump(), "bookings": {"hotel": motel}})
    planned = asyncio.run(session.plan(booked)).itinerary
    route = find_route("Route 66")
    gallup = nearest_town(route, 50, 35.5281, -108.7426)
    with pytest.raises(InputError, match=r"^bookings.hotel: the night of 2027-05-05 is your booking at Blue "
                                         r"Swallow Motel: it stays there"):
        with_forced_stop(booked, planned, route, gallup, replacing_day=2)
    assert with_forced_stop(booked, planned, route, gallup, replacing_day=1).stops == ["Gallup, NM"]


def test_anchor_day():
    assert anchor_day("d3-overnight") == 3 and anchor_day("origin") is None


# -- what changed -------------------------------------------------------------------------------
def test_describe_change(paris, session):
    first = paris.itinerary
    target = next(a.id for a in first.days[1].activities if a.role == "activity")
    removed = asyncio.run(session.plan(PARIS, edits=[city_edit("remove", target, paris.plan)])).itinerary
    change = describe_change(first, removed)
    assert change.days_changed == (1,)
    assert change.cost_delta_cents == removed.cost_breakdown.total_usd_cents - first.cost_breakdown.total_usd_cents
    assert change.text().startswith("day 2 changed \u00b7 cost ")
    assert describe_change(first, first).text() == "no day changed \u00b7 cost \u00b1$0 \u00b7 violations \u00b10"
    assert describe_change(None, first).days_changed == tuple(range(len(first.days)))
    assert signed(2) == "+2" and signed(-1) == "\u22121" and signed_usd(-1250) == "\u2212$12.50"


def test_dates_of_the_examples_stay_ahead_of_today():
    from app.welcome import example_prompts, examples
    assert "2027-06-15" in examples(TODAY)["city"].prompt
    later = examples(date(2027, 6, 10))
    assert "2027-07-10" in later["city"].prompt and "2027-07-10" in later["road"].prompt
    assert all("2027-09-06" in p for p in example_prompts(date(2027, 6, 10)))
    assert all("2027-09-30" in p for p in example_prompts(date(2027, 8, 31)))
