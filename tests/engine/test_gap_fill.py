"""Issue 22 §2.7: a visit the traveller removes leaves free time that the re-plan fills with
another place of the city — open then, within reach, within budget, never the removed one, never
moving a locked stop — deterministically, and the filled plan passes the verifier."""

from __future__ import annotations

import asyncio
from datetime import date

from engine.costs import plan_cost
from engine.edits import Lock, Remove
from engine.models import IntentV1, PlanV1
from engine.models.common import minutes_of
from engine.pipeline import PlanningSession
from engine.verify import blocking, verify_plan

TODAY = date(2026, 11, 23)
PARIS = IntentV1.model_validate({
    "city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
    "budget_usd_cents": 400000, "airports": ["CDG", "ORY"], "origin_airport": "JFK",
    "prefs": {"themes": ["art", "food"]}})


def _refs(plan: PlanV1, day: int | None = None) -> list[str]:
    return [s.selected.option_ref for di, _, s in plan.slots() if day is None or di == day]


def _shape(plan: PlanV1) -> list:
    """What a plan schedules (where, when, locked), apart from when its tools answered."""
    return [[(s.role, s.selected.option_ref, s.window, s.locked) for s in d.slots] for d in plan.days]


def _longest_gap(plan: PlanV1, day: int) -> int:
    slots = plan.days[day].slots
    return max((minutes_of(b.window.start) - minutes_of(a.window.end) for a, b in zip(slots, slots[1:])), default=0)


def _run(session, intent, edits=None):
    result = asyncio.run(session.plan(intent, edits=edits))
    assert result.status == "completed", result.failure
    return result


def test_a_removed_visit_s_time_is_filled_with_another_place_and_verified():
    session = PlanningSession(today=TODAY)
    first = _run(session, PARIS)
    base, facts = first.plan, first.inputs.facts
    day = 1
    louvre = next(s for s in base.days[day].slots if s.selected.option_ref == "louvre")
    kept = next(s for s in base.days[day].slots if s.role == "activity" and s is not louvre)
    locked = Lock(kept.selected.choice_id)(base, facts)
    removed = Remove(louvre.selected.choice_id)(locked, facts)
    assert _longest_gap(removed, day) >= 160  # the hole the traveller would see without the fill

    after = _run(session, PARIS, edits=[lambda plan, f: removed]).plan
    added = [r for r in _refs(after, day) if r not in _refs(base)]
    assert added, "the free time was left empty"
    assert "louvre" not in _refs(after)
    assert _longest_gap(after, day) < 160
    for ref in added:
        venue = facts.venue(ref)
        slot = next(s for s in after.days[day].slots if s.selected.option_ref == ref)
        assert venue.is_open(after.days[day].date, slot.window)
    assert next(s for s in after.days[day].slots if s.selected.choice_id == kept.selected.choice_id).window \
        == kept.window and kept.selected.choice_id in [s.selected.choice_id for s in after.days[day].slots if s.locked]
    assert not blocking(verify_plan(after, PARIS, facts))
    assert plan_cost(after, facts).total <= PARIS.budget_usd_cents
    assert [r.ref for r in after.removed] == ["louvre"]
    # Every other day is as it was.
    assert all(after.days[d] == base.days[d] for d in range(len(base.days)) if d != day)

    # Deterministic: a fresh session fills it the same way; a re-plan of the filled plan keeps it.
    again = _run(PlanningSession(today=TODAY), PARIS, edits=[lambda plan, f: removed]).plan
    assert _shape(again) == _shape(after)
    kept_plan = _run(session, PARIS, edits=[lambda plan, f: after]).plan
    assert kept_plan == after


def test_what_fills_the_time_is_never_a_place_the_traveller_removed():
    session = PlanningSession(today=TODAY)
    first = _run(session, PARIS)
    facts = first.inputs.facts
    plan, gone = first.plan, []
    for _ in range(3):  # remove whatever filled the time, three times over
        visit = [s for s in plan.days[1].slots if s.role == "activity" and not s.locked][-1]
        gone.append(visit.selected.option_ref)
        edited = Remove(visit.selected.choice_id)(plan, facts)
        plan = _run(session, PARIS, edits=[lambda p, f, e=edited: e]).plan
        assert not set(gone) & set(_refs(plan))
    assert [r.ref for r in plan.removed] == gone


def test_the_fill_stays_within_the_budget():
    """With the budget $15 above what the plan costs once the Louvre is out, the sights the fill
    takes with money to spare do not all fit: a dearer one is left out, a cheaper one still goes
    in, and the plan stays within the budget (days filled by time, issue 31 §2, take two sights
    into the Louvre's hours where a count of three took one)."""
    session = PlanningSession(today=TODAY)
    first = _run(session, PARIS)
    facts = first.inputs.facts
    louvre = next(s for s in first.plan.days[1].slots if s.selected.option_ref == "louvre")
    removed = Remove(louvre.selected.choice_id)(first.plan, facts)
    roomy = _run(session, PARIS, edits=[lambda plan, f: removed]).plan
    first_pick = [r for r in _refs(roomy, 1) if r not in _refs(first.plan) and facts.venue(r).provenance.tool != "dining"]
    tight = PARIS.model_copy(update={"budget_usd_cents": plan_cost(removed, facts).total + 1500})
    assert plan_cost(roomy, facts).total > tight.budget_usd_cents  # the roomy fill would not fit
    after = _run(session, tight, edits=[lambda plan, f: removed]).plan
    added = [r for r in _refs(after, 1) if r not in _refs(first.plan)]
    assert added and not set(first_pick) <= set(added)
    assert plan_cost(after, facts).total <= tight.budget_usd_cents
    assert not blocking(verify_plan(after, tight, facts))
