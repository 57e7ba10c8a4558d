"""The trip list panel (issue 5): the organisation's saved trips, searchable and sortable,
with open, rename, delete-with-undo and "new".

A pure view: it never touches the store. It *asks* through signals (``open_requested``,
``rename_requested``, ``delete_requested``, ``restore_requested``, ``new_requested``) and the
owner answers by handing in state (``set_trips``, ``show_deleted``, ``set_current``). Trip names
are user input, so every label is plain text and tooltips are escaped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetrics, QKeySequence
from PySide6.QtWidgets import (QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QMenu,
                               QPushButton, QStackedWidget, QStyle, QStyledItemDelegate, QTableView, QVBoxLayout, QWidget)

from engine.store.records import TripSummary, VersionSummary

from .trip_list_keys import TripListKeys
from .trip_list_undo import DeleteUndoBar, plain_label
from .trip_list_model import MAX_NAME_CHARS, TripFilterProxy, TripListModel, latest_summary, utc_now

EMPTY_TEXT = "No saved trips yet \u2014 plan one and it is saved here."
UNDO_TIMEOUT_MS = 10_000
MESSAGE_TIMEOUT_MS = 8_000
TIME_REFRESH_MS = 60_000  # "3 min ago" must not say that for an hour


def no_match_text(search: str) -> str:
    return f"No trip matches \u201c{search.strip()}\u201d"


class _NameDelegate(QStyledItemDelegate):
    """The inline rename editor: one line, capped at the length the model accepts."""

    def createEditor(self, parent, option, index):  # noqa: ANN001 (Qt signature)
        editor = super().createEditor(parent, option, index)
        if isinstance(editor, QLineEdit):
            editor.setMaxLength(MAX_NAME_CHARS)
            editor.setObjectName("trip_name_editor")
        return editor


class TripListPanel(TripListKeys, DeleteUndoBar, QWidget):
    """Saved trips of the current organisation. See the module docstring for the contract."""

    open_requested = Signal(str)  # trip_id
    rename_requested = Signal(str, str)  # trip_id, trimmed new name
    delete_requested = Signal(str)  # trip_id
    restore_requested = Signal(str)  # trip_id (Undo of a deletion)
    new_requested = Signal()

    def __init__(self, parent: QWidget | None = None, *, undo_timeout_ms: int = UNDO_TIMEOUT_MS,
                 message_timeout_ms: int = MESSAGE_TIMEOUT_MS,
                 now: Callable[[], datetime] = utc_now) -> None:
        super().__init__(parent)
        self._undo_trip: TripSummary | None = None
        self._reselect: str | None = None
        self.model = TripListModel(self, now=now)
        self.proxy = TripFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self._build()
        self._undo_timer = self._single_shot(undo_timeout_ms, self.dismiss_undo)
        self._message_timer = self._single_shot(message_timeout_ms, self.message_label.hide)
        self._time_timer = QTimer(self)
        self._time_timer.setInterval(TIME_REFRESH_MS)
        self._time_timer.timeout.connect(self.model.refresh_times)
        self._time_timer.start()
        self._connect()
        self.table.sortByColumn(TripListModel.COL_UPDATED, Qt.SortOrder.DescendingOrder)
        self._refresh_view_state()

    def _single_shot(self, interval_ms: int, slot: Callable[[], None]) -> QTimer:
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(interval_ms)
        timer.timeout.connect(slot)
        return timer

    # -- building ---------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.addLayout(self._build_search_row())
        self.message_label = plain_label(object_name="trip_list_message")
        self.message_label.setWordWrap(True)
        self.message_label.setStyleSheet("color: #c62828;")
        self.message_label.hide()
        layout.addWidget(self.message_label)
        self.stack = QStackedWidget()
        self.stack.addWidget(self._build_table())
        self.stack.addWidget(self._build_empty_label())
        layout.addWidget(self.stack, 1)
        self.detail_label = plain_label(object_name="trip_list_detail")
        self.detail_label.setStyleSheet("color: #616161;")
        layout.addWidget(self.detail_label)
        layout.addWidget(self._build_undo_bar())
        layout.addLayout(self._build_action_row())

    def _build_search_row(self) -> QHBoxLayout:
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search trips")
        self.search.setClearButtonEnabled(True)
        self.search.setObjectName("trip_search")
        self.new_button = QPushButton("New trip")
        self.new_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_FileIcon))
        self.new_button.setToolTip("Plan a new trip")
        row = QHBoxLayout()
        row.addWidget(self.search, 1)
        row.addWidget(self.new_button)
        return row

    def _build_table(self) -> QTableView:
        table = self.table = QTableView()
        table.setObjectName("trip_table")
        table.setModel(self.proxy)
        table.setItemDelegateForColumn(TripListModel.COL_NAME, _NameDelegate(table))
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        # F2 / Rename only: double-click means "open", and a stray click must not start an edit.
        table.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed)
        table.setSortingEnabled(True)
        table.setAlternatingRowColors(True)
        table.setWordWrap(False)
        table.setTextElideMode(Qt.TextElideMode.ElideRight)
        table.setTabKeyNavigation(False)
        table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        table.verticalHeader().setVisible(False)
        table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 10)
        self._size_columns(table.horizontalHeader())
        return table

    def _size_columns(self, header: QHeaderView) -> None:
        """Fixed widths from the font, not ResizeToContents: that measures rows on every change,
        which a thousand trips make noticeable. The small columns get just what their widest
        wording needs, so the Name column keeps the most room in a narrow dock."""
        bold = QFont(self.font())
        bold.setBold(True)  # the open trip's row is bold, and some styles draw headers bold
        metrics = QFontMetrics(bold)
        margin = 2 * self.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin) + 8
        arrow = 16  # the sort indicator drawn in a header that sorts
        advance = metrics.horizontalAdvance
        widths = {TripListModel.COL_KIND: advance("Road trip") + 16 + 4 + margin,
                  TripListModel.COL_VERSIONS: advance("Versions") + margin,
                  TripListModel.COL_UPDATED: max(advance("Updated") + arrow,
                                                 *(advance(s) for s in ("yesterday", "28 Sep 2026", "today 00:00",
                                                                        "59 min ago", "Wed 00:00"))) + margin}
        header.setSectionResizeMode(TripListModel.COL_NAME, QHeaderView.ResizeMode.Stretch)
        for col, width in widths.items():
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(col, width)
        header.setMinimumSectionSize(advance("Name") + margin)
        header.setSortIndicatorShown(True)

    def _build_empty_label(self) -> QLabel:
        self.empty_label = plain_label(EMPTY_TEXT, object_name="trip_list_empty")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.empty_label.setStyleSheet("color: #757575; padding: 24px;")
        return self.empty_label

    def _build_action_row(self) -> QHBoxLayout:
        self.open_button = QPushButton("Open")
        self.open_button.setToolTip("Open the selected trip (Enter or double-click)")
        self.rename_button = QPushButton("Rename")
        self.rename_button.setToolTip("Rename the selected trip (F2)")
        self.delete_button = QPushButton("Delete")
        self.delete_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_TrashIcon))
        self.delete_button.setToolTip("Delete the selected trip (Delete); you can undo it")
        row = QHBoxLayout()
        for button in (self.open_button, self.rename_button, self.delete_button):
            row.addWidget(button)
        row.addStretch(1)
        return row

    def _connect(self) -> None:
        self.search.textChanged.connect(self._on_search)
        self.new_button.clicked.connect(self.new_requested)
        self.open_button.clicked.connect(self.open_selected)
        self.rename_button.clicked.connect(lambda: self.start_rename())
        self.delete_button.clicked.connect(self.delete_selected)
        self.undo_button.clicked.connect(self.undo_delete)
        self.undo_close.clicked.connect(self.dismiss_undo)
        self.table.doubleClicked.connect(self._on_double_click)
        self.table.customContextMenuRequested.connect(self._show_context_menu)
        self.table.selectionModel().selectionChanged.connect(self._refresh_selection_state)
        self.model.rename_requested.connect(self._on_renamed)
        self.model.rename_refused.connect(lambda _trip_id, reason: self._show_message(reason))
        self.model.modelAboutToBeReset.connect(self._remember_selection)
        self.model.modelReset.connect(self._restore_selection)
        for signal in (self.proxy.rowsInserted, self.proxy.rowsRemoved, self.proxy.modelReset,
                       self.proxy.layoutChanged):
            signal.connect(self._refresh_view_state)

    # -- what the owner calls ---------------------------------------------------------
    def set_trips(self, trips: Iterable[TripSummary],
                  latest: Mapping[str, VersionSummary] | None = None) -> None:
        """Show these trips (deleted ones are left out); the selected trip stays selected."""
        self.model.set_trips(trips, latest)
        self._refresh_selection_state()

    def set_current(self, trip_id: str | None) -> None:
        """Mark the trip that is open in the main window (bold row)."""
        self.model.set_current(trip_id)

    def select_trip(self, trip_id: str | None) -> bool:
        """Select ``trip_id``'s row (and scroll to it); False when it is not shown."""
        index = self._proxy_index(trip_id)
        if not index.isValid():
            self.table.clearSelection()
            return False
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self.table.selectionModel().setCurrentIndex(index, flags)
        self.table.scrollTo(index)
        return True

    def selected_trip_id(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        return rows[0].data(TripListModel.TripIdRole) if rows else None

    # -- actions ----------------------------------------------------------------------
    def open_selected(self) -> None:
        trip_id = self.selected_trip_id()
        if trip_id:
            self.open_requested.emit(trip_id)

    def delete_selected(self) -> None:
        trip_id = self.selected_trip_id()
        if trip_id:
            self.delete_requested.emit(trip_id)

    def start_rename(self, trip_id: str | None = None) -> None:
        """Open the inline editor on the Name cell of ``trip_id`` (default: the selected trip)."""
        trip_id = trip_id or self.selected_trip_id()
        index = self._proxy_index(trip_id, TripListModel.COL_NAME)
        if index.isValid():
            self.select_trip(trip_id)
            self.table.setFocus()
            self.table.edit(index)

    # -- reactions --------------------------------------------------------------------
    def _on_search(self, text: str) -> None:
        self.proxy.set_search(text)
        self._refresh_view_state()

    def _on_double_click(self, index: QModelIndex) -> None:
        trip_id = index.data(TripListModel.TripIdRole)
        if trip_id:
            self.open_requested.emit(trip_id)

    def _on_renamed(self, trip_id: str, name: str) -> None:
        self.message_label.hide()
        self.rename_requested.emit(trip_id, name)

    def _show_message(self, text: str) -> None:
        self.message_label.setText(text)
        self.message_label.show()
        self._message_timer.start()

    def _show_context_menu(self, pos: QPoint) -> None:
        index = self.table.indexAt(pos)
        trip_id = index.data(TripListModel.TripIdRole) if index.isValid() else None
        if not trip_id:
            return
        self.select_trip(trip_id)
        self.context_menu(trip_id).popup(self.table.viewport().mapToGlobal(pos))

    def context_menu(self, trip_id: str) -> QMenu:
        """Open / Rename / Delete for one row (built fresh, so it always names the right trip)."""
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.addAction("Open", lambda: self.open_requested.emit(trip_id))
        menu.addAction("Rename", lambda: self.start_rename(trip_id)).setShortcut(QKeySequence("F2"))
        menu.addSeparator()
        delete = menu.addAction(self.style().standardIcon(QStyle.StandardPixmap.SP_TrashIcon), "Delete")
        delete.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        delete.triggered.connect(lambda: self.delete_requested.emit(trip_id))
        return menu

    def _remember_selection(self) -> None:
        self._reselect = self.selected_trip_id()

    def _restore_selection(self) -> None:
        if self._reselect:
            self.select_trip(self._reselect)
        self._reselect = None

    def _refresh_view_state(self, *_args) -> None:
        """The table, or the sentence saying why it is empty."""
        if self.proxy.rowCount():
            self.stack.setCurrentWidget(self.table)
        else:
            empty = self.model.rowCount() == 0
            self.empty_label.setText(EMPTY_TEXT if empty else no_match_text(self.search.text()))
            self.stack.setCurrentWidget(self.empty_label)
        self._refresh_selection_state()

    def _refresh_selection_state(self, *_args) -> None:
        trip_id = self.selected_trip_id()
        for button in (self.open_button, self.rename_button, self.delete_button):
            button.setEnabled(trip_id is not None)
        self.detail_label.setText(self._detail_text(trip_id))

    def _detail_text(self, trip_id: str | None) -> str:
        trip = self.model.trip(trip_id) if trip_id else None
        if trip is None:
            count = self.proxy.rowCount()
            return f"{count} trip{'s' if count != 1 else ''}" if count else ""
        summary = latest_summary(self.model.latest(trip_id))
        if trip.version_count == 0:
            return "No plan saved yet"
        return f"Latest plan: {summary}" if summary else f"{trip.version_count} saved version(s)"

    def _proxy_index(self, trip_id: str | None, column: int = 0) -> QModelIndex:
        row = self.model.row_of(trip_id) if trip_id else -1
        if row < 0:
            return QModelIndex()
        return self.proxy.mapFromSource(self.model.index(row, column))
