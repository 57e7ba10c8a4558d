"""User edits on a PlanV1 (engine/edits.py): the map's retime / remove / replace / pin / move."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import date

import pytest

from engine.edits import Lock, MoveToDay, Remove, Replace, Retime, Unlock, apply_edits, numbered
from engine.errors import InputError
from engine.models import ChoiceKind, IntentV1, PlanV1, TimeWindow
from engine.pipeline import PlanningSession

INTENT = {"city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
          "budget_usd_cents": 400000, "airports": ["CDG"], "origin_airport": "JFK",
          "prefs": {"themes": ["art", "food"]}}


@pytest.fixture(scope="module")
def planned():
    result = asyncio.run(PlanningSession(today=date(2026, 11, 23)).plan(IntentV1.model_validate(INTENT)))
    assert result.status == "completed", result.failure
    return result.plan, result.inputs.facts


@pytest.fixture
def plan(planned) -> PlanV1:
    return planned[0]


@pytest.fixture
def facts(planned):
    return planned[1]


def W(a: str, b: str) -> TimeWindow:
    return TimeWindow(start=a, end=b)


def slots_of(plan: PlanV1, role: str, day: int | None = None):
    return [s for di, _, s in plan.slots() if s.role == role and (day is None or di == day)]


def visit(plan: PlanV1, day: int = 1, nth: int = 0):
    return [s for s in plan.days[day].slots if s.role == "activity"][nth]


def free_window(plan: PlanV1, day: int, minutes: int = 30) -> TimeWindow:
    """A window of ``minutes`` that overlaps nothing on ``day`` (06:00 onwards)."""
    taken = sorted((s.window.start.hour * 60 + s.window.start.minute, s.window.end.hour * 60 + s.window.end.minute)
                   for s in plan.days[day].slots)
    cursor = 6 * 60
    for start, end in taken:
        if start - cursor >= minutes:
            break
        cursor = max(cursor, end + 1)
    return TimeWindow.of_minutes(cursor, cursor + minutes)


def ids(plan: PlanV1) -> list[str]:
    return [s.selected.choice_id for _, _, s in plan.slots()]


def used_venues(plan: PlanV1) -> set[str]:
    return {s.selected.option_ref for _, _, s in plan.slots()}


def assert_valid(plan: PlanV1) -> None:
    PlanV1.model_validate(plan.model_dump())  # re-validates every day (no overlaps) and the trip


# -- Retime --------------------------------------------------------------------------------------
def test_retime_moves_the_window_and_keeps_the_id(plan, facts):
    slot = visit(plan, 1, -1)
    window = free_window(plan, 1)
    new = Retime(slot.selected.choice_id, window=window)(plan, facts)
    di, si = new.find(slot.selected.choice_id)
    assert di == 1 and new.days[1].slots[si].window == window
    assert not new.days[1].slots[si].locked
    assert visit(plan, 1, -1).window == slot.window  # the input plan is untouched
    assert_valid(new)


def test_retime_can_pin_the_slot(plan, facts):
    slot = visit(plan, 2)
    new = Retime(slot.selected.choice_id, window=free_window(plan, 2), lock=True)(plan, facts)
    di, si = new.find(slot.selected.choice_id)
    assert new.days[di].slots[si].locked


def test_retime_keeps_days_sorted(plan, facts):
    first, last = visit(plan, 1, 0), plan.days[1].slots[-1]
    late = TimeWindow.of_minutes(last.window.end.hour * 60 + last.window.end.minute + 10,
                                 last.window.end.hour * 60 + last.window.end.minute + 40)
    new = Retime(first.selected.choice_id, window=late)(plan, facts)
    assert new.days[1].slots[-1].selected.choice_id == first.selected.choice_id
    starts = [s.window.start for s in new.days[1].slots]
    assert starts == sorted(starts)


def test_retime_onto_another_slot_is_an_input_error(plan, facts):
    a, b = visit(plan, 1, 0), visit(plan, 1, 1)
    with pytest.raises(InputError) as err:
        Retime(a.selected.choice_id, window=b.window)(plan, facts)
    assert err.value.field == "window" and "overlaps" in err.value.message
    with pytest.raises(InputError) as err:
        apply_edits(plan, facts, [Retime(a.selected.choice_id, window=b.window)])
    assert err.value.field == "edits[0].window"


def test_retime_rejects_flights_and_bad_windows(plan, facts):
    arrival = slots_of(plan, "arrival")[0]
    with pytest.raises(InputError, match="arrival"):
        Retime(arrival.selected.choice_id, window=W("10:00", "11:00"))(plan, facts)
    with pytest.raises(InputError) as err:
        Retime(visit(plan).selected.choice_id, window={"start": "12:00", "end": "11:00"}, index=3)(plan, facts)
    assert err.value.field == "edits[3].window"


def test_unknown_choice_id_names_the_field(plan, facts):
    with pytest.raises(InputError) as err:
        Remove("d9-activity-nowhere")(plan, facts)
    assert err.value.field == "choice_id" and "d9-activity-nowhere" in err.value.message
    good = Retime(visit(plan).selected.choice_id, window=visit(plan).window)
    with pytest.raises(InputError) as err:
        apply_edits(plan, facts, [good, Remove("nope")])
    assert err.value.field == "edits[1].choice_id"
    assert str(err.value).startswith("edits[1].choice_id:")


# -- Remove --------------------------------------------------------------------------------------
def test_remove_drops_only_that_slot(plan, facts):
    slot = visit(plan, 2)
    new = Remove(slot.selected.choice_id)(plan, facts)
    assert new.find(slot.selected.choice_id) is None
    assert len(ids(new)) == len(ids(plan)) - 1
    assert_valid(new)


@pytest.mark.parametrize("role", ["arrival", "checkin", "checkout", "departure"])
def test_remove_keeps_flights_and_hotel(plan, facts, role):
    slot = slots_of(plan, role)[0]
    with pytest.raises(InputError) as err:
        Remove(slot.selected.choice_id)(plan, facts)
    assert err.value.field == "choice_id"


# -- Replace -------------------------------------------------------------------------------------
def test_replace_puts_a_new_venue_in_the_same_window(plan, facts):
    slot = visit(plan, 1, 0)
    venue = next(v for v in facts.venues.values()
                 if v.id not in used_venues(plan) and v.provenance.tool == "attractions")
    new = Replace(slot.selected.choice_id, venue_id=venue.id)(plan, facts)
    assert new.find(slot.selected.choice_id) is None
    di, si = new.find(f"d1-activity-{venue.id}")
    replaced = new.days[di].slots[si]
    assert replaced.window == slot.window and replaced.selected.option_ref == venue.id
    assert replaced.selected.kind is ChoiceKind.attraction
    assert replaced.selected.features.cost_usd_cents == venue.est_price_usd_cents
    assert replaced.selected.provenance == venue.provenance
    assert slot.selected.option_ref in [c.option_ref for c in replaced.choices[1:]]  # old one is a fallback
    assert_valid(new)


def test_replace_a_meal_with_another_restaurant(plan, facts):
    meal = slots_of(plan, "meal", 1)[0]
    other = next(v for v in facts.venues.values()
                 if v.provenance.tool == "dining" and v.id not in used_venues(plan))
    new = Replace(meal.selected.choice_id, venue_id=other.id)(plan, facts)
    di, si = new.find(f"d1-meal-{other.id}")
    choice = new.days[di].slots[si].selected
    assert choice.kind is ChoiceKind.meal and choice.features.cost_usd_cents == other.est_price_usd_cents


def test_replace_validates_the_venue(plan, facts):
    slot, meal = visit(plan, 1), slots_of(plan, "meal", 1)[0]
    with pytest.raises(InputError) as err:
        Replace(slot.selected.choice_id, venue_id="atlantis", index=0)(plan, facts)
    assert err.value.field == "edits[0].venue_id"
    used = visit(plan, 2).selected.option_ref
    with pytest.raises(InputError, match="already in the plan"):
        Replace(slot.selected.choice_id, venue_id=used)(plan, facts)
    with pytest.raises(InputError, match="not a restaurant"):
        Replace(meal.selected.choice_id, venue_id=slot.selected.option_ref)(plan, facts)
    restaurant = next(v.id for v in facts.venues.values() if v.provenance.tool == "dining")
    with pytest.raises(InputError, match="not an attraction"):
        Replace(slot.selected.choice_id, venue_id=restaurant)(plan, facts)


# -- Lock / Unlock ------------------------------------------------------------------------------
def test_locked_slots_accept_only_unlock(plan, facts):
    slot = visit(plan, 1)
    cid = slot.selected.choice_id
    locked = Lock(cid)(plan, facts)
    assert locked.days[1].slots[locked.find(cid)[1]].locked
    assert Lock(cid)(locked, facts) is locked  # already pinned: no-op
    spare = next(v.id for v in facts.venues.values()
                 if v.id not in used_venues(plan) and v.provenance.tool == "attractions")
    for edit in (Retime(cid, window=free_window(plan, 1)), Remove(cid), Replace(cid, venue_id=spare),
                 MoveToDay(cid, day_index=2, window=free_window(plan, 2))):
        with pytest.raises(InputError, match="locked") as err:
            edit(locked, facts)
        assert err.value.field == "choice_id"
    unlocked = Unlock(cid)(locked, facts)
    assert not unlocked.days[1].slots[unlocked.find(cid)[1]].locked
    assert Unlock(cid)(unlocked, facts) is unlocked
    Retime(cid, window=free_window(unlocked, 1))(unlocked, facts)  # editable again


def test_flights_can_be_pinned(plan, facts):
    arrival = slots_of(plan, "arrival")[0]
    new = Lock(arrival.selected.choice_id)(plan, facts)
    assert slots_of(new, "arrival")[0].locked


# -- MoveToDay -----------------------------------------------------------------------------------
def test_move_to_another_day(plan, facts):
    slot = visit(plan, 1, -1)
    window = free_window(plan, 3)
    new = MoveToDay(slot.selected.choice_id, day_index=3, window=window)(plan, facts)
    di, si = new.find(slot.selected.choice_id)
    assert di == 3 and new.days[3].slots[si].window == window
    assert slot.selected.choice_id not in [s.selected.choice_id for s in new.days[1].slots]
    assert len(ids(new)) == len(ids(plan))
    assert_valid(new)


def test_move_within_the_same_day_is_a_retime(plan, facts):
    slot = visit(plan, 1, 0)
    window = free_window(plan, 1)
    new = MoveToDay(slot.selected.choice_id, day_index=1, window=window)(plan, facts)
    assert new == Retime(slot.selected.choice_id, window=window)(plan, facts)


def test_move_validates_day_and_overlap(plan, facts):
    slot = visit(plan, 1)
    for bad in (-1, 5, 99):
        with pytest.raises(InputError) as err:
            MoveToDay(slot.selected.choice_id, day_index=bad, window=W("10:00", "11:00"), index=2)(plan, facts)
        assert err.value.field == "edits[2].day_index"
    busy = visit(plan, 2).window
    with pytest.raises(InputError, match="overlaps") as err:
        MoveToDay(slot.selected.choice_id, day_index=2, window=busy)(plan, facts)
    assert err.value.field == "window"
    with pytest.raises(InputError):
        MoveToDay(slots_of(plan, "checkout")[0].selected.choice_id, day_index=2,
                  window=free_window(plan, 2))(plan, facts)


# -- the edit objects ---------------------------------------------------------------------------
def test_edits_are_small_frozen_values():
    edit = Retime("d1-activity-louvre", window=W("10:00", "12:00"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        edit.choice_id = "other"  # type: ignore[misc]
    assert edit == Retime("d1-activity-louvre", window=W("10:00", "12:00"), index=4)  # index is not identity
    assert hash(Remove("a")) == hash(Remove("a"))
    assert Retime("x", W("10:00", "11:00"), True) == Retime("x", window=W("10:00", "11:00"), lock=True)
    assert MoveToDay("x", 2, W("10:00", "11:00")).day_index == 2 and Replace("x", "louvre").venue_id == "louvre"
    assert [e.index for e in numbered([Remove("a"), Lock("b"), Unlock("c")])] == [0, 1, 2]


def test_edits_chain_and_stay_pure(plan, facts):
    a, b = visit(plan, 1, 0), visit(plan, 2, 0)
    before = plan.model_dump()
    new = apply_edits(plan, facts, [Lock(a.selected.choice_id), Remove(b.selected.choice_id),
                                    Unlock(a.selected.choice_id)])
    assert plan.model_dump() == before
    assert new.find(b.selected.choice_id) is None and not new.days[1].slots[new.find(a.selected.choice_id)[1]].locked


# -- through the pipeline -----------------------------------------------------------------------
async def test_session_applies_edits_before_verification():
    intent = IntentV1.model_validate(INTENT)
    session = PlanningSession(today=date(2026, 11, 23))
    base = await session.plan(intent)
    # A visit pinned at an hour its venue is closed cannot be repaired: the run fails gracefully.
    cid = visit(base.plan, 1, 0).selected.choice_id
    pinned = await session.plan(intent, edits=[Retime(cid, window=W("06:00", "06:30"), lock=True)])
    assert pinned.status == "error"
    assert any(v.node_ref == cid and v.kind.value == "venue_closed" for v in pinned.failure.violations)
    with pytest.raises(InputError) as err:
        await session.plan(intent, edits=numbered([Remove("ghost")]))
    assert err.value.field == "edits[0].choice_id"
