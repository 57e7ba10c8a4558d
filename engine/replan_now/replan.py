"""Re-planning a saved city trip from now on, around one thing that changed.

The past is immutable (``past.freeze_past`` locks it for the moves), locks and bookings hold
(locked slots: no move touches them), the change is applied (``changes.py``), the bounded repair
loop (``engine/repair``: ≤ 2 moves a cycle, ≤ 3 cycles) settles what is still blocking, the past's
locks are taken off again and the result is verified (``engine/verify``) and written as a new
itinerary by the pipeline's own synthesizer, citing the org's notes as a plan does (the CLI and the
app pass the same ``NotesLookup`` their plans get); ``glance.py`` says what changed in one line.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime

from engine.itinerary_diff import ItineraryDiff, diff_itineraries
from engine.models import Decision, ItineraryV1, PlanV1, Violation
from engine.notes.hints import NO_NOTES, NotesLookup
from engine.repair import RepairContext, repair
from engine.repair.moves import move_rationale
from engine.verify import blocking, verify_plan

from .changes import apply_change
from .disruption import Disruption
from .glance import at_a_glance
from .past import Moment, freeze_past, moment_in_trip, thaw
from .rebooked import booked_intent
from .trip_state import TripState


@dataclass(frozen=True)
class Replanned:
    itinerary: ItineraryV1
    plan: PlanV1 | None  # None for a road trip (its itinerary is its plan)
    moment: Moment
    disruption: Disruption
    violations: list[Violation]
    diff: ItineraryDiff
    glance: str  # "Musée du Louvre moved to Thu 09:30; Musée d'Orsay replaces it today at 14:00; …"
    done: list[str] = field(default_factory=list)  # what the change itself was, in words
    target: str = ""
    seconds: float = 0.0  # the re-plan itself (the trip's tool answers already at hand)
    renamed: dict[str, str] = field(default_factory=dict)  # old ref → new (a late flight kept as booked)

    @property
    def ok(self) -> bool:
        return not blocking(self.violations)


def replan_from_now(state: TripState, now: datetime, disruption: Disruption, *, field_name: str = "now",
                    value_field: str | None = None, notes: NotesLookup = NO_NOTES) -> Replanned:
    """``state``'s trip re-planned from ``now`` around ``disruption``; ``notes``: the org's notes
    the new version cites, as a plan cites them (``PlanningSession.notes``)."""
    started = time.perf_counter()
    value_field = value_field or "--" + disruption.kind.replace("_", "-")
    if disruption.kind == "bookings":
        state = state.with_intent(booked_intent(state, disruption, value_field))
    at = moment_in_trip(now, state.plan, state.facts.tz, field=field_name)
    ctx = RepairContext(state.inputs, state.intent, state.facts)
    frozen_plan, frozen = freeze_past(state.plan, at)
    applied = apply_change(frozen_plan, ctx, at, disruption, field=value_field)
    intent = applied.ctx.intent  # a late flight is kept in it (``delay.py``)
    settle = RepairContext(applied.ctx.inputs, intent, applied.verify_facts)
    fixed = repair(applied.plan, settle)
    plan = thaw(fixed.plan, frozen)
    violations = verify_plan(plan, intent, applied.verify_facts)
    seconds = time.perf_counter() - started
    itinerary = _write(state, intent, plan, applied.verify_facts, violations, fixed.diffs, disruption, at, notes)
    before = with_refs_renamed(state.itinerary, applied.renamed)  # the same flight, now at its new time
    diff = diff_itineraries(before, itinerary)
    return Replanned(itinerary=itinerary, plan=plan, moment=at, disruption=disruption, violations=violations,
                     diff=diff, glance=at_a_glance(before, itinerary, at), done=applied.done,
                     target=applied.target, seconds=seconds, renamed=applied.renamed)


def with_refs_renamed(itinerary: ItineraryV1, renamed: dict[str, str]) -> ItineraryV1:
    """``itinerary`` with each ``ref`` in ``renamed`` given its new name (for the diff and the
    glance: a late flight kept as booked is the same flight, not another one)."""
    if not renamed:
        return itinerary
    days = [day.model_copy(update={"activities": [a.model_copy(update={"ref": renamed.get(a.ref, a.ref)})
                                                  for a in day.activities]}) for day in itinerary.days]
    return itinerary.model_copy(update={"days": days})


def _write(state: TripState, intent, plan: PlanV1, facts, violations, diffs, d: Disruption,
           at: Moment, notes: NotesLookup) -> ItineraryV1:
    from engine.pipeline.synthesizer import synthesize
    old = state.itinerary
    said = Decision(node="replan_now", selected=d.kind, alternatives_considered=0,
                    rationale=f"Re-planned from {at.label()}: {d.words()}.")
    moved = [Decision(node="repair", selected=m.new_value, alternatives_considered=1, rationale=move_rationale(m))
             for diff in diffs for m in diff.moves]
    kept = [x for x in old.decisions if x.node != "replan_now"]
    fx = state.toolbox.rate_of(facts.currency).provenance
    new = synthesize(plan, intent, facts, decisions=[*kept, said, *moved], violations=violations,
                     repairs=diffs, trace_id=old.trace_id, run_id=old.run_id, degraded=list(old.degraded_tools),
                     fx_provenance=fx, notes=notes)
    return new.model_copy(update={"planning_date": old.planning_date})


__all__ = ["Replanned", "replan_from_now"]
