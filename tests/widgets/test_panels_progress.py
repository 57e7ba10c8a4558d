"""The live progress panel and its event-log model, fed with real planning runs' events."""

import asyncio
import threading
import time
from datetime import date, timedelta

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon
from PySide6.QtTest import QAbstractItemModelTester

from engine.cancel import CancelToken
from engine.frontend import intent_from_prompt
from engine.models import EventStatus, StreamEvent
from engine.pipeline import PlanningSession
from widgets.progress_panel import STATUS_COLOURS, EventLogModel, ProgressPanel

TODAY = date(2026, 11, 23)
PARIS = "5 days in Paris from 2027-06-15, flying from JFK, budget 4000 USD, art and food"


def _plan(prompt, *, cancel_after=None):
    session = PlanningSession(today=TODAY)
    intent = intent_from_prompt(prompt, session, None)
    token = CancelToken()

    def on_event(event):
        if cancel_after and event.node == cancel_after and event.status is EventStatus.completed:
            token.cancel()

    return asyncio.run(session.plan(intent, on_event=on_event, cancel=token))


@pytest.fixture(scope="module")
def runs():
    """Real runs, planned before any widget exists: completed, cancelled, infeasible."""
    done = _plan(PARIS)
    cancelled = _plan(PARIS, cancel_after="planner")
    failed = _plan(PARIS.replace("4000", "1800"))
    assert (done.status, cancelled.status, failed.status) == ("completed", "cancelled", "error")
    return {"done": done.events, "cancelled": cancelled.events, "failed": failed.events}


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def model_failures(qtlog):
    return [r.message for r in qtlog.records if "FAIL" in r.message]


def shown(panel):
    return [panel.model.event_at(r) for r in range(panel.model.rowCount())]


# -- the model alone -------------------------------------------------------------------
def test_event_log_model_columns_and_roles(qapp, qtlog, runs):
    events = runs["done"]
    model = EventLogModel()
    tester = QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Warning)
    model.append(events[:3])
    model.append(events[3:])
    assert model.rowCount() == len(events) and model.columnCount() == 7
    assert [model.headerData(c, Qt.Orientation.Horizontal) for c in range(7)] == list(EventLogModel.HEADERS)

    planner_done = next(i for i, e in enumerate(events) if e.node == "planner" and e.status is EventStatus.completed)
    index = lambda col: model.index(planner_done, col)  # noqa: E731
    assert index(EventLogModel.COL_NODE).data() == "Drafting the plan"  # the engine's name is in the tooltip
    assert index(EventLogModel.COL_STATUS).data() == "completed"
    assert index(EventLogModel.COL_DURATION).data() == f"{events[planner_done].duration_ms} ms"
    assert index(EventLogModel.COL_CACHE).data() == "no"
    assert index(EventLogModel.COL_NOTE).data().startswith("Explored")
    assert index(0).data(EventLogModel.EventRole) == events[planner_done]
    assert index(0).data(EventLogModel.StatusRole) == "completed"
    assert index(0).data(EventLogModel.StatusColourRole) == QColor(STATUS_COLOURS[EventStatus.completed])
    assert index(EventLogModel.COL_STATUS).data(Qt.ItemDataRole.ForegroundRole) == \
        QColor(STATUS_COLOURS[EventStatus.completed])
    icon = index(EventLogModel.COL_STATUS).data(Qt.ItemDataRole.DecorationRole)
    assert isinstance(icon, QIcon) and not icon.isNull()
    assert model.index(0, EventLogModel.COL_CACHE).data() == ""  # intent_extractor started: no cache info

    model.clear()
    assert model.rowCount() == 0
    del tester
    assert model_failures(qtlog) == []


def test_event_log_model_tooltips_do_not_interpret_markup(qapp, runs):
    event = runs["done"][1].model_copy(update={"decision_note": "<img src=x onerror=alert(1)>"})
    model = EventLogModel()
    model.append([event])
    assert model.index(0, EventLogModel.COL_NOTE).data() == "<img src=x onerror=alert(1)>"
    assert "&lt;img src=x" in model.index(0, EventLogModel.COL_NOTE).data(Qt.ItemDataRole.ToolTipRole)


# -- the panel -------------------------------------------------------------------------
def test_events_appear_in_order_and_the_bar_reaches_100(qtbot, runs):
    events = runs["done"]
    panel = ProgressPanel()
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.run_finished, timeout=5_000) as finished:
        for event in events:
            panel.append(event)
    qtbot.waitUntil(lambda: panel.model.rowCount() == len(events), timeout=5_000)
    assert [e.seq for e in shown(panel)] == list(range(len(events)))
    assert finished.args == ["done"]
    assert panel.progress_bar.value() == 100
    assert panel.status_label.text().startswith("Done in ") and panel.status_label.text().endswith(" ms")
    assert not panel.cancel_button.isEnabled()
    assert panel.status_label.textFormat() == Qt.TextFormat.PlainText


def test_status_line_names_the_running_node(qtbot, runs):
    panel = ProgressPanel()
    qtbot.addWidget(panel)
    for event in runs["done"]:
        panel.append(event)
        if event.node == "planner" and event.status is EventStatus.started:
            break
    assert panel.status_label.text() == "Planning\u2026 drafting the plan"
    assert 0 < panel.progress_bar.value() < 100
    assert panel.running


def test_cancel_is_enabled_while_running_and_emits_cancel_requested(qtbot, runs):
    events = runs["cancelled"]
    panel = ProgressPanel()
    qtbot.addWidget(panel)
    assert not panel.cancel_button.isEnabled()  # idle
    panel.append(events[0])
    assert panel.cancel_button.isEnabled()

    with qtbot.waitSignal(panel.cancel_requested, timeout=1_000):
        qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
    assert not panel.cancel_button.isEnabled()
    assert panel.status_label.text() == "Cancelling\u2026"

    with qtbot.waitSignal(panel.run_finished, timeout=1_000) as finished:
        for event in events[1:]:
            panel.append(event)
    assert finished.args == ["cancelled"]
    assert events[-1].status is EventStatus.cancelled
    assert panel.status_label.text() == "Cancelled"
    assert not panel.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: panel.model.rowCount() == len(events), timeout=5_000)


def test_cancel_before_the_first_event_is_kept(qtbot, runs):
    events = runs["cancelled"]
    panel = ProgressPanel()
    qtbot.addWidget(panel)
    panel.start_run()  # the app starts a run; no event has arrived yet
    assert panel.cancel_button.isEnabled()
    with qtbot.waitSignal(panel.cancel_requested, timeout=1_000):
        qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)
    panel.append(events[0])
    assert panel.status_label.text() == "Cancelling\u2026" and not panel.cancel_button.isEnabled()
    for event in events[1:]:
        panel.append(event)
    assert panel.status_label.text() == "Cancelled"


def test_an_infeasible_run_ends_with_its_error(qtbot, runs):
    panel = ProgressPanel()
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.run_finished, timeout=1_000) as finished:
        for event in runs["failed"]:
            panel.append(event)
    assert finished.args == ["error"]
    assert panel.status_label.text().startswith("Error: Unable to meet budget constraint")
    assert panel.progress_bar.value() == 100


def test_a_flood_is_throttled_and_every_critical_event_arrives(qtbot, runs):
    real = runs["done"]
    clock = FakeClock()
    panel = ProgressPanel(clock=clock)
    qtbot.addWidget(panel)
    # 1,000 progress events inside the planner step of a real run.
    cut = next(i for i, e in enumerate(real) if e.node == "planner" and e.status is EventStatus.started) + 1
    flood = [real[cut].model_copy(update={"status": EventStatus.running, "decision_note": f"tick {i}",
                                          "ts": real[cut].ts + timedelta(microseconds=i)}) for i in range(1000)]
    stream = [e.model_copy(update={"seq": i}) for i, e in enumerate(real[:cut] + flood + real[cut:])]
    critical = [e for e in stream if e.critical]

    started = time.perf_counter()
    for event in stream:
        panel.append(event)
    assert time.perf_counter() - started < 2.0  # appends only queue; nothing is laid out per event
    assert panel.progress_bar.value() == 100 and panel.status_label.text().startswith("Done in")

    panel.drain()
    assert panel.model.rowCount() == 20  # one burst, no more
    ticks = 0
    while panel.pending:
        clock.now += 1.0  # 10 more events allowed per second
        panel.drain()
        ticks += 1
        assert ticks < 100
    rows = shown(panel)
    assert [e for e in rows if e.critical] == critical
    assert [e.seq for e in rows] == sorted(e.seq for e in rows)
    assert len(rows) < 100 and panel.dropped == len(stream) - len(rows)
    assert "not listed" in panel.skipped_label.text()


def test_a_backlog_of_critical_events_is_never_dropped(qtbot, runs):
    real = runs["done"]
    clock = FakeClock()
    panel = ProgressPanel(clock=clock, capacity=10)
    qtbot.addWidget(panel)
    template = next(e for e in real if e.status is EventStatus.completed)
    noise = real[1].model_copy(update={"status": EventStatus.running})
    stream = []
    for i in range(60):  # 60 critical steps, each after 5 progress updates, all at once
        stream += [noise] * 5 + [template.model_copy(update={"node": f"step_{i}"})]
    stream = [e.model_copy(update={"seq": i}) for i, e in enumerate(stream)]
    for event in stream:
        panel.append(event)
    while panel.pending:
        clock.now += 1.0
        panel.drain()
    assert [e.node for e in shown(panel) if e.critical] == [f"step_{i}" for i in range(60)]
    assert panel.dropped == len(stream) - panel.model.rowCount() > 0


def test_the_drain_timer_runs_at_the_configured_rate(qtbot, runs):
    real = runs["done"]
    panel = ProgressPanel(rate=10.0, burst=5, capacity=100)
    qtbot.addWidget(panel)
    for event in real:
        panel.append(event)
    qtbot.wait(120)
    assert 5 <= panel.model.rowCount() < len(real)  # the burst, then about one more per 100 ms
    qtbot.waitUntil(lambda: panel.model.rowCount() == len(real), timeout=5_000)
    assert shown(panel) == real


def test_heartbeats_feed_the_alive_indicator_not_the_log(qtbot, runs):
    clock = FakeClock()
    panel = ProgressPanel(clock=clock)
    qtbot.addWidget(panel)
    first = runs["done"][0]
    panel.append(first)
    beat = first.model_copy(update={"seq": 1, "status": EventStatus.heartbeat, "node": "planner"})
    clock.now += 3.0
    panel.append(beat)
    assert panel.alive_age() == 0.0
    clock.now += 6.0
    panel._update_alive()
    assert panel.alive_label.text() == "\u25cf alive \u00b7 last event 6.0 s ago"
    assert "#ef6c00" in panel.alive_label.styleSheet()  # amber: quiet for a while
    panel.drain()
    assert [e.status for e in shown(panel)] == [EventStatus.started]


def test_replay_shows_a_stored_run(qtbot, runs):
    events = runs["done"]
    panel = ProgressPanel()
    qtbot.addWidget(panel)
    with qtbot.assertNotEmitted(panel.run_finished):
        panel.replay(events)
    assert shown(panel) == events
    assert panel.status_label.text().startswith("Replay \u00b7 Done in")
    assert panel.progress_bar.value() == 100
    assert not panel.cancel_button.isEnabled() and not panel.running

    panel.replay(events, after=events[9].ts)
    assert [e.seq for e in shown(panel)] == [e.seq for e in events if e.ts > events[9].ts]

    panel.replay(runs["cancelled"])
    assert panel.status_label.text() == "Replay \u00b7 Cancelled"


def test_a_new_run_starts_a_fresh_log(qtbot, runs):
    panel = ProgressPanel()
    qtbot.addWidget(panel)
    panel.replay(runs["done"])
    panel.append(runs["cancelled"][0])
    assert panel.model.rowCount() == 0 and panel.running and panel.progress_bar.value() == 0


def test_append_off_the_gui_thread_is_refused(qtbot, runs):
    panel = ProgressPanel()
    qtbot.addWidget(panel)
    errors: list[Exception] = []

    def worker():
        try:
            panel.append(runs["done"][0])
        except RuntimeError as exc:
            errors.append(exc)

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert len(errors) == 1 and "GUI thread" in str(errors[0])


def test_stream_event_contract_is_what_the_panel_reads(runs):
    # The panel shows these fields; a contract change must show up here first.
    assert set(StreamEvent.model_fields) >= {"seq", "node", "status", "ts", "duration_ms", "cache_hit",
                                             "decision_note", "progress_pct", "run_id"}
