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
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import (QDockWidget, QFileDialog, QLabel, QMainWindow, QMenu, QMessageBox, QScrollArea,
                               QStackedWidget, QTabWidget, QVBoxLayout, QWidget)

from engine.errors import InputError
from engine.settings import effective_home_airport, load_settings
from engine.models import format_usd
from engine.pipeline import PlanningSession
from engine.roadtrip.routes import find_route, load_routes
from engine.tools.requests import FXRequest
from widgets.diagnostics_panel import DiagnosticsPanel
from widgets.intent_form import IntentForm
from widgets.itinerary_panel import ItineraryPanel
from widgets.map_view import MapView
from widgets.notes_panel import NotesPanel
from widgets.progress_panel import ProgressPanel
from widgets.trip_list import TripListPanel

from .basemap_choice import show_basemap
from .exports import export_dialog
from .library import TripLibrary
from .map_edits import town_label
from .message_bar import MessageBar
from .notes_service import NotesService
from .replace_chooser import ReplaceChooser
from .settings_dialog import SettingsDialog
from .trip_controller import TripController
from .trip_session import TripSession, TripVersion
from .ui_state import restore_legend
from .version_diff import describe_change
from .welcome import WelcomePanel, examples
from .window_actions import build_actions, build_menus

APP_TITLE = "Tripwright"
USER_TEXT = "Local user"
DATABASE_TEXT = "In-memory"
FORM_WIDTH, ITINERARY_WIDTH = 420, 460  # the form's fields need 404 px
MAP_MIN_WIDTH = 700  # narrower, and the map's legend (284 px) covers part of the trip
BOTTOM_HEIGHT = 165  # status line, progress bar and the last few events


class MainWindow(QMainWindow):
    def __init__(self, trip: TripSession | None = None, planning: PlanningSession | None = None,
                 parent: QWidget | None = None, *, use_store: bool = False, store_url: str | None = None,
                 settings_path: Path | None = None) -> None:
        """``use_store``: sign in to the trip store (the app does; tests and the screenshot tool
        work in memory unless they ask); ``store_url``/``settings_path`` override the defaults."""
        super().__init__(parent)
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
        self.replace_chooser: ReplaceChooser | None = None
        self.settings_dialog: SettingsDialog | None = None
        self.export_dialog: QFileDialog | None = None
        self.import_dialog: QFileDialog | None = None
        self.map_menu: QMenu | None = None
        self.about_box: QMessageBox | None = None
        self._build_central()
        self._build_docks()
        self.commands = build_actions(self, self.planning.today)
        self.toolbar = build_menus(self, self.commands,
                                   (self.trips_dock, self.form_dock, self.itinerary_dock, self.bottom_dock,
                                    self.notes_dock))
        self._build_status_bar()
        self._connect()
        self.notes = NotesService(self, self.notes_panel, self.notes_dock)
        self._laid_out = False
        self._warmed = False
        self.last_change = ""
        self.show_version(self.trip.current)
        if self.trip.current is None:
            self.show_status("Pick an example trip, or describe yours in the Trip form and press Plan (Ctrl+R).")
        if loaded.warning:
            self.show_message(f"Settings: {loaded.warning}", "warning")
        if self.settings.online_tiles:
            self.commands.online.setChecked(True)
        show_basemap(self, self.settings)

    # -- building -------------------------------------------------------------------------------
    def _build_central(self) -> None:
        self.map_view = MapView()
        self.map_view.set_distance_unit(self.settings.distance_unit)
        restore_legend(self.map_view)
        self.map_view.tiles_failed.connect(lambda: self.show_message(
            "Online map tiles could not be loaded; the offline map is shown.", "warning"))
        self.message_bar = MessageBar()
        central = QWidget()
        central.setObjectName("map_area")
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.message_bar)
        layout.addWidget(self.map_view, 1)
        self.setCentralWidget(central)

    def _build_docks(self) -> None:
        today = self.planning.today
        self.intent_form = IntentForm(self.planning.catalog, load_routes(), today=today, fx_to_usd=self._fx_to_usd,
                                      home_airport=effective_home_airport(self.settings))
        self.intent_form.set_distance_unit(self.settings.distance_unit)
        self.form_dock = self._dock("Trip", "form_dock", self.intent_form, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.trip_list = TripListPanel()
        self.trips_dock = self._dock("Trips", "trips_dock", self.trip_list, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.notes_panel = NotesPanel()
        self.notes_dock = self._dock("Notes", "notes_dock", self.notes_panel, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.welcome = WelcomePanel(today)
        self.itinerary_panel = ItineraryPanel(distance_unit=self.settings.distance_unit)
        self.right_stack = QStackedWidget()
        self.right_stack.addWidget(self.welcome)
        self.opening_page = QLabel("Opening your trips\u2026")  # until the store has answered
        self.opening_page.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.right_stack.addWidget(self.opening_page)
        self.right_stack.addWidget(self.itinerary_panel)
        self.itinerary_dock = self._dock("Itinerary", "itinerary_dock", self.right_stack,
                                         Qt.DockWidgetArea.RightDockWidgetArea)
        self.progress = ProgressPanel()
        self.diagnostics = DiagnosticsPanel()
        self.bottom_tabs = QTabWidget()
        self.bottom_tabs.setDocumentMode(True)
        self.bottom_tabs.addTab(self.progress, "Progress")
        # Its three tables need 320 px; scrolled, they leave the map its height.
        self.bottom_tabs.addTab(_scrolled(self.diagnostics), "Diagnostics")
        self.bottom_dock = self._dock("Planning run", "bottom_dock", self.bottom_tabs,
                                      Qt.DockWidgetArea.BottomDockWidgetArea)

    def _dock(self, title: str, name: str, widget: QWidget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                         | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

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
        self._show_online(False)
        self.show_store_state()

    def _connect(self) -> None:
        a, c = self.commands, self.controller
        self.intent_form.plan_requested.connect(c.plan_intent)
        self.progress.cancel_requested.connect(c.cancel)
        self.itinerary_panel.activity_selected.connect(self.map_view.highlight)
        self.map_view.marker_selected.connect(self.itinerary_panel.select_activity)
        self.map_view.marker_dragged.connect(c.anchor_dragged)
        self.map_view.marker_action.connect(c.marker_action)
        self.map_view.map_clicked.connect(self.offer_stop_here)
        self.map_view.ready.connect(self._on_map_ready)
        self.welcome.example_chosen.connect(self.open_example)
        self.welcome.prompt_chosen.connect(self.use_prompt)
        a.new_trip.triggered.connect(self.new_trip)
        a.quit.triggered.connect(self.close)
        a.undo.triggered.connect(c.undo)
        a.redo.triggered.connect(c.redo)
        a.plan.triggered.connect(self.plan_from_form)
        a.replan.triggered.connect(c.replan)
        a.cancel.triggered.connect(c.cancel)
        a.export_any.triggered.connect(lambda: self.choose_export(None))
        a.import_route.triggered.connect(self.choose_route_file)
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
            QTimer.singleShot(0, self._size_docks)  # once the first layout has run
            QTimer.singleShot(0, self.library.start)  # the store opens while the map loads

    def apply_default_layout(self) -> None:
        """Form on the left, itinerary on the right, progress under the map. When the window is
        too narrow for all three beside a usable map, the form and the itinerary share the right
        dock as tabs (the form is one click away; the map keeps room beside its legend)."""
        compact = self.width() < FORM_WIDTH + ITINERARY_WIDTH + MAP_MIN_WIDTH
        if compact:
            self.tabifyDockWidget(self.itinerary_dock, self.form_dock)
            self.tabifyDockWidget(self.itinerary_dock, self.trips_dock)
            self.tabifyDockWidget(self.itinerary_dock, self.notes_dock)
            self.itinerary_dock.raise_()  # the welcome page (or the trip) first
        else:
            self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.form_dock)
            self.tabifyDockWidget(self.form_dock, self.trips_dock)
            self.tabifyDockWidget(self.form_dock, self.notes_dock)
            self.form_dock.raise_()
        self.trips_dock.setVisible(self.library.enabled)
        self.notes_dock.setVisible(self.library.enabled)  # notes live in the trip store
        self._size_docks()

    def _size_docks(self) -> None:
        if not self.form_dock.isFloating() and self.dockWidgetArea(self.form_dock) == Qt.DockWidgetArea.LeftDockWidgetArea:
            self.resizeDocks([self.form_dock], [FORM_WIDTH], Qt.Orientation.Horizontal)
        self.resizeDocks([self.itinerary_dock], [ITINERARY_WIDTH], Qt.Orientation.Horizontal)
        self.resizeDocks([self.bottom_dock], [BOTTOM_HEIGHT], Qt.Orientation.Vertical)

    def show_form(self) -> None:
        self.form_dock.show()
        self.form_dock.raise_()

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

    def show_on_map(self, version: TripVersion) -> None:
        self.map_view.show_itinerary(version.itinerary, route=self._route_of(version))
        self._refresh_title()
        self._refresh_actions()

    def redraw_current(self) -> None:
        """Show the current version again (a refused drag leaves the marker where it was dropped)."""
        version = self.trip.current
        if version is not None:
            self.map_view.show_itinerary(version.itinerary, route=self._route_of(version))

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
        return f"{intent.city}, {days} days"

    def _refresh_title(self) -> None:
        title = self.trip_title()
        self.setWindowTitle(f"{APP_TITLE} \u2014 {title} \u00b7 {self.trip.label()}" if title else APP_TITLE)

    def _refresh_actions(self) -> None:
        has_trip = self.trip.current is not None
        self.commands.undo.setEnabled(self.trip.can_undo)
        self.commands.redo.setEnabled(self.trip.can_redo)
        for action in self.commands.edit_actions():
            action.setEnabled(has_trip)
        self.commands.replan.setEnabled(True)  # without a trip it plans the form

    def report_change(self, description: str, before: TripVersion | None, after: TripVersion) -> None:
        same_trip = before is not None and before.mode == after.mode and self._same_place(before, after)
        itinerary = after.itinerary
        if same_trip:
            text = f"{description}: {describe_change(before.itinerary, itinerary).text()}"
        else:
            text = (f"{description} {self.trip_title()}: total {format_usd(itinerary.cost_breakdown.total_usd_cents)}"
                    f", {len(itinerary.violations)} advisory violation(s)")
        self.last_change = text
        self.message_bar.clear()
        self.show_status(f"{text} ({self.trip.label()})")

    @staticmethod
    def _same_place(a: TripVersion, b: TripVersion) -> bool:
        if a.mode == "road_trip":
            return (a.intent.origin, a.intent.terminus) == (b.intent.origin, b.intent.terminus)
        return a.intent.city == b.intent.city

    # -- messages and state ---------------------------------------------------------------------
    def show_message(self, text: str, level: str = "info") -> None:
        self.message_bar.show_message(text, level)
        self.show_status(text.splitlines()[0] if text else "")

    def show_status(self, text: str, timeout_ms: int = 0) -> None:
        self.statusBar().showMessage(text, timeout_ms)

    def show_progress_tab(self) -> None:
        self.bottom_tabs.setCurrentWidget(self.progress)

    def set_busy(self, busy: bool) -> None:
        self.commands.cancel.setEnabled(busy)

    def set_online(self, online: bool) -> None:
        self.map_view.set_online(online)
        self._show_online(online)

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

    def open_settings(self) -> SettingsDialog:
        if self.settings_dialog is not None:
            self.settings_dialog.raise_()
            return self.settings_dialog
        dialog = SettingsDialog(self.settings, self.secrets, on_audit=self.library.audit, path=self.settings_path,
                                parent=self)
        dialog.saved.connect(self.apply_settings)
        dialog.destroyed.connect(lambda _=None: setattr(self, "settings_dialog", None))
        self.settings_dialog = dialog
        dialog.show()
        return dialog

    @property
    def secrets(self):
        """The app's one keyring access (a key kept in memory must outlive the dialogs)."""
        if self._secrets is None:
            from engine.store.secret_store import SecretStore

            self._secrets = SecretStore()
        return self._secrets

    def apply_settings(self, settings) -> None:
        self.settings = settings
        self.intent_form.set_home_airport(effective_home_airport(settings))
        self.itinerary_panel.set_distance_unit(settings.distance_unit)
        self.map_view.set_distance_unit(settings.distance_unit)
        self.intent_form.set_distance_unit(settings.distance_unit)
        show_basemap(self, settings)
        self.commands.online.setChecked(settings.online_tiles)
        self.show_status("Settings saved.", 5000)

    def _show_online(self, online: bool) -> None:
        self.online_label.setText("Online \u00b7 OSM tiles" if online else "Offline")
        self.online_label.setStyleSheet("color: #2e7d32;" if online else "color: #616161;")

    # -- user requests --------------------------------------------------------------------------
    def plan_from_form(self) -> None:
        try:
            intent = self.intent_form.current_intent()
        except InputError as exc:
            self.show_message(f"Check the form: {' '.join(str(exc).split())}", "error")
            return
        self.controller.plan_intent(intent)

    def open_example(self, key: str) -> None:
        example = examples(self.planning.today)[key]
        self.use_prompt(example.prompt)
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

    def offer_stop_here(self, lat: float, lon: float) -> None:
        """A click on a road trip's map offers "Add a stop here" (snapped to a route town)."""
        version = self.trip.current
        if version is None or version.mode != "road_trip":
            return
        try:
            _route, town = self.controller.snap(lat, lon)
        except InputError as exc:
            self.show_status(" ".join(str(exc).split()), 8000)
            return
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.addSection(f"Add a stop here: {town_label(town)}")  # asks: a night there, or a visit?
        for kind, text in (("overnight", "Stay overnight here"), ("visit", "Visit on the way (no night)")):
            action = menu.addAction(text)
            action.triggered.connect(lambda _=False, k=kind: self.controller.add_stop(lat, lon, k))
        self.map_menu = menu
        menu.popup(QCursor.pos())

    def open_replace_chooser(self, activity_id: str, name: str, options) -> ReplaceChooser:
        if self.replace_chooser is not None:
            self.replace_chooser.close()
        chooser = ReplaceChooser(activity_id, name, options, self)
        chooser.chosen.connect(self.controller.replace_with)
        chooser.destroyed.connect(lambda _=None, c=chooser: self._forget_chooser(c))
        self.replace_chooser = chooser
        chooser.show()
        return chooser

    def _forget_chooser(self, chooser) -> None:
        if self.replace_chooser is chooser:
            self.replace_chooser = None

    def choose_export(self, key: str | None) -> QFileDialog | None:
        """A non-modal save dialog (``open()``, never ``exec()``); the file is written when chosen."""
        version = self.trip.current
        if version is None:
            self.show_message("Plan a trip before exporting it.", "info")
            return None
        dialog = export_dialog(self, version.itinerary, key, self.controller.export_to)
        self.export_dialog = dialog
        dialog.open()
        return dialog

    def choose_route_file(self) -> QFileDialog | None:
        """File ▸ Import route: a non-modal open dialog; the open road trip then follows the track."""
        version = self.trip.current
        if version is None or version.mode != "road_trip":
            self.show_message("Plan a road trip first (its ends and days); then import a route for it to follow.",
                              "info")
            return None
        from .ui_state import last_folder, remember_folder

        dialog = QFileDialog(self, "Import route", last_folder("route"))
        dialog.fileSelected.connect(lambda path: remember_folder("route", path))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptOpen)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilters(["Routes (*.gpx *.kml)", "All files (*)"])
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog)  # the same dialog everywhere, testable offscreen
        dialog.fileSelected.connect(self.controller.import_route)
        self.import_dialog = dialog
        dialog.open()
        return dialog

    def show_about(self) -> None:
        from .ui_state import app_version

        box = QMessageBox(QMessageBox.Icon.Information, "About Tripwright",
                          f"Tripwright {app_version()}\n\n"
                          "Tripwright plans city trips and road trips and proves they are feasible.\n"
                          "Maps: Leaflet, Natural Earth; \u00a9 OpenStreetMap contributors when online.", parent=self)
        box.setModal(False)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.about_box = box
        box.show()

    def _fx_to_usd(self, amount: Decimal, currency: str) -> int:
        rate = self.planning.toolbox.rate_now(FXRequest(from_currency=currency, as_of=self.planning.today)).rate
        return int(amount * 100 * Decimal(str(rate)))

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        self.controller.cancel()  # the worker stops at its next node; the trip stays in the session
        self.library.remember_on_close()
        self.notes.detach()  # the planning session may outlive this window and its store
        for box in (self.replace_chooser, self.export_dialog, self.about_box, self.map_menu, self.settings_dialog,
                    self.library.login_dialog, self.controller.place_chooser):
            try:
                if box is not None:
                    box.close()  # a visible dialog would keep the app from quitting
            except RuntimeError:  # already deleted (WA_DeleteOnClose)
                pass
        super().closeEvent(event)


def _scrolled(widget: QWidget) -> QScrollArea:
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setWidget(widget)
    return area
