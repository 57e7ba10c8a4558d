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


def test_a_dining_outage_keeps_the_sights_and_marks_each_days_meals_omitted(monkeypatch) -> None:
    """Seed §12.1 with only dining down: the day's meals are omitted (one grey row in free time,
    never over a visit), the sights are still planned, and the plan completes."""
    from engine.models import minutes_of
    from engine.tools.executor import ExecutorPolicy, ToolExecutor

    from .conftest import new_toolbox
    monkeypatch.setenv("SIMULATE_TOOL_TIMEOUT", "dining:1s")
    toolbox = new_toolbox(executor=ToolExecutor(ExecutorPolicy(soft_timeout_s=0.02, hard_timeout_s=0.05)))
    result = asyncio.run(PlanningSession(today=TODAY, toolbox=toolbox).plan(paris_demo()))
    assert result.status == "completed"
    it = result.itinerary
    assert "dining" in it.degraded_tools and "attractions" not in it.degraded_tools
    acts = [a for d in it.days for a in d.activities]
    assert not [a for a in acts if a.role == "meal"] and [a for a in acts if a.role == "activity"]
    for day in it.days:
        for row in (a for a in day.activities if a.role == "omitted"):
            assert row.name == "Meals omitted" and row.kind is ChoiceKind.meal
            assert row.provenance.data_source == "omitted" and row.provenance.tool == "dining"
            start, end = minutes_of(row.window.start), minutes_of(row.window.end)
            for other in day.activities:
                if other is not row and other.role != "transfer":
                    assert minutes_of(other.window.end) <= start or minutes_of(other.window.start) >= end
    assert sum(1 for a in acts if a.role == "omitted") >= 1


def test_an_admission_is_said_in_the_local_currency_beside_usd() -> None:
    """Issue 31 §3: a price is shown as the traveller pays it on the spot, with USD beside it — the
    same amount the plan costs, converted back by the plan's own rate (Paris: euros)."""
    from engine.models.common import format_local, format_price

    intent = paris_demo()
    result = asyncio.run(PlanningSession(today=TODAY).plan(intent))
    facts = result.inputs.facts
    assert (facts.local_currency, facts.local_rate_to_usd) == ("EUR", facts.fx_rate_to_usd)
    paid = [(a, facts.venue(a.ref)) for d in result.itinerary.days for a in d.activities
            if a.kind.value == "attraction" and facts.venue(a.ref) and facts.venue(a.ref).est_price_usd_cents > 0]
    assert paid
    for activity, venue in paid:
        euros = venue.est_price_usd_cents / 100 / facts.fx_rate_to_usd
        said = format_local(euros, "EUR", whole=venue.price_estimated)
        assert f"admission about {said} (≈ ${venue.est_price_usd_cents // 100}." in activity.notes, activity.notes
    assert format_price(1296, "EUR", 1.08) == "€12 (≈ $12.96)"
    assert format_price(1320, "EUR", 1.16, estimated=True) == "€11 (≈ $13.20)"
    assert format_price(918, "EUR", 1.08) == "€8.50 (≈ $9.18)"
    assert format_price(337, "JPY", 0.00674) == "¥500 (≈ $3.37)"
    assert format_price(500, "MXN", 0.055) == "91 MXN (≈ $5.00)"
    assert format_price(1296) == format_price(1296, "EUR", 0) == "$12.96"  # USD, or no rate: USD alone
