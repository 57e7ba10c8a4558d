"""A date field that takes a typed date whole (issue 32 §3).

A plain ``QDateEdit`` edits one section at a time: "2027-06-08" typed with the year selected became
2026-06-08 or 2027-12-06, depending on where the cursor happened to be. Here the keys still go to
the sections as they are typed (arrows, a day typed into the day section and the calendar work as
before), and when what was typed since the field took the focus reads as a whole date — ``2027-06-08``,
``2027-6-8``, ``2027/06/08`` — that date is the field's: at once when it is complete, else on Enter or
when the focus leaves.
"""

from __future__ import annotations

import re
from datetime import date

from PySide6.QtCore import QDate, Qt
from PySide6.QtGui import QFocusEvent, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QDateEdit

_WHOLE = re.compile(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})")
_TYPED = re.compile(r"[\d/.-]")
_COMMIT_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Tab, Qt.Key.Key_Backtab)


def whole_date(text: str) -> date | None:
    """``text`` as a calendar date when it is one written year first; else None."""
    found = _WHOLE.fullmatch(text.strip())
    if found is None:
        return None
    try:
        return date(*(int(part) for part in found.groups()))
    except ValueError:
        return None


class WholeDateEdit(QDateEdit):
    """``QDateEdit`` (``yyyy-MM-dd``, calendar popup) that takes a typed date whole."""

    def __init__(self, value: date) -> None:
        super().__init__(QDate(value))
        self.setCalendarPopup(True)
        self.setDisplayFormat("yyyy-MM-dd")
        self._typed = ""

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 — Qt's name
        key, text = event.key(), event.text()
        if key in _COMMIT_KEYS:
            self._take_typed()
        elif key == Qt.Key.Key_Backspace:
            self._typed = self._typed[:-1]
        elif key == Qt.Key.Key_Escape or not (text and _TYPED.fullmatch(text)):
            self._typed = ""  # arrows, page keys: editing by section, as before
        super().keyPressEvent(event)
        if text and _TYPED.fullmatch(text):
            self._typed += text
            if len(self._typed) == len("2027-06-08"):
                self._take_typed()

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802
        self._typed = ""
        super().focusInEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802
        self._take_typed()
        super().focusOutEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        self._typed = ""  # a click starts a new entry (or picks a section)
        super().mousePressEvent(event)

    def _take_typed(self) -> None:
        typed, self._typed = self._typed, ""
        found = whole_date(typed)
        if found is not None:
            self.setDate(QDate(found))
