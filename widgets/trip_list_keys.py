"""The trip list's keys: Enter opens, Delete deletes, Ctrl+Z undoes a deletion while the Undo bar
is up, Up/Down in the search box move through the results. A mixin of ``TripListPanel``."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence


class TripListKeys:
    def event(self, event: QEvent) -> bool:
        """Claim the panel's keys before window-wide shortcuts see them (a main-window Ctrl+Z
        means "undo the itinerary edit"; inside this panel, with the bar up, it means Undo)."""
        if event.type() == QEvent.Type.ShortcutOverride and self._owns_key(event):
            event.accept()
            return True
        return super().event(event)

    def _owns_key(self, event: QKeyEvent) -> bool:
        if event.matches(QKeySequence.StandardKey.Undo):
            return self._undo_trip is not None
        on_table = self.focusWidget() is self.table
        if event.key() == Qt.Key.Key_Delete:
            return on_table
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            return on_table or self.focusWidget() is self.search
        return False

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Keys the focused child left alone: Enter opens, Delete deletes, Ctrl+Z undoes a
        deletion, Up/Down in the search box move through the results."""
        focus = self.focusWidget()
        if event.matches(QKeySequence.StandardKey.Undo) and self._undo_trip is not None:
            self.undo_delete()
        elif event.key() == Qt.Key.Key_Delete and focus is self.table:
            self.delete_selected()
        elif event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and focus in (self.table, self.search):
            if self.selected_trip_id() is None:
                self.select_trip(self.proxy.trip_id_at(0))
            self.open_selected()
        elif event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down) and focus is self.search:
            self._step_selection(-1 if event.key() == Qt.Key.Key_Up else 1)
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def _step_selection(self, step: int) -> None:
        current = self._proxy_index(self.selected_trip_id())
        row = current.row() + step if current.isValid() else 0
        row = max(0, min(row, self.proxy.rowCount() - 1))
        self.select_trip(self.proxy.trip_id_at(row))
