"""Contracts (seed §3): every IntentV1 invariant, value types, and plan shape rules."""

from __future__ import annotations

import copy
from datetime import date, datetime, time, timezone

import pytest
from pydantic import ValidationError

from engine.models import (Assumptions, ChoiceKind, DayPlan, Geo, IntentV1, Lodging, PlanV1, Provenance,
                           Slot, Tier, TimeWindow, Violation, ViolationKind)

from .conftest import PARIS_DEMO, placeless_slot, plan_of, win

PROV = dict(tool="lodging", call_ts="2026-11-23T00:00:00Z", response_digest="a" * 64)


def intent_with(mutate) -> dict:
    data = copy.deepcopy(PARIS_DEMO)
    mutate(data)
    return data


def rejected(data: dict) -> ValidationError:
    with pytest.raises(ValidationError) as info:
        IntentV1.model_validate(data)
    return info.value


def test_the_demo_intent_is_valid_and_normalised() -> None:
    data = intent_with(lambda d: d.update(airports=["cdg", " ory", "CDG"], origin_airport="jfk"))
    data["prefs"]["themes"] = ["Art", "street-food", "art"]
    intent = IntentV1.model_validate(data)
    assert intent.airports == ["CDG", "ORY"]  # upper-cased, trimmed, de-duplicated in order
    assert intent.origin_airport == "JFK"
    assert intent.prefs.themes == ["art", "street_food"]
    assert intent.days == 5
    assert intent.date_window.days == 5
    assert intent.mode == "city"


@pytest.mark.parametrize("mutate, field, words", [
    (lambda d: d["date_window"].update(start="2027-06-20"), "date_window", "end must not be before start"),
    (lambda d: d["date_window"].update(end="2027-06-22"), "date_window", "2-7 days, got 8"),
    (lambda d: d.update(budget_usd_cents=0), "budget_usd_cents", "greater than zero"),
    (lambda d: d.update(budget_usd_cents=-5000), "budget_usd_cents", "greater than zero"),
    (lambda d: d.update(airports=["CD1"]), "airports", "'CD1' is not a 3-letter IATA airport code"),
    (lambda d: d.update(airports=["PARIS"]), "airports", "not a 3-letter IATA"),
    (lambda d: d.update(airports=[]), "airports", "at least 1 item"),
    (lambda d: d.update(origin_airport="J1K"), "origin_airport", "not a 3-letter IATA"),
    (lambda d: d.update(origin_airport="CDG"), "origin_airport", "must differ"),
    (lambda d: d["date_window"].update(tz="Europe/Atlantis"), "date_window.tz", "unknown IANA timezone"),
    (lambda d: d["date_window"].update(tz="Europe"), "date_window.tz", "unknown IANA timezone"),
    (lambda d: d["date_window"].update(tz=""), "date_window.tz", "unknown IANA timezone"),
    (lambda d: d["prefs"].update(locked_slots=[
        {"day_offset": 5, "window": {"start": "14:00", "end": "16:00"}, "activity_id": "eiffel_tower"}]),
     "prefs.locked_slots[0].day_offset", "outside the 5-day trip (0-4)"),
    (lambda d: d["prefs"].update(locked_slots=[
        {"day_offset": -1, "window": {"start": "14:00", "end": "16:00"}, "activity_id": "eiffel_tower"}]),
     "prefs.locked_slots.0.day_offset", "greater than or equal to 0"),
    (lambda d: d["prefs"].update(locked_slots=[
        {"day_offset": 1, "window": {"start": "16:00", "end": "14:00"}, "activity_id": "eiffel_tower"}]),
     "prefs.locked_slots.0.window", "must be after start"),
    (lambda d: d["prefs"].update(locked_slots=[
        {"day_offset": 1, "window": {"start": "14:00", "end": "16:00"}, "activity_id": "Eiffel Tower"}]),
     "prefs.locked_slots.0.activity_id", "lowercase"),
    (lambda d: d.update(hotel_stars=5), "hotel_stars", "Extra inputs are not permitted"),
    (lambda d: d["prefs"].update(pets=True), "prefs.pets", "Extra inputs are not permitted"),
    (lambda d: d.update(mode="road_trip"), "mode", "'city'"),
    (lambda d: d.update(city=""), "city", "at least 1 character"),
    (lambda d: d["prefs"].update(themes=["art!!"]), "prefs.themes", "short lowercase word"),
])
def test_invalid_intents_are_rejected_naming_the_field(mutate, field: str, words: str) -> None:
    error = rejected(intent_with(mutate))
    text = str(error)
    assert field in text, text
    assert words in text, text


def test_the_longest_and_shortest_trips_are_accepted() -> None:
    four = IntentV1.model_validate(intent_with(lambda d: d["date_window"].update(end="2027-06-18")))
    seven = IntentV1.model_validate(intent_with(lambda d: d["date_window"].update(end="2027-06-21")))
    assert (four.days, seven.days) == (4, 7)


def test_locked_slot_on_the_last_day_is_inside_the_trip() -> None:
    intent = IntentV1.model_validate(intent_with(lambda d: d["prefs"].update(locked_slots=[
        {"day_offset": 4, "window": {"start": "09:00", "end": "10:00"}, "activity_id": "louvre"}])))
    assert intent.prefs.locked_slots[0].window == win("09:00", "10:00")


def test_intents_are_immutable() -> None:
    intent = IntentV1.model_validate(PARIS_DEMO)
    with pytest.raises(ValidationError, match="frozen"):
        intent.budget_usd_cents = 1  # type: ignore[misc]


def _lodging(**tier) -> dict:
    return dict(lodging_id="h", name="H", geo={"lat": 48.85, "lon": 2.35},
                checkin_window={"start": "15:00", "end": "23:00"},
                checkout_window={"start": "07:00", "end": "11:00"},
                price_per_night_usd_cents=10000, kid_friendly=True, provenance=PROV, **tier)


def test_unknown_enum_variants_are_rejected() -> None:
    assert Lodging.model_validate(_lodging(tier="mid")).tier is Tier.mid
    with pytest.raises(ValidationError) as info:
        Lodging.model_validate(_lodging(tier="palace"))
    assert "tier" in str(info.value) and "'budget', 'mid' or 'luxury'" in str(info.value)
    with pytest.raises(ValidationError, match="kind"):
        Violation(kind="too_expensive", node_ref="trip", blocking=True)
    assert Violation(kind="slippage_risk", node_ref="trip", blocking=False).kind is ViolationKind.slippage_risk
    with pytest.raises(ValidationError, match="Mid"):
        Lodging.model_validate(_lodging(tier="Mid"))  # enums are lowercase snake_case, exactly


@pytest.mark.parametrize("start, end", [("10:00", "10:00"), ("12:00", "09:30"), ("23:59", "00:00")])
def test_time_window_end_must_follow_start(start: str, end: str) -> None:
    with pytest.raises(ValidationError, match="must be after start"):
        TimeWindow(start=time.fromisoformat(start), end=time.fromisoformat(end))


def test_time_window_helpers() -> None:
    w = win("10:00", "12:30")
    assert w.minutes == 150
    assert w.label() == "10:00-12:30"
    assert w.covers(win("10:00", "12:30")) and w.covers(win("11:00", "12:00"))
    assert not w.covers(win("09:59", "11:00"))
    assert w.overlaps(win("12:00", "13:00")) and not w.overlaps(win("12:30", "13:00"))
    assert TimeWindow.of_minutes(9 * 60, 24 * 60 + 30) == win("09:00", "23:59")  # clamped to the day


def test_day_plan_rejects_overlapping_slots_and_sorts_the_rest() -> None:
    a = placeless_slot("a", "10:00", "12:00")
    b = placeless_slot("b", "11:30", "13:00")
    with pytest.raises(ValidationError, match="overlaps"):
        DayPlan(date=date(2027, 6, 15), slots=[a, b])
    c = placeless_slot("c", "12:00", "13:00")  # touching is not overlapping
    day = DayPlan(date=date(2027, 6, 15), slots=[c, a])
    assert [s.selected.option_ref for s in day.slots] == ["a", "c"]


def test_slot_needs_a_choice() -> None:
    with pytest.raises(ValidationError, match="choices"):
        Slot(window=win("10:00", "11:00"), role="activity", choices=[])


def test_plan_days_must_be_consecutive() -> None:
    days = [DayPlan(date=date(2027, 6, 15)), DayPlan(date=date(2027, 6, 17))]
    with pytest.raises(ValidationError, match="consecutive"):
        PlanV1(days=days, assumptions=Assumptions(daily_spend_est_cents=0), rng_seed=1)
    plan = plan_of(date(2027, 6, 15), [[], [placeless_slot("x", "10:00", "11:00", di=1)]])
    assert plan.find("d1-activity-x") == (1, 0)
    assert plan.with_slot(1, 0, None).days[1].slots == []


@pytest.mark.parametrize("lat, lon, field", [(91, 0, "lat"), (-90.5, 0, "lat"), (0, 180.1, "lon"),
                                             (0, -181, "lon")])
def test_geo_range(lat: float, lon: float, field: str) -> None:
    with pytest.raises(ValidationError) as info:
        Geo(lat=lat, lon=lon)
    assert field in str(info.value)


def test_geo_keeps_six_decimals() -> None:
    g = Geo(lat=48.8606111123, lon=-2.3376449)
    assert (g.lat, g.lon) == (48.860611, -2.337645)
    assert Geo(lat=90, lon=-180) == Geo(lat=90.0, lon=-180.0)


def test_provenance_timestamps_must_be_aware() -> None:
    with pytest.raises(ValidationError, match="timezone-aware"):
        Provenance(tool="x", call_ts=datetime(2026, 11, 23), response_digest="0" * 64)
    ok = Provenance(tool="x", call_ts=datetime(2026, 11, 23, tzinfo=timezone.utc), response_digest="0" * 64)
    assert ok.cache_hit is False and ok.source == "tool"


def test_choice_kind_values_are_the_seed_ones() -> None:
    assert [k.value for k in ChoiceKind] == ["flight", "lodging", "attraction", "transit", "meal"]
