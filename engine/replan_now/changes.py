"""Each kind of "Something changed" applied to the plan from now on (the past already frozen:
``past.freeze_past``), before the bounded repair settles what is left (``replan.py``).

- ``late``: the next flight lands N minutes later; it is kept at its new times as the trip's booked
  flight (``delay.py``: the saved version verifies as re-planned); the day's later slots are pushed
  back behind it (``placing.push_back``), and a visit that then no longer fits moves to a later day
  or is dropped — never a locked or booked one.
- ``closed``: the place is closed that day (a blackout date on it, so the verifiers know); a near,
  open, same-theme place takes its time (``placing.replace_near``) and the place itself goes to a
  later day's free time when it fits there.
- ``rain_from``: today's outdoor visits ending after that time swap days with an indoor visit
  (``reorder_days``) or give way to a near indoor one (the moves judge them on a rainy today).
- ``done_for_today``: today's visits and meals from now on end (a sight moves to a later day's free
  time when it fits); locked ones and bookings stay.
- ``skip``: the place is taken out (``edits.Remove``: no re-plan brings it back).
- ``at``: the traveller is at a point; the next slot starts once they can be there from it.
- ``bookings``: an event booked mid-trip becomes its locked slot; what it overlaps moves or goes; a
  new flight home (``rebooked.py``) shortens or lengthens the last day.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from engine.errors import InputError
from engine.models import ChoiceKind, Geo, PlanV1, TimeWindow, minutes_of
from engine.repair import RepairContext
from engine.repair.moves import reorder_days

from .disruption import Disruption
from .past import Moment, ahead, is_past
from .rebooked import new_flight_home
from .placing import VISITS, find_ahead, insert_later, move_on_or_drop, push_back, replace_near, settle_day

MAX_AT_KM = 200  # "we're at X": a point this far from the next visit is not in the trip's city
RAIN = 0.9


@dataclass
class Applied:
    """The plan after the change, the context repair works in (facts and intent as the change made
    them: a late flight kept, a new booking), the facts the new plan is verified against, what was
    done in words."""

    plan: PlanV1
    ctx: RepairContext
    verify_facts: object
    done: list[str] = field(default_factory=list)
    target: str = ""  # the ref the change is about (closed, skip), for the check that it was resolved
    renamed: dict[str, str] = field(default_factory=dict)  # old ref → new (a late flight kept as booked)


def apply_change(plan: PlanV1, ctx: RepairContext, at: Moment, d: Disruption, *, field: str) -> Applied:
    return _HANDLERS[d.kind](plan, ctx, at, d, field)


def _late(plan, ctx, at, d, field_name) -> Applied:
    flights = [(di, si, s) for di, si, s in plan.slots() if (di, minutes_of(s.window.end)) >= (at.day, at.minute)
               and (s.role == "arrival" or (s.role == "departure" and not is_past(di, s, at)))]  # not landed / left
    if not flights:
        raise InputError(field_name, f"no flight lands or leaves after {at.label()}: nothing of the trip waits on it")
    di, si, slot = min(flights, key=lambda t: (t[0], minutes_of(t[2].window.end)))
    ref = slot.selected.option_ref
    flight = ctx.facts.flights.get(ref)
    if slot.role == "departure":  # the way home leaves later: the trip itself loses nothing
        end = minutes_of(slot.window.start) + d.minutes
        if end > 24 * 60 - 1:
            raise InputError(field_name, f"{slot.selected.label} would leave after midnight: import the new "
                                         "flight with 'tripwright bookings import'")
        window = TimeWindow.of_minutes(end, max(end + 1, minutes_of(slot.window.end)))
    else:
        end = minutes_of(slot.window.end) + d.minutes
        if end > 24 * 60 - 1:
            raise InputError(field_name, f"{slot.selected.label} would land after midnight: import the new "
                                         "flight with 'tripwright bookings import'")
        window = TimeWindow.of_minutes(minutes_of(slot.window.start), end)
    facts, moved, renamed = ctx.facts, slot.model_copy(update={"window": window}), {}
    if flight is not None:  # kept as a fact of the trip: the saved version verifies at the new time
        ctx, moved = _kept_late(ctx, flight, d.minutes, di, moved, field_name)
        facts, renamed = ctx.facts, {ref: moved.selected.option_ref}
    before = plan
    plan, pushed_out = push_back(plan, di, si, facts, moved)
    done = [f"{slot.selected.label} {'leaves' if slot.role == 'departure' else 'lands'} "
            f"{d.minutes} min late ({window.end if slot.role == 'arrival' else window.start:%H:%M})"]
    done += [f"no time left for {before.days[p[0]].slots[p[1]].selected.label}"
             for p in (before.find(cid) for cid in pushed_out) if p is not None]
    plan = settle_day(plan, ctx, di, facts)
    return Applied(plan, ctx, facts, done, target=renamed.get(ref, ref), renamed=renamed)


def _kept_late(ctx: RepairContext, flight, minutes: int, di: int, slot, field_name: str):
    """The late flight as the trip's booked flight at its new times (``delay.py``): the context
    with that intent and that option in place of the direction's others, and the slot booking it."""
    from engine.planning.builder import flight_choice

    from .delay import delayed_flight
    facts = ctx.facts
    zones = facts.airport_zones
    kept = delayed_flight(ctx.intent, flight, minutes, ctx.inputs.city, lambda code: zones[code], field=field_name)
    option = kept.option
    flights = {k: f for k, f in facts.flights.items() if f.direction != option.direction}
    facts = dataclasses.replace(facts, flights={**flights, option.flight_id: option})
    offered = [f for f in ctx.inputs.flights if f.direction != option.direction] + [option]
    inputs = dataclasses.replace(ctx.inputs, intent=kept.intent, flights=offered, facts=facts)
    choice = flight_choice(di, slot.role, option, slot.selected.geo, kept.intent.travellers)
    return RepairContext(inputs, kept.intent, facts), slot.model_copy(update={"choices": [choice]})


def _closed(plan, ctx, at, d, field_name) -> Applied:
    di, si, slot = find_ahead(plan, at, d.place, field=field_name)
    ref = slot.selected.option_ref
    venue = ctx.facts.venue(ref)
    if venue is None:
        raise InputError(field_name, f"{slot.selected.label} has no opening hours to close")
    day = plan.days[di].date
    shut = venue.model_copy(update={"blackout_dates": sorted({*venue.blackout_dates, day})})
    facts = dataclasses.replace(ctx.facts, venues={**ctx.facts.venues, ref: shut})
    ctx = RepairContext(ctx.inputs, ctx.intent, facts)
    done = [f"{slot.selected.label} closed on {day:%a %d %b}"]
    replaced = replace_near(plan, ctx, di, si, "closed_day")
    if replaced is not None:
        plan = replaced[0]
    else:
        plan = plan.with_slot(di, si, None)
    if slot.role == "activity":  # closed that day only: another day's free time may take it
        later = insert_later(plan, venue, slot, di, ctx)
        if later is not None:
            plan = later[0]
    return Applied(plan, ctx, facts, done, target=ref)


def _rain(plan, ctx, at, d, field_name) -> Applied:
    from engine.models import WeatherDay
    from engine.tools.provenance import stamp
    wet_from = d.rain_from.hour * 60 + d.rain_from.minute
    day = plan.days[at.day].date
    was = ctx.facts.weather.get(day)
    wet = WeatherDay(date=day, precip_prob=RAIN, wind_kmh=was.wind_kmh if was else 10.0,
                     temp_c_high=was.temp_c_high if was else 15.0, temp_c_low=was.temp_c_low if was else 10.0,
                     provenance=stamp("weather", {"rain_from": f"{d.rain_from:%H:%M}", "date": str(day)},
                                      data_source="user"))
    rainy = RepairContext(ctx.inputs, ctx.intent, dataclasses.replace(ctx.facts, weather={**ctx.facts.weather, day: wet}))
    outdoor = [s.selected.choice_id for di, _si, s in ahead(plan, at) if di == at.day and s.role == "activity"
               and not s.locked and s.selected.features.indoor is False and minutes_of(s.window.end) > wet_from]
    done = [f"rain from {d.rain_from:%H:%M} on {day:%a %d %b}"]
    for cid in outdoor:
        swapped = reorder_days(plan, rainy, cid, "outdoor_in_bad_weather")
        if swapped is not None:
            plan = swapped[0]
            continue
        found = plan.find(cid)
        if found is None:
            continue
        replaced = replace_near(plan, rainy, found[0], found[1], "outdoor_in_bad_weather")
        plan = replaced[0] if replaced is not None else plan.with_slot(found[0], found[1], None)
    return Applied(plan, ctx, ctx.facts, done, target=f"{wet_from}")  # the rain's minute: what scoring checks


def _done(plan, ctx, at, d, field_name) -> Applied:
    today = [s.selected.choice_id for di, _si, s in ahead(plan, at)
             if di == at.day and s.role in VISITS and not s.locked]
    for cid in today:
        found = plan.find(cid)
        if found is None:
            continue
        if plan.days[found[0]].slots[found[1]].selected.kind is ChoiceKind.meal:
            plan = plan.with_slot(found[0], found[1], None)
        else:
            plan, _how = move_on_or_drop(plan, cid, ctx, at.day)
    return Applied(plan, ctx, ctx.facts, [f"done for {plan.days[at.day].date:%a %d %b}"])


def _skip(plan, ctx, at, d, field_name) -> Applied:
    from engine.edits import Remove
    _di, _si, slot = find_ahead(plan, at, d.place, field=field_name)
    if slot.locked:
        raise InputError(field_name, f"{slot.selected.label} is locked (or booked); unlock it before you skip it")
    plan = Remove(slot.selected.choice_id)(plan, ctx.facts)
    return Applied(plan, ctx, ctx.facts, [f"skip {slot.selected.label}"], target=slot.selected.option_ref)


def _at(plan, ctx, at, d, field_name) -> Applied:
    here = Geo(lat=d.lat, lon=d.lon)
    nxt = [(di, si, s) for di, si, s in ahead(plan, at) if di == at.day and s.selected.geo is not None]
    if not nxt:
        return Applied(plan, ctx, ctx.facts, ["nothing more planned today"])
    di, si, slot = nxt[0]
    from engine.geo import haversine_m
    if haversine_m(here, slot.selected.geo) > MAX_AT_KM * 1000:
        raise InputError(field_name, f"{d.lat:.4f},{d.lon:.4f} is over {MAX_AT_KM} km from "
                                     f"{slot.selected.label}: not a point of this trip")
    leg = ctx.facts.leg(here, slot.selected.geo, plan.days[di].date)
    earliest = -(-(at.minute + int(leg.duration_seconds / 60 + 0.999)) // 5) * 5
    done = [f"from {d.lat:.4f},{d.lon:.4f}: {int(leg.duration_seconds // 60)} min to {slot.selected.label}"]
    if minutes_of(slot.window.start) >= earliest or slot.locked:
        return Applied(plan, ctx, ctx.facts, done)
    end = earliest + slot.window.minutes
    if end > 24 * 60 - 1:
        plan, _how = move_on_or_drop(plan, slot.selected.choice_id, ctx, di)
        return Applied(plan, ctx, ctx.facts, done)
    plan, _out = push_back(plan, di, si, ctx.facts,
                           slot.model_copy(update={"window": TimeWindow.of_minutes(earliest, end)}))
    plan = settle_day(plan, ctx, di, ctx.facts)
    return Applied(plan, ctx, ctx.facts, done)


def _booked(plan, ctx, at, d, field_name) -> Applied:
    """The new booking's events (the intent and its tool answers are already the new ones:
    ``replan.replan_from_now``) as locked slots; what they overlap moves on or goes."""
    from engine.planning.booked_events import event_slots
    from engine.planning.builder import venue_choice
    from engine.planning.inputs import trip_dates
    facts = ctx.facts
    have = {s.selected.option_ref for _, _, s in plan.slots()}
    made = event_slots(ctx.intent, facts.venue, trip_dates(ctx.intent), facts.tz,
                       lambda di, v: venue_choice(di, v, ChoiceKind.attraction, ctx.intent.travellers, "activity"))
    new = [(di, s) for di, s in made if s.selected.option_ref not in have]
    done, target = [], ""
    home = new_flight_home(plan, ctx, at, field_name)  # a flight home booked anew (``rebooked.py``)
    if home is not None:
        plan, done, target = home
    if not new and not done:
        raise InputError(field_name, "the file holds no booking the trip does not have already")
    for di, slot in new:
        if di < at.day or (di == at.day and minutes_of(slot.window.start) < at.minute):
            raise InputError(field_name, f"{slot.selected.label} started before {at.label()}: nothing to re-plan")
        for _dj, _sj, other in [(a, b, s) for a, b, s in plan.slots() if a == di and s.window.overlaps(slot.window)]:
            if other.locked or other.role not in VISITS:
                raise InputError(field_name, f"{slot.selected.label} {slot.window.label()} overlaps "
                                             f"{other.selected.label}, which is fixed")
            plan, _how = move_on_or_drop(plan, other.selected.choice_id, ctx, di)
        day = plan.days[di]
        slots = sorted([*day.slots, slot], key=lambda s: minutes_of(s.window.start))
        from engine.models import DayPlan
        plan = plan.model_copy(update={"days": [*plan.days[:di], DayPlan(date=day.date, slots=slots),
                                                *plan.days[di + 1:]]})
        done.append(f"booked {slot.selected.label} {day.date:%a %d %b} {slot.window.label()}")
    return Applied(plan, ctx, facts, done, target=new[0][1].selected.option_ref if new else target)


_HANDLERS = {"late": _late, "closed": _closed, "rain_from": _rain, "done_for_today": _done, "skip": _skip,
             "at": _at, "bookings": _booked}

__all__ = ["Applied", "apply_change"]
