"""The itinerary as a Qt tree model: days at the top level, their activities below.

Column constants and roles are the contract the panel, the map sync and the tests use.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPen, QPixmap, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication, QStyle

from engine.maps.stay_layers import MODE_WORDS, leg_label
from engine.models import Activity, ChoiceKind, DayItinerary, ItineraryV1

from . import formatting as fmt
from .itinerary_facts import EST, day_weather, estimated_time, opening_hours, road_stop_hours
from .itinerary_stays import leg_cells, leg_of, legs_after, stay_cells, stay_groups
from .itinerary_words import source_words


KIND_TAGS = {ChoiceKind.flight: "Flight", ChoiceKind.lodging: "Stay", ChoiceKind.attraction: "Sight",
             ChoiceKind.meal: "Meal", ChoiceKind.transit: "Transit"}
KIND_COLOURS = {ChoiceKind.flight: "#6a1b9a", ChoiceKind.lodging: "#1565c0", ChoiceKind.attraction: "#2e7d32",
                ChoiceKind.meal: "#e65100", ChoiceKind.transit: "#78909c"}
LOW_CONFIDENCE_COLOUR = "#b26a00"
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
LOW_MARK = "low conf."  # short: the Marks column shares a narrow dock; the tooltip says why
OMITTED_COLOUR = "#9e9e9e"  # seed §12.2: grey rows for what a tool outage left out
DAY_TINT = "#e8eef5"  # a day's line across its row


def is_booked(activity: Activity) -> bool:
    """A flight or stay the traveller booked (engine/planning/booked.py stamps them "bookings")."""
    return activity.provenance is not None and activity.provenance.tool == "bookings"


def is_omitted(activity: Activity) -> bool:
    return activity.provenance is not None and activity.provenance.data_source == "omitted"


HOTEL_DESK = {"checkin": "check-in", "checkout": "check-out"}  # a city stay's two rows, told apart


def kind_tag(activity: Activity, road_trip: bool) -> str:
    if road_trip and activity.kind is ChoiceKind.transit:
        return "Arrive" if activity.role == "arrival" else "Drive"
    if activity.kind is ChoiceKind.attraction and activity.ref.startswith("booked_event_"):
        return "Ticket"  # a booked show or timed entry (engine/planning/booked_events.py)
    return KIND_TAGS[activity.kind]


def day_cost_cents(itinerary: ItineraryV1, index: int) -> int:
    """What a day costs. City trips: its activities. Road trips book nothing per activity, so a
    day gets its share of the trip estimate: fuel by miles, one night (not on the last day) and
    a day of meals."""
    day = itinerary.days[index]
    if itinerary.intent.mode != "road_trip":
        return sum(a.cost_usd_cents for a in day.activities)
    cost, days = itinerary.cost_breakdown, itinerary.days
    total_miles = sum(d.drive.miles for d in days if d.drive) or 1.0
    fuel = cost.transit_usd_cents * (day.drive.miles if day.drive else 0.0) / total_miles
    nights = max(len(days) - 1, 1)
    lodging = cost.lodging_usd_cents / nights if index < len(days) - 1 else 0
    return int(round(fuel + lodging + cost.daily_spend_usd_cents / len(days)))


class ItineraryModel(QStandardItemModel):
    """Days at the top level, their activities below; a multi-city trip's days under their stay's row, with
    a row for each leg between two stays (widgets/itinerary_stays.py).

    Every cell's answers are computed once per itinerary and kept in Qt's own items: painting,
    hovering and laying the tree out then never call into Python. As a Python model, a first draw
    made about 1,500 calls from C++ into Python (index, parent, flags, multiData), each waiting for
    the GIL when another thread held it (issue 14 §3: draw stalls)."""

    COL_WHEN, COL_KIND, COL_NAME, COL_COST, COL_MARKS = range(5)
    HEADERS = ("When", "Kind", "What", "Cost", "Marks")
    ActivityIdRole = Qt.ItemDataRole.UserRole + 1  # activity id; "" on day rows
    ItemTypeRole = Qt.ItemDataRole.UserRole + 2  # "day" | "activity" | "stay" | "leg" (multi-city trips)
    ActivityRole = Qt.ItemDataRole.UserRole + 3  # the Activity (None on day rows)
    DayRole = Qt.ItemDataRole.UserRole + 4  # the DayItinerary (of the row or its parent)
    DayIndexRole = Qt.ItemDataRole.UserRole + 5
    ConfidenceRole = Qt.ItemDataRole.UserRole + 6  # "high" | "low"
    LockedRole = Qt.ItemDataRole.UserRole + 7
    KindRole = Qt.ItemDataRole.UserRole + 8  # ChoiceKind value; "day" on day rows
    MarksRole = Qt.ItemDataRole.UserRole + 9  # "locked · low conf." (the Marks column shows it as icons)
    HeaderRole = Qt.ItemDataRole.UserRole + 10  # a day row's whole line (its first cell's text, spanned)
    FullTextRole = Qt.ItemDataRole.UserRole + 11  # a What cell's whole text (the panel fits it to the column)
    StayRole = Qt.ItemDataRole.UserRole + 12  # a multi-city trip's stay row: the stay's index

    def __init__(self, parent=None, *, distance_unit: str = "mi") -> None:
        super().__init__(0, len(self.HEADERS), parent)
        self.setHorizontalHeaderLabels(list(self.HEADERS))
        self.distance_unit = fmt.check_distance_unit(distance_unit)
        self._itinerary: ItineraryV1 | None = None
        self._where: dict[str, tuple[int, int]] = {}
        self._day_rows: list[tuple[int, int | None]] = []  # day -> (top row, row under it | None: the top row)
        self._icons: dict[ChoiceKind | str, QIcon] = {}
        self._weather: dict = {}  # date -> "15–23 °C, 27% rain" (from the itinerary's citations)

    def set_itinerary(self, itinerary: ItineraryV1 | None) -> None:
        """One reset: the rows are built while the views are told nothing, then reset once."""
        self.beginResetModel()
        blocked = self.blockSignals(True)
        try:
            self.setRowCount(0)
            self._itinerary = itinerary
            self._weather = day_weather(itinerary) if itinerary is not None else {}
            self._where = {a.id: (d, r) for d, day in enumerate(itinerary.days if itinerary else [])
                           for r, a in enumerate(day.activities)}
            self._day_rows = []
            if itinerary is not None and itinerary.intent.mode == "multi_city":
                self._fill_by_stay(itinerary)
            for d, day in enumerate(itinerary.days if itinerary and not self._day_rows else []):
                self.appendRow(self._day_row(d))
                self._day_rows.append((d, None))
        finally:
            self.blockSignals(blocked)
        self.endResetModel()

    def _day_row(self, d: int) -> list[QStandardItem]:
        row = _items(self._day_cells(d))
        for activity in self._itinerary.days[d].activities:
            row[0].appendRow(_items(self._activity_cells(d, activity)))
        return row

    def _fill_by_stay(self, itinerary: ItineraryV1) -> None:
        """Each stay's row with its days under it, then the leg that leaves it."""
        start = itinerary.days[0].date if itinerary.days else None
        for stay, days in stay_groups(itinerary):
            cents = sum(day_cost_cents(itinerary, d) for d in days)
            cost = fmt.money(cents)
            if any(self._estimated_cost(a) for d in days for a in itinerary.days[d].activities):
                cost = f"{EST} {cost}"
            group = _items(stay_cells(itinerary, stay, days, cost, len(self.HEADERS), self))
            for d in days:
                self._day_rows.append((self.rowCount(), group[0].rowCount()))
                group[0].appendRow(self._day_row(d))
            self.appendRow(group)
            for leg in legs_after(itinerary, stay):
                day = (leg.departure.date() - start).days if start is not None else 0
                self.appendRow(_items(leg_cells(leg, day, len(self.HEADERS), self)))

    def itinerary(self) -> ItineraryV1 | None:
        return self._itinerary

    def day_indexes(self) -> list[QModelIndex]:
        """Each day's row (column 0), in day order, wherever it sits (at the top, or under its stay)."""
        return [self.day_index(d) for d in range(len(self._day_rows))]

    def line_indexes(self) -> list[QModelIndex]:
        """The rows whose first cell spans the row: days, and a multi-city trip's stays and legs."""
        return [self.index(r, 0) for r in range(self.rowCount())] + [
            i for i in self.day_indexes() if i.parent().isValid()]

    def set_distance_unit(self, unit: str) -> None:
        """Show distances in ``unit`` ("mi" | "km"). Only day rows carry distances, so only they
        are re-read (a reset would lose the selection and the expanded days)."""
        if fmt.check_distance_unit(unit) == self.distance_unit:
            return
        self.distance_unit = unit
        for d, index in enumerate(self.day_indexes()):
            for col, cell in enumerate(self._day_cells(d)):
                for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, self.HeaderRole):
                    self.itemFromIndex(index.siblingAtColumn(col)).setData(cell.get(role), role)

    def has_marks(self) -> bool:
        """Whether any row is locked or low-confidence (else the Marks column can be hidden)."""
        days = self._itinerary.days if self._itinerary else []
        return any(d.anchor is not None and d.anchor.confidence == "low" for d in days) or \
            any(a.locked or a.confidence == "low" for d in days for a in d.activities)

    @property
    def road_trip(self) -> bool:
        return self._itinerary is not None and self._itinerary.intent.mode == "road_trip"

    def activity_index(self, activity_id: str, column: int = 0) -> QModelIndex:
        where = self._where.get(activity_id)
        if where is None:
            return QModelIndex()
        return self.index(where[1], column, self.day_index(where[0]))

    def day_index(self, day: int, column: int = 0) -> QModelIndex:
        if not self._itinerary or not 0 <= day < len(self._day_rows):
            return QModelIndex()
        top, under = self._day_rows[day]
        return self.index(top, column) if under is None else self.index(under, column, self.index(top, 0))

    # -- what each cell says, per role (computed once per itinerary, in set_itinerary) ---------
    def _day_cells(self, row: int) -> list[dict]:
        """Each column's answers (role -> value) for day ``row``."""
        day = self._itinerary.days[row]
        low = day.anchor is not None and day.anchor.confidence == "low"
        shared = {self.ItemTypeRole: "day", self.ActivityIdRole: "", self.DayRole: day, self.DayIndexRole: row,
                  self.ConfidenceRole: "low" if low else "high", self.LockedRole: False, self.KindRole: "day",
                  Qt.ItemDataRole.ToolTipRole: fmt.plain_tooltip(self._day_tooltip(day))}
        cells = [{**shared, Qt.ItemDataRole.DisplayRole: self._day_text(row, day, col, low)}
                 for col in range(len(self.HEADERS))]
        cells[self.COL_KIND][Qt.ItemDataRole.FontRole] = _bold()
        cells[self.COL_COST][Qt.ItemDataRole.TextAlignmentRole] = RIGHT
        marks = cells[self.COL_MARKS]
        marks[self.MarksRole] = marks.pop(Qt.ItemDataRole.DisplayRole)
        if low:
            marks[Qt.ItemDataRole.DecorationRole] = self._marks_icon(False, True)
        # The line the tree draws across the whole day row (the columns are too narrow for a road
        # trip's "→ Needles, CA · 294 mi · 5 h 21 min" and the day's weather).
        header = [cells[self.COL_WHEN][Qt.ItemDataRole.DisplayRole], cells[self.COL_KIND][Qt.ItemDataRole.DisplayRole],
                  cells[self.COL_NAME][Qt.ItemDataRole.DisplayRole]]
        if day.date in self._weather:
            header.append(self._weather[day.date])
        header.append(cells[self.COL_COST][Qt.ItemDataRole.DisplayRole])
        if low:
            header.append(LOW_MARK)
        # The panel spans the first cell across the row: its text is the whole line, on a tint
        # (bold did not fit a road trip's day); kept in Qt's items, so drawing stays in C++.
        line = " \u00b7 ".join(header)
        cells[self.COL_WHEN].update({self.HeaderRole: line, Qt.ItemDataRole.DisplayRole: line,
                                     Qt.ItemDataRole.BackgroundRole: QColor(DAY_TINT)})
        return cells

    def _day_text(self, row: int, day: DayItinerary, col: int, low: bool) -> str:
        if col == self.COL_WHEN:
            return fmt.short_day_label(day.date)
        if col == self.COL_KIND:
            return f"Day {row + 1}"
        if col == self.COL_NAME:
            return self._day_summary(day)
        if col == self.COL_COST:
            cents = day_cost_cents(self._itinerary, row)
            estimated = self.road_trip or any(self._estimated_cost(a) for a in day.activities)
            return f"{EST} {fmt.money(cents)}" if estimated else fmt.money(cents)
        return LOW_MARK if low else ""

    def _day_summary(self, day: DayItinerary) -> str:
        if day.anchor is not None:
            parts = [day.anchor.name]
            if day.drive is not None:
                parts += [fmt.distance(day.drive.miles, self.distance_unit), fmt.hours(day.drive.hours)]
            return "\u2192 " + " \u00b7 ".join(parts)
        counts: dict[str, int] = {}
        for a in day.activities:
            if is_omitted(a):
                counts["omitted"] = 1
            elif a.kind in (ChoiceKind.attraction, ChoiceKind.meal):
                noun = "sight" if a.kind is ChoiceKind.attraction else "meal"
                counts[noun] = counts.get(noun, 0) + 1
        parts = [noun if noun == "omitted" else f"{n} {noun}{'s' if n > 1 else ''}" for noun, n in counts.items()]
        roles = {a.role for a in day.activities if a.kind is ChoiceKind.flight}
        parts += [r for r in ("arrival", "departure") if r in roles]
        return ", ".join(parts) or "free day"

    def _day_tooltip(self, day: DayItinerary) -> str:
        lines = [fmt.day_label(day.date)]
        if day.anchor is not None:
            a = day.anchor
            lines.append(f"Overnight: {a.name} ({a.confidence} confidence, {a.source.replace('_', ' ')})")
            if a.note:
                lines.append(a.note)
        if day.drive is not None:
            lines.append(f"Drive {day.drive.from_name} \u2192 {day.drive.to_name}: "
                         f"{fmt.distance(day.drive.miles, self.distance_unit)}, {fmt.hours(day.drive.hours)}")
        if day.date in self._weather:
            lines.append(f"Weather: {self._weather[day.date]}")
        if day.tz:
            lines.append(f"Times in {day.tz}")
        lines.append("est.: an estimate (sample-data prices, estimated rides and unbooked flights)")
        return "\n".join(lines)

    def _activity_cells(self, day: int, activity: Activity) -> list[dict]:
        """Each column's answers (role -> value) for ``activity`` of day ``day``."""
        day_plan = self._itinerary.days[day]
        low = activity.confidence == "low"
        shared = {self.ItemTypeRole: "activity", self.ActivityIdRole: activity.id, self.ActivityRole: activity,
                  self.DayRole: day_plan, self.DayIndexRole: day, self.ConfidenceRole: activity.confidence,
                  self.LockedRole: activity.locked, self.KindRole: activity.kind.value,
                  Qt.ItemDataRole.ToolTipRole: fmt.plain_tooltip(
                      self._activity_tooltip(activity, self._when(activity, day_plan)))}
        cells = [{**shared, Qt.ItemDataRole.DisplayRole: self._activity_text(activity, col, day_plan)}
                 for col in range(len(self.HEADERS))]
        cells[self.COL_KIND][Qt.ItemDataRole.DecorationRole] = self._icon(activity.kind)
        cells[self.COL_COST][Qt.ItemDataRole.TextAlignmentRole] = RIGHT
        if activity.kind is ChoiceKind.transit:
            for col in range(self.COL_MARKS):
                cells[col][Qt.ItemDataRole.ForegroundRole] = QColor("#607d8b")
        # Icons, not words: the Marks column must leave the What column its width (issue 22 §2.2).
        marks = cells[self.COL_MARKS]
        marks[self.MarksRole] = marks.pop(Qt.ItemDataRole.DisplayRole)
        if activity.locked or low:
            marks[Qt.ItemDataRole.DecorationRole] = self._marks_icon(activity.locked, low)
        if is_omitted(activity):  # seed §12.2: grey for what a tool outage left out
            for cell in cells:
                cell[Qt.ItemDataRole.ForegroundRole] = QColor(OMITTED_COLOUR)
        return cells

    def _when(self, activity: Activity, day: DayItinerary, *, cell: bool = False) -> str:
        intent = self._itinerary.intent
        zone = day.tz or (intent.date_window.tz if intent.mode == "city" else None)
        return (fmt.when_cell if cell else fmt.when)(activity, day.date, zone)

    def _activity_text(self, activity: Activity, col: int, day: DayItinerary) -> str:
        if col == self.COL_WHEN:
            return self._when(activity, day, cell=True)
        leg = leg_of(self._itinerary, activity)
        if col == self.COL_KIND:
            return kind_tag(activity, self.road_trip) if leg is None else MODE_WORDS[leg.mode]
        if col == self.COL_NAME and leg is not None:
            return leg_label(leg)  # "Train Lisboa → Porto 10:30–13:29, estimated", as the leg's own row says
        if col == self.COL_NAME:
            # that day's hours; "hours unknown" when none were published (a walk in a town has none to say)
            hours = road_stop_hours(activity) if self.road_trip else opening_hours(activity)
            if hours:
                return f"{activity.shown_name} \u00b7 {hours}"
            desk = HOTEL_DESK.get(activity.role) if activity.kind is ChoiceKind.lodging and not self.road_trip else None
            if desk:  # "Stay · Hotel Avenida Palace" twice on a move day: which one is left, which one begun
                return f"{activity.shown_name} \u00b7 {desk}"
            # The When column has no room to spare: an estimated time says so here.
            return f"{activity.shown_name} \u00b7 times {EST}" if estimated_time(activity, is_booked(activity)) \
                else activity.shown_name
        if col == self.COL_COST:
            if not activity.cost_usd_cents and self._paid(activity):
                return "paid"  # the traveller's, not counted in the budget (its notes say so)
            text = fmt.money(activity.cost_usd_cents, blank_zero=True)
            return f"{EST} {text}" if text and self._estimated_cost(activity) else text
        marks = (["locked"] if activity.locked else []) + ([LOW_MARK] if activity.confidence == "low" else []) \
            + (["omitted"] if is_omitted(activity) else [])
        return " \u00b7 ".join(marks)

    @staticmethod
    def _estimated_cost(activity: Activity) -> bool:
        """Every price but a booking's is an estimate (fixtures, packs, fares not booked)."""
        return bool(activity.cost_usd_cents) and not is_booked(activity)

    def _paid(self, activity: Activity) -> bool:
        bookings = getattr(self._itinerary.intent, "bookings", None) if is_booked(activity) else None
        if bookings is None:
            return False
        if activity.kind is ChoiceKind.lodging:  # said on check-in, where a stay's price is
            return activity.role == "checkin" and bookings.hotel is not None and bookings.hotel.paid
        return any(f.paid and activity.name.startswith(f.flight_number) for f in bookings.flights)

    @staticmethod
    def _activity_tooltip(activity: Activity, when: str) -> str:
        lines = [activity.shown_name, f"{when} \u00b7 {activity.kind.value}"]
        if activity.confidence == "low":
            lines.append("Low confidence: " + (activity.notes or "no reason recorded"))
        elif activity.notes:
            lines.append(activity.notes)
        if activity.locked:
            lines.append("Locked: re-planning keeps it where it is")
        if activity.provenance is not None:
            lines.append(f"Source: {source_words(activity.provenance)}")  # not "attractions (fixture)"
        return "\n".join(lines)

    def _warning_icon(self) -> QIcon:
        if "warning" not in self._icons:
            self._icons["warning"] = QApplication.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        return self._icons["warning"]

    def _marks_icon(self, locked: bool, low: bool) -> QIcon:
        key = ("marks", locked, low)
        if key not in self._icons:
            self._icons[key] = _marks_icon(locked, self._warning_icon() if low else None)
        return self._icons[key]

    def _icon(self, kind: ChoiceKind) -> QIcon:
        if kind not in self._icons:
            self._icons[kind] = _dot_icon(KIND_COLOURS[kind])
        return self._icons[kind]


def _items(cells: list[dict]) -> list[QStandardItem]:
    """One row of read-only items holding the given answers (role -> value; None: no answer)."""
    row = []
    for cell in cells:
        item = QStandardItem()
        item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
        for role, value in cell.items():
            if value is not None:
                item.setData(value, role)
        row.append(item)
    return row


def _dot_icon(colour: str, size: int = 12) -> QIcon:
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(colour))
    painter.drawEllipse(1, 1, size - 2, size - 2)
    painter.end()
    return QIcon(pixmap)


def _marks_icon(locked: bool, warning: QIcon | None, size: int = 16) -> QIcon:
    """A padlock (drawn: fonts without emoji print a box), the style's warning sign, or the
    padlock with a small warning sign at its corner when both apply."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    if locked:
        ink = QColor("#37474f")
        painter.setPen(QPen(ink, 1.8))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawArc(4, 1, size - 8, size - 6, 0, 180 * 16)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(ink)
        painter.drawRoundedRect(2, size // 2 - 1, size - 4, size // 2, 2, 2)
    if warning is not None:
        badge = size // 2 + 2 if locked else size
        painter.drawPixmap(size - badge, size - badge, warning.pixmap(badge, badge))
    painter.end()
    return QIcon(pixmap)


def _bold() -> QFont:
    font = QFont()
    font.setBold(True)
    return font
