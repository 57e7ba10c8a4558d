"""The stays' itineraries (each a one-city plan whose ends are the legs, as booked "flights") made
one itinerary: the day a leg runs keeps the leaving city's morning up to the transfer, then the
leg, then the arriving city's day from its transfer on; activity ids are numbered by the trip's
days; each day says its stay; the cost breakdown, decisions, citations, violations and repairs
are the whole trip's, with each leg cited by its source."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone

from engine.models import (Activity, Citation, CostBreakdown, DayItinerary, Decision, ItineraryV1,
                           MultiCityIntent, PlannedLeg)

from .leg_activities import leg_activity, leg_citation, leg_transfer, transfer_citation
from .stays import StayPlace, stay_offsets

_DAY_ID = re.compile(r"(?<![A-Za-z0-9])d\d+-")
_FLYING_INTO = re.compile(r", flying into [A-Z]{3}")


@dataclass
class StayPlan:
    """A stay's one-city itinerary and the ids of the booked "flights" that stand for its legs."""

    itinerary: ItineraryV1
    inbound_id: str | None = None
    outbound_id: str | None = None


@dataclass
class HomeFromFirst:
    """``return_from="first"``: the flight home from the first city after the leg back to it."""

    activities: list[Activity]
    cost_cents: int
    citations: list[Citation] = field(default_factory=list)
    decision: Decision | None = None


_PSEUDO_ID = re.compile(r"(?:departure|arrival)-booked-lg(\d+)-\d{8}")


def _renumbered(a: Activity, day_index: int) -> Activity:
    """``a`` with the trip's day in its id, and a stand-in flight it names named as its leg."""
    named = _PSEUDO_ID.sub(lambda m: f"leg-{int(m.group(1)) - 1}", a.id)
    return a.model_copy(update={"id": _DAY_ID.sub(f"d{day_index}-", named)})


def _renumbered_violation(v, offset: int):
    """A stay's violation named by the trip's day (``d2-…``, ``day:2``), not the stay's."""
    ref = _DAY_ID.sub(lambda m: f"d{int(m.group(0)[1:-1]) + offset}-", v.node_ref)
    if ref.startswith("day:") and ref[4:].isdigit():
        ref = f"day:{int(ref[4:]) + offset}"
    return v.model_copy(update={"node_ref": ref})


def _before_leg(acts: list[Activity], pseudo_id: str) -> tuple[list[Activity], Activity | None]:
    """The leaving city's part of the day: up to the transfer to the leg (dropped: it is re-made)."""
    i = next(i for i, a in enumerate(acts) if a.ref == pseudo_id and a.role == "departure")
    before = acts[:i]
    dropped = before.pop() if before and before[-1].role == "transfer" else None
    return before, dropped


def _after_leg(acts: list[Activity], pseudo_id: str) -> tuple[list[Activity], Activity | None]:
    i = next(i for i, a in enumerate(acts) if a.ref == pseudo_id and a.role == "arrival")
    after = acts[i + 1:]
    dropped = after.pop(0) if after and after[0].role == "transfer" else None
    return after, dropped


def _last_geo(acts: list[Activity]):
    return next((a.geo for a in reversed(acts) if a.geo is not None), None)


def _first_geo(acts: list[Activity]):
    return next((a.geo for a in acts if a.geo is not None), None)


class Stitcher:
    def __init__(self, intent: MultiCityIntent, places: list[StayPlace], stays: list[StayPlan],
                 legs: list[PlannedLeg]) -> None:
        self.intent, self.places, self.stays, self.legs = intent, places, stays, legs
        self.transit_delta = 0  # what re-made transfers changed of the stays' transit costs
        self.dropped: set[str] = set()  # notes of transfers no longer in the plan (their citations go too)
        self.transfers: list[Activity] = []  # the transfers made at the legs' ends (each cited)
        self.kept: set[str] = set()  # the notes the stitched days still say

    def _leg_day(self, leg: PlannedLeg, g: int, date, before: list[Activity], dropped_before,
                 after: list[Activity], dropped_after) -> list[Activity]:
        a, b = self.places[leg.index], self.places[(leg.index + 1) % len(self.places)]
        n = self.intent.travellers
        if leg.mode == "flight":  # the city planner's own transfers to and from the airports stand
            keep = [x for x in (dropped_before,) if x is not None]
            first = [x for x in (dropped_after,) if x is not None]
            return [*before, *keep, leg_activity(leg, g, date, a.tz, b.tz, n), *first, *after]
        if leg.mode == "drive":  # the car leaves from the hotel and arrives at the next: no station
            for old in (dropped_before, dropped_after):
                if old is not None:
                    self.transit_delta -= old.cost_usd_cents
                    self.dropped.add(old.notes)
            return [*before, leg_activity(leg, g, date, a.tz, b.tz, n), *after]
        leave_at = dropped_before.start if dropped_before is not None and dropped_before.start else leg.departure
        to_leg = leg_transfer(leg, to_leg=True, day_index=g, day=date, tz=a.tz, other=_last_geo(before),
                              at=min(leave_at, leg.departure), travellers=n)
        from_leg = leg_transfer(leg, to_leg=False, day_index=g, day=date, tz=b.tz, other=_first_geo(after),
                                at=leg.arrival, travellers=n)
        for old in (dropped_before, dropped_after):
            if old is not None:
                self.transit_delta -= old.cost_usd_cents
                self.dropped.add(old.notes)
        self.transit_delta += to_leg.cost_usd_cents + from_leg.cost_usd_cents
        self.transfers += [to_leg, from_leg]
        return [*before, to_leg, leg_activity(leg, g, date, a.tz, b.tz, n), from_leg, *after]

    def days(self, home: HomeFromFirst | None) -> list[DayItinerary]:
        offsets = stay_offsets(self.intent)
        out: list[DayItinerary] = []
        pending: tuple | None = None  # the leaving city's part of a leg day
        last = len(self.stays) - 1
        for k, plan in enumerate(self.stays):
            days = plan.itinerary.days
            for j, day in enumerate(days):
                g = offsets[k] + j
                acts = [_renumbered(a, g) for a in day.activities]
                if j == len(days) - 1 and plan.outbound_id is not None:
                    before, dropped = _before_leg(acts, plan.outbound_id)
                    if k < last or self.intent.return_from == "last":
                        pending = (before, dropped)
                        continue
                    leg = self.legs[-1]  # back to the first city, then home
                    acts = self._leg_day(leg, g, day.date, before, dropped, [], None)
                    acts += home.activities if home is not None else []
                    out.append(DayItinerary(date=day.date, activities=acts, stay=0, tz=self.places[0].tz))
                    continue
                if j == 0 and plan.inbound_id is not None and pending is not None:
                    after, dropped_after = _after_leg(acts, plan.inbound_id)
                    leg = self.legs[k - 1]
                    acts = self._leg_day(leg, g, day.date, pending[0], pending[1], after, dropped_after)
                    pending = None
                out.append(DayItinerary(date=day.date, activities=acts, stay=k, tz=self.places[k].tz))
        self.kept = {a.notes for d in out for a in d.activities}
        return out

    def costs(self, home: HomeFromFirst | None) -> CostBreakdown:
        parts = [p.itinerary.cost_breakdown for p in self.stays]
        flight_legs = sum(leg.fare_usd_cents for leg in self.legs if leg.mode == "flight")
        ground_legs = sum(leg.fare_usd_cents for leg in self.legs if leg.mode != "flight")
        home_cents = home.cost_cents if home is not None else 0
        flights = sum(p.flights_usd_cents for p in parts) + flight_legs + home_cents
        transit = sum(p.transit_usd_cents for p in parts) + ground_legs + self.transit_delta
        estimated = sorted({e for p in parts for e in p.estimated_parts}
                           | ({"transit"} if any(leg.source == "estimated" and leg.mode != "flight" for leg in self.legs) else set())
                           | ({"flights"} if any(leg.source == "estimated" and leg.mode == "flight" for leg in self.legs) else set()))
        disclaimers = list(dict.fromkeys(p.currency_disclaimer for p in parts if p.currency_disclaimer))
        lodging = sum(p.lodging_usd_cents for p in parts)
        attractions = sum(p.attractions_usd_cents for p in parts)
        daily = sum(p.daily_spend_usd_cents for p in parts)
        meals = sum(p.meals_usd_cents for p in parts)
        return CostBreakdown(flights_usd_cents=flights, lodging_usd_cents=lodging, attractions_usd_cents=attractions,
                             transit_usd_cents=transit, daily_spend_usd_cents=daily, meals_usd_cents=meals,
                             total_usd_cents=flights + lodging + attractions + transit + daily + meals,
                             currency_disclaimer="; ".join(disclaimers), estimated_parts=estimated)

    def decisions(self, home: HomeFromFirst | None) -> list[Decision]:
        out = []
        for k, plan in enumerate(self.stays):
            city = self.places[k].city
            for d in plan.itinerary.decisions:
                text = _FLYING_INTO.sub("", d.rationale) if plan.inbound_id is not None else d.rationale
                out.append(d.model_copy(update={"rationale": f"{city}: {text}"}))
        for leg in self.legs:
            asked = self.intent.leg_requests()[leg.index]
            considered = 0 if leg.source == "booked" or asked.mode != "best" else 3
            out.append(Decision(node="legs", selected=f"leg_{leg.index}:{leg.mode}", alternatives_considered=considered,
                                rationale=f"{leg.from_city} → {leg.to_city} by {leg.mode}: {leg.why}."))
        if home is not None and home.decision is not None:
            out.append(home.decision)
        return out

    def citations(self, home: HomeFromFirst | None) -> list[Citation]:
        pseudo = {i for p in self.stays for i in (p.inbound_id, p.outbound_id) if i}
        gone = self.dropped - self.kept  # a claim still said elsewhere (the same ride on day 1) keeps its citation
        out = [c for p in self.stays for c in p.itinerary.citations
               if c.provenance.ref_id not in pseudo and c.claim not in gone]
        out += [leg_citation(leg, self.intent.travellers) for leg in self.legs]
        out += [transfer_citation(t) for t in self.transfers]
        fx = [c for p in self.stays for c in p.itinerary.citations
              if c.claim == p.itinerary.cost_breakdown.currency_disclaimer]
        joined = self.costs(home).currency_disclaimer
        if fx and joined not in {c.claim for c in fx}:  # the stays' rates, said once for the trip
            out.append(Citation(claim=joined, provenance=fx[0].provenance))
        return out + (home.citations if home is not None else [])


def stitch(intent: MultiCityIntent, places: list[StayPlace], stays: list[StayPlan], legs: list[PlannedLeg], *,
           home: HomeFromFirst | None = None, trace_id: str = "", run_id: str = "") -> ItineraryV1:
    s = Stitcher(intent, places, stays, legs)
    days = s.days(home)
    first = stays[0].itinerary
    return ItineraryV1(itinerary_id=str(uuid.uuid4()), intent=intent, days=days, cost_breakdown=s.costs(home),
                       decisions=s.decisions(home), citations=s.citations(home),
                       violations=[_renumbered_violation(v, off) for p, off in zip(stays, stay_offsets(intent))
                                   for v in p.itinerary.violations],
                       repairs=[r for p in stays for r in p.itinerary.repairs],
                       degraded_tools=sorted({t for p in stays for t in p.itinerary.degraded_tools}),
                       created_at=datetime.now(timezone.utc), trace_id=trace_id, run_id=run_id,
                       planning_date=first.planning_date,
                       attributions=list(dict.fromkeys(a for p in stays for a in p.itinerary.attributions)),
                       legs=legs)
