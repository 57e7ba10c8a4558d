"""The itinerary panel's side area: cost breakdown, advisories, repair diffs, decisions, sources.

Everything is plain text: labels are ``Qt.PlainText`` and list items are never interpreted.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QAbstractItemView, QFrame, QGridLayout, QLabel, QListWidget, QListWidgetItem,
                               QProgressBar, QVBoxLayout, QWidget)

from engine.models import Citation, Decision, ItineraryV1, RepairDiff, Violation

from . import formatting as fmt

BLOCKING_COLOUR = "#c62828"
TIGHT_COLOUR = "#b26a00"  # under budget by less than 10%: prices may slip


def plain_label(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def violation_text(v: Violation) -> str:
    tag = "Blocking" if v.blocking else "Advisory"
    where = "whole trip" if v.node_ref == "trip" else v.node_ref
    return f"{tag} \u00b7 {v.kind.value.replace('_', ' ')} ({where}): {v.details.get('message', v.reason)}"


def repair_text(diff: RepairDiff) -> str:
    moves = "; ".join(f"{m.move_type.value} {m.old_value} \u2192 {m.new_value}" for m in diff.moves) or "no move"
    reasons = "; ".join(m.reason for m in diff.moves if m.reason)
    lines = [f"Cycle {diff.cycle}: {moves}",
             f"\u0394 {fmt.money_delta(diff.delta_usd_cents)} \u00b7 \u0394 {fmt.minutes_delta(diff.delta_minutes)}"
             f" \u00b7 violations {diff.violations_before} \u2192 {diff.violations_after}"]
    return "\n".join(lines + ([reasons] if reasons else []))


def decision_text(d: Decision) -> str:
    alts = f"{d.alternatives_considered} alternative{'s' if d.alternatives_considered != 1 else ''}"
    return f"{d.node} \u2192 {d.selected} ({alts}): {d.rationale}"


def citation_text(c: Citation) -> str:
    p = c.provenance
    cached = ", cached" if p.cache_hit else ""
    return f"{c.claim} \u2014 {p.tool} ({p.data_source}{cached})"


class CostSummary(QWidget):
    """The cost breakdown, and for city trips the total against the budget."""

    ROWS = (("flights", "Flights"), ("lodging", "Lodging"), ("attractions", "Attractions"), ("meals", "Meals"),
            ("transit", "Transit"), ("daily_spend", "Daily allowance"))

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        grid = QGridLayout()
        grid.setColumnStretch(0, 1)
        grid.setHorizontalSpacing(16)
        self.names: dict[str, QLabel] = {}
        self.values: dict[str, QLabel] = {}
        for row, (key, name) in enumerate(self.ROWS + (("total", "Total"), ("budget", "Budget"), ("left", "Left"))):
            self.names[key], self.values[key] = plain_label(name), plain_label("")
            self.values[key].setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.values[key].setObjectName(f"cost_{key}")
            grid.addWidget(self.names[key], row if row < len(self.ROWS) else row + 1, 0)
            grid.addWidget(self.values[key], row if row < len(self.ROWS) else row + 1, 1)
        rule = QFrame()
        rule.setFrameShape(QFrame.Shape.HLine)
        rule.setFrameShadow(QFrame.Shadow.Sunken)
        grid.addWidget(rule, len(self.ROWS), 0, 1, 2)
        for key in ("total",):
            self.names[key].setStyleSheet("font-weight: bold;")
            self.values[key].setStyleSheet("font-weight: bold;")
        self.budget_bar = QProgressBar()
        self.budget_bar.setRange(0, 100)
        self.budget_bar.setFormat("%p% of budget")
        self.note = plain_label("")
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: #616161;")
        self.citations = plain_label("")
        self.citations.setObjectName("citations_count")
        layout = QVBoxLayout(self)
        layout.addLayout(grid)
        layout.addWidget(self.budget_bar)
        layout.addWidget(self.citations)
        layout.addWidget(self.note)
        layout.addStretch(1)

    def set_itinerary(self, itinerary: ItineraryV1 | None) -> None:
        cost = itinerary.cost_breakdown if itinerary else None
        road = itinerary is not None and itinerary.intent.mode == "road_trip"
        self.names["transit"].setText("Fuel" if road else "Transit")
        self.names["daily_spend"].setText("Meals" if road else "Daily allowance")
        estimated = set(cost.estimated_parts) if cost else set()
        for key, _ in self.ROWS + (("total", ""),):
            text = fmt.money(getattr(cost, f"{key}_usd_cents")) if cost else ""
            # an estimated line (no published price: an OSM city, an estimated flight) says so
            self.values[key].setText(f"{text} (est.)" if key in estimated and text else text)
            self.values[key].setToolTip("estimated: no published price" if key in estimated else "")
        for key in ("flights", "attractions", "meals"):
            hide = road and cost is not None and getattr(cost, f"{key}_usd_cents") == 0
            self.names[key].setVisible(not hide)
            self.values[key].setVisible(not hide)
        self._set_budget(itinerary if itinerary and not road else None)
        if itinerary is None:
            self.citations.setText("")
        else:
            self.citations.setText(f"{len(itinerary.citations)} citation(s) \u2014 see Sources")
        self._note = cost.currency_disclaimer if cost else ""
        self.note.setText(fmt.distances_in_text(self._note, self.distance_unit))

    distance_unit = "mi"
    _note = ""

    def set_distance_unit(self, unit: str) -> None:
        self.distance_unit = fmt.check_distance_unit(unit)
        self.note.setText(fmt.distances_in_text(self._note, unit))

    def _set_budget(self, itinerary: ItineraryV1 | None) -> None:
        for key in ("budget", "left"):
            self.names[key].setVisible(itinerary is not None)
            self.values[key].setVisible(itinerary is not None)
        self.budget_bar.setVisible(itinerary is not None)
        if itinerary is None:
            return
        budget, total = itinerary.intent.budget_usd_cents, itinerary.cost_breakdown.total_usd_cents
        over = total > budget
        self.values["budget"].setText(fmt.money(budget))
        self.names["left"].setText("Over budget by" if over else "Left")
        self.values["left"].setText(fmt.money(abs(budget - total)))
        tight = not over and (budget - total) < budget * 0.1
        self.values["left"].setStyleSheet(f"color: {BLOCKING_COLOUR};" if over else
                                          f"color: {TIGHT_COLOUR};" if tight else "")
        self.budget_bar.setValue(min(100, round(100 * total / budget)) if budget else 0)
        self.budget_bar.setFormat(f"{fmt.percent(total, budget)} of budget")


class DetailLists:
    """Four plain-text lists shown as tabs: advisories, repairs, decisions, sources."""

    def __init__(self) -> None:
        self.distance_unit = "mi"
        self._itinerary: ItineraryV1 | None = None
        self.advisories = _list("advisories")
        self.repairs = _list("repairs")
        self.decisions = _list("decisions")
        self.sources = _list("sources")

    def tabs(self) -> list[tuple[str, QListWidget]]:
        return [(f"Advisories ({self.advisories.count()})", self.advisories),
                (f"Repairs ({self.repairs.count()})", self.repairs),
                (f"Decisions ({self.decisions.count()})", self.decisions),
                (f"Sources ({self.sources.count()})", self.sources)]

    def set_distance_unit(self, unit: str) -> None:
        """The engine's prose says miles: shown in the user's unit (issue 22 §2.5)."""
        if unit != self.distance_unit:
            self.distance_unit = fmt.check_distance_unit(unit)
            self.set_itinerary(self._itinerary)

    def set_itinerary(self, itinerary: ItineraryV1 | None) -> None:
        self._itinerary = itinerary
        unit = self.distance_unit
        violations = sorted(itinerary.violations if itinerary else [], key=lambda v: not v.blocking)
        _fill(self.advisories, [(fmt.distances_in_text(violation_text(v), unit), BLOCKING_COLOUR if v.blocking else None)
                                for v in violations])
        _fill(self.repairs, [(fmt.distances_in_text(repair_text(d), unit), None)
                             for d in (itinerary.repairs if itinerary else [])])
        _fill(self.decisions, [(fmt.distances_in_text(decision_text(d), unit), None)
                               for d in (itinerary.decisions if itinerary else [])])
        _fill(self.sources, [(citation_text(c), None) for c in (itinerary.citations if itinerary else [])])


def _list(name: str) -> QListWidget:
    widget = QListWidget()
    widget.setObjectName(f"{name}_list")
    widget.setWordWrap(True)
    widget.setAlternatingRowColors(True)
    widget.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    widget.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
    widget.setResizeMode(QListWidget.ResizeMode.Adjust)
    widget.setSpacing(3)
    return widget


def _fill(widget: QListWidget, rows: list[tuple[str, str | None]]) -> None:
    widget.clear()
    for text, colour in rows:
        item = QListWidgetItem(text)
        item.setToolTip(fmt.plain_tooltip(text))
        if colour:
            item.setForeground(QColor(colour))
        widget.addItem(item)
