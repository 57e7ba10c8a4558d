"""The main window's dialogs and menus on demand: Settings, the map's "Add a stop here" menu,
the replace chooser, export and import file dialogs (route, saved places, bookings), Help (a
short guide and the shortcut list), About; and
files dropped on the window. All non-modal (``open()`` or ``show()``, never ``exec()``), kept on
the window so a test can reach them. A mixin of :class:`app.main_window.MainWindow`."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QDialog, QFileDialog, QMenu, QMessageBox, QPlainTextEdit, QPushButton, QVBoxLayout

from engine.errors import InputError

from .exports import export_dialog
from .import_merge import BOOKINGS_FILTER, PLACES_FILTER
from .map_edits import town_label
from .replace_chooser import ReplaceChooser
from .settings_dialog import SettingsDialog


class WindowDialogs:
    def open_settings(self) -> SettingsDialog:
        if self.settings_dialog is not None:
            self.settings_dialog.raise_()
            return self.settings_dialog
        dialog = SettingsDialog(self.settings, self.secrets, on_audit=self.library.audit, path=self.settings_path,
                                city_packs=self.city_packs, parent=self)
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
        return self._open_file("Import route", "route", ["Routes (*.gpx *.kml)", "All files (*)"],
                               self.controller.import_route)

    def choose_places_file(self) -> QFileDialog | None:
        """File ▸ Import places: the traveller's saved places as must-sees of the open city trip."""
        if self.imports.city_trip("places") is None:
            return None
        return self._open_file("Import saved places", "places", [PLACES_FILTER, "All files (*)"],
                               self.imports.import_places)

    def choose_bookings_file(self) -> QFileDialog | None:
        """File ▸ Import bookings: flight and hotel confirmations the open trip is planned around (a
        road trip's: its motel)."""
        if self.imports.city_trip("bookings", road=True) is None:
            return None
        return self._open_file("Import bookings", "bookings", [BOOKINGS_FILTER, "All files (*)"],
                               self.imports.import_bookings)

    def _open_file(self, title: str, purpose: str, filters: list[str], chosen) -> QFileDialog:
        """A non-modal open dialog (``open()``, never ``exec()``) in the folder last used for
        ``purpose``; ``chosen(path)`` runs when a file is picked."""
        from .ui_state import last_folder, remember_folder

        dialog = QFileDialog(self, title, last_folder(purpose))
        dialog.fileSelected.connect(lambda path: remember_folder(purpose, path))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptOpen)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilters(filters)
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog)  # the same dialog everywhere, testable offscreen
        dialog.fileSelected.connect(chosen)
        self.import_dialog = dialog
        dialog.open()
        return dialog

    # -- files dropped on the window (saved places, bookings) ---------------------------------------
    def dragEnterEvent(self, event) -> None:  # noqa: N802 (Qt override)
        if _dropped_files(event):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:  # noqa: N802 (Qt override)
        self.dragEnterEvent(event)

    def dropEvent(self, event) -> None:  # noqa: N802 (Qt override)
        paths = _dropped_files(event)
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        self.imports.import_files(paths)  # by extension; each file read off the GUI thread

    def show_help(self, page: str = "guide") -> QDialog:
        """Help ▸ Quick guide (F1) or Keyboard shortcuts: one non-modal window with both tabs."""
        from PySide6.QtWidgets import QTabWidget

        from .window_actions import shortcut_list

        dialog = getattr(self, "help_dialog", None)
        if dialog is None:
            dialog = QDialog(self)
            dialog.setWindowTitle("Tripwright help")
            dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            dialog.destroyed.connect(lambda _=None: setattr(self, "help_dialog", None))
            tabs = QTabWidget(dialog)
            tabs.setObjectName("help_tabs")
            tabs.addTab(_help_text(GUIDE), "Quick guide")
            shortcuts = shortcut_list(self)
            rows = "\n".join(f"{keys}\t{what}" for what, keys in shortcuts)
            tabs.addTab(_help_text("Keyboard shortcuts (they work wherever the focus is):\n\n" + rows,
                                   max((keys for _, keys in shortcuts), key=len, default="")), "Shortcuts")
            close = QPushButton("Close")
            close.clicked.connect(dialog.close)
            layout = QVBoxLayout(dialog)
            layout.addWidget(tabs)
            layout.addWidget(close, 0, Qt.AlignmentFlag.AlignRight)
            dialog.resize(560, 460)
            self.help_dialog = dialog
        dialog.findChild(QTabWidget, "help_tabs").setCurrentIndex(1 if page == "shortcuts" else 0)
        dialog.show()
        dialog.raise_()
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



GUIDE = "\n\n".join((
    "PLAN A TRIP \u2014 Describe it in the Trip form (\u201c5 days in Paris from 2027-06-15, flying from JFK\u201d) "
    "or fill its fields, then press Plan (Ctrl+R). Or pick an example on the welcome page (File \u25b8 Open example).",
    "READ IT \u2014 The itinerary lists each day with its weather and cost, and each stop with its time, that "
    "day\u2019s opening hours and its price. \u201cest.\u201d marks an estimate; \u201chours unknown\u201d: no hours "
    "were published, check before going. Click a row to find the stop on the map; point at a pin for its details.",
    "CHANGE IT \u2014 Right-click a pin to lock, remove, replace or move it to another day; drag a road trip\u2019s "
    "night to another town. Re-plan (F5) plans again around your edits; Undo (Ctrl+Z) and Redo go between versions.",
    "BRING YOUR OWN \u2014 File \u25b8 Import places or Import bookings (or drop the file on the window): your saved "
    "places and your flight and hotel confirmations are planned around.",
    "SHARE IT \u2014 Export (Ctrl+E): JSON, GPX, iCalendar, KML, an HTML map or a PDF.",
))


def _help_text(text: str, tab: str = "") -> QPlainTextEdit:
    """Read-only text; ``tab``: the widest text before a tab (the shortcut column)."""
    view = QPlainTextEdit(text)
    view.setReadOnly(True)
    if tab:
        view.setTabStopDistance(view.fontMetrics().horizontalAdvance(tab) + 24)
    return view


def _dropped_files(event) -> list[str]:
    """The local files a drag carries (the engine's readers say no to what they cannot read)."""
    mime = event.mimeData()
    if not mime.hasUrls():
        return []
    return [url.toLocalFile() for url in mime.urls() if url.isLocalFile() and url.toLocalFile()]
