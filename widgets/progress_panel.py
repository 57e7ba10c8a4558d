"""Live progress of a planning run: every StreamEvent as it arrives, a progress bar, Cancel,
a liveness indicator, and replay of a stored run.

Events reach the table through the engine's ``ThrottledStream`` drained by a QTimer, so a
flood of progress events never stalls the GUI thread; critical events (started, completed,
error, done, cancelled) are never dropped. The run state (progress, status line, Cancel) is
taken from every event at once, so it never lags behind a throttled log.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from datetime import datetime

from PySide6.QtCore import Qt, QThread, QTimer, Signal
from PySide6.QtWidgets import (QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QProgressBar, QPushButton,
                               QSizePolicy, QStyle, QTableView, QVBoxLayout, QWidget)

from engine.models import EventStatus, StreamEvent
from engine.pipeline import ThrottledStream, replay_after

from . import formatting as fmt
from .event_log_model import NODE_NAMES, OPEN_ENDED_NODES, STATUS_COLOURS, EventLogModel, node_name

__all__ = ["STATUS_COLOURS", "EventLogModel", "ProgressPanel", "node_name"]

STALE_AFTER_S = 5.0  # no event for this long while running: the indicator turns amber
DEAD_AFTER_S = 15.0  # ... and red


class ProgressPanel(QWidget):
    """The live progress panel. Call ``append`` from the GUI thread (the caller marshals)."""

    cancel_requested = Signal()
    run_finished = Signal(str)  # "done" | "error" | "cancelled"

    @property
    def wording(self) -> Callable[[str], str]:
        return self.model.wording

    @wording.setter
    def wording(self, words: Callable[[str], str]) -> None:
        """How the engine's notes are said: a failure in the status line, every row's Note."""
        self.model.wording = words

    def __init__(self, parent: QWidget | None = None, *, rate: float = 10.0, burst: int = 20,
                 capacity: int = 50, drain_interval_ms: int = 50,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(parent)
        # A small queue on purpose: at 10 rows/s, 50 queued rows are 5 s of lag at most.
        self._stream_args = dict(rate=rate, burst=burst, capacity=capacity, clock=clock)
        self._stream = ThrottledStream(**self._stream_args)
        self._critical_pending = 0
        self._clock = clock
        self._run_id: str | None = None
        self._running = False
        self._cancelling = False
        self._last_receipt: float | None = None
        self._first_ts: datetime | None = None
        self._error: str | None = None
        self._received = 0
        self._model_calls: list = []
        self.model = EventLogModel(self)
        self.wording = lambda text: text  # the app puts errors in the traveller's words
        self._build()
        self._drain_timer = QTimer(self)
        self._drain_timer.setInterval(drain_interval_ms)
        self._drain_timer.timeout.connect(self.drain)
        self._alive_timer = QTimer(self)
        self._alive_timer.setInterval(250)
        self._alive_timer.timeout.connect(self._update_alive)
        self._show_idle()

    def _build(self) -> None:
        self.status_label = ElidedLabel("Idle")  # a long note must not push "alive" out of sight
        self.status_label.setObjectName("progress_status")
        self.alive_label = _plain_label("")
        self.alive_label.setObjectName("progress_alive")
        self.model_label = _plain_label("")  # the run's model calls together (tokens, cost)
        self.model_label.setObjectName("progress_model")
        self.progress_bar = QProgressBar()
        self.progress_bar.setRange(0, 100)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_DialogCancelButton))
        self.cancel_button.setToolTip("Stop this planning run")
        self.cancel_button.clicked.connect(self._on_cancel)
        self.skipped_label = _plain_label("")
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        for col in range(EventLogModel.COL_NOTE):
            # Widened as rows come (``_fit_columns``): Qt's ResizeToContents measured them only at
            # a relayout, so a live run's first rows left "completed" cut to "comp…".
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(col, header.sectionSizeHint(col))
        header.setStretchLastSection(True)

        top = QHBoxLayout()
        top.addWidget(self.status_label, 1)
        top.addWidget(self.model_label)
        top.addWidget(self.alive_label)
        bar = QHBoxLayout()
        bar.addWidget(self.progress_bar, 1)
        bar.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(bar)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.skipped_label)

    # -- feeding ----------------------------------------------------------------------
    def start_run(self, run_id: str | None = None) -> None:
        """Reset for a new run (Cancel is enabled before the first event arrives)."""
        self._reset(run_id)
        self._running = True
        self.status_label.setText("Planning\u2026")
        self._refresh_controls()
        self._alive_timer.start()

    def append(self, event: StreamEvent) -> None:
        """Show one event of the live run; events of another run start a fresh log."""
        if QThread.currentThread() is not self.thread():
            raise RuntimeError("ProgressPanel.append must be called on the GUI thread")
        if event.run_id != self._run_id:
            if self._run_id is None and self._running:
                self._run_id = event.run_id  # the run start_run() announced (Cancel may be pending)
            else:
                self.start_run(event.run_id)
        self._received += 1
        self._last_receipt = self._clock()
        self._apply_state(event)
        if event.status is not EventStatus.heartbeat:
            self._critical_pending += event.critical
            self._fit_capacity()
            self._stream.push(event)
        if not self._drain_timer.isActive():
            self._drain_timer.start()

    def drain(self) -> None:
        """Move the events the rate limit allows from the queue into the table."""
        ready = self._stream.pop_ready()
        if ready:
            self._critical_pending -= sum(e.critical for e in ready)
            self._fit_capacity()
            first = max(self.model.rowCount() - 1, 0)  # the last row may be updated in place
            self.model.append(ready)
            self._fit_columns(first)
            self.table.scrollToBottom()
        if self._stream.dropped:
            self.skipped_label.setText(f"{self._stream.dropped} progress update(s) not listed "
                                       f"(at most {self._stream.rate:g} rows a second are shown)")
        self.skipped_label.setVisible(bool(self._stream.dropped))
        if self._running:
            self._update_alive()
        if not len(self._stream):
            self._drain_timer.stop()

    def _fit_columns(self, first: int) -> None:
        """Widen each fixed column to the rows from ``first`` on (never narrower: no jitter)."""
        header, grid = self.table.horizontalHeader(), int(self.table.showGrid())  # the grid line, as Qt counts it
        for col in range(EventLogModel.COL_NOTE):
            needed = max((self.table.sizeHintForIndex(self.model.index(row, col)).width() + grid
                          for row in range(first, self.model.rowCount())), default=0)
            if needed > header.sectionSize(col):
                header.resizeSection(col, needed)

    def _fit_capacity(self) -> None:
        """ThrottledStream drops a critical event only when every queued event is critical;
        growing the queue by the critical backlog means that never happens."""
        self._stream.capacity = max(self._stream_args["capacity"], self._critical_pending + 1)

    def replay(self, events: Iterable[StreamEvent], after: datetime | None = None) -> None:
        """Show a stored run's events at once (no throttling, no Cancel)."""
        shown = replay_after(events, after)
        self._reset(shown[0].run_id if shown else None)
        self._alive_timer.stop()
        self.status_label.setText("")
        for event in shown:
            self._apply_state(event)
        ended = any(e.status in (EventStatus.done, EventStatus.cancelled, EventStatus.error) for e in shown)
        outcome = self.status_label.text() if ended else \
            f"stopped after {node_name(shown[-1].node).lower()}" if shown else "no events stored"
        self.status_label.setText(f"Replay \u00b7 {outcome}")
        self.model.append(e for e in shown if e.status is not EventStatus.heartbeat)
        self._fit_columns(0)
        self.alive_label.setStyleSheet("")
        self.alive_label.setText(f"{len(shown)} stored event(s)")
        self._refresh_controls()

    # -- state ------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._running

    @property
    def dropped(self) -> int:
        return self._stream.dropped

    @property
    def pending(self) -> int:
        return len(self._stream)

    def _reset(self, run_id: str | None) -> None:
        self._drain_timer.stop()
        self._stream = ThrottledStream(**self._stream_args)
        self._critical_pending = 0
        self.model.clear()
        self._run_id = run_id
        self._running = self._cancelling = False
        self._first_ts = None
        self._error = None
        self._received = 0
        self._model_calls: list = []
        self.model_label.setText("")
        self._percent = 0
        self._show_open_ended(False)
        self.progress_bar.setValue(0)  # a new run starts at 0 %, not at the last run's 100 %
        self.alive_label.setText("")  # nor with the last run's event count
        self.alive_label.setStyleSheet("")
        self.skipped_label.setText("")
        self.skipped_label.hide()

    def _apply_state(self, event: StreamEvent) -> None:
        if self._first_ts is None:
            self._first_ts = event.ts
        if event.model_usage is not None:  # every model call counts, even when its row is throttled
            self._model_calls.append((event.node, event.model_usage))
            self.model_label.setText(fmt.model_calls(self._model_calls))
        self._percent = max(self._percent, event.progress_pct)
        status = event.status
        waiting = status in (EventStatus.started, EventStatus.running, EventStatus.heartbeat)
        self._show_open_ended(self._running and waiting and event.node in OPEN_ENDED_NODES)
        if self.progress_bar.maximum():
            self.progress_bar.setValue(self._percent)
        if status is EventStatus.heartbeat:
            return
        if status is EventStatus.error:
            self._error = self.wording(event.decision_note or f"{node_name(event.node)} failed")
            self.status_label.setText(f"Error: {self._error}")
        elif status is EventStatus.cancelled:
            self._finish("cancelled", "Cancelled")
        elif status is EventStatus.done:
            elapsed = (event.ts - self._first_ts).total_seconds() * 1000
            self.progress_bar.setValue(100)
            if self._error is None:
                self._finish("done", f"Done in {fmt.duration_ms(elapsed)}")
            else:
                self._finish("error", f"Error: {self._error}")
        elif self._running and not self._cancelling and self._error is None:
            named = NODE_NAMES.get(event.node)  # "Fetching city data… 12 KB received"
            self.status_label.setText(f"{named}\u2026 {event.decision_note or ''}".rstrip() if named
                                      else f"Planning\u2026 {node_name(event.node).lower()}")

    def _show_open_ended(self, busy: bool) -> None:
        """A busy bar (no percentage) while an open-ended node runs; the run's percentage otherwise."""
        if busy == (self.progress_bar.maximum() == 0):
            return
        self.progress_bar.setRange(0, 0 if busy else 100)
        if not busy:
            self.progress_bar.setValue(getattr(self, "_percent", 0))

    def _finish(self, outcome: str, text: str) -> None:
        was_running = self._running
        self._show_open_ended(False)
        self._running = self._cancelling = False
        self._alive_timer.stop()
        self.status_label.setText(text)
        self._refresh_controls()
        self._update_alive()
        if was_running:
            self.run_finished.emit(outcome)

    def _on_cancel(self) -> None:
        if not self._running or self._cancelling:
            return
        self._cancelling = True
        self.status_label.setText("Cancelling\u2026")
        self._refresh_controls()
        self.cancel_requested.emit()

    def _refresh_controls(self) -> None:
        self.cancel_button.setEnabled(self._running and not self._cancelling)

    def _show_idle(self) -> None:
        self._refresh_controls()
        self.alive_label.setText("")

    def _update_alive(self) -> None:
        if self._last_receipt is None:
            self.alive_label.setText("")
            return
        quiet = self._clock() - self._last_receipt
        if not self._running:
            self.alive_label.setText(f"{self._received} event(s)")
            self.alive_label.setStyleSheet("")
            return
        colour = "#2e7d32" if quiet < STALE_AFTER_S else "#ef6c00" if quiet < DEAD_AFTER_S else "#c62828"
        self.alive_label.setText(f"\u25cf alive \u00b7 last event {fmt.age(quiet)} ago")
        self.alive_label.setStyleSheet(f"color: {colour};")

    def alive_age(self) -> float | None:
        """Seconds since the last event arrived (None before the first one)."""
        return None if self._last_receipt is None else self._clock() - self._last_receipt


class ElidedLabel(QLabel):
    """A one-line plain-text label that shrinks with its row, ending in "…" (whole text in its
    tooltip); ``text()`` is the whole text."""

    def __init__(self, text: str = "") -> None:
        super().__init__()
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._whole = ""
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        self._whole = text
        self._elide()

    def text(self) -> str:
        return self._whole

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        shown = self.fontMetrics().elidedText(self._whole, Qt.TextElideMode.ElideRight, max(self.width(), 1))
        super().setText(shown)
        self.setToolTip(self._whole if shown != self._whole else "")


def _plain_label(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label
