"""The diagnostics panel: node latencies from real events, tool stats from a real executor."""

import asyncio
import copy
from datetime import date

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QAbstractItemModelTester

from engine.frontend import intent_from_prompt
from engine.models import EventStatus
from engine.pipeline import PlanningSession
from engine.tools.executor import ToolStats
from widgets import formatting as fmt
from widgets.diagnostics_panel import (DiagnosticsPanel, ErrorListModel, NodeLatencyModel, ToolStatsModel,
                                       node_latencies, percentile, tool_rows)

TODAY = date(2026, 11, 23)
PARIS = "5 days in Paris from 2027-06-15, flying from JFK, budget 4000 USD, art and food"


@pytest.fixture(scope="module")
def runs():
    """A completed and an infeasible Paris run, with a snapshot of the executor's stats."""
    session = PlanningSession(today=TODAY)
    done = asyncio.run(session.plan(intent_from_prompt(PARIS, session, None)))
    stats = copy.deepcopy(session.toolbox.executor.stats)
    failed_session = PlanningSession(today=TODAY)
    failed = asyncio.run(failed_session.plan(intent_from_prompt(PARIS.replace("4000", "1800"), failed_session, None)))
    assert (done.status, failed.status) == ("completed", "error")
    return {"done": done.events, "failed": failed.events, "stats": stats}


def test_percentile_is_nearest_rank():
    assert percentile([], 50) is None
    assert percentile([7], 95) == 7
    assert percentile([4, 1, 3, 2], 50) == 2
    assert percentile(list(range(1, 101)), 95) == 95


def test_node_latencies_come_from_completed_events(runs):
    events = runs["done"]
    rows = {r.node: r for r in node_latencies(events)}
    assert list(rows)[:2] == ["intent_extractor", "planner"]
    planner = next(e for e in events if e.node == "planner" and e.status is EventStatus.completed)
    assert rows["planner"].count == 1 and rows["planner"].p50_ms == rows["planner"].p95_ms == planner.duration_ms
    assert rows["responder"].count == 0 and rows["responder"].p50_ms is None


def test_tool_rows_follow_the_executor_stats(runs):
    stats = runs["stats"]
    rows = tool_rows(stats)
    assert [r.tool for r in rows] == sorted(stats)
    for row in rows:
        assert (row.calls, row.cache_hits, row.errors) == (stats[row.tool].calls, stats[row.tool].cache_hits,
                                                            stats[row.tool].errors)
        assert row.p50_ms == percentile(stats[row.tool].latencies_ms, 50)
    # Plain mappings (a JSON snapshot) work too.
    as_dicts = {k: {"calls": v.calls, "cache_hits": v.cache_hits, "errors": v.errors, "latencies_ms": v.latencies_ms}
                for k, v in stats.items()}
    assert [(r.tool, r.calls) for r in tool_rows(as_dicts)] == [(r.tool, r.calls) for r in rows]


@pytest.mark.parametrize("model_type", [NodeLatencyModel, ToolStatsModel, ErrorListModel])
def test_models_pass_the_model_tester(qapp, qtlog, runs, model_type):
    model = model_type()
    tester = QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Warning)
    panel = DiagnosticsPanel()
    panel.refresh(runs["failed"], runs["stats"])
    rows = {NodeLatencyModel: panel.nodes, ToolStatsModel: panel.tools, ErrorListModel: panel.errors}[model_type].rows()
    model.set_rows(rows)
    assert model.rowCount() == len(rows) > 0
    assert model.columnCount() == len(model_type.HEADERS)
    for r in range(model.rowCount()):
        for c in range(model.columnCount()):
            assert isinstance(model.index(r, c).data(), str)
        assert model.index(r, 0).data(model_type.RowRole) == rows[r]
    model.set_rows([])
    del tester
    assert [r.message for r in qtlog.records if "FAIL" in r.message] == []


def test_refresh_fills_the_panel(qtbot, runs):
    panel = DiagnosticsPanel()
    qtbot.addWidget(panel)
    assert panel.summary.text() == "No run yet"
    panel.refresh(runs["done"], runs["stats"])
    assert panel.nodes.rowCount() == len({e.node for e in runs["done"]})
    assert panel.tools.rowCount() == len(runs["stats"])
    assert panel.errors.rowCount() == 0
    calls = sum(s.calls for s in runs["stats"].values())
    assert panel.summary.text().startswith(f"{len(runs['done'])} events over ")
    assert f"{calls} tool calls" in panel.summary.text() and panel.summary.text().endswith("0 error(s)")
    # The process planned (the fixture's runs): first-event and whole-run p50/p95 are shown.
    assert "First event p50 " in panel.latency.text() and "Whole run p50 " in panel.latency.text()
    assert ", p95 " in panel.latency.text()
    flights = next(r for r in range(panel.tools.rowCount()) if panel.tools.index(r, 0).data() == "flights")
    rate = panel.tools.index(flights, ToolStatsModel.COL_HIT_RATE).data()
    stats = runs["stats"]["flights"]
    assert rate == fmt.percent(stats.cache_hits, stats.calls)


def test_errors_from_events_and_tools_are_listed(qtbot, runs):
    panel = DiagnosticsPanel()
    qtbot.addWidget(panel)
    broken = {"weather": ToolStats(calls=4, cache_hits=1, errors=2, latencies_ms=[10.0, 30.0])}
    panel.refresh(runs["failed"], broken)
    messages = [panel.errors.index(r, ErrorListModel.COL_MESSAGE).data() for r in range(panel.errors.rowCount())]
    assert messages[0].startswith("Unable to meet budget constraint")
    assert messages[-1] == "2 failed call(s) of 4"
    errors_cell = panel.tools.index(0, ToolStatsModel.COL_ERRORS)
    assert errors_cell.data() == "2" and errors_cell.data(Qt.ItemDataRole.ForegroundRole) == QColor("#c62828")
    assert panel.tools.index(0, ToolStatsModel.COL_HIT_RATE).data() == "25%"
    assert panel.tools.index(0, ToolStatsModel.COL_P50).data() == "10 ms"
    responder = next(r for r in range(panel.nodes.rowCount()) if panel.nodes.index(r, 0).data() == "responder")
    assert panel.nodes.index(responder, NodeLatencyModel.COL_ERRORS).data() == "1"


async def test_the_panel_shows_breaker_states_and_error_reasons(qapp):
    from engine.errors import ToolError
    from engine.tools.executor import ToolExecutor

    def refused(request):
        raise ConnectionRefusedError("connection refused")
    ex = ToolExecutor()
    for i in range(6):
        with pytest.raises(ToolError):
            await ex.call("weather", refused, {"n": i})
    await ex.call("fx", lambda r: 1.0, {"x": 1})
    panel = DiagnosticsPanel()
    panel.refresh([], ex.stats, ex.breaker_states())
    model = panel.tools
    cells = {r.tool: [model.cell(r, c) for c in range(len(model.HEADERS))] for r in model.rows()}
    assert cells["weather"][ToolStatsModel.COL_BREAKER] == "open"
    assert cells["weather"][ToolStatsModel.COL_ERRORS] == "6 (circuit_open 1, unavailable 5)"
    assert cells["fx"][ToolStatsModel.COL_BREAKER] == "closed"
    weather = next(r for r in model.rows() if r.tool == "weather")
    assert model.is_bad(weather, ToolStatsModel.COL_BREAKER)
