"""Re-planning a trip under way from now on (issue 36 §2, engine/replan_now): the Paris example
planned once in-process, then each kind of "something changed" applied at a moment of the trip.
The past stays as it was, locks and bookings hold, the change is resolved and the new plan has no
blocking violation."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime
from pathlib import Path

import pytest

from engine.catalog import default_catalog
from engine.edits import Lock
from engine.errors import InputError
from engine.models import IntentV1, minutes_of
from engine.pipeline import PlanningSession
from engine.replan_now import load_trip_state, parse_disruption, replan_from_now
from engine.replan_now.past import moment_in_trip
from engine.replan_now.scoring import score

ROOT = Path(__file__).resolve().parents[2]
GISELLE = ROOT / "tests" / "data" / "bookings" / "garnier_giselle.eml"


@pytest.fixture(scope="module")
def planned():
    intent = IntentV1.model_validate(json.loads((ROOT / "docs" / "examples" / "paris.json").read_text()))
    session = PlanningSession(default_catalog(), today=datetime(2026, 11, 23).date())
    result = asyncio.run(session.plan(intent))
    return result.itinerary, result.plan


@pytest.fixture(scope="module")
def state(planned):
    return load_trip_state(*planned)


def replan(state, now: str, kind: str, value=None):
    return replan_from_now(state, datetime.fromisoformat(now), parse_disruption(kind, value))


def past_items(itinerary, at):
    return [(di, a.ref, a.window) for di, d in enumerate(itinerary.days) for a in d.activities
            if a.role not in ("transfer", None) and (di < at.day or (di == at.day and minutes_of(a.window.start) < at.minute))]


def day_visits(itinerary, di):
    return {a.ref: a for a in itinerary.days[di].activities if a.role in ("activity", "meal")}


def test_a_closure_gets_a_near_same_theme_stand_in_and_the_past_holds(state) -> None:
    louvre = next(a for a in state.itinerary.days[1].activities if a.ref == "louvre")
    done = replan(state, "2027-06-16T11:00", "closed", "Louvre")
    assert done.ok and "louvre" not in day_visits(done.itinerary, 1)
    stand_in = next(a for a in done.itinerary.days[1].activities if a.window.start == louvre.window.start)
    venue = state.facts.venue(stand_in.ref)
    assert stand_in.ref != "louvre" and set(venue.themes) & {"art", "history", "culture"}
    assert past_items(done.itinerary, done.moment) == past_items(state.itinerary, done.moment)
    assert f"{venue.name} replaces Musée du Louvre today at" in done.glance
    figures = score(state.itinerary, done)
    assert figures.responsive and figures.kept == figures.ahead - 1  # only the Louvre changed


def test_a_late_arrival_pushes_the_day_back_and_keeps_a_lock(state, planned) -> None:
    itinerary, plan = planned
    locked_plan = Lock("d0-meal-breizh_cafe")(plan, state.facts)  # the traveller locked dinner
    locked = load_trip_state(itinerary, locked_plan)
    done = replan(locked, "2027-06-15T08:00", "late", "240")
    assert done.ok
    arrival = next(a for a in done.itinerary.days[0].activities if a.role == "arrival")
    assert arrival.window.end.strftime("%H:%M") == "13:50" and arrival.end.hour == 13
    dinner = next(a for a in done.itinerary.days[0].activities if a.ref == "breizh_cafe")
    assert dinner.locked and dinner.window.start.strftime("%H:%M") == "19:05"  # the lock held
    visits = [a for a in done.itinerary.days[0].activities if a.role in ("activity", "meal", "checkin")]
    assert all(minutes_of(a.window.start) >= 13 * 60 + 50 + 30 for a in visits)
    assert "N0701 JFK→CDG now lands 13:50" in done.glance


def test_rain_moves_outdoor_visits_after_it_and_keeps_the_morning(state) -> None:
    done = replan(state, "2027-06-18T08:00", "rain_from", "14:00")
    assert done.ok
    day = done.itinerary.days[3]
    assert "canal_saint_martin" in {a.ref for a in day.activities}  # 09:30, before the rain
    after = [a for a in day.activities if a.kind.value == "attraction" and minutes_of(a.window.end) > 14 * 60]
    assert all(state.facts.venue(a.ref).indoor is not False for a in after)
    assert "montmartre" not in {a.ref for a in day.activities}
    assert score(state.itinerary, done).responsive


def test_done_for_today_ends_the_day_and_skip_takes_a_place_out(state) -> None:
    done = replan(state, "2027-06-16T13:00", "done_for_today")
    assert done.ok and not [a for a in done.itinerary.days[1].activities
                            if a.role in ("activity", "meal") and minutes_of(a.window.start) >= 13 * 60]
    assert past_items(done.itinerary, done.moment) == past_items(state.itinerary, done.moment)
    skipped = replan(state, "2027-06-17T12:00", "skip", "orsay")
    assert skipped.ok and "musee_orsay" not in {a.ref for d in skipped.itinerary.days for a in d.activities}
    assert any(r.ref == "musee_orsay" for r in skipped.plan.removed)  # no later re-plan brings it back
    assert skipped.glance.startswith("Musée d'Orsay dropped (today at 14:15)")


def test_starting_from_a_point_gives_the_next_visit_its_way_there(state) -> None:
    done = replan(state, "2027-06-16T12:40", "at", "48.8867,2.3431")  # up on Montmartre
    assert done.ok
    lunch = next(a for a in done.itinerary.days[1].activities if a.ref == "le_procope")
    leg = state.facts.leg(__import__("engine.models", fromlist=["Geo"]).Geo(lat=48.8867, lon=2.3431),
                          lunch.geo, done.itinerary.days[1].date)
    assert minutes_of(lunch.window.start) >= 12 * 60 + 40 + leg.duration_seconds / 60


def test_a_booked_event_mid_trip_is_locked_in_and_what_it_overlaps_gives_way(state) -> None:
    done = replan(state, "2027-06-17T12:00", "bookings", str(GISELLE))
    assert done.ok
    giselle = next(a for a in done.itinerary.days[2].activities if a.ref.startswith("booked_event_"))
    assert giselle.locked and giselle.window.start.strftime("%H:%M") == "19:30"
    assert "cafe_de_flore" not in day_visits(done.itinerary, 2)  # dinner at 19:20 overlapped it
    assert done.itinerary.intent.bookings.events and score(state.itinerary, done).responsive


def test_bad_input_is_one_error_naming_the_option(state) -> None:
    with pytest.raises(InputError, match="not during the trip"):
        replan(state, "2027-07-01T10:00", "skip", "Louvre")
    with pytest.raises(InputError, match="no visit to 'Big Ben'"):
        replan(state, "2027-06-16T10:00", "closed", "Big Ben")
    for kind, value in (("late", "0"), ("late", "soon"), ("rain_from", "25:00"), ("at", "91,0"), ("skip", "")):
        with pytest.raises(InputError):
            parse_disruption(kind, value)
    with pytest.raises(InputError, match="no flight lands or leaves after"):
        replan(state, "2027-06-19T18:00", "late", "60")  # the flight home has left


def test_a_late_flight_home_only_moves_the_flight(state) -> None:
    done = replan(state, "2027-06-16T10:00", "late", "60")
    assert done.ok and done.glance == "N0702 CDG→JFK now leaves 18:05; the rest unchanged."
    assert score(state.itinerary, done).preservation == pytest.approx(1 - 1 / score(state.itinerary, done).ahead)


def test_now_with_an_offset_is_read_on_the_trip_clock(state) -> None:
    at = moment_in_trip(datetime.fromisoformat("2027-06-16T09:00+00:00"), state.plan, "Europe/Paris")
    assert (at.day, at.minute) == (1, 11 * 60)
