"""Synthesizer (seed 002 §12.3): a claim whose provenance is omitted is dropped, not stated."""

from __future__ import annotations

import asyncio
import dataclasses

from engine.models import ChoiceKind
from engine.pipeline import PlanningSession
from engine.pipeline.synthesizer import synthesize

from .conftest import TODAY, paris_demo


def _synthesize(plan, intent, facts):
    return synthesize(plan, intent, facts, decisions=[], violations=[], repairs=[], trace_id="t", run_id="r",
                      degraded=[], fx_provenance=None)


def test_a_claim_with_an_omitted_provenance_is_dropped() -> None:
    intent = paris_demo()
    result = asyncio.run(PlanningSession(today=TODAY).plan(intent))
    plan, facts = result.plan, result.inputs.facts
    visit = next(s for _, _, s in plan.slots() if s.selected.kind is ChoiceKind.attraction)
    venue = facts.venue(visit.selected.option_ref)

    stated = _synthesize(plan, intent, facts)
    cited = [c for c in stated.citations if c.provenance.ref_id == venue.provenance.ref_id
             and c.provenance.tool == venue.provenance.tool]
    assert cited, "the venue's facts are cited while its tool answered"

    omitted = venue.model_copy(update={"provenance": venue.provenance.model_copy(update={"data_source": "omitted"})})
    dropped = _synthesize(plan, intent, dataclasses.replace(facts, venues={**facts.venues, venue.id: omitted}))
    assert not [c for c in dropped.citations if c.provenance.ref_id == venue.provenance.ref_id
                and c.provenance.tool == venue.provenance.tool]
    assert all(c.provenance.data_source != "omitted" for c in dropped.citations)
    assert len(dropped.citations) == len(stated.citations) - len(cited)  # nothing else changed
    activity = next(a for d in dropped.days for a in d.activities if a.id == visit.selected.choice_id)
    assert activity.notes == "Information not available."
