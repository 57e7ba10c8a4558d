"""A road trip under way re-planned from now on: a late start (``late`` MINUTES: the day leaves
that much later), a stop skipped (``skip`` PLACE) or closed today (``closed`` PLACE: it gives way
as a skipped one does, its drives joined; tonight's town named: its beds are closed, and the night
moves on to the next town within the daily cap, ``road_night.py``). The day's timeline from now on moves as one;
a later arrival pushes the night's stop back, and the en-route sights that would bring it past
the evening (``osm_stops.LATEST_END_MIN``: the night's town by 20:00) give way, latest first —
their drives joined into one — never a locked or booked one; town visits after the check-in that
would end past the day's end (``day_stops.LATEST_END_MIN``) go too. The days before and after keep
what they have. The cost breakdown is re-derived as the planner derives it (``road_costs``) and the
new itinerary verified as ``tripwright verify`` verifies a saved road trip (``verify_saved``)."""

from __future__ import annotations

import time
from datetime import datetime
from zoneinfo import ZoneInfo

from engine.errors import InputError
from engine.models import Activity, DayItinerary, Decision, ItineraryV1

from .disruption import Disruption
from .past import Moment
from .road_night import move_the_night, names_tonight
from .road_timeline import later as _later, without as _without

ROAD_KINDS = ("late", "skip", "closed")


def road_moment(now: datetime, itinerary: ItineraryV1, field: str) -> Moment:
    """``now`` on the clock of the day it falls on (a road day has its start town's zone)."""
    dates = [d.date for d in itinerary.days]
    for di, day in enumerate(itinerary.days):
        zone = ZoneInfo(day.tz or _first_tz(day))
        local = now.replace(tzinfo=zone) if now.tzinfo is None else now.astimezone(zone)
        if local.date() == day.date:
            return Moment(day=di, minute=local.hour * 60 + local.minute, date=day.date, local=local)
    raise InputError(field, f"{now:%Y-%m-%d %H:%M} is not during the trip ({dates[0]} to {dates[-1]}): "
                            "a re-plan from now is for a trip under way")


def replan_road_from_now(itinerary: ItineraryV1, now: datetime, d: Disruption, *, field_name: str = "now",
                         value_field: str | None = None, catalog=None):
    started = time.perf_counter()
    value_field = value_field or "--" + d.kind.replace("_", "-")
    if d.kind not in ROAD_KINDS:
        raise InputError(value_field, "on a road trip, a re-plan from now takes --late (a late start), --skip "
                                      "(a stop) or --closed (a stop on the way); change the route, nights or "
                                      "stops on the map or in the form")
    at = road_moment(now, itinerary, field_name)
    if d.kind == "closed" and not _sight_ahead(itinerary, at, d.place) and names_tonight(itinerary, at, d.place):
        return _night_moved(itinerary, at, d, value_field, catalog, started)  # no beds in tonight's town
    day = itinerary.days[at.day]
    acts = list(day.activities)
    ahead = [i for i, a in enumerate(acts) if a.start >= at.local]
    if not ahead:
        raise InputError(value_field, f"nothing is left of {day.date:%a %d %b} after {at.label()}")
    target = ""
    if d.kind == "late":
        acts = [_later(a, d.minutes) if i in ahead else a for i, a in enumerate(acts)]
        done = f"left {d.minutes} min late"
    else:  # skip, or closed: a stop on the way that is closed today gives way as a skipped one does
        want = d.place.casefold()
        hit = next((i for i in ahead if acts[i].role == "activity" and want in acts[i].name.casefold()), None)
        if hit is None:
            names = ", ".join(acts[i].name for i in ahead if acts[i].role == "activity") or "nothing"
            raise InputError(value_field, f"no stop {d.place!r} left today after {at.label()}; ahead: {names}")
        if acts[hit].locked:
            verb = "skip it" if d.kind == "skip" else "re-plan around it"
            raise InputError(value_field, f"{acts[hit].name} is locked (or booked); unlock it before you {verb}")
        name = acts[hit].name
        target, acts = acts[hit].ref, _without(acts, hit)
        done = f"skipped {d.place}" if d.kind == "skip" else f"{name} closed on {day.date:%a %d %b}"

    new, found = _fit_the_evening(acts, at, _checked_day(itinerary, at.day, catalog))
    if d.kind == "late":
        checkin = next((a for a in new.days[at.day].activities if a.role == "checkin"), None)
        target = checkin.ref if checkin is not None else ""
    return _replanned(itinerary, new, found, at, d, done, target, started)


def _replanned(itinerary: ItineraryV1, new: ItineraryV1, found: list, at: Moment, d: Disruption, done: str,
               target: str, started: float):
    from engine.itinerary_diff import diff_itineraries

    from .glance import at_a_glance
    from .replan import Replanned
    said = Decision(node="replan_now", selected=d.kind, alternatives_considered=0,
                    rationale=f"Re-planned from {at.label()}: {done}.")
    new = new.model_copy(update={"violations": found, "decisions": [*itinerary.decisions, said]})
    return Replanned(itinerary=new, plan=None, moment=at, disruption=d, violations=found,
                     diff=diff_itineraries(itinerary, new), glance=at_a_glance(itinerary, new, at),
                     done=[done], target=target, seconds=time.perf_counter() - started)


def _checked(new: ItineraryV1, catalog) -> tuple[ItineraryV1, list]:
    """``new`` with its cost breakdown re-derived, and what ``tripwright verify`` finds in it."""
    from engine.verify_saved import verify_saved
    new = new.model_copy(update={"cost_breakdown": _costs(new, catalog)})
    return new, verify_saved(new, catalog).violations


def _checked_day(itinerary: ItineraryV1, di: int, catalog):
    """``_checked`` of ``itinerary`` with day ``di``'s activities replaced."""
    def checked(acts: list[Activity]) -> tuple[ItineraryV1, list]:
        days = list(itinerary.days)
        days[di] = DayItinerary.model_validate({**itinerary.days[di].model_dump(),
                                                "activities": [a.model_dump() for a in acts]})
        return _checked(itinerary.model_copy(update={"days": days}), catalog)
    return checked


def _sight_ahead(itinerary: ItineraryV1, at: Moment, place: str) -> bool:
    want = place.casefold()
    return any(a.role == "activity" and a.start >= at.local and want in a.name.casefold()
               for a in itinerary.days[at.day].activities)


def _night_moved(itinerary: ItineraryV1, at: Moment, d: Disruption, field: str, catalog, started: float):
    """Tonight's town has no beds: the night moves on (``road_night.py``), then the evening is
    fitted as after a late start (sights give way when the new town is reached after 20:00)."""
    closed = next(a.ref for a in itinerary.days[at.day].activities if a.role == "checkin")  # what must be gone
    moved, _found, done = move_the_night(itinerary, at, field, lambda itin: _checked(itin, catalog))
    new, found = _fit_the_evening(list(moved.days[at.day].activities), at, _checked_day(moved, at.day, catalog))
    return _replanned(itinerary, new, found, at, d, done, closed, started)


def _fit_the_evening(acts: list[Activity], at: Moment, checked):
    """En-route sights ahead give way (latest first) until the night's check-in is done by 20:00,
    town visits after it ending past the day's end go too — each only when the day still verifies
    as well as before (a day keeps the stops its pacing needs). (itinerary, violations)."""
    from engine.roadtrip.day_stops import LATEST_END_MIN as DAY_END_MIN
    from engine.roadtrip.osm_stops import LATEST_END_MIN as TOWN_BY_MIN

    def blocking(found) -> int:
        return sum(v.blocking for v in found)

    def checkin(acts) -> int | None:
        return next((i for i, a in enumerate(acts) if a.role == "checkin"), None)
    best, found = checked(acts)
    while (c := checkin(acts)) is not None and _minutes(acts[c].end, acts[c]) > TOWN_BY_MIN:
        sights = [i for i, a in enumerate(acts[:c]) if a.role == "activity" and not a.locked and a.start >= at.local]
        fewer = _without(acts, sights[-1]) if sights else None
        if fewer is None:
            break
        trial, trial_found = checked(fewer)
        if blocking(trial_found) > blocking(found):
            break
        acts, best, found = fewer, trial, trial_found
    c = checkin(acts)
    late = [n for n, a in enumerate(acts) if c is not None and n > c and a.role == "activity" and not a.locked
            and _minutes(a.end, a) > DAY_END_MIN]
    if late:
        fewer = [a for n, a in enumerate(acts) if n not in late]
        trial, trial_found = checked(fewer)
        if blocking(trial_found) <= blocking(found):
            best, found = trial, trial_found
    return best, found


def _minutes(moment: datetime, a: Activity) -> int:
    local = moment.astimezone(ZoneInfo(a.end_tz)) if a.end_tz else moment
    day_start = a.start.astimezone(ZoneInfo(a.start_tz)).date() if a.start_tz else a.start.date()
    return (local.date() - day_start).days * 24 * 60 + local.hour * 60 + local.minute


def _first_tz(day: DayItinerary) -> str:
    return next((a.start_tz for a in day.activities if a.start_tz), "UTC")


def _costs(itinerary: ItineraryV1, catalog):
    """The cost breakdown as ``tripwright verify`` re-derives it from the route (fuel by the
    re-derived miles, beds, meals), at the planner's FX rate as-of the planning day."""
    from engine.roadtrip.integrity import RoadRederivation, rate_to_usd
    from engine.roadtrip.itinerary import CURRENCY, road_costs
    from engine.roadtrip.reconstruct import road_plan_from_itinerary
    from engine.verify_saved import planning_day
    fixed, _found = RoadRederivation(itinerary, None).run()
    plan = road_plan_from_itinerary(fixed)
    rate = rate_to_usd(CURRENCY[plan.region], catalog, planning_day(itinerary)[0])
    return road_costs(plan, rate, travellers=itinerary.intent.travellers, rooms=itinerary.intent.rooms)


__all__ = ["ROAD_KINDS", "replan_road_from_now", "road_moment"]
