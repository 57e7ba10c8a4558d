"""The "Something changed…" dialog (issue 36 §2): what happened — a flight late, a place closed,
rain, done for today, skip a place, we are somewhere, a new booking — its value, and the moment to
re-plan from (the trip's clock). It only asks: the value is checked with the engine's own reader
(``engine.replan_now.parse_disruption``), a bad one said under the field and the dialog kept open;
the re-plan itself runs in the app, off the GUI thread."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QDateTime, QTime
from PySide6.QtWidgets import (QComboBox, QDateTimeEdit, QDialog, QDialogButtonBox, QFileDialog, QFormLayout,
                               QHBoxLayout, QLabel, QLineEdit, QPushButton, QSpinBox, QStackedWidget, QTimeEdit,
                               QVBoxLayout, QWidget)

from engine.errors import InputError
from engine.replan_now.disruption import MAX_LATE_MINUTES, parse_disruption

KINDS = (("late", "Our flight arrives late"), ("closed", "A place is closed today"),
         ("rain_from", "Rain is coming"), ("done_for_today", "We're done for today"),
         ("skip", "Skip a place"), ("at", "We're somewhere else"), ("bookings", "We booked something new"))
ROAD_LABELS = {"late": "We're leaving late", "closed": "A stop or tonight's beds are closed", "skip": "Skip a stop"}
ROAD_HINTS = {"late": "Minutes late. The day's stops and the night's arrival move later; sights on the way "
                      "give way when the night's town would be reached after 20:00.",
              "closed": "A stop gives way as a skipped one does (the drives around it become one); with no "
                        "beds in tonight's town, the night moves on to the next town within the day's miles.",
              "skip": "Taken out of the day's drive; the drives around it become one."}
HINTS = {"late": "Minutes late. What no longer fits that day moves to another day or is dropped; "
                 "locked visits and bookings stay.",
         "closed": "A near, open place of the same kind takes its time; the place itself goes to "
                   "another day when there is room.",
         "rain_from": "Outdoor visits after this time swap days with an indoor one, or an indoor "
                      "place nearby takes their time.",
         "done_for_today": "The rest of today's visits and meals end now (a sight moves to another "
                           "day when there is room); bookings stay.",
         "skip": "Taken out of the plan; nothing else moves.",
         "at": "Where you are now, as latitude,longitude: the next visit starts once you can be there.",
         "bookings": "A confirmation (e-mail, web page or calendar file) for an event: it is locked in "
                     "at its time and what it overlaps gives way; for a new flight home: the last day "
                     "is shortened or lengthened around it."}


class SomethingChangedDialog(QDialog):
    """``places``: the names of the visits still ahead (offered for "closed" and "skip");
    ``now``: the moment offered, on the trip's clock; ``kinds``: the changes offered (a road trip
    takes a late start and a skipped stop), all by default."""

    def __init__(self, parent: QWidget | None, places: list[str], now: datetime,
                 kinds: tuple[str, ...] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Something changed")
        self.setObjectName("somethingChanged")
        self.kind = QComboBox()
        self.hints = {**HINTS, **ROAD_HINTS} if kinds is not None else HINTS
        for key, label in KINDS:
            if kinds is None or key in kinds:
                self.kind.addItem(ROAD_LABELS.get(key, label) if kinds is not None else label, key)
        self.late = QSpinBox()
        self.late.setRange(5, MAX_LATE_MINUTES)
        self.late.setSingleStep(15)
        self.late.setValue(60)
        self.late.setSuffix(" min")
        self.closed, self.skip = self._places(places), self._places(places)
        self.rain = QTimeEdit(QTime(14, 0))
        self.rain.setDisplayFormat("HH:mm")
        self.at = QLineEdit()
        self.at.setPlaceholderText("48.8606,2.3376")
        self.booking = QLineEdit()
        self.booking.setPlaceholderText("a confirmation e-mail (.eml), web page or .ics file")
        browse = QPushButton("Choose\u2026")
        browse.clicked.connect(self._browse)
        booking_row = QWidget()
        row = QHBoxLayout(booking_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.booking, 1)
        row.addWidget(browse)
        self.values = QStackedWidget()
        self.inputs = {"late": self.late, "closed": self.closed, "rain_from": self.rain,
                       "done_for_today": QLabel("(nothing to add)"), "skip": self.skip, "at": self.at,
                       "bookings": booking_row}
        for key, _label in KINDS:
            self.values.addWidget(self.inputs[key])
        self.now = QDateTimeEdit(QDateTime(now.date(), QTime(now.hour, now.minute)))
        self.now.setDisplayFormat("ddd d MMM yyyy  HH:mm")
        self.now.setCalendarPopup(True)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet("color: palette(mid);")
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b3261e;")
        self.error.hide()
        form = QFormLayout()
        form.addRow("What happened", self.kind)
        form.addRow("Details", self.values)
        form.addRow("From", self.now)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.ok = buttons.addButton("Re-plan from now", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.hint)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self._kind_changed()
        self.setMinimumWidth(460)

    @staticmethod
    def _places(names: list[str]) -> QComboBox:
        box = QComboBox()
        box.setEditable(True)
        box.addItems(names)
        box.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        return box

    def _kind_changed(self) -> None:
        key = self.kind.currentData()
        self.values.setCurrentWidget(self.inputs[key])
        self.hint.setText(self.hints[key])
        self.error.hide()

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "A booking made during the trip", "",
                                              "Confirmations (*.eml *.html *.htm *.ics);;All files (*)")
        if path:
            self.booking.setText(path)

    def value(self) -> str | None:
        key = self.kind.currentData()
        return {"late": str(self.late.value()), "closed": self.closed.currentText(),
                "rain_from": self.rain.time().toString("HH:mm"), "done_for_today": None,
                "skip": self.skip.currentText(), "at": self.at.text(), "bookings": self.booking.text()}[key]

    def choice(self) -> tuple[str, str | None, datetime]:
        """(kind, value as typed, the moment on the trip's clock)."""
        moment = self.now.dateTime().toPython()
        return self.kind.currentData(), self.value(), moment.replace(second=0, microsecond=0)

    def set_kind(self, key: str) -> None:
        self.kind.setCurrentIndex(self.kind.findData(key))

    def _accept(self) -> None:
        kind, value, _now = self.choice()
        try:
            parse_disruption(kind, value, field="details")
        except InputError as exc:
            self.error.setText(exc.message)
            self.error.show()
            return
        self.accept()

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.show()


__all__ = ["KINDS", "SomethingChangedDialog"]
