"""The intent form's plumbing: which engine field shows its error where, the inline error
lines, and small widget factories. Kept apart so ``intent_form`` reads as the form itself."""

from __future__ import annotations

import re
from datetime import date

from pydantic import ValidationError
from PySide6.QtCore import Qt, SignalInstance
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (QComboBox, QDateEdit, QDoubleSpinBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit,
                               QListWidget, QPlainTextEdit, QSpinBox, QVBoxLayout, QWidget)

from engine.errors import InputError
from engine.models.common import field_path

from .date_entry import WholeDateEdit

ERROR_COLOUR = "#c62828"
INVALID_BACKGROUND = "#fde0dc"
IATA_HEAD = re.compile(r"^\s*([A-Za-z]{3})(?![A-Za-z])")
_PREFIXED = re.compile(r"^([a-z_][a-z0-9_.\[\]]*): (.+)$", re.DOTALL)

LABELS = {"prompt": "Prompt", "city": "City", "start": "Start", "days": "Days", "origin_airport": "Home airport",
          "airports": "Destination airports", "budget": "Budget", "currency": "Currency", "themes": "Themes",
          "origin": "Origin", "terminus": "Terminus", "route": "Route", "road_days": "Days", "road_start": "Start",
          "trip_type": "Trip", "max_daily_miles": "Max miles a day", "corridor": "Corridor width",
          "stops": "Stops", "form": "Form", "stays": "Cities", "multi_origin": "Home airport",
          "multi_budget": "Budget",
          # "I already have" (widgets/intent_bookings.py)
          "out_flight": "Flight there", "out_airports": "Flight there's airports", "out_times": "Flight there's times",
          "back_flight": "Flight back", "back_airports": "Flight back's airports", "back_times": "Flight back's times",
          "hotel_name": "Hotel", "hotel_dates": "Hotel nights", "hotel_geo": "Hotel location",
          "hotel_code": "Hotel confirmation", "hotel_price": "Hotel price"}
# What a prompt's problem is about, where the form's label would say less ("Days" for the dates).
PROMPT_WORDS = {"date_window": "Dates", "start_date": "Start", "travellers": "Travellers", "airport": "Home airport"}
# Engine field paths (parsers and pydantic) → the form field that shows the error.
CITY_FIELDS = {"city": "city", "date_window": "days", "start": "start", "budget_usd_cents": "budget",
               "budget": "budget", "airports": "airports", "origin_airport": "origin_airport",
               "airport": "origin_airport", "currency": "currency", "prefs": "themes",
               "travellers": "travellers", "rooms": "travellers"}
ROAD_FIELDS = {"origin": "origin", "terminus": "terminus", "days": "road_days", "start_date": "road_start",
               "route": "route", "max_daily_miles": "max_daily_miles", "corridor_max_deviation_miles": "corridor",
               "stops": "stops", "trip_type": "trip_type", "prefs": "themes", "travellers": "travellers",
               "rooms": "travellers"}


def prompt_problem(exc: InputError) -> str:
    """What the prompt left unsaid, as the form's field names it ("Dates — no travel dates found;
    …"), never the engine's field name ("(date_window) …"); a problem with the prompt itself is
    said alone ("is empty; describe the trip, …")."""
    if exc.field == "prompt":
        return exc.message
    key = CITY_FIELDS.get(exc.field) or ROAD_FIELDS.get(exc.field) or exc.field
    label = PROMPT_WORDS.get(exc.field) or LABELS.get(key) or exc.field.replace("_", " ").capitalize()
    return f"{label} \u2014 {exc.message}"


def pydantic_errors(exc: ValidationError) -> list[tuple[str, str]]:
    """(field path, message) for every error; model-level messages carry "field: ..."."""
    out = []
    for err in exc.errors():
        path, msg = field_path(err["loc"]), str(err["msg"]).removeprefix("Value error, ")
        prefixed = _PREFIXED.match(msg)
        if not path and prefixed:
            path, msg = prefixed.group(1), prefixed.group(2)
        out.append((path, msg))
    return out


class FieldErrors:
    """Fields by key, each with a red error line under it that names the field."""

    def __init__(self) -> None:
        self.fields: dict[str, QWidget] = {}
        self.labels: dict[str, QLabel] = {}

    def wrap(self, key: str, widget: QWidget, target: QWidget | None = None) -> QWidget:
        """``widget`` with its (hidden) error line under it; ``target`` is the input to highlight
        when ``widget`` is a row of several."""
        self.fields[key] = target or widget
        holder = QWidget()
        column = QVBoxLayout(holder)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        column.addWidget(widget)
        column.addWidget(self.label(key))
        return holder

    def label(self, key: str) -> QLabel:
        label = plain("")
        label.setObjectName(f"error_{key}")
        label.setWordWrap(True)
        label.setStyleSheet(f"color: {ERROR_COLOUR};")
        label.hide()
        self.labels[key] = label
        return label

    def shown(self) -> dict[str, str]:
        return {key: label.text() for key, label in self.labels.items() if not label.isHidden()}

    def clear(self) -> None:
        for key, label in self.labels.items():
            label.hide()
            label.setText("")
            if key in self.fields:
                _highlight(self.fields[key], False)

    def watch(self, on_edit) -> None:
        """Call ``on_edit(key)`` whenever the input of field ``key`` is edited."""
        for key, widget in self.fields.items():
            signal = _edited_signal(widget)
            if signal is not None:
                signal.connect(lambda *_args, k=key: on_edit(k))

    def hide(self, key: str) -> None:
        """The error of one field fixed: its line and its tint go."""
        self.labels[key].hide()
        self.labels[key].setText("")
        if key in self.fields:
            _highlight(self.fields[key], False)

    def show(self, errors: list[tuple[str, str]]) -> None:
        for key, message in errors:
            label = self.labels[key]
            if not label.isHidden():
                continue  # the first problem per field is the one to fix first
            label.setText(f"{LABELS[key]}: {message}")
            label.show()
            if key in self.fields:
                _highlight(self.fields[key], True)


def _edited_signal(widget: QWidget):
    own = getattr(widget, "changed", None)  # a composite field's own signal (widgets/stay_list.py)
    if isinstance(own, SignalInstance):
        return own
    for kind, name in ((QLineEdit, "textChanged"), (QPlainTextEdit, "textChanged"), (QComboBox, "currentTextChanged"),
                       (QDateEdit, "dateChanged"), (QSpinBox, "valueChanged"), (QDoubleSpinBox, "valueChanged"),
                       (QListWidget, "itemChanged")):
        if isinstance(widget, kind):
            return getattr(widget, name)
    return None


def _highlight(widget: QWidget, invalid: bool) -> None:
    """Tint the input's background. A palette, not a style sheet: style sheets cascade into
    child widgets and replace the native spin-box arrows."""
    widget.setProperty("invalid", invalid)
    if not invalid:
        widget.setPalette(QPalette())  # an empty palette: inherit the normal colours again
        return
    palette = widget.palette()
    for role in (QPalette.ColorRole.Base, QPalette.ColorRole.Button):
        palette.setColor(role, QColor(INVALID_BACKGROUND))
    widget.setPalette(palette)


def plain(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def combo() -> QComboBox:
    """A combo box whose width follows its field, not its longest item (airport names are long)."""
    combo = QComboBox()
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(10)
    return combo


def spin(low: int, high: int, value: int, suffix: str) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(low, high)
    spin.setValue(value)
    spin.setSuffix(suffix)
    return spin


def date_edit(value: date) -> QDateEdit:
    """A ``yyyy-MM-dd`` field with a calendar that takes a typed date whole (``widgets/date_entry.py``)."""
    return WholeDateEdit(value)


def hbox(*widgets: QWidget) -> QWidget:
    holder = QWidget()
    row = QHBoxLayout(holder)
    row.setContentsMargins(0, 0, 0, 0)
    for w in widgets:
        row.addWidget(w)
    row.addStretch(1)
    return holder


def page(form: QFormLayout) -> QWidget:
    """A tab page; the stretch keeps the shorter tab's rows compact (tabs share one height)."""
    page = QWidget()
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    column = QVBoxLayout(page)
    column.addLayout(form)
    column.addStretch(1)
    return page
