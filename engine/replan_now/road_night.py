"""A road trip's night whose beds are closed tonight (``closed`` naming tonight's town): the night
moves on to the next town of the route — an overnight candidate of its fixture, past tonight's town
and before tomorrow's — whose drive from this morning's start stays within the
trip's daily cap (``max_daily_miles``).

Today's last drive goes on to that town (longer by the miles between the two, at the planner's
speed), the check-in is there, and the closed town's own visits after the check-in go. Tomorrow
starts from the new town: its stops between the two towns are behind and go (their drives joined),
and its first drive is shorter by as much, so the day moves earlier. Every day's drive is re-derived
as ``tripwright verify`` re-derives it (``RoadRederivation``: progress along the corridor × the
road factor), the cost breakdown too; a town is kept only when the new trip has no more blocking
violations than the old one. A routed day (miles measured by a routing service), a trip with no
named route, the last night and a night already reached are refused in one line.
"""

from __future__ import annotations

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

from engine.errors import InputError
from engine.models import Activity, DayItinerary, Geo, ItineraryV1, TimeWindow

from .past import Moment

MIN_DRIVE_MINUTES = 5


def names_tonight(itinerary: ItineraryV1, at: Moment, place: str) -> bool:
    """``place`` names tonight's town (its anchor or its check-in)."""
    day = itinerary.days[at.day]
    want = place.casefold().strip()
    checkin = next((a for a in day.activities if a.role == "checkin"), None)
    names = [day.anchor.name if day.anchor else "", checkin.name if checkin else ""]
    return bool(want) and any(want in n.casefold() for n in names if n)


def move_the_night(itinerary: ItineraryV1, at: Moment, field: str, checked) -> tuple[ItineraryV1, list, str]:
    """(the new itinerary, its violations, what was done); ``checked(itinerary)`` prices and
    verifies a trial (``road.py``)."""
    from engine.roadtrip.integrity import RoadRederivation
    from engine.roadtrip.routes import find_route

    day = itinerary.days[at.day]
    checkin = next((i for i, a in enumerate(day.activities) if a.role == "checkin"), None)
    town = day.anchor.name
    if checkin is None or day.activities[checkin].start < at.local:
        raise InputError(field, f"tonight's check-in in {town} is behind you ({at.label()}): nothing to move")
    if at.day + 1 >= len(itinerary.days):
        raise InputError(field, f"{town} is where the trip ends: book a bed there with 'tripwright bookings import'")
    tomorrow = itinerary.days[at.day + 1]
    if not itinerary.intent.route or day.anchor.geo is None or tomorrow.anchor is None or tomorrow.anchor.geo is None \
            or day.drive.source == "routed" or tomorrow.drive.source == "routed":
        raise InputError(field, "the night can move only along a named route's towns on an estimated drive; "
                                "choose another night's stop on the map")
    if day.activities[checkin].locked:
        raise InputError(field, f"the night in {town} is booked: change the booking with 'tripwright bookings import'")
    corridor = RoadRederivation(itinerary).corridor
    here = corridor.progress_miles(day.anchor.geo.lat, day.anchor.geo.lon)
    there = corridor.progress_miles(tomorrow.anchor.geo.lat, tomorrow.anchor.geo.lon)
    towns = sorted(((corridor.progress_miles(t.lat, t.lon), t) for t in find_route(itinerary.intent.route).towns),
                   key=lambda pt: pt[0])
    ahead = [(p, t) for p, t in towns if here + 1 < p < there - 1 and f"{t.name}, {t.admin1}" != town]
    _, found = checked(itinerary)
    blocking = sum(v.blocking for v in found)
    for progress, t in ahead:
        moved = _anchored(itinerary, at.day, t, progress - here)
        fixed, _ = RoadRederivation(moved).run()
        if fixed.days[at.day].drive.miles > itinerary.intent.max_daily_miles:
            break  # the towns after it are further still
        trial = _timed(moved, fixed, at, checkin, t, town, corridor)
        if trial is None:
            continue
        new, trial_found = checked(trial)
        if sum(v.blocking for v in trial_found) <= blocking:
            return new, trial_found, f"no beds in {town} tonight: the night moves on to {t.name}, {t.admin1}"
    raise InputError(field, f"no town with beds after {town} within the daily {itinerary.intent.max_daily_miles:.0f} mi: "
                            "choose tonight's stop on the map")


def _anchored(itinerary: ItineraryV1, di: int, t, extra_miles: float) -> ItineraryV1:
    """Tonight's anchor at town ``t`` (the rest as it was): for the drives' re-derivation."""
    day = itinerary.days[di]
    geo = Geo(lat=t.lat, lon=t.lon)
    anchor = day.anchor.model_copy(update={
        "name": f"{t.name}, {t.admin1}", "geo": geo, "admin1": t.admin1, "source": "route_town", "note": "",
        "route_progress_miles": round(day.anchor.route_progress_miles + extra_miles, 1)})
    days = list(itinerary.days)
    days[di] = day.model_copy(update={"anchor": anchor, "path": [*day.path, geo]})
    nxt = days[di + 1]
    days[di + 1] = nxt.model_copy(update={"path": [geo, *nxt.path[1:]],
                                          "drive": nxt.drive.model_copy(update={"from_name": anchor.name})})
    return itinerary.model_copy(update={"days": days})


def _timed(moved: ItineraryV1, fixed: ItineraryV1, at: Moment, checkin: int, t, closed: str,
           corridor) -> ItineraryV1 | None:
    """Today's last drive longer and the check-in at ``t``; tomorrow's stops behind dropped and its
    first drive shorter; both days' drives as re-derived."""
    from engine.geocode.zones import zone_at

    from .road_timeline import earlier as _earlier, without as _without
    di = at.day
    day, nxt = moved.days[di], moved.days[di + 1]
    longer = round((fixed.days[di].drive.hours - day.drive.hours) * 60)
    short = closed.split(",")[0]
    acts = list(day.activities)
    drive = acts[checkin - 1] if checkin and acts[checkin - 1].role == "transfer" else None
    stay = acts[checkin]
    label = f"{t.name}, {t.admin1}"
    zone = ZoneInfo(zone_at(t.lat, t.lon))  # the town's clock (a window is on its activity's own clock)
    begins, ends = (stay.start + timedelta(minutes=longer)).astimezone(zone), (stay.end + timedelta(minutes=longer)).astimezone(zone)
    new_stay = stay.model_copy(update={
        "ref": t.name, "name": f"Overnight in {label}", "geo": Geo(lat=t.lat, lon=t.lon),
        "start": begins, "end": ends, "start_tz": zone.key, "end_tz": zone.key,
        "window": TimeWindow.of_minutes(_clock(begins), max(_clock(begins) + 1, min(_clock(ends), 24 * 60 - 1))),
        "notes": f"Overnight in {label} ({t.lat:.4f}, {t.lon:.4f}): no beds in {short} tonight"})
    if begins.date() != stay.start.astimezone(zone).date():
        return None  # past midnight there
    out: list[Activity] = []
    for i, a in enumerate(acts):
        if i < checkin - (1 if drive is not None else 0):
            out.append(a)
        elif drive is not None and i == checkin - 1:  # its window on the clock it leaves by, its end on the town's
            end = begins
            minutes = int((end - a.start).total_seconds() // 60)
            leaves = ZoneInfo(a.start_tz) if a.start_tz else zone
            until = min(_clock(end.astimezone(leaves)), 24 * 60 - 1) if end.astimezone(leaves).date() == \
                a.start.astimezone(leaves).date() else 24 * 60 - 1
            out.append(a.model_copy(update={
                "end": end, "end_tz": zone.key,
                "window": TimeWindow.of_minutes(_clock(a.start.astimezone(leaves)), max(until, _clock(a.start.astimezone(leaves)) + 1)),
                "name": f"Drive to {t.name}", "notes": _drive_note(a.notes, short, t.name, minutes)}))
        elif i == checkin:
            out.append(new_stay)
        # the closed town's own visits after the check-in go with its beds
    days = list(moved.days)
    days[di] = moved.days[di].model_copy(update={"activities": out, "drive": fixed.days[di].drive.model_copy(
        update={"to_name": label})})
    days[di + 1] = _tomorrow(nxt, fixed.days[di + 1], corridor, short, t.name, _earlier, _without)
    return moved.model_copy(update={"days": days})


def _tomorrow(nxt: DayItinerary, fixed: DayItinerary, corridor, old: str, new: str,
              earlier, without) -> DayItinerary:
    """Tomorrow from the new town: the stops already behind dropped, the first drive shorter."""
    start = corridor.progress_miles(nxt.path[0].lat, nxt.path[0].lon)
    acts = list(nxt.activities)
    while True:
        behind = next((i for i, a in enumerate(acts) if a.role == "activity" and a.geo is not None
                       and corridor.progress_miles(a.geo.lat, a.geo.lon) < start and not a.locked), None)
        if behind is None:
            break
        acts = without(acts, behind)
    saved = round((nxt.drive.hours - fixed.drive.hours) * 60)
    first = next((i for i, a in enumerate(acts) if a.role == "transfer"), None)
    if first is not None and saved > 0:
        a = acts[first]
        span = int((a.end - a.start).total_seconds() // 60)
        cut = min(saved, max(0, span - MIN_DRIVE_MINUTES))
        end = a.end - timedelta(minutes=cut)
        took = f"about {(span - cut) // 60} h {(span - cut) % 60:02d} min"
        acts[first] = a.model_copy(update={"end": end, "window": earlier(a, cut).window.model_copy(
            update={"start": a.window.start}), "notes": re.sub(r"about \d+ h \d+ min", took,
                                                                a.notes.replace(old, new))})
        acts = [earlier(x, cut) if n > first else x for n, x in enumerate(acts)]
    return nxt.model_copy(update={"activities": acts, "drive": fixed.drive})


def _clock(moment) -> int:
    return moment.hour * 60 + moment.minute


def _drive_note(note: str, old: str, new: str, minutes: int) -> str:
    """"Drive from Lowell Observatory to Holbrook, about 1 h 40 min (estimated)" → the new town and time."""
    head = note.split(" to ")[0] if " to " in note else "Drive"
    return f"{head} to {new}, about {minutes // 60} h {minutes % 60:02d} min (estimated; no beds in {old} tonight)"


__all__ = ["move_the_night", "names_tonight"]
