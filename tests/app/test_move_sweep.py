"""Issue 22 §2.7: "Move to day N" keeps the visit on the day asked for whenever that day can hold
it. Swept over every visit and meal of the Paris example × every other day, through the real
path (the app's edit, the pipeline's verify and repair): the share that lands where asked."""

from __future__ import annotations

import asyncio
from datetime import date

from app.map_edits import MoveToFreeTime, Rebased
from engine.errors import InputError
from engine.models import IntentV1
from engine.pipeline import PlanningSession
from engine.verify import blocking, verify_plan

PARIS = IntentV1.model_validate({
    "city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
    "budget_usd_cents": 400000, "airports": ["CDG", "ORY"], "origin_airport": "JFK",
    "prefs": {"themes": ["art", "food"]}})
FLOOR = 0.8  # before: 33 of 80 (41%); now 69 of 80


def sweep():
    session = PlanningSession(today=date(2026, 11, 23))
    first = asyncio.run(session.plan(PARIS))
    base, facts = first.plan, first.inputs.facts
    moves = [(di, s) for di, _, s in base.slots() if s.role in ("activity", "meal")]
    landed, refused, lost = 0, 0, []
    for di, slot in moves:
        for dj in range(len(base.days)):
            if dj == di:
                continue
            edit = Rebased(base, MoveToFreeTime(slot.selected.choice_id, dj, PARIS))
            try:
                result = asyncio.run(session.plan(PARIS, edits=[edit]))
            except InputError:
                refused += 1  # said why; the plan unchanged
                continue
            if result.status != "completed":
                lost.append((slot.selected.option_ref, dj, "infeasible"))
                continue
            assert not blocking(verify_plan(result.plan, PARIS, facts))
            days = [k for k, _, s in result.plan.slots() if s.selected.option_ref == slot.selected.option_ref]
            if days == [dj]:
                landed += 1
            else:
                lost.append((slot.selected.option_ref, dj))
    return len(moves) * (len(base.days) - 1), landed, refused, lost


def test_move_to_day_lands_where_asked_in_most_of_the_sweep():
    total, landed, refused, lost = sweep()
    print(f"moves {total}: landed {landed}, refused with a reason {refused}, taken out by the check {len(lost)}")
    assert landed / total >= FLOOR, lost
    assert not lost  # a move either lands or is refused with a reason, never silently undone
