"""Issue 32 §2: the re-plan's reorder puts each day's free sights and meals in their shortest order
that still fits every opening window, never moves what the traveller locked or placed, and says
what it changed."""

from __future__ import annotations

import asyncio
from datetime import date

import pytest

from engine.day_move import move_to_day
from engine.edits import Lock
from engine.kept_edits import mark_placed
from engine.models import IntentV1
from engine.pipeline import PlanningSession
from engine.planning.replan_order import ReorderDays, day_metres, movable, reorder_note
from engine.verify import blocking, verify_plan

PARIS = IntentV1.model_validate({
    "city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
    "budget_usd_cents": 400000, "airports": ["CDG", "ORY"], "origin_airport": "JFK",
    "prefs": {"themes": ["art", "food"]}})


@pytest.fixture(scope="module")
def planned():
    session = PlanningSession(today=date(2026, 12, 8))
    result = asyncio.run(session.plan(PARIS))
    return result.plan, session.last_facts


def _choice(plan, ref):
    return next(s.selected.choice_id for _di, _si, s in plan.slots() if s.selected.option_ref == ref)


def _hotel(plan):
    return next(s.selected.geo for _di, _si, s in plan.slots() if s.role == "checkin")


def _fixed(plan):
    return [(di, s.selected.option_ref, s.window) for di, _si, s in plan.slots() if not movable(s)]


def test_a_planned_trip_is_already_in_its_shortest_order(planned):
    plan, facts = planned
    assert ReorderDays(PARIS)(plan, facts) is plan


def test_the_day_a_move_left_crossing_the_city_is_reordered_shorter(planned):
    plan, facts = planned
    # The Orangerie moved from day 3 to day 5 (placed by the traveller), the Picasso museum locked.
    moved = mark_placed(move_to_day(plan, facts, PARIS, _choice(plan, "musee_orangerie"), 4),
                        _choice(plan, "musee_orangerie"))
    edited = Lock(_choice(moved, "musee_picasso"))(moved, facts)
    better = ReorderDays(PARIS)(edited, facts)
    hotel = _hotel(edited)
    shorter = [di for di in range(len(edited.days))
               if day_metres(better.days[di], hotel) < day_metres(edited.days[di], hotel) - 1]
    assert shorter == [2]
    assert all(day_metres(better.days[di], hotel) <= day_metres(edited.days[di], hotel) + 1
               for di in range(len(edited.days)))
    assert _fixed(better) == _fixed(edited)  # flights, hotel, the lock and the placed visit where they were
    # Every visit still open at its time, with the walk and buffer between: nothing blocking.
    assert not blocking(verify_plan(better, PARIS, facts))
    assert sorted(s.selected.option_ref for s in better.days[2].slots) == \
        sorted(s.selected.option_ref for s in edited.days[2].slots)
    saved = (day_metres(edited.days[2], hotel) - day_metres(better.days[2], hotel)) / 1000
    assert reorder_note(edited, better) == f"day 3 reordered, {saved:.1f} km less walking"
    assert reorder_note(better, better) is None
    assert ReorderDays(PARIS)(better, facts) is better  # once ordered, it stays
