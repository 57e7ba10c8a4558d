"""Re-framing a plan around new flights or a new hotel while keeping the middle days."""

from __future__ import annotations

from engine.models import DayPlan, PlanV1
from engine.planning.builder import Branch, PlanBuilder


def reframe(plan: PlanV1, ctx, *, outbound=None, back=None, hotel=None) -> PlanV1 | None:
    facts = ctx.facts
    cur = {s.role: s.selected.option_ref for _, _, s in plan.slots()
           if s.role in ("arrival", "departure", "checkin")}
    outbound = outbound or facts.flights[cur["arrival"]]
    back = back or facts.flights[cur["departure"]]
    hotel = hotel or facts.lodgings[cur["checkin"]]
    branch = Branch(airport=outbound.dest, outbound=outbound, back=back, hotel=hotel)
    builder = PlanBuilder(ctx.inputs)
    frame = builder._frame(branch)
    last = len(plan.days) - 1
    keep = {di for di in range(len(plan.days)) if di not in (0, last)}
    used = {s.selected.option_ref for di in keep for s in plan.days[di].slots}
    used |= {s.selected.option_ref for d in frame for s in d if s.locked}
    filler = builder.day_builder(branch)
    days = []
    for di, day in enumerate(plan.days):
        if di in keep:
            days.append(day)
            continue
        slots = builder._fill_day(filler, di, frame[di], branch, used, list(ctx.inputs.attractions))
        days.append(DayPlan(date=day.date, slots=slots))
    return plan.model_copy(update={"days": days, "branch": branch.label})
