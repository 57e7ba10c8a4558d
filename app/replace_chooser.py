"""A small non-modal chooser: replace a visit with one of its ranked alternatives, each listed
with what it changes: the plan's cost as the plan will then have it (``app.map_edits.alternatives``
prices the replaced plan through ``engine.costs``; "about" when the day must be re-fitted around
it), and the travel time."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QLabel, QListWidget, QListWidgetItem, QVBoxLayout,
                               QWidget)

from .map_edits import Alternative
from .version_diff import signed_usd


def describe(alternative: Alternative) -> str:
    cost = signed_usd(alternative.cost_delta_cents)
    parts = [f"cost {cost}" if alternative.exact else f"cost about {cost}: the day is re-fitted around it"]
    if alternative.travel_delta_s is not None:
        minutes = round(alternative.travel_delta_s / 60)
        sign = "+" if minutes > 0 else "\u2212" if minutes < 0 else "\u00b1"
        parts.append(f"travel {sign}{abs(minutes)} min")
    return f"{alternative.label}  ({', '.join(parts)})"


class ReplaceChooser(QDialog):
    """Shown with ``show()`` (never ``exec()``); emits ``chosen(activity_id, venue_id)``."""

    chosen = Signal(str, str)

    def __init__(self, activity_id: str, label: str, options: list[Alternative], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.activity_id = activity_id
        self.setWindowTitle("Replace with an alternative")
        self.setModal(False)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        heading = QLabel(f"Replace {label} with:")
        heading.setTextFormat(Qt.TextFormat.PlainText)
        heading.setWordWrap(True)
        self.list = QListWidget()
        for option in options:
            item = QListWidgetItem(describe(option))
            item.setToolTip(describe(option))
            item.setData(Qt.ItemDataRole.UserRole, option.venue_id)
            self.list.addItem(item)
        self.list.setCurrentRow(0)
        self.list.itemDoubleClicked.connect(lambda _item: self.accept())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Replace")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(self.list, 1)
        layout.addWidget(buttons)
        self.resize(self._fitting_width(), 240)

    def _fitting_width(self) -> int:
        """Wide enough for the longest option (each names its cost and travel change at the end),
        up to most of the screen."""
        screen = self.screen().availableGeometry().width() if self.screen() is not None else 1280
        needed = self.list.sizeHintForColumn(0) + 2 * self.list.frameWidth() + 48  # margins, scroll bar
        return max(420, min(needed, int(screen * 0.8)))

    def choose(self, row: int) -> None:
        self.list.setCurrentRow(row)
        self.accept()

    def accept(self) -> None:
        item = self.list.currentItem()
        super().accept()
        if item is not None:
            self.chosen.emit(self.activity_id, item.data(Qt.ItemDataRole.UserRole))
