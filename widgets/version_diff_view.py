"""What a revision changed against the version before it: hotel, cost, then per day the visits
and meals added (+), removed (−) and moved in from another day (⇄). A pure view over
``engine.itinerary_diff.ItineraryDiff``; the diff itself is computed in the engine."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from engine.itinerary_diff import ItineraryDiff, day_lines, signed_usd

COLOURS = {"+": "#2e7d32", "\u2212": "#c62828", "\u21c4": "#1565c0"}


class VersionDiffView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.heading = QLabel("")
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setWordWrap(True)
        self.heading.setObjectName("diff_heading")
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(False)
        self.tree.setObjectName("diff_tree")
        layout.addWidget(self.heading)
        layout.addWidget(self.tree, 1)
        self.diff: ItineraryDiff | None = None
        self.show_nothing("Open a trip: what each new version changed shows here.")

    def show_nothing(self, why: str) -> None:
        self.diff = None
        self.heading.setText(why)
        self.tree.clear()

    def show_diff(self, diff: ItineraryDiff, from_number: int, to_number: int) -> None:
        self.diff = diff
        self.tree.clear()
        self.heading.setText(f"v{to_number} against v{from_number}")
        top = []
        if diff.day_count_before != diff.day_count_after:
            top.append(f"Days: {diff.day_count_before} \u2192 {diff.day_count_after}")
        if diff.hotel_changed:
            top.append(f"Hotel: {diff.hotel_before or 'none'} \u2192 {diff.hotel_after or 'none'}")
        else:
            top.append(f"Hotel unchanged: {diff.hotel_after or 'none'}")
        parts = ", ".join(f"{name} {signed_usd(delta)}" for name, delta in diff.cost_parts)
        top.append(f"Cost {signed_usd(diff.cost_delta_cents)}" + (f" ({parts})" if parts else ""))
        top += diff.lock_lines()  # a lock a re-plan lost is said, never silent (issue 22 §2.3)
        for text in top:
            self.tree.addTopLevelItem(QTreeWidgetItem([text]))
        for day in diff.days:
            item = QTreeWidgetItem([f"Day {day.day + 1}"])
            font = item.font(0)
            font.setBold(True)
            item.setFont(0, font)
            for line in day_lines(day):
                child = QTreeWidgetItem([line])
                child.setForeground(0, QBrush(QColor(COLOURS.get(line[:1], "#000000"))))
                item.addChild(child)
            self.tree.addTopLevelItem(item)
            item.setExpanded(True)
        if diff.unchanged:
            self.tree.addTopLevelItem(QTreeWidgetItem(["Nothing the traveller books changed."]))

    def lines(self) -> list[str]:
        """Every row as shown (tests and the status line read it)."""
        out = []
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            out.append(item.text(0))
            out.extend("  " + item.child(k).text(0) for k in range(item.childCount()))
        return out
