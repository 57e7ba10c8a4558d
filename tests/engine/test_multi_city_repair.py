"""Chain repair of a multi-city trip (issue 33 §3): the moves as pure functions on a draft (bounded,
facts never moved), and end to end — a train arriving after the last connections leaves earlier,
a trip over its budget takes its stays down a tier — each move in the itinerary's repairs with
its diff and a decision in the traveller's words."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from engine.models import MoveType, MultiCityIntent, Tier
from engine.repair.chain_moves import ChainDraft, downgrade_stay_tier, move_night, shift_leg, swap_leg_mode

from .test_multi_city_run import PARIS_ROME, plan

PARIS = ZoneInfo("Europe/Paris")


def draft(**changes) -> ChainDraft:
    return ChainDraft(intent=MultiCityIntent.model_validate({**PARIS_ROME, **changes}))


def test_a_night_moves_to_the_next_stay_within_bounds() -> None:
    moved, move = move_night(draft(), 0, 1, "budget")
    assert [s.nights for s in moved.intent.stays] == [2, 3] and moved.intent.days == 6
    assert move.move_type is MoveType.move_night and move.new_value == "Paris 2, Rome 3 nights"
    one = draft(stays=[{"city": "Paris", "nights": 1}, {"city": "Rome", "nights": 2}])
    assert move_night(one, 0, 1, "budget") is None  # a stay keeps a night
    assert move_night(draft(), 0, 2, "budget") is None  # only to a neighbour


def test_a_leg_changes_mode_or_time_unless_booked() -> None:
    swapped, move = swap_leg_mode(draft(), 0, "train", "budget", was="flight")
    assert swapped.intent.leg_requests()[0].mode == "train" and move.old_value == "flight"
    at = datetime(2027, 6, 18, 13, 0, tzinfo=PARIS)
    shifted, move = shift_leg(draft(), 0, at, timedelta(hours=-3), "last_train", booked=False)
    assert shifted.departures[0] == at - timedelta(hours=3) and (move.old_value, move.new_value) == ("13:00", "10:00")
    early, _ = shift_leg(draft(), 0, at, timedelta(hours=-10), "last_train", booked=False)
    assert early.departures[0].hour == 6  # never before 06:00
    assert shift_leg(draft(), 0, at, timedelta(hours=-1), "last_train", booked=True) is None


def test_one_stay_down_a_tier() -> None:
    lower, move = downgrade_stay_tier(draft(), 1, Tier.mid, "budget")
    assert lower.intent.stays[1].tier is Tier.budget and lower.intent.stays[0].tier is None
    assert move.detail == "Rome" and (move.old_value, move.new_value) == ("mid", "budget")
    assert downgrade_stay_tier(draft(), 1, Tier.budget, "budget") is None


def test_a_train_past_the_last_connections_leaves_earlier() -> None:
    # Paris → Rome by train: about 14 h 40 on the rails (estimated), so only a morning train arrives by 23:00
    data = {**PARIS_ROME, "start_date": "2027-05-11", "budget_usd_cents": 900000,
            "stays": [{"city": "Paris", "nights": 2}, {"city": "Rome", "nights": 2}], "legs": [{"mode": "train"}]}
    result = plan(data)
    assert result.status == "completed", result.failure
    it = result.itinerary
    leg = it.legs[0]
    assert leg.mode == "train" and leg.arrival.time() <= datetime(2027, 5, 13, 23, 0).time()
    moves = [m for d in it.repairs for m in d.moves]
    assert [(m.move_type, m.reason) for m in moves] == [(MoveType.shift_leg, "last_train")]
    assert moves[0].old_value == "13:00" and moves[0].new_value == f"{leg.departure:%H:%M}"
    diff = next(d for d in it.repairs if d.moves == moves)
    assert (diff.violations_before, diff.violations_after) == (1, 0)
    assert any(d.node == "repair" and d.rationale.startswith("Leg 1 leaves at") for d in it.decisions)


@pytest.mark.parametrize("budget", [260000])
def test_a_trip_over_its_budget_takes_a_stay_down_a_tier(budget: int) -> None:
    result = plan({**PARIS_ROME, "budget_usd_cents": budget, "return_from": "first"})
    assert result.status == "completed", result.failure
    it = result.itinerary
    assert it.cost_breakdown.total_usd_cents <= budget
    moves = [m for d in it.repairs for m in d.moves if m.move_type is MoveType.downgrade_stay_tier]
    assert moves and all(m.reason == "budget" for m in moves)
    down = {m.detail for m in moves}
    assert all(it.intent.stays[k].tier is Tier.budget for k, s in enumerate(it.intent.stays) if s.city in down)
    assert any("a budget hotel instead of mid" in d.rationale for d in it.decisions if d.node == "repair")


def test_a_tighter_budget_moves_a_night_to_the_cheaper_city() -> None:
    result = plan({**PARIS_ROME, "budget_usd_cents": 240000, "return_from": "first"})
    assert result.status == "completed", result.failure
    it = result.itinerary
    assert it.cost_breakdown.total_usd_cents <= 240000
    nights = [m for d in it.repairs for m in d.moves if m.move_type is MoveType.move_night]
    assert nights and nights[0].new_value == "Paris 2, Rome 3 nights"
    assert [s.nights for s in it.intent.stays] == [2, 3] and [d.stay for d in it.days] == [0, 0, 1, 1, 1, 0]
    assert all(len(d.moves) <= 2 for d in it.repairs)


def test_a_budget_no_chain_move_meets_fails_on_the_whole_trip() -> None:
    result = plan({**PARIS_ROME, "budget_usd_cents": 220000, "return_from": "first"})
    assert result.status == "error"
    assert result.failure.message.startswith("Unable to plan the trip as one chain: the whole trip costs")
    assert "over the $2,200.00 budget" in result.failure.message  # the traveller's budget, not a stay's share
    assert 1 <= len(result.failure.attempts) <= 3
