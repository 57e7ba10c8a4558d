"""The main window: the map in the middle, the trip form on the left, the itinerary (or, before
the first trip, the welcome page) on the right, live progress and diagnostics below.

The window owns views only; the open trip lives in a :class:`~app.trip_session.TripSession` and
the engine in a ``PlanningSession``, both passed in, so a new window over the same objects shows
the same trip. Flows (plan, edit, undo, export) are in :mod:`app.trip_controller`.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QFileDialog, QLabel, QMainWindow, QMenu, QMessageBox, QTabWidget, QWidget

from engine.errors import InputError
from engine.settings import effective_home_airport, load_settings
from engine.models import format_usd
from engine.pipeline import PlanningSession
from engine.roadtrip.routes import find_route
from engine.tools.requests import FXRequest

from .basemap_choice import show_basemap
from .city_packs import CityPacks
from .group_service import GroupService
from .library import TripLibrary
from .plain_words import advisories, in_plain_words
from .model_runs import ModelRuns
from .notes_service import NotesService
from .offline_copy import OfflineCopy
from .something_changed_flow import SomethingChanged
from .replace_chooser import ReplaceChooser
from .settings_dialog import SettingsDialog
from .street_map import StreetMap
from .today_flow import TodayFlow
from .trip_controller import TripController
from .trip_imports import TripImports
from .trip_session import TripSession, TripVersion
from .version_diff import describe_change
from .welcome import examples
from .window_memory import first_launch_legend, remember_window, restore_window
from .window_actions import build_actions, build_menus
from .window_dialogs import WindowDialogs
from .window_layout import WindowLayout
from .trip_place import place_key, trip_place

APP_TITLE = "Tripwright"
USER_TEXT = "Local user"
DATABASE_TEXT = "In-memory"


class MainWindow(WindowLayout, WindowDialogs, QMainWindow):
    def __init__(self, trip: TripSession | None = None, planning: PlanningSession | None = None,
                 parent: QWidget | None = None, *, use_store: bool = False, store_url: str | None = None,
                 settings_path: Path | None = None, remember_layout: bool = False) -> None:
        """``use_store``: sign in to the trip store (the app does; tests and the screenshot tool
        work in memory unless they ask); ``store_url``/``settings_path`` override the defaults;
        ``remember_layout`` (the app's window): come back at the size and with the dock sizes of
        the last window closed."""
        super().__init__(parent)
        self._remember_layout = remember_layout
        self.trip = trip if trip is not None else TripSession()
        self.planning = planning if planning is not None else PlanningSession()
        self.settings_path = settings_path
        loaded = load_settings(settings_path)
        self.settings = loaded.settings
        self._secrets = None
        self.library = TripLibrary(self, url=store_url, enabled=use_store)
        self.setWindowTitle(APP_TITLE)
        self.resize(1400, 900)
        self.setDockOptions(QMainWindow.DockOption.AnimatedDocks | QMainWindow.DockOption.AllowTabbedDocks)
        # Side docks run the full height; the progress dock sits under the map only.
        self.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self.setTabPosition(Qt.DockWidgetArea.RightDockWidgetArea, QTabWidget.TabPosition.North)
        self.controller = TripController(self, self.trip, self.planning, self.library)
        self.city_packs = CityPacks(self)  # the cities kept for offline use: the form's and Settings'
        self.replace_chooser: ReplaceChooser | None = None
        self.settings_dialog: SettingsDialog | None = None
        self.export_dialog: QFileDialog | None = None
        self.import_dialog: QFileDialog | None = None
        self.map_menu: QMenu | None = None
        self.about_box: QMessageBox | None = None
        self._build_central()
        self._build_docks()
        self.commands = build_actions(self, self.planning.today)
        self.offline_copy = OfflineCopy(self)  # Trip ▸ Make this trip available offline…
        self.something_changed = SomethingChanged(self)  # Plan ▸ Something changed… (re-plan from now)
        self.toolbar = build_menus(self, self.commands,
                                   (self.trips_dock, self.form_dock, self.itinerary_dock, self.bottom_dock,
                                    self.notes_dock, self.group_dock))
        self._build_status_bar()
        self._connect()
        self.notes = NotesService(self, self.notes_panel, self.notes_dock)
        self.group = GroupService(self, self.group_panel, (self.group_panel.reactions, self.itinerary_reactions))
        self.model_runs = ModelRuns(self, self.group)
        self.imports = TripImports(self)  # File ▸ Import places/bookings…, and files dropped on the window
        self.today = TodayFlow(self)  # a trip under way opens on Today (issue 36 §1)
        self.setAcceptDrops(True)
        self._laid_out = False
        self._warmed = False
        self.last_change = ""
        self.show_version(self.trip.current)
        if self.trip.current is None:
            self.show_status("Pick an example trip, or describe yours in the Trip form and press Plan (Ctrl+R).")
        if loaded.warning:
            self.show_message(f"Settings: {loaded.warning}", "warning")
        self.street_map = StreetMap(self)
        self.commands.online.setChecked(self.settings.street_map)
        self.street_map.set_wanted(self.settings.street_map)
        show_basemap(self, self.settings)

    # -- building -------------------------------------------------------------------------------
    def _build_status_bar(self) -> None:
        fx_as_of = self.planning.toolbox.fx_as_of
        self.user_label = QLabel()
        self.database_label = QLabel()
        self.online_label = QLabel()
        self.data_label = QLabel(f"Fixtures \u00b7 FX as-of {fx_as_of.isoformat()}")
        self.data_label.setToolTip("Prices, hours and schedules come from the embedded fixtures")
        for label in (self.user_label, self.database_label, self.online_label, self.data_label):
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setContentsMargins(6, 0, 6, 0)
            self.statusBar().addPermanentWidget(label)
        self.show_store_state()

    def _connect(self) -> None:
        a, c = self.commands, self.controller
        self.intent_form.plan_requested.connect(c.plan_intent)
        self.intent_form.errors_cleared.connect(self._form_fixed)
        self.intent_form.prompt_assumed.connect(lambda text: self.show_message(text, "info"))
        self.progress.cancel_requested.connect(c.cancel)
        self.itinerary_panel.activity_selected.connect(self.map_view.highlight)
        self.itinerary_panel.replan_requested.connect(c.replan_stays)
        self.map_view.marker_selected.connect(self.itinerary_panel.select_activity)
        self.map_view.marker_dragged.connect(c.anchor_dragged)
        self.map_view.marker_action.connect(c.marker_action)
        self.map_view.map_clicked.connect(self.offer_stop_here)
        self.map_view.ready.connect(self._on_map_ready)
        self.welcome.example_chosen.connect(self.open_example)
        self.welcome.prompt_chosen.connect(self.plan_prompt)
        a.new_trip.triggered.connect(self.new_trip)
        a.quit.triggered.connect(self.close)
        a.undo.triggered.connect(c.undo)
        a.redo.triggered.connect(c.redo)
        a.plan.triggered.connect(self.plan_from_form)
        a.replan.triggered.connect(c.replan)
        a.cancel.triggered.connect(c.cancel)
        a.export_any.triggered.connect(lambda: self.choose_export(None))
        a.import_route.triggered.connect(self.choose_route_file)
        a.import_places.triggered.connect(self.choose_places_file)
        a.import_bookings.triggered.connect(self.choose_bookings_file)
        a.online.toggled.connect(self.set_online)
        a.about.triggered.connect(self.show_about)
        a.settings.triggered.connect(self.open_settings)
        a.sign_in.triggered.connect(self.library.ask_login)
        a.sign_out.triggered.connect(self.library.sign_out)
        self.library.state_changed.connect(self.show_store_state)
        trips = self.trip_list
        trips.open_requested.connect(self.library.open_requested)
        trips.rename_requested.connect(self.library.rename_requested)
        trips.delete_requested.connect(self.library.delete_requested)
        trips.restore_requested.connect(self.library.restore_requested)
        trips.new_requested.connect(self.new_trip)
        for key, action in a.examples.items():
            action.triggered.connect(lambda _=False, k=key: self.open_example(k))
        for key, action in a.exports.items():
            action.triggered.connect(lambda _=False, k=key: self.choose_export(k))

    def showEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        if not self._laid_out:
            self._laid_out = True
            self.apply_default_layout()
            if not (self._remember_layout and restore_window(self)):
                QTimer.singleShot(0, self._size_docks)  # once the first layout has run
            if self._legend_first_launch:
                QTimer.singleShot(0, lambda: first_launch_legend(self))
            QTimer.singleShot(0, self.library.start)  # the store opens while the map loads
            QTimer.singleShot(0, self.city_packs.start)  # the cached cities reach the form

    def _on_map_ready(self) -> None:
        if not self._warmed:
            self._warmed = True
            self.controller.warm_up()

    # -- showing the trip -----------------------------------------------------------------------
    def show_version(self, version: TripVersion | None, *, map_shown: bool = False) -> None:
        """Draw ``version`` on the map and in the panels (``map_shown``: the map already has it)."""
        if version is None:
            self.map_view.show_itinerary(None)
            self.itinerary_panel.set_itinerary(None)
            opening = self.library.enabled and not self.library.ready  # a restored trip may be coming
            self.right_stack.setCurrentWidget(self.opening_page if opening else self.welcome)
            self.itinerary_dock.setWindowTitle("Opening\u2026" if opening else "Welcome")
        else:
            if not map_shown:
                self.show_on_map(version)
            self.itinerary_panel.set_itinerary(version.itinerary)
            self.intent_form.set_intent(version.intent)  # map edits and undo show in the form too
            self.right_stack.setCurrentWidget(self.itinerary_panel)
            self.itinerary_dock.setWindowTitle("Itinerary")
            self.itinerary_dock.raise_()
        self._refresh_title()
        self._refresh_actions()
        if hasattr(self, "group"):  # not while the window is being built
            self.group.trip_shown()
            self.today.trip_shown()
            show_basemap(self, self.settings)  # the trip's own offline copy, when it has one

    def show_on_map(self, version: TripVersion, keep_view: bool = False) -> None:
        """A new plan is fitted; an edit's (``keep_view``) leaves the traveller's zoom alone."""
        self.map_view.show_itinerary(version.itinerary, route=self._route_of(version), keep_view=keep_view)
        self._refresh_title()
        self._refresh_actions()

    def redraw_current(self) -> None:
        """Show the current version again (a refused drag leaves the marker where it was dropped)."""
        version = self.trip.current
        if version is not None:  # the view stays where the user left it
            self.map_view.show_itinerary(version.itinerary, route=self._route_of(version), keep_view=True)

    @staticmethod
    def _route_of(version: TripVersion):
        if version.mode != "road_trip" or not version.intent.route:
            return None
        try:
            return find_route(version.intent.route)
        except InputError:
            return None

    def trip_title(self) -> str:
        version = self.trip.current
        if version is None:
            return ""
        intent, days = version.intent, len(version.itinerary.days)
        if version.mode == "road_trip":
            via = f" via {intent.route}" if intent.route else ""
            return f"{intent.origin} \u2192 {intent.terminus}{via}, {days} days"
        return f"{trip_place(intent)}, {days} days"

    def _refresh_title(self) -> None:
        title = self.trip_title()
        self.setWindowTitle(f"{APP_TITLE} \u2014 {title} \u00b7 {self.trip.label()}" if title else APP_TITLE)

    def _refresh_actions(self) -> None:
        has_trip = self.trip.current is not None
        self.commands.undo.setEnabled(self.trip.can_undo)
        self.commands.redo.setEnabled(self.trip.can_redo)
        for action in self.commands.edit_actions():
            action.setEnabled(has_trip)
        if hasattr(self, "offline_copy"):
            self.offline_copy.refresh()
        if hasattr(self, "something_changed"):
            self.something_changed.refresh()

    def report_change(self, description: str, before: TripVersion | None, after: TripVersion) -> None:
        same_trip = before is not None and before.mode == after.mode and self._same_place(before, after)
        itinerary = after.itinerary
        if same_trip:
            text = f"{description}: {describe_change(before.itinerary, itinerary).text()}"
        else:
            text = (f"{description} {self.trip_title()}: total {format_usd(itinerary.cost_breakdown.total_usd_cents)}"
                    f", {advisories(len(itinerary.violations))}")
        self.last_change = text
        self.message_bar.clear()
        self.show_status(f"{text} ({self.trip.label()})")

    @staticmethod
    def _same_place(a: TripVersion, b: TripVersion) -> bool:
        return place_key(a.intent) == place_key(b.intent)

    # -- messages and state ---------------------------------------------------------------------
    def show_message(self, text: str, level: str = "info") -> None:
        text = in_plain_words(text)
        self.message_bar.show_message(text, level)
        self.show_status(text.splitlines()[0] if text else "")

    def show_status(self, text: str, timeout_ms: int = 0) -> None:
        self.statusBar().showMessage(text, timeout_ms)

    def show_progress_tab(self) -> None:
        self.bottom_dock.show()
        self.bottom_tabs.setCurrentWidget(self.progress)

    def set_busy(self, busy: bool) -> None:
        self.commands.cancel.setEnabled(busy)

    def set_online(self, online: bool) -> None:
        """The street map wanted (View ▸ Street map), shown while the network can be used."""
        self.street_map.set_wanted(online)
        self.offline_copy.refresh()

    def show_store_state(self) -> None:
        """Who is signed in, where trips are kept (or why they are not)."""
        library = self.library
        ws = library.workspace
        if library.active:
            who = ws.identity
            self.user_label.setText(f"{who.display_name or who.email} \u00b7 {who.org_name}")
            self.user_label.setToolTip(f"Signed in as {who.email} in {who.org_name}")
            self.database_label.setText("SQLite" if ws.store.is_sqlite else "PostgreSQL")
            self.database_label.setToolTip(f"Trips are saved in {ws.store.display_url}")
        else:
            self.user_label.setText("Not signed in" if ws is not None else USER_TEXT)
            self.user_label.setToolTip(library.problem or "Trips are kept in memory for this session")
            opening = library.enabled and not library.ready and not library.problem
            self.database_label.setText("Not saving" if library.problem else "Opening\u2026" if opening
                                        else DATABASE_TEXT)
            self.database_label.setToolTip(library.problem or "Trips are kept in memory for this session")
        self.commands.sign_in.setEnabled(ws is not None and not library.active)
        self.commands.sign_out.setEnabled(library.active and ws.can_sign_out)
        self.trips_dock.setEnabled(library.active)
        if library.ready and self.right_stack.currentWidget() is self.opening_page:
            self.show_version(self.trip.current)  # nothing was restored: the welcome page

    def apply_settings(self, settings) -> None:
        self.settings = settings
        if self.trip.current is None:  # an open trip's form keeps the airport it flies from
            self.intent_form.set_home_airport(effective_home_airport(settings))
        self.itinerary_panel.set_distance_unit(settings.distance_unit)
        self.map_view.set_distance_unit(settings.distance_unit)
        self.intent_form.set_distance_unit(settings.distance_unit)
        show_basemap(self, settings)
        self.commands.online.setChecked(settings.street_map)
        self.notes.settings_changed()  # the embedding model reaches the notes' embeddings client
        self.show_status("Settings saved.", 5000)

    # -- user requests --------------------------------------------------------------------------
    def plan_from_form(self) -> None:
        if not self.intent_form.read_unread_prompt():  # a described trip is read first
            self.show_message("Check the prompt: " + "; ".join(self.intent_form.field_errors().values()), "error")
            return
        try:
            intent = self.intent_form.current_intent()
        except InputError as exc:
            self.show_message(f"Check the form: {' '.join(str(exc).split())}", "error")
            self._form_message = self.message_bar.text()
            return
        self.controller.plan_intent(intent)

    _form_message = ""

    def _form_fixed(self) -> None:
        """Every field the red "Check the form" named is right now: the message goes too."""
        if self._form_message and self.message_bar.text() == self._form_message:
            self.message_bar.clear()
        self._form_message = ""

    def open_example(self, key: str) -> None:
        self.plan_prompt(examples(self.planning.today)[key].prompt)

    def plan_prompt(self, text: str) -> None:
        """An example (a card or a prompt link): its text in the prompt box, read, and planned."""
        self.use_prompt(text)
        if self.intent_form.field_errors():
            self.show_message("The example could not be read: " + "; ".join(self.intent_form.field_errors().values()),
                              "error")
            return
        self.plan_from_form()

    def use_prompt(self, text: str) -> None:
        self.intent_form.prompt_edit.setPlainText(text)
        self.intent_form.read_prompt()
        self.show_form()

    def new_trip(self) -> None:
        self.controller.cancel()
        self.trip.clear()
        self.intent_form.reset(effective_home_airport(self.settings))
        self.trip_list.set_current(None)
        self.library.remember_shown()
        self.message_bar.clear()
        self.show_version(None)
        self.show_status("New trip: describe it in the form or pick an example.")

    def _fx_to_usd(self, amount: Decimal, currency: str) -> int:
        rate = self.planning.toolbox.rate_now(FXRequest(from_currency=currency, as_of=self.planning.today)).rate
        return int(amount * 100 * Decimal(str(rate)))

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        self.controller.cancel()  # the worker stops at its next node; the trip stays in the session
        self.library.remember_on_close()
        if self._remember_layout and self._laid_out:
            remember_window(self)
        self.notes.detach()  # the planning session may outlive this window and its store
        self.group.timer.stop()
        for box in (self.replace_chooser, self.export_dialog, self.import_dialog, self.about_box, self.map_menu,
                    self.settings_dialog, self.library.login_dialog, self.group_panel.chat.file_dialog,
                    self.controller.place_chooser):
            try:
                if box is not None:
                    box.close()  # a visible dialog would keep the app from quitting
            except RuntimeError:  # already deleted (WA_DeleteOnClose)
                pass
        super().closeEvent(event)
