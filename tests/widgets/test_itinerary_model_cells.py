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
