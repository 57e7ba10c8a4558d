"""The progress panel's event log: one row per shown StreamEvent, in arrival order, each node
named as the traveller reads it where the engine's name would mean nothing to them ("Fetching
city data"), and a count that only moves on ("12 KB received" → "48 KB received") updating its
row instead of adding one."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QIcon
from PySide6.QtWidgets import QApplication, QStyle

from engine.models import EventStatus, StreamEvent
from widgets.table_model import RowsTableModel

from . import formatting as fmt

_Index = QModelIndex | QPersistentModelIndex

STATUS_COLOURS = {
    EventStatus.started: "#1565c0",
    EventStatus.running: "#546e7a",
    EventStatus.completed: "#2e7d32",
    EventStatus.error: "#c62828",
    EventStatus.done: "#1b5e20",
    EventStatus.cancelled: "#ef6c00",
    EventStatus.heartbeat: "#9e9e9e",
}
_STATUS_ICONS = {
    EventStatus.started: QStyle.StandardPixmap.SP_MediaPlay,
    EventStatus.running: QStyle.StandardPixmap.SP_BrowserReload,
    EventStatus.completed: QStyle.StandardPixmap.SP_DialogApplyButton,
    EventStatus.error: QStyle.StandardPixmap.SP_MessageBoxCritical,
    EventStatus.done: QStyle.StandardPixmap.SP_DialogYesButton,
    EventStatus.cancelled: QStyle.StandardPixmap.SP_DialogCancelButton,
}
# Nodes whose status line reads "<name>… <note>" while they run (a count that moves on).
NODE_NAMES = {"city_pack": "Fetching city data"}
# Every step in the traveller's words (issue 22 §2.8); Diagnostics and the tooltip keep the
# engine's node names, which the docs and logs use.
STEP_NAMES = {**NODE_NAMES, "intent_extractor": "Reading the trip", "draft": "Drafting with the AI model",
              "planner": "Drafting the plan", "selector": "Choosing among the options",
              "tool_executor": "Looking up places, prices and weather", "verifier": "Checking the plan",
              "repair": "Fixing what does not fit", "synthesizer": "Writing the itinerary",
              "responder": "Finishing"}
# Nodes whose length nobody knows ahead (a download of unknown size): the bar shows busy.
OPEN_ENDED_NODES = frozenset({"city_pack"})
_FIGURES = re.compile(r"\d[\d.,]*")


class EventLogModel(RowsTableModel):
    """One row per shown StreamEvent, in arrival order."""

    COL_TIME, COL_NODE, COL_STATUS, COL_DURATION, COL_CACHE, COL_MODEL, COL_NOTE = range(7)
    HEADERS = ("Time", "Step", "Status", "Duration", "Reused", "AI model use", "Note")
    EventRole = Qt.ItemDataRole.UserRole + 1  # the StreamEvent itself
    StatusRole = Qt.ItemDataRole.UserRole + 2  # EventStatus value, e.g. "completed"
    StatusColourRole = Qt.ItemDataRole.UserRole + 3  # QColor of the status

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._icons: dict[EventStatus, QIcon] = {}
        self.wording: Callable[[str], str] = lambda text: text  # notes in the traveller's words (the app's)

    # -- editing ----------------------------------------------------------------------
    def append(self, events: Iterable[StreamEvent]) -> None:
        """Add rows; a count that moves on ("12 KB received" → "48 KB received") updates its row."""
        batch: list[StreamEvent] = []
        for event in events:
            if batch and _same_step(batch[-1], event):
                batch[-1] = event
            elif not batch and self._rows and _same_step(self._rows[-1], event):
                self._rows[-1] = event
                row = len(self._rows) - 1
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.HEADERS) - 1))
            else:
                batch.append(event)
        if not batch:
            return
        first = len(self._rows)
        self.beginInsertRows(QModelIndex(), first, first + len(batch) - 1)
        self._rows.extend(batch)
        self.endInsertRows()

    def clear(self) -> None:
        self.beginResetModel()
        self._rows = []
        self.endResetModel()

    def events(self) -> list[StreamEvent]:
        return list(self._rows)

    def event_at(self, row: int) -> StreamEvent:
        return self._rows[row]

    # -- QAbstractTableModel ------------------------------------------------------------
    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        event, col = self.row_at(index), index.column()
        if event is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(event, col)
        if role == self.EventRole:
            return event
        if role == self.StatusRole:
            return event.status.value
        if role in (self.StatusColourRole, Qt.ItemDataRole.ForegroundRole) and \
                (role == self.StatusColourRole or col == self.COL_STATUS):
            return QColor(STATUS_COLOURS[event.status])
        if role == Qt.ItemDataRole.DecorationRole and col == self.COL_STATUS:
            return self._icon(event.status)
        if role == Qt.ItemDataRole.ToolTipRole:
            return fmt.plain_tooltip(self._tooltip(event))
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (self.COL_DURATION, self.COL_CACHE):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _display(self, event: StreamEvent, col: int) -> str:
        if col == self.COL_TIME:
            return fmt.event_clock(event.ts)
        if col == self.COL_NODE:
            return node_name(event.node)
        if col == self.COL_STATUS:
            return event.status.value
        if col == self.COL_DURATION:
            return fmt.duration_ms(event.duration_ms)
        if col == self.COL_CACHE:
            return "" if event.cache_hit is None else ("yes" if event.cache_hit else "no")
        if col == self.COL_MODEL:
            return fmt.model_usage(event.model_usage)
        return self.wording(event.decision_note) if event.decision_note else ""

    @staticmethod
    def _tooltip(event: StreamEvent) -> str:
        lines = [f"#{event.seq} {event.node} {event.status.value} at {fmt.event_clock(event.ts)}",
                 f"progress {event.progress_pct}%"]
        if event.decision_note:
            lines.append(event.decision_note)
        if event.args_digest:
            lines.append(f"inputs {event.args_digest[:16]}")
        return "\n".join(lines)

    def _icon(self, status: EventStatus) -> QIcon | None:
        pixmap = _STATUS_ICONS.get(status)
        if pixmap is None:
            return None
        if status not in self._icons:
            self._icons[status] = QApplication.style().standardIcon(pixmap)
        return self._icons[status]


def _same_step(shown: StreamEvent, new: StreamEvent) -> bool:
    """``new`` only moves ``shown``'s count on: an open-ended node still running, the same note
    but for its figures."""
    return (new.node == shown.node and new.node in OPEN_ENDED_NODES
            and new.status is shown.status is EventStatus.running
            and _FIGURES.sub("#", new.decision_note or "") == _FIGURES.sub("#", shown.decision_note or ""))


def node_name(node: str) -> str:
    """A step as the traveller reads it (an unknown node keeps its name, with spaces)."""
    return STEP_NAMES.get(node, node.replace("_", " "))
