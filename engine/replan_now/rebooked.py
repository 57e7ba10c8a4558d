"""A booking imported mid-trip (``bookings`` FILE): the file read and checked as ``tripwright
bookings import`` reads it, and a new flight home put in the plan from now on.

- ``booked_intent``: the trip's intent with the file's bookings. Booked events are added; a flight
  home (one leaving the city's airports, on the trip's last day) replaces the way home the trip had
  (a catalog flight, a booking, a delay kept); a flight that is not a way home — the trip has
  landed — and a hotel are refused in one line pointing to ``tripwright bookings import`` (a city
  plan has one hotel for the whole stay: a hotel changed mid-trip is not re-planned from now).
- ``new_flight_home``: the last day shortened or lengthened around the new flight: the departure
  books it at its time, the check-out moves earlier when the ride to the airport (two hours before
  take-off) needs it, visits that no longer fit before the airport go, and a later flight's extra
  time takes one more sight when one fits (``placing.insert_later``: open, reached, verified).
"""

from __future__ import annotations

from engine.errors import InputError
from engine.models import PlanV1, Slot, TimeWindow, minutes_of
from engine.repair import RepairContext

from .past import Moment, is_past
from .placing import VISITS, insert_later, settle_day, with_day

AIRPORT_BEFORE_MINUTES = 120  # at the airport two hours before take-off (as the planner's departure day)
MAX_FILL_TRIES = 6  # sights tried for a longer last day


def booked_intent(state, d, field_name: str):
    """``state``'s intent with the file's bookings (see the module's docstring)."""
    from engine.bookings import read_bookings
    from engine.models.bookings import Bookings
    from engine.trip_inputs import merged_bookings, with_bookings
    found = read_bookings(d.path)
    if found.bookings.hotel is not None:
        raise InputError(field_name, f"a new hotel ({found.bookings.hotel.name}) changes where every night is: "
                                     "import it with 'tripwright bookings import' (a re-plan from now takes "
                                     "booked events and a new flight home)")
    airports = state.inputs.city.airports
    for f in found.bookings.flights:
        if f.origin not in airports:
            raise InputError(field_name, f"{f.flight_number} {f.origin}→{f.dest} is not a flight home from "
                                         f"{state.inputs.city.name}; import it with 'tripwright bookings import' "
                                         "(a re-plan from now takes a new flight home)")
    have = state.intent.bookings or Bookings()
    if found.bookings.flights:  # the new way home replaces the one the trip had
        have = have.model_copy(update={"flights": [f for f in have.flights if f.origin not in airports]})
    merged = merged_bookings(state.intent, have, found, field=field_name)
    return with_bookings(state.intent, merged, state.toolbox.catalog, field=field_name)


def new_flight_home(plan: PlanV1, ctx: RepairContext, at: Moment, field_name: str):
    """(plan, what was done, the new flight's id) when the intent books a flight home the plan
    does not fly yet; None otherwise."""
    from engine.planning.builder import CHECKOUT_MINUTES, EARLIEST_CHECKOUT, flight_choice, local_minutes
    facts = ctx.facts
    found = next(((di, si, s) for di, si, s in plan.slots() if s.role == "departure"), None)
    option = next((f for f in facts.flights.values() if f.direction == "return" and f.booking is not None), None)
    if found is None or option is None:
        return None
    di, _si, old = found
    _, leaves = local_minutes(option.departure, facts.tz)
    if old.selected.option_ref == option.flight_id and minutes_of(old.window.start) == leaves:
        return None  # the way home the plan flies already (the same number the same day: its time)
    label = f"{option.flight_number} {option.origin}→{option.dest}"
    if is_past(di, old, at):
        raise InputError(field_name, f"the flight home ({old.selected.label}) has left: nothing to re-plan")
    if di == at.day and leaves - AIRPORT_BEFORE_MINUTES < at.minute:
        raise InputError(field_name, f"{label} leaves at {leaves // 60:02d}:{leaves % 60:02d}: too soon after "
                                     f"{at.label()} to re-plan the day before it")
    lands_local, lands = local_minutes(option.arrival, facts.tz)
    end = lands if lands_local.date() == plan.days[di].date and lands > leaves else 23 * 60 + 59
    choice = flight_choice(di, "departure", option, old.selected.geo, ctx.intent.travellers)
    home = old.model_copy(update={"window": TimeWindow.of_minutes(leaves, max(end, leaves + 1)), "choices": [choice]})
    day = plan.days[di]
    hotel = next((s.selected.geo for _, _, s in plan.slots() if s.role in ("checkin", "checkout")), None)
    ride = facts.airport_leg(option.origin, hotel, day.date).duration_seconds // 60 if hotel is not None else 60
    airport_by = leaves - AIRPORT_BEFORE_MINUTES - ride
    done = [f"flight home now {label}, leaving {leaves // 60:02d}:{leaves % 60:02d}"]
    slots: list[Slot] = []
    for s in day.slots:
        if s is old:
            slots.append(home)
        elif s.role == "checkout" and not is_past(di, s, at) and minutes_of(s.window.start) + CHECKOUT_MINUTES > airport_by:
            out_at = max(EARLIEST_CHECKOUT, (airport_by - CHECKOUT_MINUTES) // 5 * 5)
            slots.append(s.model_copy(update={"window": TimeWindow.of_minutes(out_at, out_at + CHECKOUT_MINUTES)}))
        elif s.role in VISITS and not s.locked and not is_past(di, s, at) and minutes_of(s.window.end) > airport_by:
            done.append(f"no time left for {s.selected.label}")
        else:
            slots.append(s)
    plan = with_day(plan, di, sorted(slots, key=lambda s: minutes_of(s.window.start)))
    plan = settle_day(plan, ctx, di, facts)
    if leaves > minutes_of(old.window.start):
        plan, added = _one_more_sight(plan, ctx, di)
        done += [f"time for {added}"] if added else []
    return plan, done, option.flight_id


def _one_more_sight(plan: PlanV1, ctx: RepairContext, di: int) -> tuple[PlanV1, str]:
    """A later flight home: the first of the trip's ranked sights not yet planned that fits the
    last day's longer afternoon; (plan, its name or "")."""
    from engine.models import ChoiceKind
    from engine.planning.builder import venue_choice
    taken = {s.selected.option_ref for _, _, s in plan.slots()} | {r.ref for r in plan.removed}
    tries = [v for v in ctx.inputs.attractions if v.id not in taken][:MAX_FILL_TRIES]
    for venue in tries:
        template = Slot(window=TimeWindow.of_minutes(0, max(1, venue.duration_minutes)), role="activity",
                        choices=[venue_choice(di, venue, ChoiceKind.attraction, ctx.intent.travellers)])
        placed = insert_later(plan, venue, template, di - 1, ctx)
        if placed is not None:
            return placed[0], venue.name
    return plan, ""


__all__ = ["booked_intent", "new_flight_home"]
