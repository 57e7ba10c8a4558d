"""Builds a complete PlanV1 for one branch (airport × hotel tier): flights, hotel, days."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from engine.canonical import digest
from engine.costs import flight_cost, lodging_cost, plan_assumptions, rooms_for, venue_cost
from engine.models import (Assumptions, Attraction, Choice, ChoiceFeatures, ChoiceKind, DayPlan,
                           FlightOption, IntentV1, Lodging, PlanV1, Slot, TimeWindow, minutes_of)
from engine.verify.timing import DEPLANE_MINUTES

from .booked_events import event_slots
from .day_builder import DayBuilder, DayState, Limit, ceil5
from .famous import famous_ids
from .inputs import PlannerInputs, trip_dates

PARTIAL_ARRIVAL = 20 * 60  # arriving after 20:00 → day 1 is arrival only (seed §18.1)
EARLY_DEPARTURE = 10 * 60  # leaving before 10:00 → last day is checkout + transfer only
DAY_START = 9 * 60
CHECKIN_MINUTES = 30
LAST_SAME_DAY_CHECKIN = 23 * 60 + 59 - CHECKIN_MINUTES
CHECKOUT_MINUTES = 15
EARLIEST_CHECKOUT = 5 * 60  # express checkout: leaving before the desk's window opens is fine
MEAL_SHARE = 0.4  # of the money left after the frame: admissions, transit and headroom take the rest


@dataclass(frozen=True)
class Branch:
    airport: str
    outbound: FlightOption
    back: FlightOption
    hotel: Lodging

    @property
    def label(self) -> str:
        return f"{self.airport}/{self.hotel.tier.value}"


def local_minutes(moment: datetime, tz: str) -> tuple[datetime, int]:
    local = moment.astimezone(ZoneInfo(tz))
    return local, local.hour * 60 + local.minute


def flight_label(f: FlightOption) -> str:
    """"TP 202 JFK→LIS"; an estimate's number is already its name ("Estimated flight JFK → LIS, 21:30")."""
    if f.provenance.data_source == "estimated":
        return f.flight_number
    return f"{f.flight_number} {f.origin}→{f.dest}"


def flight_choice(di: int, role: str, f: FlightOption, geo, travellers: int = 1) -> Choice:
    return Choice(choice_id=f"d{di}-{role}-{f.flight_id}", kind=ChoiceKind.flight, option_ref=f.flight_id,
                  label=flight_label(f), geo=geo,
                  features=ChoiceFeatures(cost_usd_cents=flight_cost(f, travellers),
                                          travel_seconds=f.duration_seconds),
                  provenance=f.provenance)


def lodging_choice(di: int, role: str, h: Lodging, nights: int, rooms: int = 1) -> Choice:
    """The whole stay is paid on the check-in choice (checkout costs nothing)."""
    cost = lodging_cost(h, nights, rooms) if role == "checkin" else 0
    return Choice(choice_id=f"d{di}-{role}-{h.lodging_id}", kind=ChoiceKind.lodging, option_ref=h.lodging_id,
                  label=h.name if h.booking else f"{h.name} ({h.tier.value})", geo=h.geo,  # booked: no tier guess
                  features=ChoiceFeatures(cost_usd_cents=cost, indoor=True), provenance=h.provenance)


def venue_choice(di: int, v: Attraction, kind: ChoiceKind = ChoiceKind.attraction, travellers: int = 1,
                 role: str = "activity") -> Choice:
    return Choice(choice_id=f"d{di}-{role}-{v.id}", kind=kind, option_ref=v.id, label=v.name,
                  geo=v.location, features=ChoiceFeatures(cost_usd_cents=venue_cost(v, travellers),
                                                          indoor=v.indoor, themes=list(v.themes)),
                  provenance=v.provenance)


class PlanBuilder:
    """``day_memo`` (a pipeline NodeMemo) lets a re-plan reuse every day whose frame and
    already-used venues are unchanged: an edit on day 3 leaves days 1–2 as they were."""

    def __init__(self, inputs: PlannerInputs, day_memo=None) -> None:
        self.inputs = inputs
        self.day_memo = day_memo
        self.intent: IntentV1 = inputs.intent
        self.tz = inputs.city.tz
        self.dates = trip_dates(inputs.intent)
        self.ranking = {a.id: i for i, a in enumerate(inputs.attractions)}
        self.people = inputs.intent.travellers
        self.rooms = rooms_for(inputs.intent.travellers, inputs.intent.rooms)

    def assumptions(self) -> Assumptions:
        return plan_assumptions(self.inputs.facts, self.intent)

    def day_builder(self, branch: Branch) -> DayBuilder:
        """The day filler for ``branch``, with the buffers the verifiers check against and a
        per-person meal price the budget can carry once the frame is paid."""
        a = self.assumptions()
        return DayBuilder(self.inputs.facts, themes=self.intent.prefs.themes, kid=self.intent.prefs.kid_friendly,
                          hotel=branch.hotel.geo, transit_buffer=a.transit_buffer_minutes,
                          museum_buffer=a.museum_buffer_minutes, airport_buffer=a.airport_buffer_minutes,
                          ranking=self.ranking, travellers=a.travellers, meal_cap_cents=self.meal_cap(branch, a),
                          must=frozenset(self.inputs.must_see), famous=tuple(famous_ids(self.inputs.city)),
                          pace=self.intent.prefs.pace, tables_again=self.intent.tables_again)

    def meal_cap(self, b: Branch, a: Assumptions) -> int:
        """What one meal may cost per person: a share of what is left after flights, beds and the
        daily allowance, spread over two meals a day."""
        days, people = len(self.dates), a.travellers
        fixed = (flight_cost(b.outbound, people) + flight_cost(b.back, people)
                 + lodging_cost(b.hotel, days - 1, a.rooms) + a.daily_spend_est_cents * days * people)
        left = self.intent.budget_usd_cents - fixed
        return max(0, int(left * MEAL_SHARE / (2 * days * people)))

    def build(self, branch: Branch, *, skip_venues: frozenset[str] = frozenset()) -> PlanV1:
        days = self._frame(branch)
        builder = self.day_builder(branch)
        used = set(skip_venues) | {s.selected.option_ref for d in days for s in d if s.locked}
        venues = list(self.inputs.attractions)
        for di, fixed in enumerate(days):
            days[di] = self._fill_day_memo(builder, di, fixed, branch, used, self.day_venues(di, venues))
        seed = int(digest(self.intent)[:8], 16)
        return PlanV1(days=[DayPlan(date=d, slots=s) for d, s in zip(self.dates, days)],
                      assumptions=self.assumptions(), rng_seed=seed, branch=branch.label)

    # -- fixed frame: flights, hotel desk, locked slots ------------------------------------------
    def _frame(self, branch: Branch) -> list[list[Slot]]:
        days: list[list[Slot]] = [[] for _ in self.dates]
        nights = len(self.dates) - 1
        arrival, checkin, desk_day = self._arrival(branch, nights)
        days[0].append(arrival)
        days[desk_day].append(checkin)
        days[-1] += self._departure(branch, len(self.dates) - 1, nights)
        for di, slot in event_slots(self.intent, self.inputs.facts.venue, self.dates, self.tz,
                                    lambda d, v: venue_choice(d, v, travellers=self.people)):
            days[di].append(slot)  # the traveller's booked events: locked at their time
        for lock in self.intent.prefs.locked_slots:
            venue = self.inputs.facts.venue(lock.activity_id)
            days[lock.day_offset].append(Slot(window=lock.window, role="activity", locked=True,
                                              choices=[venue_choice(lock.day_offset, venue, travellers=self.people)]))
        return [sorted(d, key=lambda s: s.window.start) for d in days]

    def _arrival(self, b: Branch, nights: int) -> tuple[Slot, Slot, int]:
        """The arrival flight, the check-in and the check-in's day: one that cannot end by midnight
        opens day 2 instead (a late landing: the night of day 1 is booked, the ride crosses midnight)."""
        dep_local, dep_min = local_minutes(b.outbound.departure, self.tz)
        _, arr_min = local_minutes(b.outbound.arrival, self.tz)
        start = dep_min if dep_local.date() == self.dates[0] else 0
        airport = self.inputs.facts.airport_leg(b.airport, b.hotel.geo, self.dates[0])
        ready = arr_min + DEPLANE_MINUTES + airport.duration_seconds // 60
        checkin_at = max(ceil5(ready), minutes_of(b.hotel.checkin_window.start))
        late = checkin_at > LAST_SAME_DAY_CHECKIN and len(self.dates) > 1
        if late:
            checkin_at = max(0, ceil5(ready) - 24 * 60)
        checkin_at = min(checkin_at, LAST_SAME_DAY_CHECKIN)
        return (Slot(window=TimeWindow.of_minutes(start, max(arr_min, start + 1)), role="arrival",
                     choices=[flight_choice(0, "arrival", b.outbound, self._airport_geo(b.airport), self.people)]),
                Slot(window=TimeWindow.of_minutes(checkin_at, checkin_at + CHECKIN_MINUTES), role="checkin",
                     choices=[lodging_choice(int(late), "checkin", b.hotel, nights, self.rooms)]), int(late))

    def _departure(self, b: Branch, di: int, nights: int) -> list[Slot]:
        _, dep_min = local_minutes(b.back.departure, self.tz)
        arr_local, arr_min = local_minutes(b.back.arrival, self.tz)
        end = arr_min if arr_local.date() == self.dates[-1] and arr_min > dep_min else 23 * 60 + 59
        airport = self.inputs.facts.airport_leg(b.airport, b.hotel.geo, self.dates[-1])
        latest_out = dep_min - 120 - airport.duration_seconds // 60 - CHECKOUT_MINUTES
        window = b.hotel.checkout_window
        out_at = max(EARLIEST_CHECKOUT, min(10 * 60, latest_out, minutes_of(window.end) - CHECKOUT_MINUTES))
        out_at = out_at // 5 * 5
        return [Slot(window=TimeWindow.of_minutes(out_at, out_at + CHECKOUT_MINUTES), role="checkout",
                     choices=[lodging_choice(di, "checkout", b.hotel, nights, self.rooms)]),
                Slot(window=TimeWindow.of_minutes(dep_min, max(end, dep_min + 1)), role="departure",
                     choices=[flight_choice(di, "departure", b.back, self._airport_geo(b.airport), self.people)])]

    def _airport_geo(self, code: str):
        return self.inputs.facts.airport_leg(code, self.inputs.city.center, self.dates[0]).from_geo

    # -- free time ------------------------------------------------------------------------------
    def day_venues(self, di: int, venues: list[Attraction]) -> list[Attraction]:
        """The venues day ``di`` may use (a model's proposal narrows them, engine/planning/proposal)."""
        return venues

    def day_restaurants(self, di: int) -> list[Attraction]:
        return self.inputs.restaurants

    def _fill_day_memo(self, builder, di, fixed, b: Branch, used: set[str], venues) -> list[Slot]:
        if self.day_memo is None:
            return self._fill_day(builder, di, fixed, b, used, venues)
        key = (b.outbound.flight_id, b.back.flight_id, b.hotel.lodging_id, di, frozenset(used),
               tuple((s.role, s.window, s.selected.option_ref, s.locked) for s in fixed),
               tuple(self.intent.prefs.themes), self.intent.prefs.kid_friendly, tuple(self.inputs.must_see),
               self.intent.prefs.pace)
        found, value = self.day_memo.get("plan_day", key)
        if found and value[0] is self.inputs.facts:
            used |= value[2]
            return value[1]
        before = set(used)
        slots = self._fill_day(builder, di, fixed, b, used, venues)
        self.day_memo.put("plan_day", key, (self.inputs.facts, slots, frozenset(used - before)))
        return slots

    def _fill_day(self, builder: DayBuilder, di: int, fixed: list[Slot], b: Branch, used: set[str],
                  venues: list[Attraction]) -> list[Slot]:
        if di == 0 and local_minutes(b.outbound.arrival, self.tz)[1] > PARTIAL_ARRIVAL:
            return fixed
        if di == len(self.dates) - 1 and local_minutes(b.back.departure, self.tz)[1] < EARLY_DEPARTURE:
            return fixed
        state = DayState(di=di, day=self.dates[di], cursor=DAY_START, geo=b.hotel.geo, prev_museum=False,
                         used=used)
        out: list[Slot] = []
        for slot in fixed:
            gap_end = minutes_of(slot.window.start)
            if slot.role not in ("arrival", "checkin", "checkout") and gap_end > state.cursor:
                airport = b.airport if slot.role == "departure" else None
                builder.fill(state, Limit(end=gap_end, geo=slot.selected.geo, airport=airport),
                             venues, self.day_restaurants(di))
                out += state.slots
                state.slots = []
            out.append(slot)
            state.cursor = max(state.cursor, minutes_of(slot.window.end))
            state.geo = b.hotel.geo if slot.role == "arrival" else (slot.selected.geo or state.geo)
            venue = self.inputs.facts.venue(slot.selected.option_ref)
            state.prev_museum = venue is not None and venue.venue_type.value == "museum"
        if not fixed or fixed[-1].role != "departure":
            builder.fill(state, Limit(end=23 * 60 + 59, geo=None), venues, self.day_restaurants(di))
            out += state.slots
        return out
