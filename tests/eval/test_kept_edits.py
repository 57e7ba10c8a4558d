"""The traveller's edits survive a re-plan of a changed trip (issue 32 §1, engine/kept_edits.py).

A Paris plan gets every kind of edit — a lock, a replacement, a move to another day, a retime, a
removal — and then the trip changes the three ways the app changes it: saved places imported (new
must-sees), a booking imported (a ticket in the evening), and a new plan drafted for the same trip
(other wishes: what a model's draft or the form's new themes give). Each change is planned through
the real pipeline on top of the edits (``OnTopOfEdits``); every edit must still be there, and
:func:`edits_not_kept` must say nothing — or name exactly what gave way.
"""

from __future__ import annotations

import asyncio
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from engine.day_move import move_to_day
from engine.edits import Lock, Remove, Replace, Retime, apply_edits
from engine.errors import InputError
from engine.kept_edits import OnTopOfEdits, edits_not_kept, marks
from engine.models import IntentV1, PlanV1, TimeWindow
from engine.models.bookings import BookedEvent, Bookings
from engine.models.intent import MustSee
from engine.pipeline import PlanningSession
from tests.eval.test_edits import INTENT

TODAY = date(2026, 11, 23)
PARIS = ZoneInfo("Europe/Paris")


def run(intent: IntentV1, edits=None):
    result = asyncio.run(PlanningSession(today=TODAY).plan(intent, edits=edits))
    assert result.status == "completed", result.failure
    return result


@pytest.fixture(scope="module")
def first():
    return run(IntentV1.model_validate(INTENT))


def _minutes(t) -> int:
    return t.hour * 60 + t.minute


def visits(plan: PlanV1, day: int) -> list:
    return [s for s in plan.days[day].slots if s.role == "activity"]


def edited(first) -> tuple[PlanV1, dict]:
    """The plan on screen after one edit of each kind, and what each edit left where."""
    plan, facts = first.plan, first.inputs.facts
    locked, removed, retimed = visits(plan, 1)[0], visits(plan, 1)[1], visits(plan, 3)[0]
    moving = visits(plan, 2)[0]
    in_plan = {s.selected.option_ref for _d, _i, s in plan.slots()}
    spare = next(v for v in facts.venues.values() if v.id not in in_plan and v.provenance.tool != "dining")
    replaced = visits(plan, 2)[1]
    edits = [Lock(locked.selected.choice_id), Remove(removed.selected.choice_id),
             Replace(replaced.selected.choice_id, spare.id)]
    plan = apply_edits(plan, facts, edits)
    intent = IntentV1.model_validate(INTENT)
    plan = move_to_day(plan, facts, intent, moving.selected.choice_id, 1)  # the map's verified move
    later = retimed.window.shift(30) if hasattr(retimed.window, "shift") else TimeWindow.of_minutes(
        _minutes(retimed.window.start) + 30, _minutes(retimed.window.end) + 30)
    try:
        plan = Retime(retimed.selected.choice_id, later)(plan, facts)
    except InputError:  # the next stop is too close: half an hour earlier instead
        earlier = TimeWindow.of_minutes(_minutes(retimed.window.start) - 30, _minutes(retimed.window.end) - 30)
        plan = Retime(retimed.selected.choice_id, earlier)(plan, facts)
        later = earlier
    where = {"locked": (1, locked.selected.option_ref, locked.window), "removed": removed.selected.option_ref,
             "replaced": (2, spare.id, replaced.window), "moved": (1, moving.selected.option_ref),
             "retimed": (3, retimed.selected.option_ref, later)}
    return plan, where


def with_must_see(intent: IntentV1, facts, plan: PlanV1) -> tuple[IntentV1, dict[str, str]]:
    in_plan = {s.selected.option_ref for _d, _i, s in plan.slots()}
    venue = next(v for v in reversed(list(facts.venues.values())) if v.id not in in_plan and v.provenance.tool != "dining")
    must = MustSee(name=venue.name, geo={"lat": venue.location.lat, "lon": venue.location.lon}, venue_id=venue.id)
    prefs = intent.prefs.model_copy(update={"must_see": [*intent.prefs.must_see, must]})
    return intent.model_copy(update={"prefs": prefs}), {venue.id: venue.name}


def with_ticket(intent: IntentV1, facts, plan: PlanV1) -> tuple[IntentV1, dict[str, str]]:
    day = plan.days[2].date
    ticket = BookedEvent(name="Giselle at Palais Garnier", venue="Palais Garnier",
                         geo={"lat": 48.8720, "lon": 2.3316},  # the opera house (Opéra national de Paris)
                         start=datetime(day.year, day.month, day.day, 20, 0, tzinfo=PARIS))
    return intent.model_copy(update={"bookings": Bookings(events=[ticket])}), {}


def with_other_wishes(intent: IntentV1, facts, plan: PlanV1) -> tuple[IntentV1, dict[str, str]]:
    prefs = intent.prefs.model_copy(update={"themes": ["history", "architecture"]})
    return intent.model_copy(update={"prefs": prefs}), {}


@pytest.mark.parametrize("change", [with_must_see, with_ticket, with_other_wishes],
                         ids=["saved places", "a booking", "a new draft"])
def test_every_edit_survives_every_change_of_the_trip(first, change) -> None:
    base, where = edited(first)
    assert len(marks(base)) == 4  # the lock, the replacement, the move and the retime
    intent, wanted = change(first.intent if hasattr(first, "intent") else IntentV1.model_validate(INTENT),
                            first.inputs.facts, base)
    after = run(intent, edits=[OnTopOfEdits(base)]).plan

    def at(day: int, ref: str):
        return next((s for s in after.days[day].slots if s.selected.option_ref == ref), None)

    day, ref, window = where["locked"]
    kept = at(day, ref)
    assert kept is not None and kept.locked and kept.window == window
    day, ref, window = where["replaced"]
    assert at(day, ref) is not None and at(day, ref).placed  # unlocked: repair may shift it within its day
    day, ref = where["moved"]
    assert at(day, ref) is not None and at(day, ref).placed
    day, ref, window = where["retimed"]
    assert at(day, ref) is not None and at(day, ref).placed
    refs = [s.selected.option_ref for _d, _i, s in after.slots()]
    assert where["removed"] not in refs and where["removed"] in {r.ref for r in after.removed}
    seen = [s.selected.option_ref for _d, _i, s in after.slots() if s.role == "activity"]
    assert len(seen) == len(set(seen))  # no place visited twice
    assert all(ref in refs for ref in wanted)  # what the import added is planned too
    assert edits_not_kept(base, after, wanted) is None


def test_a_booking_on_top_of_an_edit_wins_and_the_line_names_the_edit(first) -> None:
    """A ticket booked over the time of a visit the traveller moved: the booking is a fact, the
    moved visit gives way, and the one line says which of the traveller's edits was not kept."""
    base, where = edited(first)
    day, ref, window = where["retimed"]
    date_ = base.days[day].date
    start = datetime(date_.year, date_.month, date_.day, window.start.hour, window.start.minute, tzinfo=PARIS)
    ticket = BookedEvent(name="Giselle at Palais Garnier", venue="Palais Garnier",
                         geo={"lat": 48.8720, "lon": 2.3316}, start=start)
    intent = IntentV1.model_validate(INTENT).model_copy(update={"bookings": Bookings(events=[ticket])})
    after = run(intent, edits=[OnTopOfEdits(base)]).plan
    line = edits_not_kept(base, after)
    name = next(s.selected.label for _d, _i, s in base.slots() if s.selected.option_ref == ref)
    assert not any(s.selected.option_ref == ref and after.days[di].date == date_ for di, _i, s in after.slots())
    assert any(s.selected.label == "Giselle at Palais Garnier" and s.locked for s in after.days[day].slots)
    assert line == f"Could not keep {name} (your choice, {date_:%a %d %b})."


def test_the_placed_mark_is_written_only_when_set() -> None:
    window = TimeWindow(start="10:00", end="11:00")
    from engine.models import Slot
    choice = run(IntentV1.model_validate(INTENT)).plan.days[1].slots[0].choices[0]
    assert "placed" not in Slot(window=window, role="activity", choices=[choice]).model_dump_json()
    assert '"placed":true' in Slot(window=window, role="activity", choices=[choice], placed=True).model_dump_json()
