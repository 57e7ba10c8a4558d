"""The saved trips as a Qt table model, the search/sort proxy in front of it, and the helpers
they share (name validation, "updated" wording, kind icons).

A pure view: rows are ``TripSummary`` records handed in by whoever owns the store. Renames are
validated here, shown at once, and announced with ``rename_requested``; the owner writes them
and, if the write fails, hands in the list again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timezone

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPointF, QRectF, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPainterPath, QPen, QPixmap

from engine.store.records import TripSummary, VersionSummary
from widgets.table_model import RowsTableModel

from . import formatting as fmt

_Index = QModelIndex | QPersistentModelIndex

MAX_NAME_CHARS = 120  # the store allows more; a list row and a window title do not
KIND_LABELS = {"city": "City", "road_trip": "Road trip"}
KIND_COLOURS = {"city": "#1565c0", "road_trip": "#2e7d32"}


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


# -- pure helpers ---------------------------------------------------------------------
def dated_trip_name(intent) -> str:  # noqa: ANN001 (an IntentV1 or a RoadTripIntent)
    """A new trip's name with its dates, so two Paris trips are told apart in the Trips list:
    "Paris, 5 days · 15–19 Jun 2027"; "Los Angeles → Chicago via Route 66, 7 days · 3–9 May 2027"."""
    from datetime import timedelta

    from engine.store.records import trip_name_for

    if intent.mode == "road_trip":
        start = intent.start_date
        end = start + timedelta(days=intent.days - 1)
    else:
        start, end = intent.date_window.start, intent.date_window.end
    if (start.year, start.month) == (end.year, end.month):
        span = f"{start.day}\u2013{end.day} {end:%b %Y}" if start != end else f"{start.day} {start:%b %Y}"
    elif start.year == end.year:
        span = f"{start.day} {start:%b}\u2013{end.day} {end:%b %Y}"
    else:
        span = f"{start.day} {start:%b %Y}\u2013{end.day} {end:%b %Y}"
    return f"{trip_name_for(intent)} \u00b7 {span}"[:MAX_NAME_CHARS]


def clean_trip_name(text: str) -> tuple[str, str]:
    """``(name, "")`` for an acceptable name (trimmed), else ``("", reason)``.

    The same rules as the store (one line, printable) plus the UI's length cap, so a rename the
    list accepts is one the store will accept too.
    """
    name = (text or "").strip()
    if not name:
        return "", "A trip needs a name \u2014 the old name is kept."
    if any(ord(c) < 32 and c != "\t" for c in name):
        return "", "A trip name is one line of text \u2014 the old name is kept."
    if len(name) > MAX_NAME_CHARS:
        return "", f"Trip names are at most {MAX_NAME_CHARS} characters \u2014 the old name is kept."
    return name, ""


def _aware(ts: datetime) -> datetime:
    """SQLite hands back naive UTC; treat it as such so comparisons and local display work."""
    return ts.replace(tzinfo=timezone.utc) if ts.tzinfo is None else ts


def updated_text(ts: datetime, now: datetime) -> str:
    """When a trip changed, as a person says it: ``"just now"``, ``"12 min ago"``,
    ``"today 14:05"``, ``"yesterday"``, ``"Mon 18:30"`` within a week, else ``"2 Nov 2026"``.
    Calendar words use the local time zone, since that is the user's "today"."""
    ts, now = _aware(ts), _aware(now)
    seconds = (now - ts).total_seconds()
    if 0 <= seconds < 60:
        return "just now"
    if 0 <= seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    local, local_now = ts.astimezone(), now.astimezone()
    days = (local_now.date() - local.date()).days
    if days == 0:
        return f"today {local:%H:%M}"
    if days == 1:
        return "yesterday"
    if 1 < days < 7:
        return f"{local:%a %H:%M}"
    return f"{local.day} {local:%b %Y}"


def full_local_time(ts: datetime) -> str:
    """``"Mon 2026-11-02 14:05"`` in local time: the exact moment, for tooltips."""
    return f"{_aware(ts).astimezone():%a %Y-%m-%d %H:%M}"


def latest_summary(latest: VersionSummary | None) -> str:
    """``"5 days · $2,140.00"``: what the newest saved plan covers and costs."""
    if latest is None:
        return ""
    days = f"{latest.day_count} day{'s' if latest.day_count != 1 else ''}"
    cost = fmt.money(latest.total_usd_cents)
    return f"{days} \u00b7 {cost}" if cost else days


# -- icons ----------------------------------------------------------------------------
def _city_icon(colour: str, size: int = 16) -> QIcon:
    """Three towers of a skyline with lit windows (plain bars would read as a chart)."""
    pixmap, painter = _canvas(size)
    towers = ((0.5, 7, 4.5), (5.5, 2, 5), (11, 5, 4.5))
    painter.setBrush(QColor(colour))
    for x, top, width in towers:
        painter.drawRect(QRectF(x, top, width, size - top))
    painter.setBrush(QColor("white"))
    for x, top, width in towers:
        for y in range(int(top) + 2, size - 2, 3):
            painter.drawRect(QRectF(x + width / 2 - 0.75, y, 1.5, 1.5))
    painter.end()
    return _icon(pixmap)


def _road_icon(colour: str, size: int = 16) -> QIcon:
    """A road running to the horizon, with a dashed centre line."""
    pixmap, painter = _canvas(size)
    road = QPainterPath(QPointF(1, size - 1))
    for x, y in ((size / 2 - 2, 2), (size / 2 + 2, 2), (size - 1, size - 1)):
        road.lineTo(x, y)
    road.closeSubpath()
    painter.setBrush(QColor(colour))
    painter.drawPath(road)
    painter.setPen(QPen(QColor("white"), 1.2, Qt.PenStyle.DashLine))
    painter.drawLine(QPointF(size / 2, size - 2), QPointF(size / 2, 4))
    painter.end()
    return _icon(pixmap)


def _icon(pixmap: QPixmap) -> QIcon:
    """The same drawing when the row is selected: the default selected tint washes it out."""
    icon = QIcon(pixmap)
    icon.addPixmap(pixmap, QIcon.Mode.Selected)
    return icon


def _canvas(size: int) -> tuple[QPixmap, QPainter]:
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    return pixmap, painter


# -- the model ------------------------------------------------------------------------
class TripListModel(RowsTableModel):
    """One row per live (not deleted) trip; the Name cell is editable."""

    COL_NAME, COL_KIND, COL_VERSIONS, COL_UPDATED = range(4)
    HEADERS = ("Name", "Kind", "Versions", "Updated")
    TripIdRole = Qt.ItemDataRole.UserRole + 1
    TripRole = Qt.ItemDataRole.UserRole + 2  # the TripSummary
    SortRole = Qt.ItemDataRole.UserRole + 3  # what the proxy sorts by: the real value, not its wording
    LatestRole = Qt.ItemDataRole.UserRole + 4  # the latest VersionSummary, or None
    IsCurrentRole = Qt.ItemDataRole.UserRole + 5  # True on the trip that is open

    rename_requested = Signal(str, str)  # trip_id, trimmed new name
    rename_refused = Signal(str, str)  # trip_id, why (a sentence for the user)

    def __init__(self, parent=None, *, now: Callable[[], datetime] = utc_now) -> None:
        super().__init__(parent)
        self._rows: list[TripSummary] = []
        self._row_of: dict[str, int] = {}
        self._latest: dict[str, VersionSummary] = {}
        self._current: str | None = None
        self._now = now
        self._icons: dict[str, QIcon] = {}

    # -- feeding ----------------------------------------------------------------------
    def set_trips(self, trips: Iterable[TripSummary],
                  latest: Mapping[str, VersionSummary] | None = None) -> None:
        """Replace the rows. The same trips in the same order only refresh their cells, so views
        keep their selection, scroll position and any open editor; anything else resets."""
        rows = [t for t in trips if not t.deleted]
        self._latest = dict(latest or {})
        if [t.trip_id for t in rows] == [t.trip_id for t in self._rows]:
            self._rows = rows
            if rows:
                self.dataChanged.emit(self.index(0, 0), self.index(len(rows) - 1, len(self.HEADERS) - 1))
            return
        self.beginResetModel()
        self._rows = rows
        self._reindex()
        self.endResetModel()

    def remove_trip(self, trip_id: str) -> bool:
        """Take one trip out (it was deleted); False when it was not listed."""
        row = self._row_of.get(trip_id)
        if row is None:
            return False
        self.beginRemoveRows(QModelIndex(), row, row)
        del self._rows[row]
        self._reindex()
        self.endRemoveRows()
        return True

    def set_current(self, trip_id: str | None) -> None:
        """Mark the open trip (its row is drawn bold)."""
        before, self._current = self._current, trip_id
        for changed in {before, trip_id} - {None}:
            self._emit_row_changed(changed)

    def refresh_times(self) -> None:
        """Re-word the Updated column ("3 min ago" ages); the sort order does not change."""
        if self._rows:
            top, bottom = self.index(0, self.COL_UPDATED), self.index(len(self._rows) - 1, self.COL_UPDATED)
            self.dataChanged.emit(top, bottom, [Qt.ItemDataRole.DisplayRole])

    def _reindex(self) -> None:
        self._row_of = {t.trip_id: row for row, t in enumerate(self._rows)}

    def _emit_row_changed(self, trip_id: str) -> None:
        row = self._row_of.get(trip_id)
        if row is not None:
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.HEADERS) - 1))

    # -- lookups ----------------------------------------------------------------------
    @property
    def current(self) -> str | None:
        return self._current

    def trip(self, trip_id: str) -> TripSummary | None:
        row = self._row_of.get(trip_id)
        return None if row is None else self._rows[row]

    def latest(self, trip_id: str) -> VersionSummary | None:
        return self._latest.get(trip_id)

    def row_of(self, trip_id: str) -> int:
        return self._row_of.get(trip_id, -1)

    def trip_ids(self) -> list[str]:
        return [t.trip_id for t in self._rows]

    # -- editing ----------------------------------------------------------------------
    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() == self.COL_NAME:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def setData(self, index: _Index, value, role: int = Qt.ItemDataRole.EditRole) -> bool:
        """A rename typed into the Name cell: refused (with ``rename_refused``) unless it is a
        valid name; otherwise shown at once and announced with ``rename_requested``."""
        trip = self.row_at(index)
        if trip is None or role != Qt.ItemDataRole.EditRole or index.column() != self.COL_NAME:
            return False
        name, reason = clean_trip_name(str(value) if value is not None else "")
        if reason:
            self.rename_refused.emit(trip.trip_id, reason)
            return False
        if name == trip.name:
            return False
        self._rows[index.row()] = trip.model_copy(update={"name": name})
        self.dataChanged.emit(index, index)
        self.rename_requested.emit(trip.trip_id, name)
        return True

    # -- data -------------------------------------------------------------------------
    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        trip = self.row_at(index)
        if trip is None:
            return None
        col = index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return trip.name if role == Qt.ItemDataRole.EditRole else self._display(trip, col)
        if role == self.SortRole:
            return self._sort_key(trip, col)
        if role == self.TripIdRole:
            return trip.trip_id
        if role == self.TripRole:
            return trip
        if role == self.LatestRole:
            return self._latest.get(trip.trip_id)
        if role == self.IsCurrentRole:
            return trip.trip_id == self._current
        return self._decoration(trip, col, role)

    def _display(self, trip: TripSummary, col: int) -> str:
        if col == self.COL_NAME:
            return trip.name
        if col == self.COL_KIND:
            return KIND_LABELS.get(trip.mode, trip.mode)
        if col == self.COL_VERSIONS:
            return str(trip.version_count)
        return updated_text(trip.updated_at, self._now())

    def _sort_key(self, trip: TripSummary, col: int):
        if col == self.COL_NAME:
            return trip.name.casefold()
        if col == self.COL_KIND:
            return trip.mode
        if col == self.COL_VERSIONS:
            return trip.version_count
        return _aware(trip.updated_at).timestamp()

    def _decoration(self, trip: TripSummary, col: int, role: int):
        if role == Qt.ItemDataRole.DecorationRole and col == self.COL_KIND:
            return self._kind_icon(trip.mode)
        if role == Qt.ItemDataRole.FontRole and trip.trip_id == self._current:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole:
            return fmt.plain_tooltip(self._tooltip(trip))
        if role == Qt.ItemDataRole.TextAlignmentRole and col == self.COL_VERSIONS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _tooltip(self, trip: TripSummary) -> str:
        lines = [trip.name, f"{KIND_LABELS.get(trip.mode, trip.mode)} \u00b7 "
                            f"{trip.version_count} version{'s' if trip.version_count != 1 else ''}"]
        summary = latest_summary(self._latest.get(trip.trip_id))
        if summary:
            lines.append(f"Latest plan: {summary}")
        lines.append(f"Updated {full_local_time(trip.updated_at)}")
        if trip.trip_id == self._current:
            lines.append("Open now")
        return "\n".join(lines)

    def _kind_icon(self, mode: str) -> QIcon:
        if mode not in self._icons:
            colour = KIND_COLOURS.get(mode, "#78909c")
            self._icons[mode] = _road_icon(colour) if mode == "road_trip" else _city_icon(colour)
        return self._icons[mode]


# -- search and sort ------------------------------------------------------------------
class TripFilterProxy(QSortFilterProxyModel):
    """Sorts by the model's SortRole and keeps the trips whose name contains the search text
    (case-insensitive with full Unicode case folding, so "STRASSE" finds "Straße")."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._needle = ""
        self.setSortRole(TripListModel.SortRole)
        self.setDynamicSortFilter(True)

    @property
    def search_text(self) -> str:
        return self._needle

    def set_search(self, text: str) -> None:
        needle = (text or "").strip().casefold()
        if needle == self._needle:
            return
        self.beginFilterChange()
        self._needle = needle
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:
        if not self._needle:
            return True
        name = self.sourceModel().index(source_row, TripListModel.COL_NAME, source_parent).data()
        return self._needle in (name or "").casefold()

    def trip_id_at(self, row: int) -> str | None:
        return self.index(row, 0).data(TripListModel.TripIdRole) if 0 <= row < self.rowCount() else None
