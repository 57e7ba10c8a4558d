"""Edits on the map and what they re-plan: lock, remove, replace and move on city trips; on road
trips a dragged or kept overnight stop, a removed stop, an imported route, and "Add a stop here" —
an overnight stop or a visit on the way (issue 12 §4). A mixin of ``TripController``: ``self.w`` is
the window, ``self.trip`` the open trip, ``self.run`` one planning run.
"""

from __future__ import annotations

from qasync import asyncSlot

from engine.errors import InputError, TripwrightError, one_line
from engine.roadtrip.booked_night import keep_booked_night
from engine.models import ItineraryV1
from engine.roadtrip.routes import find_route

from .map_edits import (alternatives, anchor_day, city_edit, nearest_town, replace_edit, town_label, with_forced_stop,
                        with_rest_day, with_visit, without_stop)
from .trip_session import TripVersion

_VERBS = {"lock": "Locked", "unlock": "Unlocked", "remove": "Removed"}


class MapEditFlow:
    @asyncSlot(str, str)
    async def marker_action(self, activity_id: str, action: str) -> TripVersion | None:
        version = self.trip.current
        if version is None:
            return None
        name = _activity_name(version.itinerary, activity_id)
        if version.mode == "road_trip":
            return await self._road_action(version, activity_id, action, name)
        if version.plan is None:
            self.w.show_message("This version cannot be edited (no plan to start from); re-plan first.", "warning")
            return None
        if action == "replace":
            self.offer_alternatives(activity_id, name)
            return None
        try:
            edit = city_edit(action, activity_id, version.plan, version.intent)
        except InputError as exc:
            self.w.show_message(one_line(exc), "error")
            return None
        verb = f"Moved {name} to day {int(action.split(':')[1]) + 1}" if action.startswith("move:") \
            else f"{_VERBS[action]} {name}"
        done = await self.run(version.intent, edits=[edit], description=verb)
        if done is not None and action.startswith("move:"):
            self._say_if_not_kept(done, activity_id, name, int(action.split(":")[1]))
        return done

    def _say_if_not_kept(self, version: TripVersion, activity_id: str, name: str, day: int) -> None:
        """The move went in, but checking the day took the visit out again (no time for the walk
        or ride around it): said plainly, with the way back."""
        ref = next((a.ref for d in self.trip.versions[-2].itinerary.days for a in d.activities
                    if a.id == activity_id), None) if len(self.trip.versions) > 1 else None
        days = [i for i, d in enumerate(version.itinerary.days) for a in d.activities if ref and a.ref == ref]
        if ref and day not in days:
            self.w.show_message(f"{name} could not stay on day {day + 1}: that day has no time for the way to and "
                                f"from it, so the plan replaced it. Undo (Ctrl+Z) brings the previous plan back.",
                                "warning")

    def offer_alternatives(self, activity_id: str, name: str) -> None:
        version = self.trip.current
        options = alternatives(version.plan, activity_id, self._facts(version), version.intent)
        if not options:
            self.w.show_message(f"No alternative for {name} that is not already in the plan.", "info")
            return
        self.w.open_replace_chooser(activity_id, name, options)

    @asyncSlot(str, str)
    async def replace_with(self, activity_id: str, venue_id: str) -> TripVersion | None:
        version = self.trip.current
        if version is None or version.plan is None:
            return None
        name = _activity_name(version.itinerary, activity_id)
        label = next((a.label for a in alternatives(version.plan, activity_id, self._facts(version))
                      if a.venue_id == venue_id), venue_id)
        return await self.run(version.intent, edits=[replace_edit(activity_id, venue_id, version.plan)],
                              description=f"Replaced {name} with {label}")

    def _facts(self, version):
        """The city's venues as the last planning run saw them, if that run was this trip's city."""
        facts = self.planning.last_facts
        return facts if facts is not None and getattr(version.intent, "city", None) == facts.city else None

    async def _road_action(self, version: TripVersion, activity_id: str, action: str, name: str):
        day = anchor_day(activity_id)
        is_anchor = activity_id.endswith("-overnight") and day is not None
        if action == "lock" and is_anchor:
            try:
                keep_booked_night(version.intent, version.itinerary.days[day].date)
            except InputError:
                self.w.show_message(f"{name} is your booking: every re-plan keeps it.", "info")
                return None
            anchor = version.itinerary.days[day].anchor
            if anchor is None or anchor.geo is None:
                self.w.show_message(f"{name} has no position to keep.", "warning")
                return None
            return await self.force_stop(anchor.geo.lat, anchor.geo.lon, description="Kept overnight stop {town}")
        if action == "rest" and is_anchor:
            try:
                intent, town = with_rest_day(version.intent, version.itinerary, day)
            except InputError as exc:
                self.w.show_message(one_line(exc), "info")
                return None
            return await self.run(intent, description=f"Rest day in {town}")
        if action in ("remove", "replace") and not is_anchor:
            try:
                intent, stop = without_stop(version.intent, version.itinerary, activity_id)
            except InputError as exc:
                self.w.show_message(one_line(exc), "info")
                return None
            verb = "Removed" if action == "remove" else "Replaced"
            return await self.run(intent, description=f"{verb} {stop}")
        self.w.show_message(f"Road-trip stops cannot be {_past(action)}: drag an overnight stop, or add a "
                            f"stop on the map, instead.", "info")
        return None

    @asyncSlot(str, float, float)
    async def anchor_dragged(self, activity_id: str, lat: float, lon: float) -> TripVersion | None:
        return await self.force_stop(lat, lon, replacing_day=anchor_day(activity_id),
                                     description="Moved an overnight stop to {town}")

    @asyncSlot(str)
    async def import_route(self, path: str) -> TripVersion | None:
        """Re-plan the open road trip along an imported GPX/KML track (issue 12 §3)."""
        from engine.roadtrip.route_file import follow_track
        version = self.trip.current
        if version is None or version.mode != "road_trip":
            return None
        try:
            intent = follow_track(version.intent, path)
        except InputError as exc:
            self.w.show_message(one_line(exc), "error")
            return None
        return await self.run(intent, description=f"Following the route {intent.route_track_name}")

    @asyncSlot(float, float, str)
    async def add_stop(self, lat: float, lon: float, kind: str = "overnight") -> TripVersion | None:
        """"Add a stop here": ``overnight`` makes the nearest corridor town a night of the trip,
        ``visit`` a walk on the day whose drive passes it (the nights stay where they were)."""
        if kind == "overnight":
            return await self.force_stop(lat, lon, description="Added an overnight stop in {town}")
        version = self.trip.current
        try:
            _route, town = self.snap(lat, lon)
            intent = with_visit(version.intent, town)
        except (InputError, ValueError) as exc:
            self._refused(one_line(exc))
            return None
        return await self.run(intent, description=f"Added a visit to {town_label(town)}")

    def snap(self, lat: float, lon: float):
        """(route, nearest corridor town) for the current road trip; raises InputError."""
        version = self.trip.current
        if version is None or version.mode != "road_trip":
            raise InputError("stops", "stops can be added to road trips only")
        if not version.intent.route:
            raise InputError("route", "moving stops on the map needs a named route (e.g. Route 66)")
        route = find_route(version.intent.route)
        return route, nearest_town(route, version.intent.corridor_max_deviation_miles, lat, lon)

    async def force_stop(self, lat: float, lon: float, *, description: str,
                         replacing_day: int | None = None) -> TripVersion | None:
        version = self.trip.current
        try:
            route, town = self.snap(lat, lon)
            label = town_label(town)
            days = version.itinerary.days
            if replacing_day is not None and not 0 <= replacing_day < len(days):
                replacing_day = None
            if replacing_day is not None and days[replacing_day].anchor.name == label:
                self._refused(f"Day {replacing_day + 1} already ends in {label}.", level="info")
                return None
            intent = with_forced_stop(version.intent, version.itinerary, route, town, replacing_day)
        except (InputError, TripwrightError, ValueError) as exc:
            self._refused(one_line(exc))
            return None
        done = await self.run(intent, description=description.format(town=label))
        if done is not None and replacing_day is not None:
            self._say_if_moved(done, label, replacing_day)
        return done

    def _say_if_moved(self, version: TripVersion, label: str, wanted: int) -> None:
        """A dragged night that lands on another day says why: the daily cap decides the days."""
        landed = next((k for k, d in enumerate(version.itinerary.days) if d.anchor and d.anchor.name == label), None)
        if landed is not None and landed != wanted:
            cap = version.intent.max_daily_miles
            self.w.show_message(f"{label} is day {landed + 1}'s night, not day {wanted + 1}'s: under the "
                                f"{cap:.0f}-mile daily cap the trip needs those days to get there.", "info")


def _activity_name(itinerary: ItineraryV1, activity_id: str) -> str:
    for day in itinerary.days:
        for activity in day.activities:
            if activity.id == activity_id:
                return activity.name
    return activity_id


def _past(action: str) -> str:
    return {"lock": "locked", "unlock": "unlocked", "remove": "removed", "replace": "replaced"}.get(action, "moved")
