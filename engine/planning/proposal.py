"""A model's drafting choices turned into plans by the ordinary builder (seed 001: the model
chooses what, the planner decides when).

``DraftChoices`` names ids only — per day the venues and meals wanted, must-dos, a hotel tier, an
airport. The deterministic builder schedules them (hours, transit, buffers, check-in, last metro);
verify and repair then run as for any plan. Odd choices are absorbed, never trusted: a repeated
venue is used once, a closed one is skipped by the hours check, days the proposal lacks are
filled by the builder's own greedy choice, extra days are ignored.

a model's `DraftChoices` → plans by the ordinary `PlanBuilder` (hooks `day_venues`/`day_restaurants`): the
proposal's airport/tier branch (else the planner's first, noted), each day's candidates narrowed to the
proposal in its order; repeats, closed venues, missing or extra days are absorbed; `pipeline/draft_stage.py`
runs the drafter after the tool answers (checkpoint `tools`) and emits the `draft` node with tokens and cost
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.models import Attraction

from .branches import best_flight, enumerate_branches
from .builder import Branch, PlanBuilder
from .inputs import PlannerInputs


@dataclass(frozen=True)
class DayChoice:
    venues: tuple[str, ...] = ()
    meals: tuple[str, ...] = ()


@dataclass(frozen=True)
class DraftChoices:
    days: tuple[DayChoice, ...]
    must_dos: tuple[str, ...] = ()
    hotel_tier: str | None = None
    airport: str | None = None
    notes: list[str] = field(default_factory=list, compare=False, repr=False)  # what the builder had to change


def proposal_branch(inputs: PlannerInputs, choices: DraftChoices) -> tuple[Branch, str | None]:
    """The branch for the proposed airport and tier; else the planner's first branch and why."""
    hotels = [h for h in inputs.lodgings if h.tier.value == choices.hotel_tier]
    for hotel in hotels:
        out = best_flight(inputs, choices.airport, "outbound", hotel) if choices.airport else None
        back = best_flight(inputs, choices.airport, "return", hotel) if choices.airport else None
        if out is not None and back is not None:
            return Branch(airport=choices.airport, outbound=out, back=back, hotel=hotel), None
    fallback = enumerate_branches(inputs)[0]
    return fallback, (f"no flights fit a {choices.hotel_tier} hotel via {choices.airport}; "
                      f"used {fallback.label} instead")


class ProposalBuilder(PlanBuilder):
    """The builder with each day's candidates narrowed to the proposal, in the model's order."""

    def __init__(self, inputs: PlannerInputs, choices: DraftChoices) -> None:
        super().__init__(inputs, day_memo=None)  # the day memo is keyed without the proposal
        self.choices = choices
        wanted = [v for day in choices.days for v in day.venues] + list(choices.must_dos)
        order = list(dict.fromkeys(wanted))
        self.ranking = {vid: i for i, vid in enumerate(order)}  # the model's order is the builder's rank
        self.by_id = {a.id: a for a in (*inputs.attractions, *inputs.restaurants)}

    def _day(self, di: int) -> DayChoice | None:
        return self.choices.days[di] if di < len(self.choices.days) else None

    def day_venues(self, di: int, venues: list[Attraction]) -> list[Attraction]:
        day = self._day(di)
        if day is None or not day.venues:
            return venues  # a day the model left open: the builder's own choice
        ids = list(dict.fromkeys([*day.venues, *self.choices.must_dos]))
        allowed = {v.id for v in venues}
        return [self.by_id[v] for v in ids if v in allowed]

    def day_restaurants(self, di: int) -> list[Attraction]:
        day = self._day(di)
        picked = [self.by_id[m] for m in dict.fromkeys(day.meals) if m in self.by_id] if day else []
        return picked or self.inputs.restaurants


def plans_from_proposal(inputs: PlannerInputs, choices: DraftChoices) -> list:
    branch, note = proposal_branch(inputs, choices)
    if note:
        choices.notes.append(note)
    return [ProposalBuilder(inputs, choices).build(branch)]
