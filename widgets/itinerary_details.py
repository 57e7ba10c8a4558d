"""The itinerary panel's side area: cost breakdown, advisories, repair diffs, decisions, sources.

Everything is plain text: labels are ``Qt.PlainText`` and list items are never interpreted.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QAbstractItemView, QFrame, QGridLayout, QLabel, QListWidget, QListWidgetItem,
                               QProgressBar, QVBoxLayout, QWidget)

from engine.models import Citation, Decision, ItineraryV1, RepairDiff, Violation
from engine.repair.moves import move_rationale

from . import formatting as fmt
from .itinerary_words import activity_names, citation_line, citation_subjects, decision_line, place_of

BLOCKING_COLOUR = "#c62828"
TIGHT_COLOUR = "#b26a00"  # under budget by less than 10%: prices may slip


def plain_label(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


# What each kind of problem is, as a traveller says it (not "pref violated", "timing infeasible").
KIND_WORDS = {"budget_exceeded": "over budget", "slippage_risk": "tight budget", "timing_infeasible": "not enough time",
              "venue_closed": "closed", "weather_unsuitable": "weather", "pref_violated": "not what you asked",
              "direction_violated": "against the direction of travel", "pacing_violated": "pace",
              "corridor_violated": "off the route", "geocode_rejected": "place not found",
              "location_ambiguous": "which place?", "fact_mismatch": "facts changed",
              "venue_hours_unknown": "hours unknown", "must_see_unplanned": "your place left out"}


def violation_text(v: Violation, names: dict[str, str] | None = None) -> str:
    """"Advisory · hours unknown: Shakespeare and Company: no published opening hours; …": the
    place by its name (an activity id never reaches the traveller), said once."""
    tag = "Blocking" if v.blocking else "Advisory"
    message = v.details.get("message", v.reason)
    where = place_of(v.node_ref, names or {})
    kind = KIND_WORDS.get(v.kind.value, v.kind.value.replace("_", " "))
    return f"{tag} \u00b7 {kind}: {message}" if where in message else f"{tag} \u00b7 {kind} ({where}): {message}"


def repair_text(diff: RepairDiff) -> str:
    """"Repair 1: Chose the budget hotel, Les Piaules, over …: to keep within the budget." and what
    it changed: the engine's move names ("downgrade_hotel mid → budget") stay in Diagnostics."""
    moves = " ".join(move_rationale(m) for m in diff.moves) or "No change."
    before, after = diff.violations_before, diff.violations_after
    lines = [f"Repair {diff.cycle}: {moves}",
             f"Cost {fmt.money_delta(diff.delta_usd_cents)} \u00b7 on the way {fmt.minutes_delta(diff.delta_minutes)}"
             f" \u00b7 problems {before} \u2192 {after}"]
    return "\n".join(lines)


def decision_text(d: Decision) -> str:
    return decision_line(d)


def citation_text(c: Citation, subject: str | None = None) -> str:
    return citation_line(c, subject)


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
        names = activity_names(itinerary) if itinerary else {}
        _fill(self.advisories, [(fmt.distances_in_text(violation_text(v, names), unit),
                                 BLOCKING_COLOUR if v.blocking else None) for v in violations])
        _fill(self.repairs, [(fmt.distances_in_text(repair_text(d), unit), None)
                             for d in (itinerary.repairs if itinerary else [])])
        _fill(self.decisions, [(fmt.distances_in_text(decision_text(d), unit), None)
                               for d in (itinerary.decisions if itinerary else [])])
        subjects = citation_subjects(itinerary) if itinerary else []
        _fill(self.sources, [(citation_text(c, subject), None)
                             for c, subject in zip(itinerary.citations if itinerary else [], subjects)])


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
