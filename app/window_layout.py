"""How the main window is laid out: the map in the middle, the docks around it (Trip form,
Trips, Notes and Group on the left — tabbed on the right when the window is narrow —, the
itinerary with its reactions bar on the right, progress and diagnostics below). A mixin of
:class:`app.main_window.MainWindow`."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QLabel, QScrollArea, QStackedWidget, QStyle, QTabWidget, QVBoxLayout, QWidget

from engine.diagnostics import collect as collect_diagnostics
from engine.roadtrip.routes import load_routes
from engine.settings import effective_home_airport
from widgets.diagnostics_panel import DiagnosticsPanel
from widgets.group_panel import GroupPanel
from widgets.intent_form import IntentForm
from widgets.itinerary_panel import ItineraryPanel
from widgets.map_view import MapView
from widgets.notes_panel import NotesPanel
from widgets.progress_panel import ProgressPanel
from widgets.reactions_bar import ReactionsBar
from widgets.trip_list import TripListPanel

from .message_bar import MessageBar
from .plain_words import in_plain_words
from .ui_state import restore_legend
from .welcome import WelcomePanel

FORM_WIDTH, ITINERARY_WIDTH = 420, 600  # the form's fields need 404 px; the itinerary's What column ~190 px beside When, Kind, Cost and Marks (a visit's name and its hours)
MAP_MIN_WIDTH = 700  # narrower, and the map's legend (284 px) covers part of the trip
MAP_MIN_SHARE = 0.5  # the map keeps at least half the window's width, however small the window
BOTTOM_HEIGHT = 165  # status line, progress bar and the last few events


class WindowLayout:
    def _build_central(self) -> None:
        self.map_view = MapView()
        self.map_view.set_distance_unit(self.settings.distance_unit)
        self._legend_first_launch = restore_legend(self.map_view)
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
        self.itinerary_reactions = ReactionsBar()  # the shown version's quick reactions (a saved trip's)
        self.itinerary_reactions.setObjectName("itinerary_reactions")
        self.itinerary_reactions.setVisible(False)
        right = QWidget()
        column = QVBoxLayout(right)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.itinerary_reactions)
        column.addWidget(self.right_stack, 1)
        self.itinerary_dock = self._dock("Itinerary", "itinerary_dock", right, Qt.DockWidgetArea.RightDockWidgetArea)
        self.group_panel = GroupPanel()
        self.group_dock = self._dock("Group", "group_dock", self.group_panel, Qt.DockWidgetArea.RightDockWidgetArea)
        # Tabbed at once: stacked beside the others it would make the first shown window taller.
        self.tabifyDockWidget(self.itinerary_dock, self.group_dock)
        self.progress = ProgressPanel()
        self.progress.wording = in_plain_words  # "day_index: …" in the form's words, as the message bar
        self.diagnostics = DiagnosticsPanel()
        self.diagnostics.report_source = lambda: collect_diagnostics(self.planning.toolbox.executor)
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

    def apply_default_layout(self) -> None:
        """Form on the left, itinerary on the right, progress under the map. When the window is
        too narrow for all three beside a usable map, the form and the itinerary share the right
        dock as tabs (the form is one click away; the map keeps room beside its legend)."""
        compact = self.width() < FORM_WIDTH + ITINERARY_WIDTH + MAP_MIN_WIDTH
        if compact:
            self.tabifyDockWidget(self.itinerary_dock, self.form_dock)
            self.tabifyDockWidget(self.itinerary_dock, self.trips_dock)
            self.tabifyDockWidget(self.itinerary_dock, self.notes_dock)
            self.tabifyDockWidget(self.itinerary_dock, self.group_dock)
            self.itinerary_dock.raise_()  # the trip first (with no trip: the form, below)
        else:
            self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.form_dock)
            self.tabifyDockWidget(self.form_dock, self.trips_dock)
            self.tabifyDockWidget(self.form_dock, self.notes_dock)
            self.tabifyDockWidget(self.form_dock, self.group_dock)
            self.form_dock.raise_()
        self.bottom_dock.hide()  # until a run: the map keeps the window's height (show_progress_tab)
        self.trips_dock.setVisible(self.library.enabled)
        self.notes_dock.setVisible(self.library.enabled)  # notes live in the trip store
        self.group_dock.setVisible(self.library.enabled)  # so do ideas, chat and feedback
        self._size_docks()
        if self.trip.current is None:
            self.focus_form()  # the keyboard starts in the trip form (the examples are a tab away)

    def _size_docks(self) -> None:
        if not self.form_dock.isFloating() and self.dockWidgetArea(self.form_dock) == Qt.DockWidgetArea.LeftDockWidgetArea:
            self.resizeDocks([self.form_dock], [FORM_WIDTH], Qt.Orientation.Horizontal)
        self.resizeDocks([self.itinerary_dock], [self._side_width()], Qt.Orientation.Horizontal)
        self.resizeDocks([self.bottom_dock], [BOTTOM_HEIGHT], Qt.Orientation.Vertical)

    def _side_width(self) -> int:
        """The itinerary dock's width: its usual one, but never more than leaves the map half the
        window's width (at 1024 px the itinerary took 540 px and the map kept 47 %)."""
        docked_left = sum(d.width() for d in (self.form_dock,) if d.isVisible() and not d.isFloating()
                          and self.dockWidgetArea(d) == Qt.DockWidgetArea.LeftDockWidgetArea)
        separators = 2 * self.style().pixelMetric(QStyle.PixelMetric.PM_DockWidgetSeparatorExtent)
        room = self.width() - math.ceil(self.width() * MAP_MIN_SHARE) - docked_left - separators
        return max(min(ITINERARY_WIDTH, room), self.itinerary_dock.minimumSizeHint().width())

    def keep_map_room(self) -> None:
        """After the window is resized: the itinerary dock gives way until the map has half the
        window's width again (a dock the traveller made narrower stays as it is)."""
        if not getattr(self, "_laid_out", False) or self.itinerary_dock.isFloating():
            return
        if self.map_view.width() < self.width() * MAP_MIN_SHARE and self.itinerary_dock.width() > self._side_width():
            self.resizeDocks([self.itinerary_dock], [self._side_width()], Qt.Orientation.Horizontal)

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        QTimer.singleShot(0, self.keep_map_room)  # once the docks have their new sizes

    def focus_form(self) -> None:
        """The keyboard starts in the trip form: its first field, the trip description."""
        self.form_dock.show()
        self.form_dock.raise_()
        self.intent_form.prompt_edit.setFocus(Qt.FocusReason.OtherFocusReason)

    def show_form(self) -> None:
        self.form_dock.show()
        self.form_dock.raise_()

    def show_group_changes(self) -> None:
        """After a model run: the Group dock's Changes tab (what the new version changed)."""
        self.group_dock.show()
        self.group_dock.raise_()
        self.group_panel.tabs.setCurrentWidget(self.group_panel.changes)


def _scrolled(widget: QWidget) -> QScrollArea:
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setWidget(widget)
    return area
