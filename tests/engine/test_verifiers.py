"""Pure verifiers (seed §6, §18) on small hand-built plans over real fixture facts."""

from __future__ import annotations

import dataclasses
from datetime import date, time

import pytest

from engine.costs import plan_cost
from engine.models import ChoiceKind, ViolationKind
from engine.planning.builder import lodging_choice
from engine.schedule import elapsed_minutes, return_leg
from engine.tools import ToolOverrides
from engine.verify import (blocking, verify_budget, verify_last_train, verify_lodging_windows, verify_plan,
                           verify_preferences, verify_timing, verify_venue_hours, verify_weather)

from .conftest import (attraction_slot, flight_slot, gather_inputs, lodging_slot, make_intent, paris_demo,
                       placeless_slot, plan_of, venue_slot)

JUNE_15 = date(2027, 6, 15)  # a Tuesday: the Louvre is closed
JUNE_16 = date(2027, 6, 16)  # a Wednesday
RAINY = date(2027, 6, 17)


def one_day(day: date, *slots):
    return plan_of(day, [list(slots)])


# -- budget (seed §6.1, SPEC_DECISIONS §2.1) ----------------------------------------------------
@pytest.fixture(scope="module")
def costed_plan(paris_facts):
    """Arrival + hotel on day 0, checkout + departure on day 4, each slot with a pricier fallback."""
    f = paris_facts.flights
    out, back = f["n0701-budget-20270614"], f["n0702-budget-20270619"]
    hotel, pricey = paris_facts.lodgings["hotel_jeanne_darc"], paris_facts.lodgings["le_meurice"]
    arrival = flight_slot(out, "arrival", "02:35", "09:50")
    arrival = arrival.model_copy(update={"choices": [*arrival.choices, *flight_slot(
        f["af9-mid-20270615"], "arrival", "02:35", "09:50").choices]})
    checkin = lodging_slot(hotel, "checkin", "14:00", "14:30")
    checkin = checkin.model_copy(update={"choices": [*checkin.choices, lodging_choice(0, "checkin", pricey, 4)]})
    checkout = lodging_slot(hotel, "checkout", "10:00", "10:15", di=4)
    departure = flight_slot(back, "departure", "17:05", "23:59", di=4)
    return plan_of(JUNE_15, [[arrival, checkin], [], [], [], [checkout, departure]], daily_spend=9869)


def test_budget_counts_selected_options_only(costed_plan, paris_facts) -> None:
    cost = plan_cost(costed_plan, paris_facts)
    assert cost.flights == 39125 + 42375
    assert cost.lodging == 4 * 17415  # not le Meurice, the ranked fallback
    assert cost.transit == 2 * 1509  # CDG ⇄ hotel by RER B, €13 each way
    assert cost.daily_spend == 5 * 9869
    assert cost.total == 81500 + 69660 + 3018 + 49345 == 203523


def test_over_budget_is_blocking(costed_plan, paris_facts) -> None:
    [v] = verify_budget(costed_plan, paris_demo(budget_usd_cents=203522), paris_facts)
    assert (v.kind, v.blocking, v.node_ref) == (ViolationKind.budget_exceeded, True, "trip")
    assert v.details["over_usd_cents"] == 1
    assert v.details["total_usd_cents"] == 203523


@pytest.mark.parametrize("budget", [203523, 210000, 226136])
def test_thin_headroom_is_a_slippage_advisory_only(costed_plan, paris_facts, budget) -> None:
    [v] = verify_budget(costed_plan, paris_demo(budget_usd_cents=budget), paris_facts)
    assert (v.kind, v.blocking) == (ViolationKind.slippage_risk, False)
    assert v.details["headroom_usd_cents"] == budget - 203523


def test_ten_percent_headroom_is_clean(costed_plan, paris_facts) -> None:
    assert verify_budget(costed_plan, paris_demo(budget_usd_cents=226137), paris_facts) == []
    assert verify_budget(costed_plan, paris_demo(budget_usd_cents=400000), paris_facts) == []


# -- timing (seed §6.2) -------------------------------------------------------------------------
def test_ten_minute_gap_with_fifteen_required_is_infeasible(paris_facts) -> None:
    plan = one_day(JUNE_16, placeless_slot("museum_visit", "16:00", "18:00"),
                   placeless_slot("dinner", "18:10", "19:30", kind=ChoiceKind.meal, role="meal"))
    [v] = verify_timing(plan, paris_demo(), paris_facts)
    assert (v.kind, v.blocking, v.node_ref) == (ViolationKind.timing_infeasible, True, "d0-meal-dinner")
    assert (v.details["gap_minutes"], v.details["required"]) == (10, 15)
    assert v.details["after"] == "d0-activity-museum_visit"
    ok = one_day(JUNE_16, placeless_slot("museum_visit", "16:00", "18:00"),
                 placeless_slot("dinner", "18:15", "19:30", kind=ChoiceKind.meal, role="meal"))
    assert verify_timing(ok, paris_demo(), paris_facts) == []


def test_a_museum_needs_twenty_minutes_after(paris_facts) -> None:
    tight = one_day(JUNE_16, venue_slot(paris_facts, "louvre", "10:00", "13:00"),
                    placeless_slot("picnic", "13:15", "14:00"))
    [v] = verify_timing(tight, paris_demo(), paris_facts)
    assert (v.details["gap_minutes"], v.details["required"]) == (15, 20)
    fine = one_day(JUNE_16, venue_slot(paris_facts, "louvre", "10:00", "13:00"),
                   placeless_slot("picnic", "13:20", "14:00"))
    assert verify_timing(fine, paris_demo(), paris_facts) == []


def test_required_gap_adds_the_transfer_time(paris_facts) -> None:
    louvre, orsay = paris_facts.venue("louvre"), paris_facts.venue("musee_orsay")
    travel = paris_facts.leg(louvre.location, orsay.location, JUNE_16).duration_seconds // 60
    assert travel == 12  # 813 m across the Seine on foot: 0.98 km of streets at 5 km/h
    plan = one_day(JUNE_16, venue_slot(paris_facts, "louvre", "10:00", "12:00"),
                   venue_slot(paris_facts, "musee_orsay", "12:20", "14:00"))
    [v] = verify_timing(plan, paris_demo(), paris_facts)
    assert v.details["required"] == 20 + travel
    later = one_day(JUNE_16, venue_slot(paris_facts, "louvre", "10:00", "12:00"),
                    venue_slot(paris_facts, "musee_orsay", "12:32", "14:00"))
    assert verify_timing(later, paris_demo(), paris_facts) == []


def test_150_minutes_after_an_arrival_flight_is_enough(paris_facts) -> None:
    flight = paris_facts.flights["n0701-budget-20270614"]
    hotel = paris_facts.lodgings["hotel_jeanne_darc"]
    transfer = paris_facts.airport_leg("CDG", hotel.geo, JUNE_15).duration_seconds // 60
    assert 30 + transfer < 150
    lands_10 = one_day(JUNE_15, flight_slot(flight, "arrival", "02:35", "10:00"),
                       lodging_slot(hotel, "checkin", "12:30", "13:00"))
    assert verify_timing(lands_10, paris_demo(), paris_facts) == []
    rushed = one_day(JUNE_15, flight_slot(flight, "arrival", "02:35", "10:00"),
                     lodging_slot(hotel, "checkin", "10:30", "11:00"))
    [v] = verify_timing(rushed, paris_demo(), paris_facts)
    assert v.node_ref == "d0-checkin-hotel_jeanne_darc"
    assert (v.details["gap_minutes"], v.details["required"]) == (30, 30 + transfer)


def test_a_departure_needs_the_airport_buffer(paris_facts) -> None:
    flight = paris_facts.flights["n0702-budget-20270619"]
    orsay = paris_facts.venue("musee_orsay")
    transfer = paris_facts.airport_leg("CDG", orsay.location, date(2027, 6, 19)).duration_seconds // 60
    assert transfer == 59
    late = one_day(date(2027, 6, 19), venue_slot(paris_facts, "musee_orsay", "10:00", "14:30"),
                   flight_slot(flight, "departure", "17:05", "23:59"))
    [v] = verify_timing(late, paris_demo(), paris_facts)
    assert v.details["required"] == 120 + transfer and v.details["gap_minutes"] == 155
    early = one_day(date(2027, 6, 19), venue_slot(paris_facts, "musee_orsay", "10:00", "14:06"),
                    flight_slot(flight, "departure", "17:05", "23:59"))  # 179 min: exactly enough
    assert verify_timing(early, paris_demo(), paris_facts) == []


# -- venue hours (seed §6.3, §18.3) -------------------------------------------------------------
@pytest.fixture(scope="module")
def split_facts(paris_facts):
    """The seed's split-hours venue (10–12, 14–18 every day) added to the real Paris facts."""
    base = paris_facts.venue("musee_rodin")
    venue = type(base).model_validate({**base.model_dump(), "id": "split_hours_gallery", "name": "Split Hours Gallery",
                                       "opening_hours": "Mo-Su 10:00-12:00,14:00-18:00", "blackout_dates": []})
    return dataclasses.replace(paris_facts, venues={**paris_facts.venues, venue.id: venue}), venue


def test_split_hours_thirteen_oclock_violates_fifteen_passes(split_facts) -> None:
    facts, venue = split_facts
    [v] = verify_venue_hours(one_day(JUNE_16, attraction_slot(venue, "13:00", "14:00")), paris_demo(), facts)
    assert (v.kind, v.blocking, v.details["reason"]) == (ViolationKind.venue_closed, True, "outside_hours")
    assert v.details["hours"] == "10:00-12:00, 14:00-18:00"
    assert verify_venue_hours(one_day(JUNE_16, attraction_slot(venue, "15:00", "16:00")), paris_demo(), facts) == []
    # A slot spanning the lunch closure is not covered by any single window.
    [span] = verify_venue_hours(one_day(JUNE_16, attraction_slot(venue, "11:00", "15:00")), paris_demo(), facts)
    assert span.details["reason"] == "outside_hours"
    # Windows are inclusive at both ends.
    assert verify_venue_hours(one_day(JUNE_16, attraction_slot(venue, "14:00", "18:00")), paris_demo(), facts) == []


def test_real_split_hours_in_rome(rome_intent, rome_inputs) -> None:
    facts = rome_inputs.facts  # San Clemente: 09:00–12:30, 15:00–18:00 on weekdays
    bad = one_day(JUNE_16, venue_slot(facts, "san_clemente", "13:00", "14:00"))
    [v] = verify_venue_hours(bad, rome_intent, facts)
    assert v.details["hours"] == "09:00-12:30, 15:00-18:00"
    good = one_day(JUNE_16, venue_slot(facts, "san_clemente", "15:00", "16:00"))
    assert verify_venue_hours(good, rome_intent, facts) == []


def test_louvre_on_a_tuesday_is_closed(paris_facts) -> None:
    [v] = verify_venue_hours(one_day(JUNE_15, venue_slot(paris_facts, "louvre", "10:00", "12:00")),
                             paris_demo(), paris_facts)
    assert v.node_ref == "d0-activity-louvre"
    assert (v.kind, v.blocking) == (ViolationKind.venue_closed, True)
    assert v.details == {**v.details, "reason": "closed_day", "weekday": "Tuesday", "hours": "closed",
                         "date": "2027-06-15"}
    wednesday = one_day(JUNE_16, venue_slot(paris_facts, "louvre", "10:00", "12:00"))
    assert verify_venue_hours(wednesday, paris_demo(), paris_facts) == []


def test_christmas_is_a_blackout_date(paris_facts) -> None:
    christmas = date(2027, 12, 25)  # a Saturday; the Louvre opens 09:00–18:00 on Saturdays
    [v] = verify_venue_hours(one_day(christmas, venue_slot(paris_facts, "louvre", "10:00", "12:00")),
                             paris_demo(), paris_facts)
    assert (v.kind, v.details["reason"], v.details["date"]) == (ViolationKind.venue_closed, "blackout_date",
                                                                "2027-12-25")
    boxing_day = one_day(date(2027, 12, 26), venue_slot(paris_facts, "louvre", "10:00", "12:00"))
    assert verify_venue_hours(boxing_day, paris_demo(), paris_facts) == []


def test_opening_hours_are_wall_clock_on_dst_days(paris_facts) -> None:
    for day in (date(2027, 3, 28), date(2027, 10, 31)):  # both Sundays: Louvre 09:00–18:00
        plan = one_day(day, venue_slot(paris_facts, "louvre", "09:00", "18:00"))
        assert verify_venue_hours(plan, paris_demo(), paris_facts) == []
        early = one_day(day, venue_slot(paris_facts, "louvre", "08:30", "10:00"))
        assert verify_venue_hours(early, paris_demo(), paris_facts)[0].details["reason"] == "outside_hours"


def test_restaurants_hours_are_checked_too(paris_facts) -> None:
    # Le Relais de l'Entrecôte serves 12:00–14:30 and 19:00–23:00.
    [v] = verify_venue_hours(one_day(JUNE_16, venue_slot(paris_facts, "relais_entrecote", "16:00", "17:00")),
                             paris_demo(), paris_facts)
    assert v.node_ref == "d0-meal-relais_entrecote"


# -- weather (seed §6.4) ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def wet_facts(paris_intent):
    return gather_inputs(paris_intent, ToolOverrides(weather={RAINY: {"precip_prob": 0.8}})).facts


def test_rain_makes_outdoor_blocking_and_unknown_an_advisory(wet_facts) -> None:
    assert wet_facts.weather[RAINY].precip_prob == 0.8
    plan = plan_of(JUNE_16, [[], [venue_slot(wet_facts, "louvre", "09:30", "12:00", di=1),
                                  venue_slot(wet_facts, "versailles", "13:00", "15:00", di=1),
                                  venue_slot(wet_facts, "tuileries", "15:30", "16:30", di=1)]])
    found = {v.node_ref: v for v in verify_weather(plan, paris_demo(), wet_facts)}
    assert set(found) == {"d1-activity-versailles", "d1-activity-tuileries"}  # the Louvre is indoor
    advisory, outdoor = found["d1-activity-versailles"], found["d1-activity-tuileries"]
    assert (advisory.blocking, advisory.details["reason"]) == (False, "uncertain_weather")
    assert (outdoor.blocking, outdoor.details["reason"]) == (True, "outdoor_in_bad_weather")
    assert outdoor.details["precip_prob"] == 0.8 and outdoor.kind is ViolationKind.weather_unsuitable


def test_the_same_visits_on_a_dry_day_are_fine(wet_facts) -> None:
    dry = one_day(JUNE_16, venue_slot(wet_facts, "versailles", "13:00", "15:00"),
                  venue_slot(wet_facts, "tuileries", "15:30", "16:30"))
    assert wet_facts.weather[JUNE_16].precip_prob == 0.27
    assert verify_weather(dry, paris_demo(), wet_facts) == []


@pytest.mark.parametrize("weather, bad", [({"precip_prob": 0.60}, True), ({"precip_prob": 0.59}, False),
                                          ({"wind_kmh": 30.0}, True), ({"wind_kmh": 29.9}, False)])
def test_weather_thresholds(paris_facts, weather, bad) -> None:
    from engine.models import WeatherDay
    day = paris_facts.weather[JUNE_16]
    facts = dataclasses.replace(paris_facts, weather={JUNE_16: WeatherDay(**{**day.model_dump(), **weather})})
    plan = one_day(JUNE_16, venue_slot(facts, "tuileries", "15:30", "16:30"))
    assert [v.blocking for v in verify_weather(plan, paris_demo(), facts)] == ([True] if bad else [])


# -- preferences (seed §6.5, §18.5) -------------------------------------------------------------
@pytest.fixture(scope="module")
def kid_setup():
    """A family trip that pins the (not kid-friendly) catacombs on day 1."""
    intent = make_intent("Paris", JUNE_15, 5, kid=True, locked=[
        {"day_offset": 1, "window": {"start": "10:00", "end": "11:30"}, "activity_id": "catacombs"}])
    return intent, gather_inputs(intent).facts


def test_kid_friendly_slot_ending_at_21_is_blocking_late_night(kid_setup) -> None:
    intent, facts = kid_setup
    late = one_day(JUNE_16, venue_slot(facts, "eiffel_tower", "19:30", "21:00"))
    [v] = verify_preferences(late, intent, facts)
    assert (v.kind, v.blocking, v.details["reason"]) == (ViolationKind.pref_violated, True, "late_night")
    for end in ("19:00", "20:00"):
        ok = one_day(JUNE_16, venue_slot(facts, "eiffel_tower", "17:30", end))
        assert [x for x in verify_preferences(ok, intent, facts) if x.reason == "late_night"] == []
    assert verify_preferences(late, paris_demo(), facts) == []  # adults may stay out


def test_a_venue_that_is_not_kid_friendly_is_an_advisory(kid_setup) -> None:
    intent, facts = kid_setup
    assert facts.venue("catacombs").kid_friendly is False
    plan = plan_of(JUNE_15, [[], [venue_slot(facts, "catacombs", "10:00", "11:30", di=1, locked=True)]])
    [v] = verify_preferences(plan, intent, facts)
    assert (v.blocking, v.details["reason"], v.node_ref) == (False, "not_kid_friendly", "d1-activity-catacombs")


def test_a_missing_locked_slot_is_blocking(kid_setup) -> None:
    intent, facts = kid_setup
    moved = plan_of(JUNE_15, [[], [venue_slot(facts, "catacombs", "12:00", "13:30", di=1, locked=True)]])
    reasons = {v.reason: v for v in verify_preferences(moved, intent, facts)}
    assert reasons["locked_slot_missing"].blocking and reasons["locked_slot_missing"].node_ref == "day:1"
    unlocked = plan_of(JUNE_15, [[], [venue_slot(facts, "catacombs", "10:00", "11:30", di=1)]])
    assert "locked_slot_missing" in {v.reason for v in verify_preferences(unlocked, intent, facts)}


def test_red_eye_when_overnight_flights_are_excluded(paris_facts) -> None:
    red_eye = paris_facts.flights["n0701-budget-20270614"]
    plan = one_day(JUNE_15, flight_slot(red_eye, "arrival", "02:35", "09:50"))
    [v] = verify_preferences(plan, paris_demo(avoid_overnight=True), paris_facts)
    assert (v.blocking, v.details["reason"]) == (True, "overnight_flight")
    assert verify_preferences(plan, paris_demo(), paris_facts) == []
    daytime = one_day(JUNE_15, flight_slot(paris_facts.flights["af9-mid-20270615"], "arrival", "13:05", "20:15"))
    assert verify_preferences(daytime, paris_demo(avoid_overnight=True), paris_facts) == []


# -- hotel windows (seed §18.2) -----------------------------------------------------------------
def test_museum_at_14_before_a_15_oclock_checkin_is_a_violation(paris_facts) -> None:
    hotel = paris_facts.lodgings["citadines_les_halles"]
    assert hotel.checkin_window.start == time(15, 0)
    arrival = flight_slot(paris_facts.flights["n0701-budget-20270614"], "arrival", "02:35", "09:50")
    early = one_day(JUNE_15, arrival, venue_slot(paris_facts, "musee_orsay", "14:00", "14:40"),
                    lodging_slot(hotel, "checkin", "15:00", "15:30"))
    [v] = verify_lodging_windows(early, paris_demo(), paris_facts)
    assert (v.kind, v.blocking, v.details["reason"], v.node_ref) == (
        ViolationKind.timing_infeasible, True, "before_checkin", "d0-activity-musee_orsay")
    after = one_day(JUNE_15, arrival, lodging_slot(hotel, "checkin", "15:00", "15:30"),
                    venue_slot(paris_facts, "musee_orsay", "16:00", "17:30"))
    assert verify_lodging_windows(after, paris_demo(), paris_facts) == []


def test_checkin_and_checkout_must_sit_in_their_windows(paris_facts) -> None:
    hotel = paris_facts.lodgings["citadines_les_halles"]  # check-in from 15:00, checkout 07:00–11:00
    too_soon = one_day(JUNE_15, lodging_slot(hotel, "checkin", "13:00", "13:30"))
    assert [v.reason for v in verify_lodging_windows(too_soon, paris_demo(), paris_facts)] == ["checkin_window"]
    late_out = one_day(date(2027, 6, 19), lodging_slot(hotel, "checkout", "12:30", "12:45", di=4))
    assert [v.reason for v in verify_lodging_windows(late_out, paris_demo(), paris_facts)] == ["checkout_window"]
    # Something before checkout may end at most 60 min after the window closes (11:00 + 60).
    lingering = one_day(date(2027, 6, 19), venue_slot(paris_facts, "musee_orsay", "09:30", "12:05", di=4),
                        lodging_slot(hotel, "checkout", "07:00", "07:15", di=4))
    assert verify_lodging_windows(lingering, paris_demo(), paris_facts) == []  # it comes after checkout
    before = one_day(date(2027, 6, 19), venue_slot(paris_facts, "marche_aligre", "08:00", "12:05", di=4),
                     lodging_slot(hotel, "checkout", "12:10", "12:20", di=4))
    assert {v.reason for v in verify_lodging_windows(before, paris_demo(), paris_facts)} == {
        "checkout_window", "after_checkout"}


# -- last train (seed §18.4) --------------------------------------------------------------------
def _rome_evening(facts, day0: date, dinner_end: str):
    hotel = facts.lodgings["the_beehive"]
    return plan_of(day0, [[lodging_slot(hotel, "checkin", "15:00", "15:30")], [],
                          [venue_slot(facts, "la_pergola", "21:30", dinner_end, di=2)],
                          [lodging_slot(hotel, "checkout", "10:00", "10:15", di=3)]])


def test_late_dinner_after_the_last_metro_cutoff(rome_intent, rome_inputs) -> None:
    facts = rome_inputs.facts
    plan = _rome_evening(facts, date(2027, 6, 14), "23:20")  # day 2 = Wednesday 2027-06-16
    leg = return_leg(plan, 2, facts)
    assert leg.mode.value == "metro" and leg.duration_seconds == 20 * 60  # La Pergola → the Beehive
    assert facts.last_metro_minutes(date(2027, 6, 16)) == 23 * 60 + 30
    [v] = verify_last_train(plan, rome_intent, facts)
    assert (v.kind, v.blocking, v.details["reason"]) == (ViolationKind.timing_infeasible, True, "last_train")
    assert v.details["leave_by"] == "22:55"  # 23:30 − 20 min metro − 15 min buffer
    assert v.node_ref == "d2-meal-la_pergola"
    assert verify_last_train(_rome_evening(facts, date(2027, 6, 14), "22:55"), rome_intent, facts) == []


def test_friday_night_metro_runs_later(rome_intent, rome_inputs) -> None:
    facts = rome_inputs.facts
    plan = _rome_evening(facts, date(2027, 6, 16), "23:20")  # day 2 = Friday: last metro 01:30
    assert verify_last_train(plan, rome_intent, facts) == []


# -- DST (seed §6.6) ----------------------------------------------------------------------------
def test_elapsed_minutes_across_dst_changes() -> None:
    assert elapsed_minutes(date(2027, 3, 28), time(1, 50), time(3, 10), "Europe/Paris") == 20
    assert elapsed_minutes(date(2027, 10, 31), time(1, 50), time(3, 10), "Europe/Paris") == 140
    assert elapsed_minutes(date(2027, 6, 16), time(1, 50), time(3, 10), "Europe/Paris") == 80
    assert elapsed_minutes(date(2027, 3, 14), time(1, 30), time(3, 30), "America/New_York") == 60


def test_timing_uses_real_minutes_on_the_spring_forward_night(paris_facts) -> None:
    night = date(2027, 3, 28)
    short = one_day(night, placeless_slot("late_show", "00:30", "01:50"), placeless_slot("bakery", "03:00", "04:00"))
    [v] = verify_timing(short, paris_demo(), paris_facts)
    assert v.details["gap_minutes"] == 10  # 70 min on the clock, 10 in reality
    fine = one_day(night, placeless_slot("late_show", "00:30", "01:50"), placeless_slot("bakery", "03:10", "04:00"))
    assert verify_timing(fine, paris_demo(), paris_facts) == []


@pytest.mark.parametrize("day", [date(2027, 3, 28), date(2027, 10, 31)])
def test_ordinary_daytime_gaps_on_dst_days_are_fine(paris_facts, day) -> None:
    plan = one_day(day, venue_slot(paris_facts, "louvre", "09:30", "12:00"),
                   placeless_slot("lunch", "12:20", "13:20", kind=ChoiceKind.meal, role="meal"),
                   placeless_slot("walk", "13:35", "15:00"),
                   venue_slot(paris_facts, "musee_orsay", "16:00", "17:30"))
    assert verify_timing(plan, paris_demo(), paris_facts) == []
    assert verify_venue_hours(plan, paris_demo(), paris_facts) == []


@pytest.mark.parametrize("start", [date(2027, 3, 26), date(2027, 10, 29)])
def test_planned_trips_over_dst_weekends_verify_clean(start) -> None:
    import asyncio

    from engine.pipeline import PlanningSession

    from .conftest import TODAY
    result = asyncio.run(PlanningSession(today=TODAY).plan(make_intent("Paris", start, 5)))
    assert result.status == "completed"
    facts = result.inputs.facts
    assert verify_timing(result.plan, result.itinerary.intent, facts) == []
    assert blocking(verify_plan(result.plan, result.itinerary.intent, facts)) == []
    assert any(d.date in (date(2027, 3, 28), date(2027, 10, 31)) and len(d.slots) >= 3 for d in result.plan.days)


# -- the whole set ------------------------------------------------------------------------------
def test_verify_plan_orders_blocking_first_and_is_deterministic(wet_facts) -> None:
    plan = plan_of(JUNE_15, [[venue_slot(wet_facts, "louvre", "10:00", "12:00")],
                             [], [venue_slot(wet_facts, "versailles", "13:00", "15:00", di=2),
                                  venue_slot(wet_facts, "tuileries", "15:05", "16:30", di=2)]])
    intent = paris_demo(budget_usd_cents=100)
    first = verify_plan(plan, intent, wet_facts)
    assert first == verify_plan(plan, intent, wet_facts)
    flags = [v.blocking for v in first]
    assert flags == sorted(flags, reverse=True)
    kinds = {(v.kind.value, v.node_ref) for v in first}
    assert {("budget_exceeded", "trip"), ("venue_closed", "d0-activity-louvre"),
            ("weather_unsuitable", "d2-activity-tuileries"), ("weather_unsuitable", "d2-activity-versailles"),
            ("timing_infeasible", "d2-activity-tuileries")} == kinds
