"""The itinerary panel: a days → activities tree beside the trip's costs, advisories, repairs,
decisions and sources.

Every string from the itinerary is shown as plain text: labels are ``Qt.PlainText``, item views
never interpret markup, and tooltips are escaped (``formatting.plain_tooltip``).
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QHBoxLayout, QHeaderView, QMenu, QSplitter, QTabWidget,
                               QTreeView, QVBoxLayout, QWidget)

from engine.models import ItineraryV1

from . import formatting as fmt
from .itinerary_details import CostSummary, DetailLists, plain_label
from .itinerary_model import ItineraryModel, day_cost_cents, kind_tag
from .itinerary_stays import night_moves

__all__ = ["ItineraryModel", "ItineraryPanel", "day_cost_cents", "kind_tag"]


class ItineraryPanel(QWidget):
    """Tree of days and activities; selection is synchronised with the map by activity id."""

    activity_selected = Signal(str)
    day_selected = Signal(int)
    replan_requested = Signal(object, str)  # a multi-city trip's stay row: (the trip with a night moved, what changed)
    WIDE = 900  # wider than this: details beside the tree, else below it

    def __init__(self, parent: QWidget | None = None, *, distance_unit: str = "mi") -> None:
        super().__init__(parent)
        self.model = ItineraryModel(self, distance_unit=distance_unit)
        self._syncing = False
        self.banner = plain_label("")
        self.banner.setObjectName("degradation_banner")
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet("background: #fff3cd; color: #5d4200; border: 1px solid #e0c36c;"
                                  " border-radius: 3px; padding: 4px 6px;")
        self.banner.hide()
        self.title = plain_label("No trip planned yet")
        self.title.setObjectName("itinerary_title")
        self.title.setStyleSheet("font-weight: bold;")
        self.title.setWordWrap(True)
        self.show_transfers = QCheckBox("Transfers")
        self.show_transfers.setToolTip("Show the walks, rides and drives between stops")
        self.show_transfers.setChecked(True)
        self.show_transfers.toggled.connect(self._apply_transfer_filter)
        self.tree = self._make_tree()
        self.costs = CostSummary()
        self.costs.set_distance_unit(distance_unit)
        self.details = DetailLists()
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.costs, "Costs")
        for title, widget in self.details.tabs():
            self.tabs.addTab(widget, title)
        self.disclaimer = plain_label("")
        self.disclaimer.setObjectName("disclaimer")
        self.disclaimer.setWordWrap(True)
        self.disclaimer.setStyleSheet("color: #616161; font-style: italic;")
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.tree)
        self.splitter.addWidget(self.tabs)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.split_fraction: float | None = None  # the tree's share the user dragged to (kept across plans)
        self.splitter.splitterMoved.connect(self._remember_split)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.show_transfers)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addLayout(head)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.disclaimer)

    def _make_tree(self) -> QTreeView:
        tree = QTreeView()
        tree.setModel(self.model)
        tree.setUniformRowHeights(True)
        tree.setAlternatingRowColors(True)
        tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = tree.header()
        header.setStretchLastSection(False)
        # Fixed widths from sample texts: sizing columns to their contents made Qt read every
        # cell on each new plan (thousands of data() calls, a visible stall after planning).
        adv = tree.fontMetrics().horizontalAdvance
        # "Wed 00:00–00:00": a flight that left the day before says so (widgets.formatting.when_cell).
        widths = {ItineraryModel.COL_WHEN: adv("Wed 00:00–00:00") + 2 * tree.indentation() + 12,
                  ItineraryModel.COL_KIND: adv("Transit") + 26,  # status dot (12 px) and its spacing
                  ItineraryModel.COL_COST: adv("est. $999.99") + 14,
                  ItineraryModel.COL_MARKS: adv("Marks") + 16}  # one icon
        for col in range(len(ItineraryModel.HEADERS)):
            if col == ItineraryModel.COL_NAME:
                header.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch)
                continue
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(col, widths[col])
        tree.selectionModel().currentChanged.connect(self._on_current_changed)
        tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        tree.customContextMenuRequested.connect(lambda at: self._show_stay_menu(tree.indexAt(at), at))
        header.sectionResized.connect(lambda col, _old, _new: col == ItineraryModel.COL_NAME and self._fit_what())
        return tree

    # -- content ----------------------------------------------------------------------
    def set_itinerary(self, itinerary: ItineraryV1 | None) -> None:
        if itinerary is not None and itinerary is self.model.itinerary():
            return  # already shown (an edit's itinerary is shown before the store numbers its version)
        self.model.set_itinerary(itinerary)
        self.tree.setColumnHidden(ItineraryModel.COL_MARKS, not self.model.has_marks())
        for index in self.model.line_indexes():  # a day's line runs across its row (ItineraryModel.HeaderRole)
            self.tree.setFirstColumnSpanned(index.row(), index.parent(), True)
        self._fit_what()
        QTimer.singleShot(0, self._fit_what)  # once the header has laid its columns out (Marks shown or not)
        self.tree.expandAll()
        self._apply_transfer_filter()
        self.costs.set_itinerary(itinerary)
        self.details.set_itinerary(itinerary)
        for i, (title, _) in enumerate(self.details.tabs(), start=1):
            self.tabs.setTabText(i, title)
        self._layout_splitter(force=True)
        self.title.setText(_title(itinerary, self.model.distance_unit))
        self.disclaimer.setText(itinerary.disclaimer if itinerary else "")
        self._set_banner(itinerary)

    def itinerary(self) -> ItineraryV1 | None:
        return self.model.itinerary()

    @property
    def distance_unit(self) -> str:
        return self.model.distance_unit

    def set_distance_unit(self, unit: str) -> None:
        """Show distances in ``unit`` ("mi" | "km"): the title and the day rows re-render; the
        selection and the expanded days stay."""
        self.model.set_distance_unit(unit)
        self.details.set_distance_unit(unit)
        self.costs.set_distance_unit(unit)
        self.title.setText(_title(self.model.itinerary(), unit))

    def _set_banner(self, itinerary: ItineraryV1 | None) -> None:
        problems = []
        if itinerary is not None and itinerary.status != "ok":
            problems.append(f"Plan failed: {itinerary.message}")
        if itinerary is not None and itinerary.degraded_tools:
            problems.append("Some data fell back to embedded estimates ("
                            + ", ".join(itinerary.degraded_tools) + "); check those parts before booking.")
        self.banner.setText("\n".join(problems))
        self.banner.setVisible(bool(problems))

    def _apply_transfer_filter(self) -> None:
        show = self.show_transfers.isChecked()
        for parent in self.model.day_indexes():
            for r in range(self.model.rowCount(parent)):
                activity = self.model.index(r, 0, parent).data(ItineraryModel.ActivityRole)
                self.tree.setRowHidden(r, parent, not show and activity.role == "transfer")

    # -- selection --------------------------------------------------------------------
    def selected_activity(self) -> str | None:
        current = self.tree.currentIndex()
        return current.data(ItineraryModel.ActivityIdRole) or None if current.isValid() else None

    def select_activity(self, activity_id: str | None) -> bool:
        """Select (and reveal) an activity without emitting ``activity_selected``; None clears."""
        index = self.model.activity_index(activity_id) if activity_id else QModelIndex()
        self._syncing = True
        try:
            if not index.isValid():
                self.tree.selectionModel().clear()
                return False
            if self.tree.isRowHidden(index.row(), index.parent()):
                self.show_transfers.setChecked(True)
            self.tree.expand(index.parent())
            self.tree.selectionModel().setCurrentIndex(
                index, self.tree.selectionModel().SelectionFlag.ClearAndSelect
                | self.tree.selectionModel().SelectionFlag.Rows)
            self.tree.scrollTo(index)
            return True
        finally:
            self._syncing = False

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._syncing or not current.isValid():
            return
        if current.data(ItineraryModel.ItemTypeRole) == "activity":
            self.activity_selected.emit(current.data(ItineraryModel.ActivityIdRole))
        elif current.data(ItineraryModel.DayIndexRole) is not None:  # a day, a stay (its first day), a leg (its day)
            self.day_selected.emit(current.data(ItineraryModel.DayIndexRole))

    def stay_menu(self, index: QModelIndex) -> QMenu | None:
        """A stay row's menu: move a night to the next (or the previous) city; None on other rows."""
        itinerary = self.model.itinerary()
        if itinerary is None or not index.isValid() or index.data(ItineraryModel.ItemTypeRole) != "stay":
            return None
        stay = int(index.data(ItineraryModel.StayRole))
        menu = QMenu(self)
        for label, intent in night_moves(itinerary.intent, stay):
            action = menu.addAction(label)
            action.triggered.connect(lambda _=False, i=intent, t=label: self.replan_requested.emit(i, t))
        return menu if menu.actions() else None

    def _show_stay_menu(self, index: QModelIndex, at) -> None:  # noqa: ANN001 (QPoint)
        menu = self.stay_menu(index)
        if menu is not None:
            menu.exec(self.tree.viewport().mapToGlobal(at))

    def _fit_what(self) -> None:
        """A visit's What cell keeps its last part whole ("· open 10–19", "· hours unknown",
        "· times est.") and shortens the name before it. Done when the column's width changes, not
        while painting: the texts stay in Qt's items, so drawing never calls into Python."""
        width = self.tree.columnWidth(ItineraryModel.COL_NAME) - 16  # the cell's margins and focus frame
        metrics = self.tree.fontMetrics()
        for index in self.model.day_indexes():
            day = self.model.itemFromIndex(index)
            for r in range(day.rowCount()):
                item = day.child(r, ItineraryModel.COL_NAME)
                whole = item.data(ItineraryModel.FullTextRole)
                if whole is None:
                    whole = item.text()
                    item.setData(whole, ItineraryModel.FullTextRole)
                item.setText(_fitted(whole, width, metrics))

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self._layout_splitter()
        QTimer.singleShot(0, self._fit_what)  # the What column stretched or shrank with the panel

    def _layout_splitter(self, force: bool = False) -> None:
        """Details beside the tree when wide, below it when narrow; sizes reset only when the
        orientation flips (or new content arrives), so a user's drag of the handle is kept."""
        wanted = Qt.Orientation.Horizontal if self.width() > self.WIDE else Qt.Orientation.Vertical
        if wanted == self.splitter.orientation() and not force:
            return
        self.splitter.setOrientation(wanted)
        if wanted == Qt.Orientation.Horizontal:
            total = self.splitter.width() or self.width()
            side = max(self.tabs.tabBar().sizeHint().width() + 12, int(total * 0.4))
            self.splitter.setSizes([max(total - side, 1), side])
        else:
            total = self.splitter.height() or self.height()
            share = self.split_fraction or 0.68
            self.splitter.setSizes([int(total * share), total - int(total * share)])

    def _remember_split(self, *_args) -> None:
        sizes = self.splitter.sizes()
        if self.splitter.orientation() == Qt.Orientation.Vertical and sum(sizes) > 0:
            self.split_fraction = round(sizes[0] / sum(sizes), 3)

    def set_split_fraction(self, fraction: float) -> None:
        """The tree's share of a narrow panel's height, as the user last left it."""
        self.split_fraction = min(max(float(fraction), 0.15), 0.9)
        self._layout_splitter(force=True)


def _title(itinerary: ItineraryV1 | None, unit: str = "mi") -> str:
    if itinerary is None:
        return "No trip planned yet"
    intent, days = itinerary.intent, itinerary.days
    span = f"{fmt.day_label(days[0].date)} {fmt.EN_DASH} {fmt.day_label(days[-1].date)}" if days else ""
    if intent.mode == "road_trip":
        via = f" via {intent.route}" if intent.route else ""
        total = sum(d.drive.miles for d in days if d.drive)
        return f"{intent.origin} \u2192 {intent.terminus}{via} \u00b7 {len(days)} days \u00b7 " \
               f"{fmt.distance(total, unit)} \u00b7 {span}"
    if intent.mode == "multi_city":
        cities = " \u2192 ".join(s.city for s in intent.stays) + (f" \u2192 {intent.stays[0].city}"
                                                                  if intent.return_from == "first" else "")
        return f"{cities} \u00b7 {len(days)} days from {intent.origin_airport} \u00b7 {span}"
    return f"{intent.city} \u00b7 {len(days)} days from {intent.origin_airport} \u00b7 {span}"



def _fitted(text: str, width: int, metrics) -> str:  # noqa: ANN001 (QFontMetrics)
    """``text`` as it fits ``width``: "name · tail" keeps its tail whole and shortens the name
    (to no less than 48 px); anything else is left for the view to cut."""
    if " \u00b7 " not in text or width <= 0 or metrics.horizontalAdvance(text) <= width:
        return text
    name, tail = text.rsplit(" \u00b7 ", 1)
    tail = f" \u00b7 {tail}"
    room = max(width - metrics.horizontalAdvance(tail), 48)
    return metrics.elidedText(name, Qt.TextElideMode.ElideRight, room) + tail
