"""A multi-city trip's stay of up to 14 nights (SPEC_DECISIONS §2.11) plans: Paris 10 nights then
Rome 3 nights through the real run and ``tripwright plan --intent``, every day with its sights and
meals, no sight twice, within the budget — while a one-city trip keeps the seed's 2–7 days."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from engine.models import IntentV1, MultiCityIntent
from engine.models.intent import StayIntent
from engine.repair.chain_moves import ChainDraft, move_night

from .test_cli import TODAY, tw
from .test_multi_city_run import PARIS_ROME

LONG = {**PARIS_ROME, "budget_usd_cents": 1_200_000,
        "stays": [{"city": "Paris", "nights": 10}, {"city": "Rome", "nights": 3}]}
ONE_CITY = {"city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-21", "tz": "Europe/Paris"},
            "budget_usd_cents": 600000, "airports": ["CDG"], "origin_airport": "JFK"}


def test_a_stay_plans_up_to_fourteen_nights_and_a_city_trip_keeps_its_week() -> None:
    fourteen = {**ONE_CITY, "date_window": {**ONE_CITY["date_window"], "end": "2027-06-29"}}
    assert StayIntent.model_validate(fourteen).days == 15
    with pytest.raises(ValidationError, match="a city trip lasts 2-7 days, got 15"):
        IntentV1.model_validate(fourteen)
    assert IntentV1.model_validate(ONE_CITY).days == 7
    fifteen = {**ONE_CITY, "date_window": {**ONE_CITY["date_window"], "end": "2027-06-30"}}
    with pytest.raises(ValidationError, match="a stay lasts 1-14 nights, got 16"):
        StayIntent.model_validate(fifteen)


def test_chain_repair_moves_a_night_into_a_stay_up_to_fourteen_nights() -> None:
    def draft(a: int, b: int) -> ChainDraft:
        return ChainDraft(intent=MultiCityIntent.model_validate(
            {**PARIS_ROME, "stays": [{"city": "Paris", "nights": a}, {"city": "Rome", "nights": b}]}))

    moved, _ = move_night(draft(3, 13), 0, 1, "budget")
    assert [s.nights for s in moved.intent.stays] == [2, 14]
    assert move_night(draft(3, 14), 0, 1, "budget") is None  # a stay lasts at most 14 nights


def test_a_stay_past_fourteen_nights_is_one_line(tmp_path) -> None:
    path = tmp_path / "intent.json"
    path.write_text(json.dumps({**LONG, "stays": [{"city": "Paris", "nights": 15}, {"city": "Rome", "nights": 2}]}))
    done = tw("plan", "--intent", str(path), "--today", TODAY)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "14" in done.stderr, done.stderr
