"""The trip list's Undo bar: a deleted trip's row goes at once and the bar offers it back for a
while (until the timeout or the next deletion). A mixin of ``TripListPanel``, which asks the owner
through ``restore_requested``."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton

from engine.store.records import TripSummary

from . import formatting as fmt

_BAR_NAME_CHARS = 60  # longer names are shortened in the undo bar (the tooltip has them whole)


def deleted_text(name: str) -> str:
    short = name if len(name) <= _BAR_NAME_CHARS else name[:_BAR_NAME_CHARS - 1].rstrip() + "\u2026"
    return f"Deleted \u201c{short}\u201d."


def plain_label(text: str = "", *, object_name: str = "") -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
    if object_name:
        label.setObjectName(object_name)
    return label


class DeleteUndoBar:
    def _build_undo_bar(self) -> QFrame:
        bar = self.undo_bar = QFrame()
        bar.setObjectName("trip_undo_bar")
        bar.setFrameShape(QFrame.Shape.StyledPanel)
        bar.setStyleSheet("#trip_undo_bar { background: #fff8e1; border: 1px solid #ffe082; border-radius: 4px; }")
        self.undo_label = plain_label(object_name="trip_undo_label")
        self.undo_label.setWordWrap(True)
        self.undo_button = QPushButton("Undo")
        self.undo_button.setToolTip("Bring the trip back (Ctrl+Z)")
        self.undo_close = QToolButton()
        self.undo_close.setText("\u00d7")
        self.undo_close.setAutoRaise(True)
        self.undo_close.setToolTip("Dismiss")
        row = QHBoxLayout(bar)
        row.setContentsMargins(8, 4, 4, 4)
        row.addWidget(self.undo_label, 1)
        row.addWidget(self.undo_button)
        row.addWidget(self.undo_close)
        bar.hide()
        return bar

    def show_deleted(self, trip: TripSummary) -> None:
        """The owner deleted ``trip``: drop its row and offer Undo for a while (until the
        timeout or the next deletion, which replaces the offer)."""
        self.model.remove_trip(trip.trip_id)
        self._undo_trip = trip
        self.undo_label.setText(deleted_text(trip.name))
        self.undo_label.setToolTip(fmt.plain_tooltip(trip.name))
        self.undo_bar.show()
        self._undo_timer.start()

    @property
    def pending_undo(self) -> str | None:
        """The trip the Undo bar would restore, or None when no bar is showing."""
        return self._undo_trip.trip_id if self._undo_trip is not None else None

    def undo_delete(self) -> None:
        """Ask for the last deleted trip back; the owner restores it and hands in the list."""
        trip = self._undo_trip
        self.dismiss_undo()
        if trip is not None:
            self.restore_requested.emit(trip.trip_id)

    def dismiss_undo(self) -> None:
        self._undo_timer.stop()
        self._undo_trip = None
        self.undo_bar.hide()
