"""The stays of a multi-city trip as the traveller edits them (issue 33 §4): a start date, the cities in
order — each with its nights, moved up or down or removed — the way from one to the next (best, train,
flight, bus, drive, ferry), where the flight home leaves from, and a line that sums it up.

``intent_data()`` is the MultiCityIntent's own part (start_date, stays, legs, return_from); the form
(widgets/intent_multi.py) adds the home airport, the budget and the preferences and validates it.
"""

from __future__ import annotations

from datetime import date, timedelta

from PySide6.QtCore import QDate, Signal
from PySide6.QtWidgets import (QComboBox, QGridLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton, QSpinBox,
                               QToolButton, QVBoxLayout, QWidget)

from engine.models.multi_city import MAX_STAYS, MAX_STAY_NIGHTS, MAX_TRIP_DAYS, MIN_STAY_NIGHTS, MIN_STAYS

from . import formatting as fmt
from .intent_fields import date_edit, plain

MODE_LABELS = {"best": "Best way", "train": "Train", "flight": "Flight", "bus": "Bus", "drive": "Drive",
               "ferry": "Ferry"}
HOME_FROM = {"last": "the last city", "first": "the first city (one more leg back)"}
TIER_LABELS = {None: "Any hotel", "budget": "Budget", "mid": "Mid-range", "luxury": "Luxury"}


class StayList(QWidget):
    """Stays in order with the leg between each two; ``changed`` on any edit."""

    changed = Signal()

    def __init__(self, today: date, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._stays: list[tuple[str, int]] = [("", 3), ("", 2)]
        self._tiers: list[str | None] = [None, None]  # the hotel tier asked for in each city (None: the budget decides)
        self._modes: list[str] = ["best"]  # legs[i]: stays[i] → stays[i + 1]; one more when home from the first
        self.start_edit = date_edit(today + timedelta(days=30))
        self.start_edit.dateChanged.connect(self._edited)
        self.rows = QGridLayout()
        self.rows.setContentsMargins(0, 0, 0, 0)
        self.rows.setVerticalSpacing(2)
        self.add_button = QPushButton("Add a city")
        self.add_button.clicked.connect(lambda: self.add_stay())
        self.home_combo = QComboBox()
        for key, label in HOME_FROM.items():
            self.home_combo.addItem(label, key)
        self.home_combo.currentIndexChanged.connect(self._home_changed)
        self.summary = plain("")
        self.summary.setObjectName("stays_summary")
        self.summary.setStyleSheet("color: #616161;")
        top = QHBoxLayout()
        top.addWidget(QLabel("From"))
        top.addWidget(self.start_edit)
        top.addStretch(1)
        home = QHBoxLayout()
        home.addWidget(QLabel("Fly home from"))
        home.addWidget(self.home_combo, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addLayout(self.rows)
        layout.addWidget(self.add_button)
        layout.addLayout(home)
        layout.addWidget(self.summary)
        self._rebuild()

    # -- what the list holds ------------------------------------------------------------
    def start(self) -> date:
        return self.start_edit.date().toPython()

    def stays(self) -> list[tuple[str, int]]:
        self._read_rows()
        return list(self._stays)

    def tiers(self) -> list[str | None]:
        self._read_rows()
        return list(self._tiers)

    def modes(self) -> list[str]:
        self._read_rows()
        return list(self._modes)

    def return_from(self) -> str:
        return self.home_combo.currentData() or "last"

    def intent_data(self) -> dict:
        """The MultiCityIntent's own fields, as typed (validation is the model's)."""
        stays, modes, tiers = self.stays(), self.modes(), self.tiers()
        data: dict = {"start_date": self.start(), "return_from": self.return_from(),
                      "stays": [{"city": city, "nights": nights, **({"tier": tier} if tier else {})}
                                for (city, nights), tier in zip(stays, tiers)]}
        if any(mode != "best" for mode in modes):
            data["legs"] = [{"mode": mode} for mode in modes]
        return data

    def set_trip(self, start: date, stays: list[tuple[str, int]], modes: list[str], return_from: str = "last",
                 tiers: list[str | None] | None = None) -> None:
        """Show a trip (a prompt's reading, a saved intent): ``modes`` one per leg ("best" where unsaid),
        ``tiers`` one per stay (None: any)."""
        self._stays = [(city, nights) for city, nights in stays]
        self._tiers = (list(tiers or []) + [None] * len(stays))[:len(stays)]
        self.home_combo.blockSignals(True)
        self.home_combo.setCurrentIndex(max(0, self.home_combo.findData(return_from)))
        self.home_combo.blockSignals(False)
        wanted = self._leg_count()
        self._modes = (list(modes) + ["best"] * wanted)[:wanted]
        self.start_edit.blockSignals(True)
        self.start_edit.setDate(QDate(start))
        self.start_edit.blockSignals(False)
        self._rebuild()
        self.changed.emit()

    # -- editing ------------------------------------------------------------------------
    def add_stay(self, city: str = "", nights: int = 2) -> None:
        self._read_rows()
        if len(self._stays) >= MAX_STAYS:
            return
        self._stays.append((city, nights))
        self._tiers.append(None)
        self._modes.insert(len(self._stays) - 2, "best")  # the leg into the new last city (before any leg home)
        self._rebuild()
        self.changed.emit()

    def remove_stay(self, index: int) -> None:
        self._read_rows()
        if len(self._stays) <= MIN_STAYS:
            return
        del self._stays[index]
        del self._tiers[index]
        del self._modes[max(index - 1, 0)]  # the leg into it (the first city: the leg out of it)
        self._rebuild()
        self.changed.emit()

    def move_stay(self, index: int, step: int) -> None:
        """Move a city up (-1) or down (+1); the legs keep their places between the cities."""
        self._read_rows()
        other = index + step
        if not 0 <= other < len(self._stays):
            return
        self._stays[index], self._stays[other] = self._stays[other], self._stays[index]
        self._tiers[index], self._tiers[other] = self._tiers[other], self._tiers[index]
        self._rebuild()
        self.changed.emit()

    # -- the rows -------------------------------------------------------------------------
    def _leg_count(self) -> int:
        return len(self._stays) - 1 + (1 if self.return_from() == "first" else 0)

    def _home_changed(self) -> None:
        self._read_rows()
        wanted = self._leg_count()
        self._modes = (self._modes + ["best"] * wanted)[:wanted]
        self._rebuild()
        self.changed.emit()

    def _read_rows(self) -> None:
        if not hasattr(self, "city_edits"):
            return
        self._stays = [(edit.text().strip(), spin.value()) for edit, spin in zip(self.city_edits, self.night_spins)]
        self._tiers = [combo.currentData() for combo in self.tier_combos]
        self._modes = [combo.currentData() for combo in self.mode_combos]

    def _rebuild(self) -> None:
        while self.rows.count():
            item = self.rows.takeAt(0)
            if item.widget() is not None:
                item.widget().hide()  # gone now, deleted once its own click (a row's ✕) has returned
                item.widget().deleteLater()
        self.city_edits: list[QLineEdit] = []
        self.night_spins: list[QSpinBox] = []
        self.mode_combos: list[QComboBox] = []
        self.tier_combos: list[QComboBox] = []
        row = 0
        for i, (city, nights) in enumerate(self._stays):
            if i:
                row = self._leg_row(row, i - 1)
            edit = QLineEdit(city)
            edit.setPlaceholderText("e.g. Lisbon" if i == 0 else "e.g. Porto")
            edit.setAccessibleName(f"City {i + 1}")
            edit.textChanged.connect(self._edited)
            spin = QSpinBox()
            spin.setRange(MIN_STAY_NIGHTS, MAX_STAY_NIGHTS)
            spin.setValue(min(max(nights, MIN_STAY_NIGHTS), MAX_STAY_NIGHTS))
            spin.setSuffix(" nights")
            spin.setAccessibleName(f"Nights in city {i + 1}")
            spin.valueChanged.connect(self._edited)
            tier = QComboBox()
            for key, label in TIER_LABELS.items():
                tier.addItem(label, key)
            tier.setCurrentIndex(max(0, tier.findData(self._tiers[i] if i < len(self._tiers) else None)))
            tier.setAccessibleName(f"Hotel in city {i + 1}")
            tier.currentIndexChanged.connect(self._edited)
            self.city_edits.append(edit)
            self.night_spins.append(spin)
            self.tier_combos.append(tier)
            self.rows.addWidget(plain(f"{i + 1}."), row, 0)
            self.rows.addWidget(edit, row, 1)
            self.rows.addWidget(spin, row, 2)
            self.rows.addWidget(tier, row, 3)
            for col, (text, tip, slot, enabled) in enumerate((
                    ("\u2191", "Move up", lambda _=False, i=i: self.move_stay(i, -1), i > 0),
                    ("\u2193", "Move down", lambda _=False, i=i: self.move_stay(i, +1), i < len(self._stays) - 1),
                    ("\u2715", "Remove this city", lambda _=False, i=i: self.remove_stay(i),
                     len(self._stays) > MIN_STAYS)), start=4):
                button = QToolButton()
                button.setText(text)
                button.setToolTip(tip)
                button.setAccessibleName(f"{tip} ({i + 1})")
                button.setEnabled(enabled)
                button.clicked.connect(slot)
                self.rows.addWidget(button, row, col)
            row += 1
        if self.return_from() == "first" and len(self._modes) == len(self._stays):
            self._leg_row(row, len(self._stays) - 1, home=True)
        self.rows.setColumnStretch(1, 1)
        self.add_button.setEnabled(len(self._stays) < MAX_STAYS)
        self._update_summary()

    def _leg_row(self, row: int, leg: int, home: bool = False) -> int:
        mode = QComboBox()
        for key, label in MODE_LABELS.items():
            mode.addItem(label, key)
        mode.setCurrentIndex(max(0, mode.findData(self._modes[leg] if leg < len(self._modes) else "best")))
        mode.setAccessibleName(f"Way from city {leg + 1}")
        mode.currentIndexChanged.connect(self._edited)
        self.mode_combos.append(mode)
        where = plain("\u2192 back to city 1 by" if home else "\u2193 by")
        where.setStyleSheet("color: #616161;")
        self.rows.addWidget(where, row, 1)
        self.rows.addWidget(mode, row, 2)
        return row + 1

    def _edited(self, *_args) -> None:
        self._update_summary()
        self.changed.emit()

    def _update_summary(self) -> None:
        nights = sum(spin.value() for spin in getattr(self, "night_spins", []))
        start = self.start()
        end = start + timedelta(days=nights)
        too_long = nights + 1 > MAX_TRIP_DAYS
        self.summary.setText(f"{len(self.night_spins)} cities, {nights} nights: {fmt.day_label(start)} \u2013 "
                             f"{fmt.day_label(end)} ({nights + 1} days"
                             + (f"; a trip lasts at most {MAX_TRIP_DAYS})" if too_long else ")"))
        self.summary.setStyleSheet("color: #c62828;" if too_long else "color: #616161;")
