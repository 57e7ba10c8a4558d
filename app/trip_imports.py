"""File ▸ Import places… / Import bookings… and files dropped on the window (issue 21 in the app):
the traveller's saved places become must-sees of the shown city trip, their confirmations its
booked flights and hotel (a road trip's: its motel, that night's stop), and the trip is re-planned
as a new version through the controller, on top of the traveller's edits (``engine.kept_edits``).

Files are read off the GUI thread: saved places in a worker thread (``asyncio.to_thread``),
bookings on the planner's engine loop, where the configured model lives when a PDF or a text
confirmation needs one. What the file held is one line in the message bar (the importer's
``summary()``); anything wrong is one line too, and the trip stays as it was.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtCore import QObject, QTimer
from qasync import asyncSlot

from engine.errors import InputError, TripwrightError, one_line
from engine.kept_edits import OnTopOfEdits, edits_not_kept

from .import_merge import (BOOKINGS_SUFFIXES, PLACES_SUFFIXES, HotelNeedsPlace, add_saved_places, kind_of,
                           read_bookings_into)
from .trip_session import TripVersion

WHAT = {"places": "saved places", "bookings": "bookings"}


class TripImports(QObject):
    def __init__(self, window) -> None:  # noqa: ANN001
        super().__init__(window)
        self.w = window
        self.last_line = ""  # the last import's message-bar line (tests and the bench read it)
        self.airports_ready: asyncio.Future | None = None
        window.intent_form.bookings_opened.connect(self.warm_airports)

    # -- entry points ----------------------------------------------------------------------------
    @asyncSlot(list)
    async def import_files(self, paths: list[str]) -> TripVersion | None:
        """Dropped files, one after another, each by its extension; the last new version."""
        version = None
        for path in paths:
            kind = kind_of(path)
            if kind is None:
                self._error(f"{Path(path).name} is neither saved places ({', '.join(PLACES_SUFFIXES)}) nor a "
                            f"booking confirmation ({', '.join(BOOKINGS_SUFFIXES)}).")
                continue
            done = await (self._places(path) if kind == "places" else self._bookings(path))
            version = done or version
        return version

    @asyncSlot(str)
    async def import_places(self, path: str) -> TripVersion | None:
        return await self._places(path)

    @asyncSlot(str)
    async def import_bookings(self, path: str) -> TripVersion | None:
        return await self._bookings(path)

    def warm_airports(self) -> None:
        """The world's scheduled airports (OurAirports, ~0.5 s to read, once per process) loaded in a
        worker thread when the form's "I already have" opens: the form then finds a typed code's
        zone (EWR, not a fixture airport) at once instead of reading them on the GUI thread."""
        if self.airports_ready is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # the window is being built before the loop runs: once it does
            QTimer.singleShot(0, self.warm_airports)
            return
        from engine.catalog.airports import airport_info
        self.airports_ready = loop.run_in_executor(None, airport_info, "JFK")

    # -- the flows -------------------------------------------------------------------------------
    async def _places(self, path: str) -> TripVersion | None:
        version = self.city_trip("places")
        if version is None:
            return None
        name = Path(path).name
        self.w.show_status(f"Reading {name}\u2026")
        catalog = self.w.planning.catalog
        try:
            added = await asyncio.to_thread(add_saved_places, version.intent, path, catalog)
        except (TripwrightError, OSError, ValueError) as exc:
            return self._error(f"Could not import the places in {name}: {_reason(exc)}")
        if not self._still_shown(version, name):
            return None
        line = f"{name}: {added.line(version.intent.city)}"
        if added.added == 0:
            self._say(f"{line}; every one is already in the plan: nothing to re-plan.", status=True)
            return version
        plural = "s" if added.added != 1 else ""
        before = {m.place_id for m in version.intent.prefs.must_see}
        wanted = {m.place_id: m.name for m in added.intent.prefs.must_see if m.place_id not in before}
        return await self._on_top(version, added.intent, line, f"Added {added.added} saved place{plural} from {name}",
                                  wanted)

    async def _bookings(self, path: str) -> TripVersion | None:
        version = self.city_trip("bookings", road=True)
        if version is None:
            return None
        name = Path(path).name
        self.w.show_status(f"Reading {name}\u2026")
        service = self.w.controller.service
        try:  # on the engine loop: a PDF or text confirmation is read by the configured model
            intent, found = await service.on_engine(read_bookings_into(
                version.intent, path, self.w.model_runs.client, self.w.planning))
        except HotelNeedsPlace as exc:
            return self._complete_in_form(exc.intent, name) if self._still_shown(version, name) else None
        except (TripwrightError, OSError, ValueError) as exc:
            return self._error(f"Could not add the bookings in {name}: {_reason(exc)}")
        if not self._still_shown(version, name):
            return None
        line = f"{name}: {found.summary()}"
        if intent == version.intent:
            self._say(f"{line}; already in the plan: nothing to re-plan.", status=True)
            return version
        return await self._on_top(version, intent, line, f"Added the bookings in {name}")

    async def _on_top(self, version: TripVersion, intent, line: str, description: str,
                      wanted: dict[str, str] | None = None) -> TripVersion | None:
        """Plan ``intent`` (the trip with what a file added) on top of the traveller's edits on the
        version on screen — locks, moves, replacements and removals kept — and say in one line
        what could not be kept or fitted (issue 32 §1)."""
        edits = [OnTopOfEdits(version.plan)] if version.plan is not None else None
        done = await self.w.controller.run(intent, edits=edits, description=description)
        if done is None:
            return None
        lost = edits_not_kept(version.plan, done.plan, wanted) if version.plan and done.plan else None
        self._say(f"{line}; planned as {self.w.trip.label()}." + (f" {lost}" if lost else ""))
        return done

    def _complete_in_form(self, intent, name: str) -> None:
        """A hotel booked by address only: the form shows the file's bookings with the hotel's
        "Where" asked for inline; planning waits for the traveller's Plan."""
        form = self.w.intent_form
        form.set_intent(intent)
        try:
            form.current_intent()  # shows the missing coordinates under "Where"
        except InputError:
            pass
        self.w.show_form()
        hotel = intent.bookings.hotel.name
        self.last_line = (f"{name}: {hotel} is booked by its address only: add its coordinates in the trip form's "
                          "\u201cI already have\u201d (Where), then Plan.")
        self.w.show_message(self.last_line, "warning")
        return None

    # -- helpers ---------------------------------------------------------------------------------
    def city_trip(self, kind: str, *, road: bool = False) -> TripVersion | None:
        """The shown city trip (``road``: or road trip — its booked motel), or None with a message
        saying what to do first."""
        version = self.w.trip.current
        what = WHAT[kind]
        if version is None:
            first = "a trip first" if road else "a city trip first (its city and days)"
            self.w.show_message(f"Plan {first}; then import {what} for it.", "info")
            return None
        if version.mode == "multi_city" and not road:
            self.w.show_message(f"{what.capitalize()} are not merged into a multi-city trip yet; add them to "
                                "a city trip.", "info")
            return None
        if version.mode != "city" and not road:
            hint = "add them on the map as places to visit (click the map: Add a stop here)"
            self.w.show_message(f"{what.capitalize()} are planned on city trips; on a road trip {hint}.", "info")
            return None
        return version

    def _still_shown(self, version: TripVersion, name: str) -> bool:
        if self.w.trip.current is version:
            return True
        self.w.show_message(f"Another version was shown while {name} was read: nothing was added. Import it "
                            "again to add it to the trip now shown.", "info")
        return False

    def _say(self, line: str, *, status: bool = False) -> None:
        """The import's line in the message bar; the status bar keeps what the new version changed
        (``status``: nothing was planned, the line goes there too)."""
        self.last_line = line
        if status:
            self.w.show_message(line, "info")
        else:
            self.w.message_bar.show_message(line, "info")

    def _error(self, line: str) -> None:
        self.last_line = line
        self.w.show_message(line, "error")
        return None


def _reason(exc: BaseException) -> str:
    """The engine's one line, without the field path it names for the CLI ("bookings.flights[0]: …")."""
    if isinstance(exc, InputError):
        return " ".join(exc.message.split())
    return one_line(exc)
