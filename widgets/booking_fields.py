"""The pieces of the trip form's "I already have" section (``widgets/intent_bookings.py``): one
flight's inputs, the wall-clock date-time edits (an airport's clock, never this computer's), and
the small parsers and widget factories the section shares."""

from __future__ import annotations

import re
from datetime import date, datetime, time
from decimal import Decimal, InvalidOperation
from zoneinfo import ZoneInfo

from PySide6.QtCore import QDate, QDateTime, QTime, QTimeZone
from PySide6.QtWidgets import QDateTimeEdit, QHBoxLayout, QLabel, QLineEdit, QWidget

from engine.errors import InputError
from engine.models.bookings import BookedFlight

from .intent_fields import plain

NOTE_STYLE = "color: #616161;"
FLIGHT_NUMBER = re.compile(r"^[A-Z0-9]{2}\s?\d{1,4}[A-Z]?$")
GEO_TEXT = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*[,;\s]\s*(-?\d+(?:\.\d+)?)\s*$")
# Blank rows follow the trip's dates: a flight there on the first day, back on the last.
THERE_TIMES, BACK_TIMES = (time(8, 0), time(12, 0)), (time(16, 0), time(20, 0))


class FlightRows:
    """One booked flight's inputs: airline, number, the two airports, local departure and arrival."""

    def __init__(self, key: str) -> None:
        self.key = key  # "out" | "back"
        self.airline = QLineEdit()
        self.airline.setPlaceholderText("Airline, e.g. Air France")
        self.number = QLineEdit()
        self.number.setPlaceholderText("AF 23" if key == "out" else "AF 22")
        self.number.setMaxLength(8)
        self.number.setFixedWidth(self.number.fontMetrics().horizontalAdvance("AF 1234X") + 24)
        self.origin, self.dest = iata_edit("JFK" if key == "out" else "CDG"), iata_edit("CDG" if key == "out"
                                                                                            else "JFK")
        self.departs, self.lands = datetime_edit(), datetime_edit()
        self.departs_at, self.lands_at = note_label(clock_of("departs", "")), note_label(clock_of("lands", ""))
        self.origin.textChanged.connect(lambda text: self.departs_at.setText(clock_of("departs", text)))
        self.dest.textChanged.connect(lambda text: self.lands_at.setText(clock_of("lands", text)))
        self.shown: BookedFlight | None = None  # the booking last shown here (kept when unchanged)

    def entered(self) -> bool:
        return any(e.text().strip() for e in (self.airline, self.number, self.origin, self.dest))

    def clear(self, day: date, times: tuple[time, time]) -> None:
        for edit in (self.airline, self.number, self.origin, self.dest):
            edit.clear()
        self.follow(day, times)
        self.shown = None

    def follow(self, day: date, times: tuple[time, time]) -> None:
        set_wall_time(self.departs, datetime.combine(day, times[0]))
        set_wall_time(self.lands, datetime.combine(day, times[1]))

    def show(self, flight: BookedFlight) -> None:
        """A booked flight as it is: each end is on its airport's clock already (the booking's own
        offset), so showing it looks no airport up."""
        self.airline.setText(flight.carrier)
        self.number.setText(flight.flight_number)
        self.origin.setText(flight.origin)
        self.dest.setText(flight.dest)
        set_wall_time(self.departs, flight.departure.replace(tzinfo=None))
        set_wall_time(self.lands, flight.arrival.replace(tzinfo=None))
        self.shown = flight

    def unchanged(self) -> bool:
        """The rows still say what was shown (then the booking goes back as it was: its price,
        confirmation and source kept, no airport looked up)."""
        f = self.shown
        return f is not None and (
            " ".join(self.airline.text().split()), " ".join(self.number.text().split()).upper(),
            self.origin.text().strip().upper(), self.dest.text().strip().upper(), wall_time(self.departs),
            wall_time(self.lands)) == (f.carrier, f.flight_number, f.origin, f.dest,
                                       f.departure.replace(tzinfo=None, second=0, microsecond=0),
                                       f.arrival.replace(tzinfo=None, second=0, microsecond=0))


def row_of_error(exc: InputError, keys: list[str]) -> str:
    """The row an engine booking error is about: ``bookings.flights[i]`` → that flight's row."""
    found = re.match(r"bookings\.flights\[(\d+)\]", exc.field)
    if found and int(found.group(1)) < len(keys):
        return f"{keys[int(found.group(1))]}_{'airports' if 'neither' in exc.message else 'times'}"
    if exc.field.startswith("bookings.flights"):
        return f"{keys[-1] if keys else 'back'}_airports"
    if exc.field.startswith("bookings.hotel.geo"):
        return "hotel_geo"
    return "hotel_dates"


def has_error(errors: list[tuple[str, str]], key: str) -> bool:
    return any(k == key for k, _ in errors)


def iata_edit(example: str) -> QLineEdit:
    edit = QLineEdit()
    edit.setPlaceholderText(example)
    edit.setMaxLength(3)
    edit.textEdited.connect(lambda text: _upper(edit, text))
    edit.setFixedWidth(edit.fontMetrics().horizontalAdvance("WWWW") + 16)
    return edit


def _upper(edit: QLineEdit, text: str) -> None:
    """IATA codes in capitals as they are typed (the cursor stays where it was)."""
    if text != text.upper():
        at = edit.cursorPosition()
        edit.setText(text.upper())
        edit.setCursorPosition(at)


def datetime_edit() -> QDateTimeEdit:
    edit = QDateTimeEdit()
    edit.setDisplayFormat("yyyy-MM-dd HH:mm")
    edit.setCalendarPopup(True)
    edit.setTimeZone(QTimeZone(QTimeZone.Initialization.UTC))  # a wall clock: no DST gap of this computer's zone
    return edit


def set_wall_time(edit: QDateTimeEdit, wall: datetime) -> None:
    """Show ``wall`` (naive: the airport's clock) as it is."""
    edit.setDateTime(QDateTime(QDate(wall.date()), QTime(wall.hour, wall.minute),
                               QTimeZone(QTimeZone.Initialization.UTC)))


def wall_time(edit: QDateTimeEdit) -> datetime:
    value = edit.dateTime()
    return datetime.combine(value.date().toPython(), value.time().toPython()).replace(second=0, microsecond=0)


def note_label(text: str) -> QLabel:
    label = plain(text)
    label.setStyleSheet(NOTE_STYLE)
    return label


def heading(text: str) -> QLabel:
    label = plain(text)
    label.setStyleSheet("font-weight: bold; margin-top: 4px;")
    return label


def side_by_side(*widgets: QWidget) -> QWidget:
    """Widgets side by side, the first one taking the room left."""
    holder = QWidget()
    row = QHBoxLayout(holder)
    row.setContentsMargins(0, 0, 0, 0)
    for i, widget in enumerate(widgets):
        row.addWidget(widget, 1 if i == 0 else 0)
    return holder


def clock_of(what: str, code: str) -> str:
    """"departs, JFK time": the times are the airport's own clock."""
    code = code.strip().upper()
    return f"{what}, {code} time" if len(code) == 3 else f"{what}, local time"


def aware_time(edit: QDateTimeEdit, zone: str) -> datetime:
    return wall_time(edit).replace(tzinfo=ZoneInfo(zone))


def usd_cents(text: str, errors: list[tuple[str, str]]) -> int | None:
    text = text.strip().removeprefix("$").strip()
    if not text:
        return None
    try:
        amount = Decimal(text)
    except InvalidOperation:
        amount = Decimal(-1)
    if not amount.is_finite() or amount < 0:
        errors.append(("hotel_price", "give the whole stay's price in USD (e.g. 980), or leave it empty"))
        return None
    return int((amount * 100).to_integral_value())


def degrees(value: float) -> str:
    return f"{value:.6f}".rstrip("0").rstrip(".")


def near(a, b) -> bool:
    return abs(a.lat - b["lat"]) < 1e-5 and abs(a.lon - b["lon"]) < 1e-5
