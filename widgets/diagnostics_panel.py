"""Diagnostics: per-node latency from a run's events, per-tool calls / cache hit rate / errors /
latency from a ``ToolExecutor.stats`` snapshot, and the errors seen.

``refresh(events, tool_stats)`` takes plain values (the app passes ``executor.stats``); the panel
never reaches into the engine by itself. "Export bundle…" writes the same zip as ``tripwright
diagnostics --bundle FILE.zip`` (``engine.diagnostics.bundle``: report, Prometheus text, versions,
redacted logs) from ``report_source``, which the app points at its long-lived executor.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QAbstractItemView, QFileDialog, QHBoxLayout, QHeaderView, QLabel, QPushButton,
                               QSplitter, QTableView, QVBoxLayout, QWidget)

from widgets.table_model import RowsTableModel

from engine import diagnostics
from engine.models import EventStatus, StreamEvent

from . import formatting as fmt

_Index = QModelIndex | QPersistentModelIndex
ERROR_COLOUR = "#c62828"


def percentile(values: Sequence[float], pct: float) -> float | None:
    """Nearest-rank percentile (p50 of [1, 2, 3, 4] is 2); None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True)
class NodeLatency:
    node: str
    count: int  # completed steps with a duration
    p50_ms: float | None
    p95_ms: float | None
    cache_hits: int
    errors: int


@dataclass(frozen=True)
class ToolRow:
    tool: str
    calls: int
    cache_hits: int
    errors: int
    p50_ms: float | None
    slow: int
    breaker: str = "closed"  # closed | open | half_open
    reasons: str = ""  # "timeout 1, unavailable 2"

    @property
    def hit_rate(self) -> float:
        return self.cache_hits / self.calls if self.calls else 0.0


@dataclass(frozen=True)
class ErrorRow:
    source: str  # node or tool
    status: str
    message: str
    ts: str = ""


def node_latencies(events: Iterable[StreamEvent]) -> list[NodeLatency]:
    """One row per node, in the order nodes first appear."""
    durations: dict[str, list[float]] = {}
    hits: dict[str, int] = {}
    errors: dict[str, int] = {}
    for e in events:
        durations.setdefault(e.node, [])
        if e.status is EventStatus.completed and e.duration_ms is not None:
            durations[e.node].append(float(e.duration_ms))
            hits[e.node] = hits.get(e.node, 0) + bool(e.cache_hit)
        if e.status is EventStatus.error:
            errors[e.node] = errors.get(e.node, 0) + 1
    return [NodeLatency(node, len(d), percentile(d, 50), percentile(d, 95), hits.get(node, 0), errors.get(node, 0))
            for node, d in durations.items()]


def tool_rows(stats: Mapping[str, Any], breakers: Mapping[str, str] | None = None) -> list[ToolRow]:
    """Rows from ``ToolExecutor.stats`` (ToolStats objects or plain mappings) and
    ``ToolExecutor.breaker_states()``, sorted by tool."""
    def get(s: Any, key: str, default: Any = 0) -> Any:
        return s.get(key, default) if isinstance(s, Mapping) else getattr(s, key, default)
    breakers = breakers or {}
    return [ToolRow(tool, int(get(s, "calls")), int(get(s, "cache_hits")), int(get(s, "errors")),
                    percentile(list(get(s, "latencies_ms", [])), 50), int(get(s, "slow")),
                    breakers.get(tool, "closed"),
                    ", ".join(f"{k} {v}" for k, v in sorted(dict(get(s, "error_reasons", {}) or {}).items())))
            for tool, s in sorted(stats.items())]


class _RowsModel(RowsTableModel):
    """A read-only table of frozen rows; subclasses name the columns and format the cells."""

    NUMERIC: frozenset[int] = frozenset()
    RowRole = Qt.ItemDataRole.UserRole + 1  # the row object

    def set_rows(self, rows: Iterable[Any]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def rows(self) -> list[Any]:
        return list(self._rows)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        row = self.row_at(index)
        if row is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.cell(row, index.column())
        if role == self.RowRole:
            return row
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in self.NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and self.is_bad(row, index.column()):
            return QColor(ERROR_COLOUR)
        if role == Qt.ItemDataRole.ToolTipRole:
            return fmt.plain_tooltip(self.cell(row, index.column()))
        return None

    def cell(self, row: Any, column: int) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def is_bad(self, row: Any, column: int) -> bool:
        return False


class NodeLatencyModel(_RowsModel):
    COL_NODE, COL_COUNT, COL_P50, COL_P95, COL_CACHE, COL_ERRORS = range(6)
    HEADERS = ("Node", "Steps", "p50", "p95", "Cache hits", "Errors")
    NUMERIC = frozenset({1, 2, 3, 4, 5})

    def cell(self, row: NodeLatency, column: int) -> str:
        return (row.node, str(row.count), fmt.duration_ms(row.p50_ms), fmt.duration_ms(row.p95_ms),
                str(row.cache_hits), str(row.errors))[column]

    def is_bad(self, row: NodeLatency, column: int) -> bool:
        return column == self.COL_ERRORS and row.errors > 0


class ToolStatsModel(_RowsModel):
    COL_TOOL, COL_CALLS, COL_HIT_RATE, COL_ERRORS, COL_P50, COL_SLOW, COL_BREAKER = range(7)
    HEADERS = ("Tool", "Calls", "Cache hit rate", "Errors", "p50 latency", "Slow", "Breaker")
    NUMERIC = frozenset({1, 2, 3, 4, 5})

    def cell(self, row: ToolRow, column: int) -> str:
        rate = fmt.percent(row.cache_hits, row.calls) or "\u2013"
        latency = fmt.duration_ms(row.p50_ms) if row.p50_ms is not None else "\u2013"
        errors = f"{row.errors} ({row.reasons})" if row.errors and row.reasons else str(row.errors)
        breaker = row.breaker.replace("_", "-")
        return (row.tool, str(row.calls), rate, errors, latency, str(row.slow), breaker)[column]

    def is_bad(self, row: ToolRow, column: int) -> bool:
        return (column == self.COL_ERRORS and row.errors > 0) or (column == self.COL_BREAKER and row.breaker != "closed")


class ErrorListModel(_RowsModel):
    COL_TIME, COL_SOURCE, COL_MESSAGE = range(3)
    HEADERS = ("Time", "Where", "Message")

    def cell(self, row: ErrorRow, column: int) -> str:
        return (row.ts, row.source, row.message)[column]

    def is_bad(self, row: ErrorRow, column: int) -> bool:
        return True


class DiagnosticsPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.nodes = NodeLatencyModel(self)
        self.tools = ToolStatsModel(self)
        self.errors = ErrorListModel(self)
        self.summary = QLabel("No run yet")
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setObjectName("diagnostics_summary")
        self.summary.setWordWrap(True)
        self.latency = QLabel("")  # p50/p95 of the process's runs (seed §13.3's latency panel)
        self.latency.setTextFormat(Qt.TextFormat.PlainText)
        self.latency.setObjectName("diagnostics_latency")
        self.latency.setWordWrap(True)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.setChildrenCollapsible(False)
        self.views = {}
        for name, title, model, stretch in (("nodes", "Pipeline nodes", self.nodes, 3),
                                            ("tools", "Tools", self.tools, 2), ("errors", "Errors", self.errors, 1)):
            self.views[name] = view = _table(model)
            box = QWidget()
            column = QVBoxLayout(box)
            column.setContentsMargins(0, 0, 0, 0)
            heading = QLabel(title)
            heading.setTextFormat(Qt.TextFormat.PlainText)
            heading.setStyleSheet("font-weight: bold;")
            column.addWidget(heading)
            column.addWidget(view, 1)
            splitter.addWidget(box)
            splitter.setStretchFactor(splitter.count() - 1, stretch)
        # What the bundle reports; the app gives its executor's figures (default: this process's metrics).
        self.report_source: Callable[[], dict] = diagnostics.collect
        self.export_button = QPushButton("Export bundle\u2026")
        self.export_button.setToolTip("Write a zip with the metrics, versions and redacted logs, "
                                      "the same as `tripwright diagnostics --bundle`")
        self.export_button.clicked.connect(self.export_bundle)
        self.export_note = QLabel("")
        self.export_note.setTextFormat(Qt.TextFormat.PlainText)
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.export_note)
        top.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.latency)
        layout.addWidget(splitter, 1)

    def export_bundle(self) -> Path | None:
        """Ask where, then write the bundle; the outcome (or why not) is shown beside the button."""
        chosen, _ = QFileDialog.getSaveFileName(self, "Export diagnostics bundle", "tripwright-diagnostics.zip",
                                                "Zip archive (*.zip)")
        if not chosen:
            return None
        target = Path(chosen) if chosen.lower().endswith(".zip") else Path(f"{chosen}.zip")
        try:
            names = diagnostics.bundle(self.report_source(), target)
        except OSError as exc:
            self.export_note.setText(f"Not written: {exc.strerror or exc}")
            return None
        self.export_note.setText(f"Wrote {target.name} ({len(names)} files)")
        return target

    def refresh(self, events: Iterable[StreamEvent], tool_stats: Mapping[str, Any] | None = None,
                breakers: Mapping[str, str] | None = None) -> None:
        events = list(events)
        tools = tool_rows(tool_stats or {}, breakers)
        self.nodes.set_rows(node_latencies(events))
        self.tools.set_rows(tools)
        errors = [ErrorRow(e.node, e.status.value, e.decision_note or "failed", fmt.event_clock(e.ts))
                  for e in events if e.status is EventStatus.error]
        errors += [ErrorRow(t.tool, "tool", f"{t.errors} failed call(s) of {t.calls}") for t in tools if t.errors]
        self.errors.set_rows(errors)
        self.summary.setText(_summary(events, tools, len(errors)))
        from engine.metrics import METRICS
        self.latency.setText(latency_text(METRICS.latency_figures()))


def latency_text(figures: Mapping[str, Mapping[str, Any]]) -> str:
    """"First event p50 12 ms, p95 30 ms (4 runs) · …" for the kinds of run seen so far."""
    names = {"ttfe": "First event", "e2e": "Whole run", "replan": "Re-plan"}
    parts = [f"{names.get(kind, kind)} p50 {fmt.duration_ms(row['p50'])}, p95 {fmt.duration_ms(row['p95'])} "
             f"({row['runs']} run{'s' if row['runs'] != 1 else ''})"
             for kind, row in figures.items() if row.get("runs")]
    return " \u00b7 ".join(parts)


def _summary(events: list[StreamEvent], tools: list[ToolRow], errors: int) -> str:
    if not events and not tools:
        return "No run yet"
    parts = []
    if events:
        elapsed = (events[-1].ts - events[0].ts).total_seconds() * 1000
        parts.append(f"{len(events)} events over {fmt.duration_ms(elapsed)}")
    calls = sum(t.calls for t in tools)
    if calls:
        parts.append(f"{calls} tool calls, {fmt.percent(sum(t.cache_hits for t in tools), calls)} from cache")
    parts.append(f"{errors} error(s)")
    return " \u00b7 ".join(parts)


def _table(model: QAbstractTableModel) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)
    view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    view.verticalHeader().setVisible(False)
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 8)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(len(model.HEADERS) - 1 if model.HEADERS[-1] == "Message" else 0,
                                QHeaderView.ResizeMode.Stretch)
    return view
