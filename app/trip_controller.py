"""The window's flows: plan, edit on the map and re-plan, cancel, undo/redo, export.

Thin ``@asyncSlot`` slots that await a service: the engine runs in ``PlannerService``'s worker
thread, exports in a thread or on the GUI thread (the PDF paints). Every outcome is shown in the
window: a new version on the map and in the itinerary panel, or a one-line message that leaves the
open trip as it was (a failed drag puts the marker back).
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from PySide6.QtCore import QObject
from qasync import asyncSlot

from engine.errors import InputError, TripwrightError
from engine.models import ItineraryV1, format_usd
from engine.roadtrip.itinerary import zone_at
from engine.roadtrip.routes import find_route
from widgets.map_layers import corridor_geometry

from .exports import KINDS, ExportKind, export_itinerary
from .pdf_render import print_map_image
from .map_edits import (Rebased, alternatives, anchor_day, city_edit, nearest_town, replace_edit, town_label,
                        with_forced_stop, without_stop)
from .library import Reused, TripLibrary, replan_key
from .planner_service import PlannerService
from .trip_session import Intent, TripSession, TripVersion

log = logging.getLogger(__name__)
_VERBS = {"lock": "Locked", "unlock": "Unlocked", "remove": "Removed"}
MAP_FIRST_S = 0.04


class TripController(QObject):
    def __init__(self, window, trip: TripSession, planning, library: TripLibrary) -> None:
        super().__init__(window)
        self.w = window
        self.trip = trip
        self.planning = planning
        self._service: PlannerService | None = None
        self.library = library
        self.task: asyncio.Task | None = None  # the planning run in flight
        self.run_events: list = []
        self.last_result = None
        self._ticket: object | None = None
        self._inflight: tuple | None = None  # (intent, request key) of the run in flight
        self.fetching: asyncio.Task | None = None  # loading a stored version undo/redo reached
        self._history_target: int | None = None  # where undo/redo presses lead, while fetching
        self._history_verb = ""

    @property
    def service(self) -> PlannerService:
        if self._service is None:
            self._service = PlannerService(self.planning, asyncio.get_event_loop())
        return self._service

    @property
    def busy(self) -> bool:
        """A flow is running: planning, or drawing what it planned."""
        return self.task is not None and not self.task.done()

    @asyncSlot()
    async def warm_up(self) -> None:
        """Load the engine's lazy data in the planner's worker while the user reads the window."""
        await self.service.warm_up(lambda: warm_engine(self.planning))

    # -- planning -------------------------------------------------------------------------------
    @asyncSlot(object)
    async def plan_intent(self, intent: Intent) -> TripVersion | None:
        """Plan what the form says: a new version of the open trip when it is the same trip (same
        kind, same place), else a new trip. The same request twice is planned once: the version
        on screen already answers it, or the store does (a run in flight, or saved within the
        idempotency window)."""
        current = self.trip.current
        if current is not None and current.edit == "Planned" and current.intent == intent and not self.busy:
            self.w.show_status(f"Same request as {self.trip.label()}, which is on screen: nothing to plan "
                               "(Re-plan runs it anew).", 10_000)
            return current
        return await self.run(intent, description="Planned", new_trip=not self._continues(intent),
                              request_key="form")

    def _continues(self, intent: Intent) -> bool:
        current = self.trip.current
        if current is None or current.mode != intent.mode:
            return False
        if intent.mode == "road_trip":
            return (current.intent.origin, current.intent.terminus) == (intent.origin, intent.terminus)
        return current.intent.city == intent.city

    @asyncSlot()
    async def replan(self) -> TripVersion | None:
        version = self.trip.current
        if version is None:
            self.w.plan_from_form()
            return None
        edits = [Rebased(version.plan, _keep)] if version.plan is not None else None  # keep the edits
        return await self.run(version.intent, edits=edits, description="Re-planned", request_key=replan_key())

    async def run(self, intent: Intent, *, edits=None, description: str, new_trip: bool = False,
                  request_key: str | None = None, drafter=None, meta_of=None) -> TripVersion | None:
        """One planning run, shown live and recorded in the store as it streams; a completed run
        becomes the new current version (of a new trip when ``new_trip``). A newer run supersedes
        this one: it is cancelled and its outcome is dropped quietly. Edits are keyed by what
        they do and the version they start from, so the same edit twice is planned once."""
        base = self.trip.current
        key = request_key or f"{description}|{base.number if base is not None else '-'}"
        if self.busy and self._inflight == (intent, key):  # a double click: that run answers it
            self.w.show_status("Already planning this request; its result will show here.", 8000)
            return None
        recording = await self.library.begin(intent, new_trip=new_trip or base is None, request_key=key)
        if isinstance(recording, Reused):
            return await self._reuse(recording)
        self.cancel()
        ticket = self._ticket = object()
        self._inflight = (intent, key)
        events: list = []
        self.run_events = events

        def on_event(event) -> None:
            if self._ticket is ticket:
                events.append(event)
                self.w.progress.append(event)
            self.library.event(recording, event)

        self.task = asyncio.current_task()
        self.w.progress.start_run()
        self.w.show_progress_tab()
        self.w.set_busy(True)
        try:
            run_id = recording.ticket.run_id if recording is not None else None
            result = await self.service.plan(intent, on_event=on_event, edits=edits, run_id=run_id, drafter=drafter)
        except (InputError, TripwrightError) as exc:
            await self.library.abandon(recording, None, error=_one_line(exc))
            if self._ticket is ticket:
                self._refused(_one_line(exc))
            return None
        finally:
            if self._ticket is ticket:
                self.w.set_busy(False)
                self.w.diagnostics.refresh(events, self.planning.toolbox.executor.stats,
                                     self.planning.toolbox.executor.breaker_states())
        if self._ticket is not ticket or result.status != "completed" or result.itinerary is None:
            await self.library.abandon(recording, result)
        if self._ticket is not ticket:
            return None
        self.last_result = result
        if result.status == "cancelled":
            self._refused("Planning cancelled; the trip is unchanged.", level="info")
            return None
        if result.status != "completed" or result.itinerary is None:
            kept = "\nThe open trip is unchanged." if self.trip.current is not None else ""
            self._refused(_failure_text(result) + kept, level="error")
            return None
        version = await self.library.finish(recording, result, intent, TripVersion.of(result, intent, description),
                                            llm_meta=meta_of(result) if meta_of is not None else None)
        await warm_corridor(intent)
        if self._ticket is not ticket:
            return None
        before = self.trip.current
        if new_trip or (recording is not None and recording.created_trip):
            self.trip.clear()  # another trip: its own history
        version = self.trip.push(version)
        self.library.adopt(recording)
        # The map first, and a moment for its frame to arrive, before the itinerary panel's
        # heavier relayout: the map is where the user is looking after an edit.
        self.w.show_on_map(version)
        await asyncio.sleep(MAP_FIRST_S)
        self.w.show_version(version, map_shown=True)
        self.w.report_change(description, before, version)
        return version

    async def _reuse(self, reused: Reused) -> TripVersion | None:
        """The same request was planned moments ago: show that version instead of planning again."""
        if reused.number is None:
            self.w.show_status("This request is being planned elsewhere (another window or process).", 8000)
            return None
        if not await self.library.open_trip(reused.trip_id, reused.number, quiet=True):
            return None
        self.w.show_status(f"Same request as {self.trip.label()} a moment ago: showing it instead of planning "
                           "again (Re-plan runs it anew).", 10_000)
        return self.trip.current

    def _refused(self, text: str, level: str = "error") -> None:
        self.w.show_message(text, level)
        self.w.redraw_current()  # e.g. puts a dragged marker back

    def cancel(self) -> None:
        if self._service is not None:
            self._service.cancel()

    # -- edits on the map -----------------------------------------------------------------------
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
            edit = city_edit(action, activity_id, version.plan)
        except InputError as exc:
            self.w.show_message(_one_line(exc), "error")
            return None
        verb = f"Moved {name} to day {int(action.split(':')[1]) + 1}" if action.startswith("move:") \
            else f"{_VERBS[action]} {name}"
        return await self.run(version.intent, edits=[edit], description=verb)

    def offer_alternatives(self, activity_id: str, name: str) -> None:
        version = self.trip.current
        options = alternatives(version.plan, activity_id)
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
        label = next((a.label for a in alternatives(version.plan, activity_id) if a.venue_id == venue_id), venue_id)
        return await self.run(version.intent, edits=[replace_edit(activity_id, venue_id, version.plan)],
                              description=f"Replaced {name} with {label}")

    async def _road_action(self, version: TripVersion, activity_id: str, action: str, name: str):
        day = anchor_day(activity_id)
        is_anchor = activity_id.endswith("-overnight") and day is not None
        if action == "lock" and is_anchor:
            anchor = version.itinerary.days[day].anchor
            if anchor is None or anchor.geo is None:
                self.w.show_message(f"{name} has no position to keep.", "warning")
                return None
            return await self.force_stop(anchor.geo.lat, anchor.geo.lon, description="Kept overnight stop {town}")
        if action in ("remove", "replace") and not is_anchor:
            try:
                intent, stop = without_stop(version.intent, version.itinerary, activity_id)
            except InputError as exc:
                self.w.show_message(_one_line(exc), "info")
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
            self.w.show_message(_one_line(exc), "error")
            return None
        return await self.run(intent, description=f"Following the route {intent.route_track_name}")

    @asyncSlot(float, float)
    async def add_stop(self, lat: float, lon: float) -> TripVersion | None:
        return await self.force_stop(lat, lon, description="Added a stop in {town}")

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
            self._refused(_one_line(exc))
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

    # -- history --------------------------------------------------------------------------------
    def undo(self) -> TripVersion | None:
        return self._step(-1, "Undid")

    def redo(self) -> TripVersion | None:
        return self._step(1, "Redid")

    def _step(self, delta: int, verb: str) -> TripVersion | None:
        """Show the version ``delta`` steps along the history: at once when it is loaded; else
        (a reopened trip loads only its shown version) after reading it off the GUI thread.
        Presses while it loads go on from where that one leads (None is returned then)."""
        index = self.trip.step(delta, self._history_target)
        if index is None:
            return None
        if self._history_target is None and self.trip.is_loaded(index):
            return self._move(self.trip.move_to(index), verb)
        self._history_target, self._history_verb = index, verb
        if self.fetching is None:
            self.fetching = asyncio.ensure_future(self._fetch_and_move())
        return None

    async def _fetch_and_move(self) -> TripVersion | None:
        trip, changes = self.trip, self.trip.changes
        try:
            while not trip.is_loaded(index := self._history_target):
                entry = trip.versions[index]
                loaded = await self.library.load_version(trip.trip_id, entry.number)
                if loaded is None or trip.changes != changes:  # unreadable, or another trip/edit since
                    return None
                trip.fill(index, loaded)
            return self._move(trip.move_to(index), self._history_verb)
        finally:
            self.fetching, self._history_target = None, None

    def _move(self, version: TripVersion | None, verb: str) -> TripVersion | None:
        if version is None:
            return None
        self.cancel()  # a run still in flight would land on top of the version moved to
        self.w.show_version(version)
        self.w.progress.replay(version.events)
        self.w.diagnostics.refresh(version.events, self.planning.toolbox.executor.stats,
                                     self.planning.toolbox.executor.breaker_states())
        self.w.show_status(f"{verb}: now at {self.trip.label()} \u2014 {version.edit}")
        self.library.remember_shown()
        return version

    # -- exports --------------------------------------------------------------------------------
    @asyncSlot(str, str)
    async def export_to(self, key: str, path: str) -> Path | None:
        version = self.trip.current
        if version is None:
            self.w.show_message("Plan a trip before exporting it.", "info")
            return None
        kind: ExportKind = KINDS[key]
        image = await print_map_image(self.w.map_view) if kind.key == "pdf" else None
        title = self.trip.name or self.w.trip_title()
        try:
            written = await export_itinerary(kind, version.itinerary, path, image, title=title,
                                             distance_unit=self.w.settings.distance_unit)
        except (OSError, TripwrightError) as exc:
            self.w.show_message(f"Could not export to {path}: {_one_line(exc)}", "error")
            return None
        what = kind.label.rstrip("\u2026")
        self.w.show_status(f"Exported {what} to {written}", timeout_ms=15_000)
        self.library.audit("exported", target_type="trip", target_id=self.trip.trip_id or "", format=kind.key,
                           version=version.number)
        return written


def warm_engine(planning) -> None:
    """What the first road trip would otherwise load mid-run, holding the GIL in C for tens of
    milliseconds at a time (the gazetteer index, timezonefinder's data)."""
    planning.geocoder()
    zone_at(41.88, -87.63)


async def warm_corridor(intent: Intent) -> None:
    """Buffer the route's corridor band in a thread before the trip is drawn: the map's layer
    builder caches it (``corridor_geometry`` is memoised on exactly these arguments), so drawing
    does not spend a first 100+ ms of shapely/pyproj work on the GUI thread. Not during the
    engine's run: a third thread competing for the GIL starves the GUI thread for 40+ ms."""
    if intent.mode != "road_trip" or not intent.route:
        return
    try:
        route = find_route(intent.route)
        polyline = tuple((float(lon), float(lat)) for lon, lat in route.polyline)
        await asyncio.to_thread(corridor_geometry, polyline, float(intent.corridor_max_deviation_miles))
    except Exception:  # noqa: BLE001 — only a head start; the map builds the band itself if this fails
        log.debug("corridor warm-up failed", exc_info=True)


def _keep(plan, facts):
    return plan


def _activity_name(itinerary: ItineraryV1, activity_id: str) -> str:
    for day in itinerary.days:
        for activity in day.activities:
            if activity.id == activity_id:
                return activity.name
    return activity_id


def _past(action: str) -> str:
    return {"lock": "locked", "unlock": "unlocked", "remove": "removed", "replace": "replaced"}.get(action, "moved")


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _failure_text(result) -> str:
    failure = result.failure
    if failure is None:
        return f"Planning ended without a plan ({result.status})."
    lines = [failure.message]
    left = [v.details.get("message", v.reason) for v in failure.violations if v.blocking]
    unsaid = [text for text in left if text not in failure.message]
    if unsaid:
        lines.append("Still wrong: " + "; ".join(unsaid[:3]))
    for diff in failure.attempts[:5]:
        moves = ", ".join(f"{m.move_type.value} {m.old_value} \u2192 {m.new_value}" for m in diff.moves)
        lines.append(f"Attempt {diff.cycle}: {moves or 'no move applied'}")
    if failure.best_total_usd_cents:
        lines.append(f"Best plan found costs {format_usd(failure.best_total_usd_cents)}.")
    return "\n".join(lines)
