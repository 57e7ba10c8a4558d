"""The Settings dialog: home airport, distance unit, map tiles, the OpenAI-compatible model
(endpoint, model, API key), and the cities kept for offline use (``city_packs_section.py``).

Non-modal: the caller uses ``show()`` or ``open()``, never ``exec()`` (a nested event loop inside
the qasync loop is forbidden). Save validates everything first and keeps the dialog open with an
error under each bad field; only then is ``settings.json`` written, the key stored, and
``saved(Settings)`` emitted. The API key goes to the OS keyring (``SecretStore``), never to the
file, and never into an audit detail or a signal.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from pathlib import Path

from pydantic import ValidationError
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (QCheckBox, QComboBox, QCompleter, QDialog, QDialogButtonBox, QFileDialog, QFormLayout,
                               QGroupBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget)

from engine.catalog import default_catalog
from engine.settings import (API_KEY_ENV, DEFAULT_LLM_ENDPOINT, Settings, check_api_key, delete_api_key,
                             endpoint_or_default, env_overrides, field_errors, get_api_key, save_settings,
                             set_api_key, stored_api_key)
from engine.store.secret_store import SecretStore
from widgets.intent_fields import INVALID_BACKGROUND, FieldErrors, plain

from .weather_key import WeatherKeyField, weather_group

AuditHook = Callable[..., None]  # on_audit(action: str, **detail)
NAMES = {"home_airport": "Home airport", "distance_unit": "Distances", "street_map": "Map tiles",
         "basemap_file": "Offline map", "offline_map_url": "Offline map source",
         "llm_endpoint": "Endpoint", "llm_model": "Model", "embedding_model": "Embedding model",
         "api_key": "API key", "weather_key": "OpenWeatherMap key", "form": "Settings"}
UNITS = (("Miles (mi)", "mi"), ("Kilometres (km)", "km"))
KEYRING_NOTE = "Kept in the OS keyring, never in settings.json."
NO_KEYRING_NOTE = ("No OS keyring is available on this computer: the key will be forgotten when "
                   "Tripwright closes.")
NOTE_STYLE = "color: #616161;"
WARNING_STYLE = ("background: #fff3cd; color: #5d4200; border: 1px solid #e0c36c; border-radius: 3px;"
                 " padding: 4px 6px;")


class SettingsErrors(FieldErrors):
    """The intent form's inline error lines, named for the settings' fields."""

    def show(self, errors: list[tuple[str, str]]) -> None:
        for key, message in errors:
            label = self.labels[key]
            if label.isHidden():
                label.setText(f"{NAMES.get(key, key)}: {message}")
                label.show()
                if key in self.fields:
                    _tint(self.fields[key])


class SettingsDialog(QDialog):
    """Edits ``settings``; emits ``saved(Settings)`` after the file is written.

    ``secrets`` is the app's one SecretStore (its in-memory fallback must outlive the dialog);
    ``on_audit(action, **detail)`` hears "settings_changed" (the changed field names),
    "api_key_set" and "api_key_removed" (the endpoint, never the key), "weather_key_set" and
    "weather_key_removed"; ``path`` overrides the
    settings file (tests); ``environ`` is where the overrides are read (default ``os.environ``).
    """

    saved = Signal(object)
    tested = Signal(str)  # the Test connection line, delivered from its worker thread

    def __init__(self, settings: Settings, secrets: SecretStore, *, on_audit: AuditHook | None = None,
                 path: Path | None = None, environ: Mapping[str, str] | None = None,
                 city_packs=None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.city_packs = city_packs  # the window's CityPacks: the "Cities for offline use" section
        self.settings = settings
        self.secrets = secrets
        self.on_audit = on_audit
        self.path = path
        self.environ = environ
        self.setWindowTitle("Tripwright settings")
        self.setModal(False)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.errors = SettingsErrors()
        self._build()
        self._fill(settings)
        self.refresh_key_state()

    # -- building -------------------------------------------------------------------------------
    def _build(self) -> None:
        overrides = env_overrides(self.environ)
        self.airport_edit = QLineEdit()
        self.airport_edit.setMaxLength(3)
        self.airport_edit.setMaximumWidth(self.airport_edit.fontMetrics().horizontalAdvance("MMMM") + 24)
        self.airport_edit.setPlaceholderText("e.g. JFK")
        self.airport_edit.setCompleter(_airport_completer(self))
        self.unit_combo = QComboBox()
        for text, unit in UNITS:
            self.unit_combo.addItem(text, unit)
        self.tiles_check = QCheckBox("Street map online (OpenStreetMap)")
        self.tiles_check.setToolTip("On: a street map with labels when online (the built-in map when not). "
                                    "Off: the built-in map only; nothing is fetched for the map")
        self.basemap_edit = QLineEdit()
        self.basemap_edit.setPlaceholderText("a .pmtiles or .mbtiles file of your region (optional)")
        self.basemap_edit.setToolTip("A PMTiles (vector) or MBTiles (raster) basemap drawn with no network; the README says how to make one")
        self.basemap_browse = QPushButton("Browse\u2026")
        self.basemap_browse.setToolTip("Choose a .pmtiles or .mbtiles file")
        self.basemap_browse.clicked.connect(self.browse_basemap)
        self.basemap_dialog: QFileDialog | None = None
        self.offline_source_edit = QLineEdit()
        self.offline_source_edit.setPlaceholderText("https://…/planet.pmtiles (for Trip ▸ Make this trip "
                                                    "available offline)")
        self.offline_source_edit.setToolTip("A PMTiles archive on a server with range requests (e.g. a Protomaps "
                                            "build); only the trip's area is downloaded from it")
        basemap_row = QWidget()
        basemap_line = QHBoxLayout(basemap_row)
        basemap_line.setContentsMargins(0, 0, 0, 0)
        basemap_line.addWidget(self.basemap_edit, 1)
        basemap_line.addWidget(self.basemap_browse)
        trips = QGroupBox("Trips and map")
        general = QFormLayout(trips)
        general.addRow(self._row_label("home_airport"), self._field("home_airport", self.airport_edit, overrides))
        general.addRow(self._row_label("distance_unit"), self._field("distance_unit", self.unit_combo, overrides))
        general.addRow(self._row_label("street_map"), self._field("street_map", self.tiles_check, overrides))
        general.addRow(self._row_label("basemap_file"),
                       self._field("basemap_file", basemap_row, overrides, target=self.basemap_edit))
        general.addRow(self._row_label("offline_map_url"),
                       self._field("offline_map_url", self.offline_source_edit, overrides))
        self.form_error = self.errors.label("form")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.save_button = buttons.button(QDialogButtonBox.StandardButton.Save)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(trips)
        layout.addWidget(self._llm_group(overrides))
        self.weather_key = WeatherKeyField(self.secrets, self.errors.wrap, self.environ)
        layout.addWidget(weather_group(self.weather_key, self._row_label("weather_key")))
        self.cities = None
        if self.city_packs is not None:  # listed (and refreshed) off the GUI thread, on the app's loop
            from .city_packs_section import CityPacksSection
            self.cities = CityPacksSection(self.city_packs)
            layout.addWidget(self.cities)
            self.finished.connect(self.cities.stop)
            self.cities.start()
        layout.addWidget(self.form_error)
        layout.addStretch(1)
        layout.addWidget(buttons)
        self.setMinimumWidth(560)

    def _llm_group(self, overrides: dict) -> QGroupBox:
        self.endpoint_edit = QLineEdit()
        self.endpoint_edit.setPlaceholderText(f"empty: {DEFAULT_LLM_ENDPOINT}")
        self.endpoint_edit.editingFinished.connect(self.refresh_key_state)
        self.model_edit = QLineEdit()
        self.embedding_edit = QLineEdit()  # destination notes' vectors, at the same endpoint
        self.embedding_edit.setPlaceholderText("empty: notes are searched by their words only")
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit.setObjectName("api_key")
        self.forget_check = QCheckBox("Forget the stored key")
        self.key_note = plain("")
        self.key_note.setObjectName("keyring_note")
        self.key_note.setWordWrap(True)
        key_column = QWidget()
        column = QVBoxLayout(key_column)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(4)
        column.addWidget(self.errors.wrap("api_key", self.key_edit))
        column.addWidget(self.forget_check)
        column.addWidget(self.key_note)
        if (self.environ if self.environ is not None else os.environ).get(API_KEY_ENV, "").strip():
            column.addWidget(_note(f"{API_KEY_ENV} is set: it is used instead of the stored key."))
        group = QGroupBox("Language model (optional, any OpenAI-compatible server)")
        form = QFormLayout(group)
        form.addRow(self._row_label("llm_endpoint"), self._field("llm_endpoint", self.endpoint_edit, overrides))
        form.addRow(self._row_label("llm_model"), self._field("llm_model", self.model_edit, overrides))
        form.addRow(self._row_label("embedding_model"),
                    self._field("embedding_model", self.embedding_edit, overrides))
        form.addRow(self._row_label("api_key"), key_column)
        self.test_button = QPushButton("Test connection")
        self.test_button.clicked.connect(self.test_connection)
        self.test_result = plain("")
        self.test_result.setObjectName("test_result")
        self.test_result.setWordWrap(True)
        self.tested.connect(self._show_test)
        row = QWidget()
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        line.addWidget(self.test_button)
        line.addWidget(self.test_result, 1)
        form.addRow("", row)
        return group

    def test_connection(self) -> None:
        """List the endpoint's models (or the exact error) off the GUI thread."""
        endpoint = endpoint_or_default(self.endpoint_edit.text())
        model = self.model_edit.text().strip()
        key = self.key_edit.text().strip() or get_api_key(endpoint, self.secrets, self.environ)
        self.test_button.setEnabled(False)
        self.test_result.setText("Testing…")

        def work() -> None:
            from engine.llm.connection import test_connection  # lazy: openai costs ~1 s to import
            self.tested.emit(test_connection(endpoint, model, key))
        threading.Thread(target=work, name="llm-test-connection", daemon=True).start()

    def browse_basemap(self) -> QFileDialog:
        """A non-modal file dialog (never ``exec()``: no nested loop in the qasync loop)."""
        if self.basemap_dialog is not None:
            self.basemap_dialog.close()
        start = str(Path(self.basemap_edit.text()).expanduser().parent) if self.basemap_edit.text().strip() \
            else str(Path.home())
        dialog = QFileDialog(self, "Offline map file", start, "Offline maps (*.pmtiles *.mbtiles);;All files (*)")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        dialog.fileSelected.connect(self.basemap_edit.setText)
        dialog.open()
        self.basemap_dialog = dialog
        return dialog

    def _show_test(self, text: str) -> None:
        self.test_result.setText(text)
        self.test_button.setEnabled(True)

    def _row_label(self, key: str) -> QLabel:
        """Labels of one width, so the two groups' fields line up."""
        label = plain(NAMES[key])
        label.setMinimumWidth(max(label.fontMetrics().horizontalAdvance(name) for name in NAMES.values()) + 8)
        return label

    def _field(self, key: str, widget: QWidget, overrides: dict, target: QWidget | None = None) -> QWidget:
        """The input, its (hidden) error line, and a note when an environment variable wins."""
        holder = self.errors.wrap(key, widget, target)
        if key in overrides:
            variable, value = overrides[key]
            holder.layout().addWidget(_note(f"{variable}={value} is set: it wins over this setting while set."))
        return holder

    def _fill(self, settings: Settings) -> None:
        self.airport_edit.setText(settings.home_airport)
        self.unit_combo.setCurrentIndex(max(self.unit_combo.findData(settings.distance_unit), 0))
        self.tiles_check.setChecked(settings.street_map)
        self.basemap_edit.setText(settings.basemap_file)
        self.offline_source_edit.setText(settings.offline_map_url)
        self.endpoint_edit.setText(settings.llm_endpoint)
        self.model_edit.setText(settings.llm_model)
        self.embedding_edit.setText(settings.embedding_model)

    # -- the key's state ------------------------------------------------------------------------
    def refresh_key_state(self) -> None:
        """Say whether a key is stored for the endpoint as typed, and whether a keyring exists
        (reading it is how SecretStore finds out)."""
        stored = stored_api_key(self.endpoint_edit.text(), self.secrets) is not None
        self.key_edit.setPlaceholderText("A key is stored; type a new one to replace it" if stored
                                         else "No key stored")
        self.forget_check.setEnabled(stored)
        if not stored:
            self.forget_check.setChecked(False)
        self._show_keyring_note()

    def _show_keyring_note(self) -> None:
        missing = self.secrets.warning is not None
        self.key_note.setText(NO_KEYRING_NOTE if missing else KEYRING_NOTE)
        self.key_note.setStyleSheet(WARNING_STYLE if missing else NOTE_STYLE)
        self.key_note.updateGeometry()
        self._fit()

    def _fit(self) -> None:
        """Grow to what the content needs. Word-wrapped lines that appear or grow after the dialog
        was laid out (error lines, the keyring warning) are not in its minimum size: without this
        they were cut off and the fields above them squeezed to a sliver (issue 22 §2.5)."""
        layout = self.layout()
        if layout is None:
            return
        layout.invalidate()
        layout.activate()
        needed = layout.totalHeightForWidth(self.width())
        if needed > self.height():
            self.resize(self.width(), needed)
        self.setMinimumHeight(max(self.minimumHeight(), needed))

    @property
    def keyring_missing(self) -> bool:
        return self.secrets.warning is not None

    # -- saving ---------------------------------------------------------------------------------
    def values(self) -> dict:
        return {"home_airport": self.airport_edit.text(), "distance_unit": self.unit_combo.currentData(),
                "street_map": self.tiles_check.isChecked(), "basemap_file": self.basemap_edit.text(),
                "offline_map_url": self.offline_source_edit.text(),
                "llm_endpoint": self.endpoint_edit.text(),
                "llm_model": self.model_edit.text(), "embedding_model": self.embedding_edit.text()}

    def save(self) -> Settings | None:
        """Validate, write, store the key, emit ``saved``; on any problem stay open and say why."""
        self.errors.clear()
        settings, key = self._validated()
        if settings is None:
            return None
        try:
            save_settings(settings, self.path)
        except OSError as exc:
            self.errors.show([("form", f"could not save: {exc.strerror or exc}")])
            return None
        self._apply_key(settings, key)
        self.weather_key.apply(self._weather_key, self._audit)
        self._audit_changes(settings)
        self.settings = settings
        self.saved.emit(settings)
        self.accept()
        return settings

    def _validated(self) -> tuple[Settings | None, str | None]:
        problems: list[tuple[str, str]] = []
        settings = key = None
        try:
            # the fields this form does not show (the offline copy's cap) are kept as they are
            settings = Settings.model_validate({**self.settings.model_dump(mode="json"), **self.values()})
        except ValidationError as exc:
            problems += list(field_errors(exc).items())
        if self.key_edit.text():  # blank means "keep the stored key"; spaces alone are a mistake
            try:
                key = check_api_key(self.key_edit.text())
            except ValueError as exc:
                problems.append(("api_key", str(exc)))
        weather_key, weather_problem = self.weather_key.checked()
        if weather_problem is not None:
            problems.append(("weather_key", weather_problem))
        self._weather_key = weather_key
        if problems:
            self.errors.show(problems)
            self._fit()
            self._focus_first(problems)
            return None, None
        return settings, key

    def _focus_first(self, problems: list[tuple[str, str]]) -> None:
        widget = self.errors.fields.get(problems[0][0])
        if widget is not None:
            widget.setFocus()

    def _apply_key(self, settings: Settings, key: str | None) -> None:
        endpoint = endpoint_or_default(settings.llm_endpoint)
        if key is not None:
            kept = set_api_key(settings.llm_endpoint, key, self.secrets)
            self.key_edit.clear()
            self._audit("api_key_set", endpoint=endpoint, kept_in="keyring" if kept else "memory")
        elif self.forget_check.isChecked():
            delete_api_key(settings.llm_endpoint, self.secrets)
            self._audit("api_key_removed", endpoint=endpoint)

    def _audit_changes(self, settings: Settings) -> None:
        changed = [name for name in Settings.model_fields if getattr(settings, name) != getattr(self.settings, name)]
        if changed:
            self._audit("settings_changed", fields=changed)

    def _audit(self, action: str, **detail) -> None:  # noqa: ANN003
        if self.on_audit is not None:
            self.on_audit(action, **detail)


def _note(text: str) -> QLabel:
    label = plain(text)
    label.setWordWrap(True)
    label.setStyleSheet(NOTE_STYLE)
    return label


def _tint(widget: QWidget) -> None:
    """The intent form's invalid-field tint (a palette: style sheets would cascade)."""
    widget.setProperty("invalid", True)
    palette = widget.palette()
    for role in (QPalette.ColorRole.Base, QPalette.ColorRole.Button):
        palette.setColor(role, QColor(INVALID_BACKGROUND))
    widget.setPalette(palette)


def _airport_completer(parent: QWidget) -> QCompleter:
    completer = QCompleter(sorted(default_catalog().airport_names()), parent)
    completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    return completer
