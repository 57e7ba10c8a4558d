"""The version diff (engine/itinerary_diff.py): what a revision changed per day, in the hotel and
in cost, on itineraries the real planner made (edited by the engine's own edits, or moved by hand
where the diff's matching is the point)."""

from __future__ import annotations

import asyncio
from datetime import date

import pytest

from engine.edits import Remove
from engine.itinerary_diff import diff_itineraries, signed_usd
from engine.pipeline import PlanningSession

from .conftest import paris_demo


@pytest.fixture(scope="module")
def planned():
    session = PlanningSession(today=date(2026, 11, 23))
    first = asyncio.run(session.plan(paris_demo()))
    target = next(a for a in first.itinerary.days[1].activities if a.role == "activity")
    removed = asyncio.run(session.plan(paris_demo(), edits=[Remove(target.id)]))
    return first.itinerary, removed.itinerary, target


def test_an_identical_version_changes_nothing(planned) -> None:
    first, _, _ = planned
    diff = diff_itineraries(first, first)
    assert diff.unchanged and diff.days == () and diff.lines() == ["Cost: \u00b1$0",
                                                                  "Nothing the traveller books changed."]


def test_a_removed_visit_is_named_on_its_day_with_the_cost(planned) -> None:
    first, removed, target = planned
    diff = diff_itineraries(first, removed)
    assert [d.day for d in diff.days] == [1]
    assert [b.name for b in diff.days[0].removed] == [target.name]
    # the re-plan refills the time with another place (issue 22 §2.7), named as that day's addition
    assert all(b.name != target.name for b in diff.days[0].added)
    assert diff.cost_delta_cents == removed.cost_breakdown.total_usd_cents - first.cost_breakdown.total_usd_cents
    assert f"Day 2: \u2212 {target.name} ({target.window.start:%H:%M})" in diff.lines()
    back = diff_itineraries(removed, first)  # the other way round it is an addition
    assert target.name in [b.name for b in back.days[0].added]


def _move(itinerary, from_day: int, to_day: int, role: str = "activity"):
    days = [d.activities[:] for d in itinerary.days]
    moving = next(a for a in days[from_day] if a.role == role)
    days[from_day].remove(moving)
    days[to_day].append(moving)
    return itinerary.model_copy(update={"days": [d.model_copy(update={"activities": acts})
                                                 for d, acts in zip(itinerary.days, days)]}), moving


def test_a_visit_on_another_day_is_one_move_not_a_removal_and_an_addition(planned) -> None:
    first, _, _ = planned
    moved, venue = _move(first, 1, 3)
    diff = diff_itineraries(first, moved)
    assert [d.day for d in diff.days] == [3]
    assert diff.days[0].added == [] and diff.days[0].removed == []
    (move,) = diff.moved
    assert (move.name, move.from_day, move.to_day) == (venue.name, 1, 3)
    assert f"Day 4: \u21c4 {venue.name} from day 2 ({venue.window.start:%H:%M})" in diff.lines()


def test_a_new_hotel_is_said_first(planned) -> None:
    first, _, _ = planned
    days = list(first.days)
    acts = [a.model_copy(update={"name": "Hôtel Test", "ref": "hotel-test"}) if a.role == "checkin" else a
            for a in days[0].activities]
    days[0] = days[0].model_copy(update={"activities": acts})
    other = first.model_copy(update={"days": days})
    diff = diff_itineraries(first, other)
    assert diff.hotel_changed and diff.hotel_after == "Hôtel Test"
    assert diff.lines()[0].startswith("Hotel: ") and diff.lines()[0].endswith("\u2192 Hôtel Test")
    assert signed_usd(1250) == "+$12.50" and signed_usd(-5) == "\u2212$0.05"


def test_a_lost_lock_is_said_not_silent(planned) -> None:
    """Issue 22 §2.3: a re-plan that drops the traveller's lock says so in the Changes tab."""
    from engine.edits import Lock

    first, _, target = planned
    session = PlanningSession(today=date(2026, 11, 23))
    locked = asyncio.run(session.plan(paris_demo(), edits=[Lock(target.id)])).itinerary
    diff = diff_itineraries(locked, first)
    assert diff.locks_lost == (target.name,) and not diff.unchanged
    assert f"Lock lost: {target.name}" in diff.lines()
    assert f"Locked: {target.name}" in diff_itineraries(first, locked).lines()
