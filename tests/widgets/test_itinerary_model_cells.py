"""Issue 14 §3: the itinerary model answers each cell once per itinerary and all of a cell's
roles in one call (``multiData``, what the delegate paints with); both must say what ``data()``
says, and a new itinerary or distance unit must never show the old answers."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QModelRoleData, QModelRoleDataSpan, Qt

from tests.widgets.test_panels_itinerary import paris, route66  # noqa: F401 (fixtures)
from widgets.itinerary_panel import ItineraryModel

ROLES = [Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.ForegroundRole,
         Qt.ItemDataRole.FontRole, Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.ToolTipRole,
         Qt.ItemDataRole.BackgroundRole, ItineraryModel.ActivityIdRole, ItineraryModel.KindRole,
         ItineraryModel.LockedRole]


def _cells(model):
    for day in range(model.rowCount()):
        parent = model.index(day, 0)
        for col in range(model.columnCount()):
            yield model.index(day, col)
        for row in range(model.rowCount(parent)):
            for col in range(model.columnCount()):
                yield model.index(row, col, parent)


def _multi(index, role):
    item = QModelRoleData(int(role))
    index.multiData(QModelRoleDataSpan(item))
    return item.data()


def _same(a, b) -> bool:
    if hasattr(a, "cacheKey"):  # icons: the same cached icon
        return b is not None and a.cacheKey() == b.cacheKey()
    return a == b


def test_multi_data_answers_what_data_answers(qapp, paris):
    model = ItineraryModel()
    model.set_itinerary(paris)
    checked = 0
    for index in _cells(model):
        for role in ROLES:
            assert _same(model.data(index, role), _multi(index, role)), (index.row(), index.column(), role)
            checked += 1
    assert checked > 500
    assert _multi(QModelIndex(), Qt.ItemDataRole.DisplayRole) is None


def test_a_new_itinerary_or_unit_never_shows_the_old_answers(qapp, paris, route66):
    model = ItineraryModel()
    model.set_itinerary(paris)
    paris_first = model.data(model.index(0, ItineraryModel.COL_NAME))
    model.set_itinerary(route66)
    road_first = model.data(model.index(0, ItineraryModel.COL_NAME))
    assert road_first != paris_first and "mi" in road_first
    model.set_distance_unit("km")
    assert "km" in model.data(model.index(0, ItineraryModel.COL_NAME))
    assert "km" in _multi(model.index(0, ItineraryModel.COL_NAME), Qt.ItemDataRole.DisplayRole)


def _outage_itinerary(monkeypatch):
    """A Paris trip planned while attractions and dining time out (the real executor, its hard
    timeout shortened so the test does not wait seconds)."""
    import asyncio

    from engine.pipeline import PlanningSession
    from engine.tools.executor import ExecutorPolicy, ToolExecutor
    from tests.engine.conftest import TODAY, new_toolbox, paris_demo

    monkeypatch.setenv("SIMULATE_TOOL_TIMEOUT", "attractions:1s,dining:1s")
    toolbox = new_toolbox(executor=ToolExecutor(ExecutorPolicy(soft_timeout_s=0.02, hard_timeout_s=0.05)))
    result = asyncio.run(PlanningSession(today=TODAY, toolbox=toolbox).plan(paris_demo()))
    assert result.status == "completed"
    return result.itinerary


def test_rows_a_tool_outage_omitted_are_grey_and_say_so(qapp, monkeypatch):
    from widgets.itinerary_model import OMITTED_COLOUR

    itinerary = _outage_itinerary(monkeypatch)
    assert {"attractions", "dining"} <= set(itinerary.degraded_tools)
    model = ItineraryModel()
    model.set_itinerary(itinerary)
    seen = 0
    for index in _cells(model):
        activity = model.data(index, ItineraryModel.ActivityRole)
        if activity is None or activity.role != "omitted":
            continue
        seen += 1
        assert model.data(index, Qt.ItemDataRole.ForegroundRole).name() == OMITTED_COLOUR
        if index.column() == ItineraryModel.COL_MARKS:  # the marks as text (the column draws icons)
            assert model.data(index, ItineraryModel.MarksRole) == "omitted"
        if index.column() == ItineraryModel.COL_NAME:
            assert model.data(index, Qt.ItemDataRole.DisplayRole) == "Sights and meals omitted"
    assert seen >= (len(itinerary.days) - 1) * model.columnCount()
    summaries = [model.data(model.index(day, ItineraryModel.COL_NAME)) for day in range(model.rowCount())]
    assert "omitted" in summaries[1] and "sight" not in summaries[1]  # not counted as a sight
