"""Settings ▸ Weather: the OpenWeatherMap One Call 3.0 key (optional). Like the model's key it goes
to the OS keyring (``OPENWEATHERMAP_KEY_NAME``), never to settings.json or an audit detail; the
weather adapter reads it from there (``OPENWEATHERMAP_API_KEY`` wins while set)."""

from __future__ import annotations

import os
from collections.abc import Mapping

from PySide6.QtWidgets import QCheckBox, QGroupBox, QLineEdit, QVBoxLayout, QWidget

from engine.settings import OPENWEATHERMAP_KEY_NAME, check_api_key
from engine.store.secret_store import SecretStore
from engine.tools.openweathermap import KEY_ENV
from widgets.intent_fields import plain

EMPTY_HINT = "empty: forecasts from Open-Meteo (no key needed)"
STORED_HINT = "A key is stored (blank keeps it)"


class WeatherKeyField(QWidget):
    """The key's line edit (password echo), "Forget the stored key", and a note when the
    environment variable overrides it. ``wrap`` puts the edit in the dialog's inline-error holder."""

    def __init__(self, secrets: SecretStore, wrap, environ: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.secrets = secrets
        self.edit = QLineEdit()
        self.edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.edit.setObjectName("weather_key")
        self.forget_check = QCheckBox("Forget the stored key")
        stored = secrets.get(OPENWEATHERMAP_KEY_NAME) is not None
        self.edit.setPlaceholderText(STORED_HINT if stored else EMPTY_HINT)
        self.forget_check.setEnabled(stored)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(4)
        column.addWidget(wrap("weather_key", self.edit))
        column.addWidget(self.forget_check)
        if (environ if environ is not None else os.environ).get(KEY_ENV, "").strip():
            note = plain(f"{KEY_ENV} is set: it is used instead of the stored key.")
            note.setWordWrap(True)
            column.addWidget(note)

    def checked(self) -> tuple[str | None, str | None]:
        """(the key to store or None to keep what is stored, the problem to show or None)."""
        if not self.edit.text():
            return None, None
        try:
            return check_api_key(self.edit.text()), None
        except ValueError as exc:
            return None, str(exc)

    def apply(self, key: str | None, audit) -> None:
        """Store or forget the key; ``audit(action, **detail)`` hears what happened, never the key."""
        if key is not None:
            kept = self.secrets.set(OPENWEATHERMAP_KEY_NAME, key)
            self.edit.clear()
            audit("weather_key_set", kept_in="keyring" if kept else "memory")
        elif self.forget_check.isChecked():
            self.secrets.delete(OPENWEATHERMAP_KEY_NAME)
            audit("weather_key_removed")


def weather_group(field: WeatherKeyField, label) -> QGroupBox:
    from PySide6.QtWidgets import QFormLayout

    group = QGroupBox("Weather (optional, OpenWeatherMap One Call 3.0)")
    form = QFormLayout(group)
    form.addRow(label, field)
    return group
