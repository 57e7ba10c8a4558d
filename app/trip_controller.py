"""The window's flows: plan, cancel, undo/redo, export; edits on the map come from ``MapEditFlow``.

Thin ``@asyncSlot`` slots that await a service: the engine runs in ``PlannerService``'s worker
thread, exports in a thread or on the GUI thread (the PDF paints). Every outcome is shown in the
window: a new version on the map and in the itinerary panel, or a one-line message that leaves the
open trip as it was (a failed drag puts the marker back). A road trip's end that names several
places ("Springfield") is asked about first, in a ``PlaceChooser`` (issue 12 §1).
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from PySide6.QtCore import QObject
from qasync import asyncSlot

from engine.errors import AmbiguousCityError, CityPackMissing, InputError, TripwrightError, one_line
from engine.export.formats import BY_KEY, ExportFormat
from engine.frontend import planned_intent
from engine.models import RoadTripIntent

from .exports import export_itinerary
from .heap import settle
from .library import Reused, TripLibrary, replan_key
from .map_edit_flow import MapEditFlow
from .map_edits import Rebased
from .map_probe import painted
from .pdf_render import print_map_image
from .place_choice import PlaceQuestion, ambiguous_end, city_question, refused_end, with_place
from .plain_words import unreachable_city_text
from .planner_service import PlannerService
from .run_outcome import failure_text, warm_corridor, warm_engine
from .trip_place import place_key
from .trip_session import Intent, TripSession, TripVersion

log = logging.getLogger(__name__)
# After a new plan, the itinerary panel waits until the map has painted it (at most this long):
# done at once, the panel's relayout competed with the page's painting for the cores and the
# GUI thread stalled 50-97 ms (issue 14 §3; 27-33 ms apart, bench/app_bench.py).
MAP_PAINT_WAIT_S = 0.5


class TripController(QObject, MapEditFlow):
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
        self.warmed_up = False  # the engine's lazy data loaded (``warm_up``), for tests
        self.fetching: asyncio.Task | None = None  # loading a stored version undo/redo reached
        self._history_target: int | None = None  # where undo/redo presses lead, while fetching
        self._history_verb = ""
        self.place_chooser = None  # the open "Which place did you mean?" picker

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
        try:
            await self.service.warm_up(lambda: warm_engine(self.planning))
        finally:
            settle()  # what start-up and the warm-up loaded stays: out of the collector's sight
            self.warmed_up = True

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
        if isinstance(intent, RoadTripIntent):
            question = await self._place_question(ambiguous_end, intent)
            if question is not None:
                self.ask_place(question, intent)
                return None
        return await self.run(intent, description="Planned", new_trip=not self.continues(intent),
                              request_key="form")

    async def _place_question(self, find, intent: RoadTripIntent, *args) -> PlaceQuestion | None:
        """``find(intent, *args, geocoder)`` off the GUI thread (the first call may build the
        gazetteer's index); a geocoder that cannot answer leaves the question to the planner."""
        try:
            return await asyncio.to_thread(lambda: find(intent, *args, self.planning.geocoder()))
        except TripwrightError:
            log.debug("no place question: the gazetteer cannot answer", exc_info=True)
            return None

    def ask_place(self, question: PlaceQuestion, intent: Intent):
        """The non-modal picker; the chosen place is planned as the form's request."""
        from .place_chooser import PlaceChooser

        if self.place_chooser is not None:
            self.place_chooser.close()
        chooser = PlaceChooser(question, self.w)
        chooser.chosen.connect(lambda option: self.plan_intent(with_place(intent, question.field, option)))
        chooser.declined.connect(lambda: self.w.show_status(f"Not planned: {question.query!r} names several "
                                                            "places; add its state or country.", 10_000))
        chooser.destroyed.connect(lambda _=None, c=chooser: self._forget_place_chooser(c))
        self.place_chooser = chooser
        chooser.show()
        return chooser

    def _forget_place_chooser(self, chooser) -> None:
        if self.place_chooser is chooser:
            self.place_chooser = None

    def continues(self, intent: Intent) -> bool:
        """The shown trip is this intent's trip (same mode and ends, or city): a new version of it."""
        current = self.trip.current
        if current is None or current.mode != intent.mode:
            return False
        return place_key(current.intent) == place_key(intent)

    def kept_edits(self, intent: Intent) -> list | None:
        """The edits of the plan on screen (locks, removals, moves, replacements), when ``intent``
        is the one it was planned from: every path that re-plans it keeps them."""
        version = self.trip.current
        if version is None or version.plan is None or version.intent != intent:
            return None
        return [Rebased(version.plan, keep_plan)]

    @asyncSlot(object, str)
    async def replan_stays(self, intent: Intent, description: str) -> TripVersion | None:
        """A multi-city trip with a night moved from one stay to the next (a stay row's menu:
        widgets/itinerary_panel.py ``night_moves``), planned as the trip's next version — undoable
        like every version."""
        current = self.trip.current
        if current is None or current.mode != "multi_city" or self.busy:
            return None
        return await self.run(intent, description=description)

    @asyncSlot()
    async def replan(self) -> TripVersion | None:
        version = self.trip.current
        if version is None:
            self.w.plan_from_form()
            return None
        from engine.planning.replan_order import ReorderDays, reorder_note  # the city planner loads on first use
        edits = None
        if version.plan is not None:  # keep the edits; a city's days in their shortest order (issue 32 §2)
            edits = [Rebased(version.plan, ReorderDays(version.intent) if version.mode == "city" else keep_plan)]
        done = await self.run(version.intent, edits=edits, description="Re-planned", request_key=replan_key())
        if done is not None and done is not version and version.plan is not None and done.plan is not None:
            note = reorder_note(version.plan, done.plan)
            if note is not None:
                self.w.last_change = f"Re-planned: {note}"
                self.w.show_status(f"{self.w.last_change} ({self.trip.label()})")
        return done

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
        except AmbiguousCityError as exc:  # "Córdoba": which one? (before anything was fetched)
            await self.library.abandon(recording, None, error=one_line(exc))
            if self._ticket is ticket:
                self.ask_place(await asyncio.to_thread(city_question, exc), intent)
            return None
        except (InputError, TripwrightError) as exc:
            await self.library.abandon(recording, None, error=one_line(exc))
            refused = getattr(exc, "field", "")
            question = await self._place_question(refused_end, intent, refused, one_line(exc)) \
                if isinstance(intent, RoadTripIntent) and self._ticket is ticket else None
            if question is not None and self._ticket is ticket:
                self.ask_place(question, intent)
            elif self._ticket is ticket:
                city = getattr(intent, "city", None) if intent.mode == "city" else None
                self._refused(missing_pack_text(exc) if isinstance(exc, CityPackMissing) else
                              (city and unreachable_city_text(one_line(exc), city)) or one_line(exc))
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
            self._refused(failure_text(result) + kept, level="error")
            return None
        intent = planned_intent(intent, result)  # a city's pack settles its airports and zone
        if not new_trip and base is not None and base is self.trip.current and base.intent == intent \
                and same_schedule(base.itinerary, result.itinerary):
            await self.library.abandon(recording, result)  # recorded as a run; no version to keep
            self.w.show_status(f"{description}: nothing changed, still {self.trip.label()}.", 10_000)
            self.w.show_version(base)
            return base
        fresh = TripVersion.of(result, intent, description)
        # An edit of the trip on screen is drawn at once — the map, then (its frame painted) the
        # itinerary — while the store records it off the GUI thread; the version's number, title
        # and status line follow once it is stored (issue 32 §2: the window followed the engine
        # 1.5-3.5 s later).
        early = not new_trip and base is not None and base is self.trip.current
        if early:
            self.w.show_on_map(fresh, keep_view=edits is not None)
            await map_painted(self.w.map_view)
            if self._ticket is ticket:
                self.w.itinerary_panel.set_itinerary(fresh.itinerary)
        version = await self.library.finish(recording, result, intent, fresh,
                                            llm_meta=meta_of(result) if meta_of is not None else None)
        await warm_corridor(intent)
        if self._ticket is not ticket:
            if early and self.w.itinerary_panel.itinerary() is fresh.itinerary:
                self.w.show_version(self.trip.current)  # superseded while stored: the trip as it is
            return None
        before = self.trip.current
        if new_trip or (recording is not None and recording.created_trip):
            self.trip.clear()  # another trip: its own history
        version = self.trip.push(version)
        self.library.adopt(recording)
        if intent.mode == "city":
            self.w.city_packs.planned(intent.city)  # the form offers a city just fetched
        elif intent.mode == "multi_city":
            for stay in intent.stays:
                self.w.city_packs.planned(stay.city)
        # The map first, and its frame painted, before the itinerary panel's heavier relayout:
        # the map is where the user is looking after an edit.
        if not early:
            self.w.show_on_map(version, keep_view=edits is not None and before is not None and not new_trip)
        await map_painted(self.w.map_view)
        self.w.show_version(version, map_shown=True)
        self.w.report_change(description, before, version)
        settle()  # the new version (and the first run's lazy loads) out of later full collections
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
        kind: ExportFormat = BY_KEY[key]
        image = await print_map_image(self.w.map_view) if kind.key == "pdf" else None
        title = self.trip.name or self.w.trip_title()
        try:
            written = await export_itinerary(kind, version.itinerary, path, image, title=title,
                                             distance_unit=self.w.settings.distance_unit)
        except (OSError, TripwrightError) as exc:
            self.w.show_message(f"Could not export to {path}: {one_line(exc)}", "error")
            return None
        what = kind.label.rstrip("\u2026")
        self.w.show_status(f"Exported {what} to {written}", timeout_ms=15_000)
        self.library.audit("exported", target_type="trip", target_id=self.trip.trip_id or "", format=kind.key,
                           version=version.number)
        return written


async def map_painted(view) -> None:
    """Until the map has painted its newest document (at most ``MAP_PAINT_WAIT_S``); at once when
    it already has (drawn while the store wrote the version)."""
    if getattr(view, "drawn_revision", 0) < view.revision:
        await painted(view, MAP_PAINT_WAIT_S)


def missing_pack_text(exc: CityPackMissing) -> str:
    return (f"{exc.label}'s places are not on this computer yet, and Tripwright is offline: plan it once "
            "while online (its places are then kept for offline use).")


def same_schedule(before, after) -> bool:
    """Whether two itineraries plan the same: the same activities at the same times and places,
    the same locks and costs (ids of runs and timestamps aside)."""
    def shape(itinerary):
        return ([(d.date, [(a.id, a.name, a.window, a.locked, a.geo, a.cost_usd_cents) for a in d.activities])
                 for d in itinerary.days], itinerary.cost_breakdown.total_usd_cents, len(itinerary.violations))
    return shape(before) == shape(after)


def keep_plan(plan, facts):
    """The re-plan's edit: the plan on screen as it is (its edits kept)."""
    return plan
