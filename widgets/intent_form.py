"""The trip request form: a city trip or a road trip, filled by hand or read from a prompt.

``current_intent()`` returns a validated ``IntentV1`` / ``RoadTripIntent`` or raises
``InputError``; every problem is also shown in red under the field it names (no dialogs, no
tracebacks). The catalog, the named routes, the home airport setting, "today" and the FX
conversion are injected; the form opens no database and no network.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date, timedelta
from decimal import Decimal

from PySide6.QtCore import QDate, Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGridLayout,
                               QGroupBox, QHBoxLayout, QLabel, QLineEdit, QListWidget,
                               QPlainTextEdit, QPushButton, QScrollArea, QTabWidget, QVBoxLayout,
                               QWidget)

from engine.catalog import Catalog
from engine.errors import InputError
from engine.frontend import check_not_past
from engine.intake.vocabulary import DEFAULT_BUDGET_USD, THEMES
from engine.models import MAX_CITY_DAYS, MIN_CITY_DAYS, IntentV1, RoadTripIntent
from engine.models.road_trip import (DEFAULT_CORRIDOR_MILES, DEFAULT_MAX_DAILY_MILES, MAX_CORRIDOR_MILES_LIMIT,
                                     MAX_DAILY_MILES_LIMIT, MAX_ROAD_DAYS, MIN_ROAD_DAYS)

from . import formatting as fmt
from .intent_bookings import IntentBookings
from .intent_city import IntentCity
from .intent_filling import CURRENCIES, IntentFilling
from .intent_multi import IntentMulti
from .intent_reading import IntentReading
from .intent_fields import FieldErrors, combo, date_edit, hbox, page, plain, spin

PACE_LABELS = {"relaxed": "Relaxed \u2014 time to linger", "balanced": "Balanced",
               "packed": "Packed \u2014 see as much as the day holds"}

FxToUsd = Callable[[Decimal, str], int]
NO_ROUTE = "(none \u2014 direct)"
class IntentForm(IntentCity, IntentMulti, IntentFilling, IntentBookings, IntentReading, QWidget):
    plan_requested = Signal(object)  # IntentV1 | RoadTripIntent | MultiCityIntent
    bookings_opened = Signal()  # "I already have" opened: the app may load the world's airports (off this thread)
    errors_cleared = Signal()  # the last field with an error was fixed (the window drops its "Check the form")
    prompt_assumed = Signal(str)  # what a read prompt left out and the reading chose ("no budget given: ...")
    MODE_CITY, MODE_ROAD, MODE_MULTI = 0, 1, 2

    def __init__(self, catalog: Catalog, routes: Mapping[str, object], *, home_airport: str | None = None,
                 fx_to_usd: FxToUsd | None = None, today: date | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._catalog = catalog
        self._routes = sorted(routes.values(), key=lambda r: r.name)
        self._fx_to_usd = fx_to_usd
        self._today = today or date.today()
        self._errors = FieldErrors()
        self._distance_unit = "mi"
        self._build()
        self.set_home_airport(home_airport)
        self._errors.watch(self._field_edited)

    # -- building ---------------------------------------------------------------------
    _carried: IntentV1 | RoadTripIntent | None = None  # what set_intent keeps that has no field

    def _build(self) -> None:
        content = QWidget()
        body = QVBoxLayout(content)
        body.addWidget(self._prompt_box())
        self.tabs = QTabWidget()
        self.tabs.addTab(self._city_tab(), "City trip")
        self.tabs.addTab(self._road_tab(), "Road trip")
        self.tabs.addTab(self._multi_tab(), "Several cities")
        body.addWidget(self.tabs)
        self.bookings_box = self._bookings_box()  # "I already have": booked flights and hotel (a road trip: the motel)
        body.addWidget(self.bookings_box)
        self.tabs.currentChanged.connect(lambda index: self._bookings_for_mode(index == self.MODE_ROAD))
        self.tabs.currentChanged.connect(lambda index: self.bookings_box.setVisible(index != self.MODE_MULTI))
        for signal in (self.start_edit.dateChanged, self.days_spin.valueChanged, self.road_start_edit.dateChanged):
            signal.connect(self._follow_trip_dates)
        self._follow_trip_dates()
        body.addWidget(self._preferences_box())
        body.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(content)
        self.plan_button = QPushButton("Plan")
        self.plan_button.setDefault(True)
        self.plan_button.clicked.connect(self.request_plan)
        footer = QHBoxLayout()
        footer.setContentsMargins(9, 0, 9, 9)
        footer.addWidget(self._errors.label("form"), 1)
        footer.addStretch(0)
        footer.addWidget(self.plan_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll, 1)
        layout.addLayout(footer)

    def _prompt_box(self) -> QGroupBox:
        box = QGroupBox("Describe the trip")
        self.prompt_edit = QPlainTextEdit()
        self.prompt_edit.setPlaceholderText("e.g. 5 days in Paris from 2027-06-15, flying from JFK, budget 4000 USD, "
                                            "art and food \u2014 or: LA to Chicago via Route 66, 7 days from "
                                            "2027-05-03")
        self.prompt_edit.setFixedHeight(self.fontMetrics().lineSpacing() * 3 + 14)
        self.prompt_edit.setTabChangesFocus(True)  # Tab moves on, as in every other field
        self.read_button = QPushButton("Read")
        self.read_button.setToolTip("Fill the form from this text (rule-based, nothing is sent anywhere)")
        self.read_button.clicked.connect(self.read_prompt)
        row = QHBoxLayout()
        row.addWidget(self._errors.wrap("prompt", self.prompt_edit), 1)
        row.addWidget(self.read_button, 0, Qt.AlignmentFlag.AlignTop)
        self.prompt_note = plain("")  # what the last reading chose for the traveller (a default budget, a week)
        self.prompt_note.setObjectName("prompt_note")
        self.prompt_note.setWordWrap(True)
        self.prompt_note.setStyleSheet("color: #1565c0;")
        self.prompt_note.hide()
        column = QVBoxLayout()
        column.addLayout(row)
        column.addWidget(self.prompt_note)
        box.setLayout(column)
        return box

    def _city_tab(self) -> QWidget:
        city_field = self._city_field()
        self.start_edit = date_edit(self._today + timedelta(days=30))
        self.days_spin = spin(1, 30, 5, " days")
        self.days_spin.setToolTip(f"A city trip lasts {MIN_CITY_DAYS}\u2013{MAX_CITY_DAYS} days")
        self.end_label = plain(f"({MIN_CITY_DAYS}\u2013{MAX_CITY_DAYS})")
        self.end_label.setStyleSheet("color: #616161;")
        for signal in (self.start_edit.dateChanged, self.days_spin.valueChanged):
            signal.connect(self._update_end)
        self.home_combo = combo()
        self.home_combo.setEditable(True)
        self.home_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        for code in sorted(self._catalog.raw.airports):
            self.home_combo.addItem(f"{code} \u2014 {self._catalog.airport(code).name}", code)
        self.airports_list = QListWidget()
        self.budget_spin = QDoubleSpinBox()
        self.budget_spin.setRange(0, 10_000_000)
        self.budget_spin.setDecimals(0)
        self.budget_spin.setGroupSeparatorShown(True)
        self.budget_spin.setValue(DEFAULT_BUDGET_USD)
        self.currency_combo = QComboBox()
        self.currency_combo.addItems(CURRENCIES)
        self.redeye_check = QCheckBox("Avoid red-eye flights")
        self.pace_combo = combo()  # how full a day is (engine/models/visit_time.py)
        for pace, label in PACE_LABELS.items():
            self.pace_combo.addItem(label, pace)
        self.pace_combo.setCurrentIndex(self.pace_combo.findData("balanced"))
        form = QFormLayout()
        form.addRow("City", self._errors.wrap("city", city_field, self.city_combo))
        form.addRow("Start", self._errors.wrap("start", self.start_edit))
        form.addRow("Days", self._errors.wrap("days", hbox(self.days_spin, self.end_label), self.days_spin))
        form.addRow("Home airport", self._errors.wrap("origin_airport", self.home_combo))
        form.addRow("Fly into", self._errors.wrap("airports", self.airports_list))
        form.addRow("Budget", self._errors.wrap("budget", self.budget_spin))
        form.addRow("Currency", self._errors.wrap("currency", self.currency_combo))
        form.addRow("", self.redeye_check)
        form.addRow("Pace", self._errors.wrap("pace", self.pace_combo))
        self._city_changed(self.city_combo.currentText())
        self._update_end()
        return page(form)

    def _road_tab(self) -> QWidget:
        self.origin_edit = QLineEdit()
        self.origin_edit.setPlaceholderText("e.g. Los Angeles")
        self.terminus_edit = QLineEdit()
        self.terminus_edit.setPlaceholderText("e.g. Chicago")
        self.route_combo = combo()
        self.route_combo.addItem(NO_ROUTE, None)
        for route in self._routes:
            self.route_combo.addItem(route.name, route.name)
        self.road_days_spin = spin(MIN_ROAD_DAYS, MAX_ROAD_DAYS, 7, " days")
        self.road_start_edit = date_edit(self._today + timedelta(days=30))
        self.trip_type_combo = QComboBox()
        self.trip_type_combo.addItem("One way", "one_way")
        self.trip_type_combo.addItem("Round trip", "round_trip")
        self.max_miles_spin = spin(50, int(MAX_DAILY_MILES_LIMIT), int(DEFAULT_MAX_DAILY_MILES), " mi")
        self.max_miles_spin.setSingleStep(25)
        self.corridor_spin = spin(5, int(MAX_CORRIDOR_MILES_LIMIT), int(DEFAULT_CORRIDOR_MILES), " mi")
        self.corridor_spin.setSingleStep(5)
        self.corridor_spin.setToolTip("How far from the named route overnight stops may be")
        self.stops_edit = QPlainTextEdit()
        self.stops_edit.setPlaceholderText("One stop per line, e.g. Kingman, AZ")
        self.stops_edit.setFixedHeight(self.fontMetrics().lineSpacing() * 3 + 14)
        self.stops_edit.setTabChangesFocus(True)
        form = QFormLayout()
        form.addRow("Origin", self._errors.wrap("origin", self.origin_edit))
        form.addRow("Terminus", self._errors.wrap("terminus", self.terminus_edit))
        form.addRow("Route", self._errors.wrap("route", self.route_combo))
        form.addRow("Days", self._errors.wrap("road_days", self.road_days_spin))
        form.addRow("Start", self._errors.wrap("road_start", self.road_start_edit))
        form.addRow("Trip", self._errors.wrap("trip_type", self.trip_type_combo))
        form.addRow("Max a day", self._errors.wrap("max_daily_miles", self.max_miles_spin))
        form.addRow("Corridor", self._errors.wrap("corridor", self.corridor_spin))
        form.addRow("Stops", self._errors.wrap("stops", self.stops_edit))
        return page(form)

    def _preferences_box(self) -> QGroupBox:
        box = QGroupBox("Preferences")
        grid = QGridLayout()
        self.theme_checks: dict[str, QCheckBox] = {}
        for i, theme in enumerate(THEMES):
            check = QCheckBox(theme.replace("_", " "))
            self.theme_checks[theme] = check
            grid.addWidget(check, i // 3, i % 3)
        self.kid_check = QCheckBox("Kid-friendly")
        grid.addWidget(self.kid_check, len(THEMES) // 3 + 1, 0, 1, 2)
        self.travellers_spin = spin(1, 12, 1, " travelling")  # per-person costs scale; one room per two
        self.travellers_spin.setToolTip("Flights, admissions, meals and transit are per person; one room per two")
        grid.addWidget(self._errors.wrap("travellers", self.travellers_spin), len(THEMES) // 3 + 1, 2)
        holder = QWidget()
        holder.setLayout(grid)
        grid.setContentsMargins(0, 0, 0, 0)
        layout = QVBoxLayout(box)
        layout.addWidget(self._errors.wrap("themes", holder))
        return box

    # -- reactions --------------------------------------------------------------------
    def _update_end(self) -> None:
        end = self.start_edit.date().toPython() + timedelta(days=max(self.days_spin.value() - 1, 0))
        self.end_label.setText(f"until {fmt.day_label(end)}  ({MIN_CITY_DAYS}\u2013{MAX_CITY_DAYS} days)")

    def set_pace(self, pace: str) -> None:
        self.pace_combo.setCurrentIndex(max(0, self.pace_combo.findData(pace)))

    def set_home_airport(self, code: str | None) -> None:
        """Prefill the home airport (the user's setting); unknown codes are kept as typed."""
        if not code:
            self.home_combo.setCurrentIndex(-1)
            self.home_combo.setEditText("")
            return
        index = self.home_combo.findData(code.strip().upper())
        if index >= 0:
            self.home_combo.setCurrentIndex(index)
        else:
            self.home_combo.setEditText(code)

    @property
    def mode(self) -> str:
        return {self.MODE_ROAD: "road_trip", self.MODE_MULTI: "multi_city"}.get(self.tabs.currentIndex(), "city")

    def set_mode(self, mode: str) -> None:
        self.tabs.setCurrentIndex({"road_trip": self.MODE_ROAD, "multi_city": self.MODE_MULTI}.get(mode, self.MODE_CITY))

    def _visible_intent(self):
        """(intent or None, errors) of the visible tab."""
        return {"road_trip": self._road_intent, "multi_city": self._multi_intent}.get(self.mode, self._city_intent)()

    def reset(self, home_airport: str | None = None) -> None:
        """A blank form for a new trip: the defaults it opens with, no errors, no carried locks."""
        self.clear_errors()
        self._carried = None
        self.prompt_edit.clear()
        self.show_assumed(())
        self.city_combo.setCurrentIndex(0)
        self._city_changed(self.city_combo.currentText())
        self.start_edit.setDate(QDate(self._today + timedelta(days=30)))
        self.days_spin.setValue(5)
        self.set_home_airport(home_airport)
        self.budget_spin.setValue(DEFAULT_BUDGET_USD)
        self.currency_combo.setCurrentIndex(0)
        self.redeye_check.setChecked(False)
        self.set_pace("balanced")
        for line in (self.origin_edit, self.terminus_edit):
            line.clear()
        self.route_combo.setCurrentIndex(0)
        self.road_days_spin.setValue(7)
        self.road_start_edit.setDate(QDate(self._today + timedelta(days=30)))
        self.trip_type_combo.setCurrentIndex(0)
        self._show_miles(self.max_miles_spin, DEFAULT_MAX_DAILY_MILES)
        self._show_miles(self.corridor_spin, DEFAULT_CORRIDOR_MILES)
        self.stops_edit.clear()
        self._set_preferences([], False, 1)
        self._show_bookings(None, [])
        self.stay_list.set_trip(self._today + timedelta(days=30), [("", 3), ("", 2)], ["best"])
        self.set_mode("city")

    # -- distances (the user's unit on screen, miles in the intent) ---------------------------
    # Each spin's range and step in miles; shown in km they become round kilometre figures.
    _MILE_SPINS = {"max_miles_spin": (50, MAX_DAILY_MILES_LIMIT, 25),
                   "corridor_spin": (5, MAX_CORRIDOR_MILES_LIMIT, 5)}

    def set_distance_unit(self, unit: str) -> None:
        """Show the road tab's distances in ``unit`` ("mi" | "km"), keeping the values."""
        unit = fmt.check_distance_unit(unit)
        if unit == self._distance_unit:
            return
        miles = {name: self._spin_miles(getattr(self, name)) for name in self._MILE_SPINS}
        self._distance_unit = unit
        for name, (low, high, step) in self._MILE_SPINS.items():
            spin_box = getattr(self, name)
            spin_box.setSuffix(f" {unit}")
            spin_box.setRange(round(fmt.to_unit(low, unit)), int(fmt.to_unit(high, unit)))
            spin_box.setSingleStep(round(fmt.to_unit(step, unit)))
            self._show_miles(spin_box, miles[name])

    def _spin_miles(self, spin_box) -> float:
        return round(fmt.from_unit(float(spin_box.value()), self._distance_unit), 2)

    def _show_miles(self, spin_box, miles: float) -> None:
        spin_box.setValue(round(fmt.to_unit(miles, self._distance_unit)))

    # -- errors -----------------------------------------------------------------------
    def field_errors(self) -> dict[str, str]:
        return self._errors.shown()

    def error_label(self, key: str) -> QLabel:
        return self._errors.labels[key]

    def field_widget(self, key: str) -> QWidget:
        return self._errors.fields[key]

    def clear_errors(self) -> None:
        self._errors.clear()

    def _field_edited(self, key: str) -> None:
        """A field with an error was edited: its error goes once the field is right."""
        if key not in self._errors.shown():
            return
        _intent, errors = self._visible_intent()
        if key not in {k for k, _ in errors}:
            self._errors.hide(key)
            if not self._errors.shown():
                self.errors_cleared.emit()

    # -- intents ----------------------------------------------------------------------
    def current_intent(self) -> IntentV1 | RoadTripIntent:
        """The validated intent of the visible tab; raises InputError and shows every problem."""
        self.clear_errors()
        intent, errors = self._visible_intent()
        if intent is not None:
            errors = self._past_start(intent)
        if errors:
            self._errors.show(errors)
            raise InputError(*errors[0])
        return self._carry_hidden(intent)

    def _past_start(self, intent: IntentV1 | RoadTripIntent) -> list[tuple[str, str]]:
        """A trip starting before today is refused on its Start field, as the CLI refuses it
        (prices, hours and exchange rates are read as of today)."""
        try:
            check_not_past(intent, self._today)
        except InputError as exc:
            return [({"road_trip": "road_start", "multi_city": "stays"}.get(intent.mode, "start"), exc.message)]
        return []

    def request_plan(self) -> None:
        if not self.read_unread_prompt():
            return
        try:
            intent = self.current_intent()
        except InputError:
            return
        self.plan_requested.emit(intent)
