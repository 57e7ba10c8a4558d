"""Re-deriving a saved city itinerary from the catalog (``tripwright verify``).

Nothing a file states is trusted when the catalog can say it again: every ``ref`` is looked up,
every price is re-derived with the planner's own choice constructors (so a change to how the
planner prices a choice flows in here), the flights must be the catalog's outbound and return
flights for the trip's dates, and the cost breakdown is recomputed with ``plan_cost``. What does
not match becomes a blocking ``fact_mismatch``; the rebuilt plan — catalog facts, the file's
times — then goes through the ordinary verifiers (budget, hours, timing, ...).

a saved itinerary rebuilt from the catalog for `tripwright verify` (refs, prices as-of its `planning_date`,
the frame, totals), then verified like a fresh plan
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from engine.costs import plan_assumptions, plan_cost, rooms_for
from engine.edits import venue_choice
from engine.facts import TripFacts
from engine.models import (Activity, Choice, ChoiceKind, CostBreakdown, DayPlan, FlightOption,
                           ItineraryV1, PlanV1, Slot, TimeWindow, Violation, format_usd)
from engine.schedule import late_checkin
from engine.tools.requests import VenueRequest
from engine.tools.toolbox import Toolbox
from engine.verify.mismatch import mismatch

from .builder import flight_choice, flight_label, local_minutes, lodging_choice
from .inputs import trip_dates

ROLES = ("arrival", "checkin", "activity", "meal", "checkout", "departure")
_BREAKDOWN = (("flights", "flights_usd_cents"), ("lodging", "lodging_usd_cents"),
              ("attractions", "attractions_usd_cents"), ("transit", "transit_usd_cents"),
              ("daily_spend", "daily_spend_usd_cents"), ("total", "total_usd_cents"))


@dataclass(frozen=True)
class Rederived:
    plan: PlanV1 | None  # the file's slots and times over catalog choices (unknown refs left out);
    # None when the days themselves are not the intent's (nothing to verify day by day)
    facts: TripFacts  # the tools' facts plus every catalog entry the file refers to
    violations: list[Violation]  # blocking fact_mismatch findings, in file order


def rederive_city(itin: ItineraryV1, facts: TripFacts, toolbox: Toolbox) -> Rederived:
    return _Rederivation(itin, facts, toolbox).run()


class _Rederivation:
    def __init__(self, itin: ItineraryV1, facts: TripFacts, toolbox: Toolbox) -> None:
        self.itin, self.intent, self.facts, self.toolbox = itin, itin.intent, facts, toolbox
        self.city = toolbox.catalog.city(facts.city)
        self.nights = max(0, len(itin.days) - 1)
        self.travellers = itin.intent.travellers
        self.rooms = rooms_for(itin.intent.travellers, itin.intent.rooms)
        self.found: list[Violation] = []
        self.venues: dict = {}
        self.lodgings: dict = {}

    def run(self) -> Rederived:
        if not self._dates_match():
            return Rederived(plan=None, facts=self.facts, violations=self.found)
        days = [DayPlan(date=day.date, slots=self._slots(di, day)) for di, day in enumerate(self.itin.days)]
        self._check_frame(days)
        facts = dataclasses.replace(self.facts, venues={**self.facts.venues, **self.venues},
                                    lodgings={**self.facts.lodgings, **self.lodgings})
        plan = PlanV1(days=days, assumptions=plan_assumptions(facts, self.intent), rng_seed=0, branch="saved")
        self._check_breakdown(plan, facts)
        return Rederived(plan=plan, facts=facts, violations=self.found)

    # -- the trip's frame ----------------------------------------------------------------------
    def _dates_match(self) -> bool:
        want = trip_dates(self.intent)
        have = [d.date for d in self.itin.days]
        if have != want:
            self.found.append(mismatch("trip", f"days: itinerary has {_span(have)}, the intent's window "
                                               f"is {_span(want)}"))
        return have == want

    def _check_frame(self, days: list[DayPlan]) -> None:
        """Outbound flight and check-in on day 1 (a late landing's check-in opens day 2), check-out and return flight on the last day."""
        if not days:
            return
        last = len(days) - 1
        desk = 1 if len(days) > 1 and days[1].slots and late_checkin(1, 0, days[1].slots[0]) else 0
        for di, role, what in ((0, "arrival", "outbound flight"), (desk, "checkin", "hotel check-in"),
                               (last, "checkout", "hotel check-out"), (last, "departure", "return flight")):
            if not any(s.role == role for s in days[di].slots):
                self.found.append(mismatch(f"day:{di}", f"{what}: missing from day {di + 1} ({days[di].date})"))
        stays = {s.selected.option_ref for d in days for s in d.slots if s.role in ("checkin", "checkout")}
        if len(stays) > 1:
            self.found.append(mismatch("trip", f"lodging: check-in and check-out are at different hotels "
                                               f"({', '.join(sorted(stays))})"))

    def _check_breakdown(self, plan: PlanV1, facts: TripFacts) -> None:
        cost = plan_cost(plan, facts)
        stated: CostBreakdown = self.itin.cost_breakdown
        for attr, field in _BREAKDOWN:
            says, derived = getattr(stated, field), getattr(cost, attr)
            if says != derived:
                self.found.append(mismatch("cost_breakdown", f"cost_breakdown.{field}: itinerary says "
                                           f"{format_usd(says)}, re-derived from the catalog {format_usd(derived)}",
                                           stated_usd_cents=says, derived_usd_cents=derived))

    # -- one day's slots -----------------------------------------------------------------------
    def _slots(self, di: int, day) -> list[Slot]:
        slots = []
        # Transfers are re-derived as legs by plan_cost; anything else books an option, whatever its kind says.
        # An "omitted" row (a tool outage, seed §12.1) books nothing either.
        booked = [a for a in day.activities if a.role not in ("transfer", "omitted")
                  and (a.role or a.kind is not ChoiceKind.transit)]
        for n, act in enumerate(booked, start=1):
            label = f"{act.role or act.kind.value} day {di + 1} #{n}"
            if act.role not in ROLES:
                self.found.append(mismatch(act.id, f"{label}: role {act.role!r} is not one of {', '.join(ROLES)}"))
                continue
            built = self._choice(di, act, label)
            if built is None:
                continue
            choice, window, priced_as = built
            if act.kind is not choice.kind:
                self.found.append(mismatch(act.id, f"{label}: kind {act.kind.value!r}, but {priced_as} "
                                                   f"is booked as {choice.kind.value!r}"))
            self._check_price(act, choice, label, priced_as)
            slots.append(Slot(window=window, role=act.role, locked=act.locked,
                              choices=[choice.model_copy(update={"choice_id": act.id})]))
        return slots

    def _choice(self, di: int, act: Activity, label: str) -> tuple[Choice, TimeWindow, str] | None:
        if act.role in ("arrival", "departure"):
            return self._flight(di, act, label)
        if act.role in ("checkin", "checkout"):
            hotel = self.toolbox.lodging.by_id(self.city.name, act.ref)
            if hotel is None and act.ref.startswith("booked_"):  # the traveller's booking, from the intent
                hotel = self.facts.lodgings.get(act.ref)
            if hotel is None:
                return self._unknown(act, label, "hotel")
            self.lodgings[hotel.lodging_id] = hotel
            nights = f" {self.nights} night{'s' if self.nights != 1 else ''}" if act.role == "checkin" else ""
            return lodging_choice(di, act.role, hotel, self.nights, self.rooms), act.window, f"{hotel.name}{nights}"
        meal = act.role == "meal"
        venue = (self.toolbox.dining.by_id(self.city.name, act.ref) if meal
                 else self.toolbox.attractions.by_id(VenueRequest(city=self.city.name, venue_id=act.ref)))
        if venue is None and act.ref.startswith(("user_", "booked_event_")):  # the traveller's: from the intent
            venue = self.facts.venues.get(act.ref)
        if venue is None:
            return self._unknown(act, label, "restaurant" if meal else "venue")
        self.venues[venue.id] = venue
        kind = ChoiceKind.meal if meal else ChoiceKind.attraction
        return venue_choice(di, act.role, venue, kind, self.travellers), act.window, venue.name

    def _unknown(self, act: Activity, label: str, what: str) -> None:
        self.found.append(mismatch(act.id, f"{label}: {what} {act.ref!r} is not in the {self.city.name} catalog",
                                   ref=act.ref))
        return None

    def _flight(self, di: int, act: Activity, label: str) -> tuple[Choice, TimeWindow, str] | None:
        outbound = act.role == "arrival"
        flight = self.facts.flights.get(act.ref)
        want = "outbound" if outbound else "return"
        if flight is None or flight.direction != want:
            airports = "/".join(self.intent.airports)
            route = (f"{self.intent.origin_airport}→{airports} landing" if outbound
                     else f"{airports}→{self.intent.origin_airport} leaving")
            when = self.intent.date_window.start if outbound else self.intent.date_window.end
            self.found.append(mismatch(act.id, f"{label}: flight {act.ref!r} is not a catalog {want} flight "
                                               f"{route} {when}", ref=act.ref))
            return None
        code = flight.dest if outbound else flight.origin
        geo = self.facts.airport_leg(code, self.city.center, self.itin.days[0].date).from_geo
        window = self._flight_window(act, flight, label)
        return flight_choice(di, act.role, flight, geo, self.travellers), window, flight_label(flight)

    def _flight_window(self, act: Activity, flight: FlightOption, label: str) -> TimeWindow:
        """The city-side clock time comes from the catalog: landing for arrivals, take-off for departures."""
        outbound = act.role == "arrival"
        _, minute = local_minutes(flight.arrival if outbound else flight.departure, self.facts.tz)
        stated = act.window.end if outbound else act.window.start
        if stated.hour * 60 + stated.minute == minute:
            return act.window
        what = "lands" if outbound else "leaves"
        clock = f"{minute // 60:02d}:{minute % 60:02d}"
        self.found.append(mismatch(act.id, f"{label}: itinerary says {flight.flight_number} {what} at "
                                           f"{stated:%H:%M}, the catalog says {clock}"))
        if outbound:
            start = min(_minutes(act.window.start), max(0, minute - 1))
            return TimeWindow.of_minutes(start, max(minute, start + 1))
        return TimeWindow.of_minutes(minute, max(_minutes(act.window.end), minute + 1))

    def _check_price(self, act: Activity, choice: Choice, label: str, priced_as: str) -> None:
        derived = choice.features.cost_usd_cents
        if act.cost_usd_cents != derived:
            self.found.append(mismatch(act.id, f"{label}: itinerary says {format_usd(act.cost_usd_cents)}, "
                                               f"catalog price for {priced_as} is {format_usd(derived)}",
                                       stated_usd_cents=act.cost_usd_cents, derived_usd_cents=derived))


def _minutes(t) -> int:
    return t.hour * 60 + t.minute


def _span(days: list) -> str:
    if not days:
        return "no days"
    return f"{len(days)} day(s) {days[0]}..{days[-1]}"
