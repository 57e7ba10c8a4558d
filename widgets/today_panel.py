"""The Today panel (issue 36 §1): a trip under way at a glance — what is now, what is next, when to
leave for it and how, whether it is open, the day's weather and the booking codes of today's
flight or hotel. A pure view over ``engine.models.today.TodayV1`` in the words of
``engine/today_words.py`` (the ones ``tripwright today`` prints); the app decides when it shows
and which clock it reads. Names come from data: every label is plain text, never markup."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFormLayout, QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from engine.models.today import TodayV1
from engine.today_words import heading, today_lines

EMPHASISED = ("Now", "Next", "Leave at")  # the three a traveller looks for first
NOT_SHOWN = ("Map",)  # the map itself shows the day


def _label(text: str = "", name: str = "") -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)  # a code can be copied
    if name:
        label.setObjectName(name)
    return label


class TodayPanel(QWidget):
    show_day_requested = Signal(int)  # the day's index: show it alone on the map
    itinerary_requested = Signal()  # "Whole itinerary": the Itinerary tab

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("today_panel")
        self.today: TodayV1 | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        layout.setSpacing(8)
        self.heading = _label("", "today_heading")
        font = self.heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        self.heading.setFont(font)
        layout.addWidget(self.heading)
        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        line.setFrameShadow(QFrame.Shadow.Sunken)
        layout.addWidget(line)
        self.form = QFormLayout()
        self.form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        self.form.setVerticalSpacing(10)
        layout.addLayout(self.form)
        buttons = QHBoxLayout()
        self.day_button = QPushButton("Show today on the map")
        self.day_button.clicked.connect(self._show_day)
        self.itinerary_button = QPushButton("Whole itinerary")
        self.itinerary_button.clicked.connect(self.itinerary_requested)
        buttons.addWidget(self.day_button)
        buttons.addWidget(self.itinerary_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        layout.addStretch(1)
        self._rows: list[tuple[str, str]] = []

    def set_today(self, today: TodayV1 | None) -> None:
        self.today = today
        while self.form.rowCount():
            self.form.removeRow(0)
        self._rows = []
        if today is None:
            self.heading.setText("")
            self.day_button.setEnabled(False)
            return
        self.heading.setText(heading(today))
        for label, text in today_lines(today):
            if label in NOT_SHOWN:
                continue
            name = _label(label, f"today_{label.lower().replace(' ', '_')}_label")
            value = _label(text, f"today_{label.lower().replace(' ', '_')}")
            if label in EMPHASISED:
                for widget in (name, value):
                    font = widget.font()
                    font.setBold(True)
                    widget.setFont(font)
            self.form.addRow(name, value)
            self._rows.append((label, text))
        self.day_button.setEnabled(today.day_index is not None)

    def rows(self) -> list[tuple[str, str]]:
        """(label, text) of every row shown, in order."""
        return list(self._rows)

    def _show_day(self) -> None:
        if self.today is not None and self.today.day_index is not None:
            self.show_day_requested.emit(self.today.day_index)
