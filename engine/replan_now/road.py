"""A road trip under way re-planned from now on: a late start (``late`` MINUTES: the day leaves
that much later), a stop skipped (``skip`` PLACE) or closed today (``closed`` PLACE: it gives way
as a skipped one does, its drives joined). The day's timeline from now on moves as one;
a later arrival pushes the night's stop back, and the en-route sights that would bring it past
the evening (``osm_stops.LATEST_END_MIN``: the night's town by 20:00) give way, latest first —
their drives joined into one — never a locked or booked one; town visits after the check-in that
would end past the day's end (``day_stops.LATEST_END_MIN``) go too. The days before and after keep
what they have. The cost breakdown is re-derived as the planner derives it (``road_costs``) and the
new itinerary verified as ``tripwright verify`` verifies a saved road trip (``verify_saved``)."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from engine.errors import InputError
from engine.models import Activity, DayItinerary, Decision, ItineraryV1, TimeWindow

from .disruption import Disruption
from .past import Moment

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
    from engine.itinerary_diff import diff_itineraries
    from engine.verify_saved import verify_saved

    from .glance import at_a_glance
    from .replan import Replanned
    started = time.perf_counter()
    value_field = value_field or "--" + d.kind.replace("_", "-")
    if d.kind not in ROAD_KINDS:
        raise InputError(value_field, "on a road trip, a re-plan from now takes --late (a late start), --skip "
                                      "(a stop) or --closed (a stop on the way); change the route, nights or "
                                      "stops on the map or in the form")
    at = road_moment(now, itinerary, field_name)
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

    def checked(acts: list[Activity]) -> tuple[ItineraryV1, list]:
        days = list(itinerary.days)
        days[at.day] = DayItinerary.model_validate({**day.model_dump(), "activities": [a.model_dump() for a in acts]})
        new = itinerary.model_copy(update={"days": days})
        new = new.model_copy(update={"cost_breakdown": _costs(new, catalog)})
        return new, verify_saved(new, catalog).violations

    new, found = _fit_the_evening(acts, at, checked)
    said = Decision(node="replan_now", selected=d.kind, alternatives_considered=0,
                    rationale=f"Re-planned from {at.label()}: {done}.")
    new = new.model_copy(update={"violations": found, "decisions": [*itinerary.decisions, said]})
    if d.kind == "late":
        checkin = next((a for a in new.days[at.day].activities if a.role == "checkin"), None)
        target = checkin.ref if checkin is not None else ""
    return Replanned(itinerary=new, plan=None, moment=at, disruption=d, violations=found,
                     diff=diff_itineraries(itinerary, new), glance=at_a_glance(itinerary, new, at),
                     done=[done], target=target, seconds=time.perf_counter() - started)


def _later(a: Activity, minutes: int) -> Activity:
    shift = timedelta(minutes=minutes)
    start = min(a.window.start.hour * 60 + a.window.start.minute + minutes, 24 * 60 - 2)
    end = max(start + 1, min(a.window.end.hour * 60 + a.window.end.minute + minutes, 24 * 60 - 1))
    return a.model_copy(update={"start": a.start + shift, "end": a.end + shift,
                                "window": TimeWindow.of_minutes(start, end)})


def _earlier(a: Activity, minutes: int) -> Activity:
    return _later(a, -minutes) if minutes else a


def _without(acts: list[Activity], i: int) -> list[Activity]:
    """The visit ``i`` taken out: the drive to it and the drive on from it become one drive (as
    long as both), and what follows comes forward by the visit's length."""
    gone = acts[i]
    before = i - 1 if i > 0 and acts[i - 1].role == "transfer" else None
    after = i + 1 if i + 1 < len(acts) and acts[i + 1].role == "transfer" else None
    out = list(acts)
    freed = int((gone.end - gone.start).total_seconds() // 60)
    if before is not None and after is not None:
        first, second = acts[before], acts[after]
        joined_min = int((first.end - first.start + second.end - second.start).total_seconds() // 60)
        joined = second.model_copy(update={"start": first.start, "end": first.start + timedelta(minutes=joined_min),
                                           "window": TimeWindow.of_minutes(
                                               first.window.start.hour * 60 + first.window.start.minute,
                                               min(first.window.start.hour * 60 + first.window.start.minute
                                                   + joined_min, 24 * 60 - 1))})
        out[before] = joined
        del out[after]
    del out[i]
    start = before if before is not None else i
    return [_earlier(a, freed) if n > start else a for n, a in enumerate(out)]


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
