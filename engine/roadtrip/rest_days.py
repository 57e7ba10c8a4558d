"""Rest days (issue 20 §3; seed 000 FB-02 and INV-PACE-01's exemption): "with a rest day in
Albuquerque", "two nights in Moab", ``rest_days`` in the intent.

The planner drives the trip in the days left once the rest days are taken out, with each rest
town as a night it must stop at; then each rest day is put in after the first night there: no
driving (``drive.miles`` 0), the town's own sights, the same bed a second night. The rest of the
trip is balanced by the planner over the driving days as usual.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from engine.errors import InputError
from engine.geocode.trust import geodesic_miles
from engine.models import RoadTripIntent

from .plan import RoadDay, Town

SAME_TOWN_MILES = 3.0


def driving_intent(intent: RoadTripIntent, *, extra_rest: int = 0) -> RoadTripIntent:
    """The intent the planner drives: fewer days, each rest town a stop (once, in order);
    ``extra_rest``: the rest days a booked stay of several nights adds (:mod:`.booked_night`)."""
    if extra_rest and intent.days - len(intent.rest_days) - extra_rest < 1:
        raise InputError("bookings.hotel", f"{intent.bookings.hotel.name} is booked for {extra_rest + 1} nights: "
                                           f"with {len(intent.rest_days)} rest day(s) no day of the "
                                           f"{intent.days} is left to drive")
    if extra_rest:
        intent = intent.model_copy(update={"days": intent.days - extra_rest})
    if not intent.rest_days:
        return intent
    stops = list(intent.stops)
    for town in intent.rest_days:
        if all(town.casefold() != s.casefold() for s in stops) and town.casefold() not in (
                intent.terminus.casefold(),):
            stops.append(town)
    return intent.model_copy(update={"days": intent.days - len(intent.rest_days), "stops": stops})


def rests_after(day: RoadDay, waiting: list[Town], picker) -> list[RoadDay]:
    """The rest days after ``day`` when its night is in a rest town (taken off ``waiting``)."""
    out: list[RoadDay] = []
    for town in [r for r in waiting if geodesic_miles(r.point, day.anchor.point) <= SAME_TOWN_MILES]:
        waiting.remove(town)
        out.append(_rest_day(out[-1] if out else day, picker))
    return out


def _rest_day(before: RoadDay, picker) -> RoadDay:
    """A day at ``before``'s night: its sights in town, no drive, the same bed."""
    index = before.index + 1
    stops, depart, _ = picker.pick_rest(before.anchor, before.anchor_progress, index)
    where = before.anchor.label
    return replace(before, index=index, date=before.date + timedelta(days=1), start=before.anchor, start_progress=before.anchor_progress, drive_miles=0.0,
                   drive_hours=0.0, depart_min=depart, arrive_min=depart, stops=tuple(stops), forced=True,
                   drive_source="estimated", path=(), exemption="rest", sights_in_reach=None,
                   note=f"a rest day in {where}: no driving")
