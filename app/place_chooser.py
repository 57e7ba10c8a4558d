"""A non-modal picker for an ambiguous road-trip end (issue 12 §1) or city trip's city: each
candidate with its region, country and how sure the gazetteer is (a city: its population); the
chosen one is planned."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHeaderView, QLabel, QTreeWidget, QTreeWidgetItem,
                               QVBoxLayout, QWidget)

from .place_choice import PlaceQuestion

COLUMNS = ("Place", "State / region, country", "Confidence")
_WHAT = {"origin": "start", "terminus": "destination", "city": "city"}


class PlaceChooser(QDialog):
    """Shown with ``show()`` (never ``exec()``); emits ``chosen(option)`` or ``declined()``."""

    chosen = Signal(object)
    declined = Signal()

    def __init__(self, question: PlaceQuestion, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.question = question
        self.setWindowTitle("Which place did you mean?")
        self.setModal(False)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.heading = QLabel(self._heading_text())
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setWordWrap(True)
        self.list = QTreeWidget()
        self.list.setRootIsDecorated(False)
        self.list.setHeaderLabels([*COLUMNS[:2], question.detail_header])
        for option in question.options:
            item = QTreeWidgetItem([option.name, option.region, option.detail or f"{option.confidence:.0%}"])
            item.setTextAlignment(2, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            item.setToolTip(0, f"{option.written} ({option.lat:.3f}, {option.lon:.3f})")
            self.list.addTopLevelItem(item)
        self.list.setStyleSheet("QTreeView::item { padding: 3px 10px 3px 2px; }")
        header = self.list.header()
        header.setStretchLastSection(False)
        for column, mode in enumerate((QHeaderView.ResizeMode.ResizeToContents, QHeaderView.ResizeMode.Stretch,
                                       QHeaderView.ResizeMode.ResizeToContents)):
            header.setSectionResizeMode(column, mode)
        self.list.setCurrentItem(self.list.topLevelItem(0))
        self.list.itemDoubleClicked.connect(lambda *_: self.accept())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Plan with this place")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.list, 1)
        layout.addWidget(buttons)
        self.resize(520, self._fitting_height())

    def _fitting_height(self) -> int:
        """Every row visible (at most eight), under the heading and the buttons."""
        rows = min(len(self.question.options), 8)
        row = max(self.list.sizeHintForRow(0), 18)
        heading = self.heading.heightForWidth(496) if self.heading.hasHeightForWidth() else 40
        return heading + self.list.header().sizeHint().height() + rows * row + 90

    def _heading_text(self) -> str:
        q = self.question
        lead = f"{q.why}\n\n" if q.why else ""
        return (f"{lead}\u201c{q.query}\u201d, the trip's {_WHAT.get(q.field, q.field)}, names several places. "
                "Which one did you mean?")

    def options(self) -> list[tuple[str, str, str]]:
        """What the list shows, row by row (name, region, confidence)."""
        return [tuple(self.list.topLevelItem(k).text(c) for c in range(3)) for k in range(self.list.topLevelItemCount())]

    def choose(self, row: int) -> None:
        self.list.setCurrentItem(self.list.topLevelItem(row))
        self.accept()

    def accept(self) -> None:
        row = self.list.indexOfTopLevelItem(self.list.currentItem()) if self.list.currentItem() else -1
        super().accept()
        if 0 <= row < len(self.question.options):
            self.chosen.emit(self.question.options[row])

    def reject(self) -> None:
        super().reject()
        self.declined.emit()
