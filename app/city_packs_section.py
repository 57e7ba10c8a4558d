"""Settings ▸ "Cities for offline use": the cached OpenStreetMap city packs (city, places, size,
when fetched, stale after 30 days), with Refresh (fetched again on the planner's engine loop) and
Delete. Every read, fetch and delete runs off the GUI thread (``app/city_packs.py``); what
happens is said inline under the list, errors included — never in a dialog."""

from __future__ import annotations

import asyncio

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (QGroupBox, QHBoxLayout, QHeaderView, QPushButton, QTreeWidget, QTreeWidgetItem,
                               QVBoxLayout)

from engine.cancel import CancelToken
from engine.errors import PlanCancelled, TripwrightError, one_line
from widgets.intent_fields import ERROR_COLOUR, plain

COLUMNS = ("City", "Places", "Size", "Fetched")
INTRO = ("Cities beyond the built-in ones: their places come from OpenStreetMap the first time you "
         "plan them, and are kept here so they can be planned offline.")
EMPTY = "No cities kept yet. Plan any city (e.g. \u201c4 days in Lisbon\u201d) while online and it appears here."
STALE = "older than 30 days"
STALE_TIP = "Older than 30 days: fetched again the next time you plan it online (or press Refresh)."
STALE_COLOUR = "#ef6c00"
NOTE_STYLE = "color: #616161;"


class CityPacksSection(QGroupBox):
    """``packs`` is the window's ``CityPacks``; ``start()`` lists the cache (the dialog calls it)."""

    def __init__(self, packs, parent=None) -> None:
        super().__init__("Cities for offline use", parent)
        self.packs = packs
        self.entries: list = []
        self._task: asyncio.Task | None = None
        self._token: CancelToken | None = None
        intro = plain(INTRO)
        intro.setWordWrap(True)
        intro.setStyleSheet(NOTE_STYLE)
        self.list = QTreeWidget()
        self.list.setObjectName("city_packs")
        self.list.setRootIsDecorated(False)
        self.list.setHeaderLabels(list(COLUMNS))
        self.list.setStyleSheet("QTreeView::item { padding: 2px 8px 2px 2px; }")
        header = self.list.header()
        header.setStretchLastSection(False)
        for column, mode in enumerate((QHeaderView.ResizeMode.Stretch, QHeaderView.ResizeMode.ResizeToContents,
                                       QHeaderView.ResizeMode.ResizeToContents,
                                       QHeaderView.ResizeMode.ResizeToContents)):
            header.setSectionResizeMode(column, mode)
        self.list.itemSelectionChanged.connect(self._refresh_buttons)
        self.empty_label = plain(EMPTY)
        self.empty_label.setWordWrap(True)
        self.empty_label.setStyleSheet(NOTE_STYLE)
        self.refresh_button = QPushButton("Refresh")
        self.refresh_button.setToolTip("Fetch the selected city's places from OpenStreetMap again")
        self.refresh_button.clicked.connect(self.refresh_selected)
        self.delete_button = QPushButton("Delete")
        self.delete_button.setToolTip("Remove the selected city's places from this computer")
        self.delete_button.clicked.connect(self.delete_selected)
        self.status = plain("")
        self.status.setObjectName("city_packs_status")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.refresh_button, 0, Qt.AlignmentFlag.AlignTop)
        buttons.addWidget(self.delete_button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.list)
        layout.addWidget(self.empty_label)
        layout.addLayout(buttons)
        self._show_entries([])
        self.say("Reading the cities kept on this computer\u2026")

    # -- showing --------------------------------------------------------------------------------
    def _show_entries(self, entries: list) -> None:
        selected = self.selected()
        self.entries = list(entries)
        self.list.clear()
        for entry in self.entries:
            fetched = f"{entry.fetched_at:%Y-%m-%d}" + (f" \u00b7 {STALE}" if entry.stale else "")
            item = QTreeWidgetItem([entry.label, f"{entry.places:,}", f"{entry.size_bytes / 1024:,.0f} KB", fetched])
            for column in (1, 2):
                item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            item.setToolTip(0, f"{entry.label} \u2014 {entry.path}")
            if entry.stale:
                item.setForeground(3, QBrush(QColor(STALE_COLOUR)))
                item.setToolTip(3, STALE_TIP)
            self.list.addTopLevelItem(item)
            if selected is not None and entry.slug == selected.slug:
                self.list.setCurrentItem(item)
        rows = min(max(len(self.entries), 1), 6)
        row = max(self.list.sizeHintForRow(0), self.list.fontMetrics().height() + 6)
        self.list.setFixedHeight(self.list.header().sizeHint().height() + rows * row + 2 * self.list.frameWidth() + 2)
        self.list.setVisible(bool(self.entries))
        self.empty_label.setVisible(not self.entries)
        self._refresh_buttons()
        self._fit_dialog()

    def _fit_dialog(self) -> None:
        """The section grew (rows came): the dialog grows with it rather than squeezing the
        word-wrapped notes above (as ``SettingsDialog._show_keyring_note`` does)."""
        dialog = self.window()
        if dialog is self or dialog.layout() is None:
            return
        self.updateGeometry()
        needed = dialog.layout().totalHeightForWidth(dialog.width())
        if needed > dialog.height():
            dialog.resize(dialog.width(), needed)

    def selected(self):
        item = self.list.currentItem()
        row = self.list.indexOfTopLevelItem(item) if item is not None else -1
        return self.entries[row] if 0 <= row < len(self.entries) else None

    def say(self, text: str, *, error: bool = False) -> None:
        if not shiboken6.isValid(self):
            return
        self.status.setText(text)
        self.status.setStyleSheet(f"color: {ERROR_COLOUR};" if error else NOTE_STYLE)

    def _refresh_buttons(self) -> None:
        idle = self._task is None or self._task.done()
        has = self.selected() is not None
        self.refresh_button.setEnabled(idle and has)
        self.delete_button.setEnabled(idle and has)

    # -- actions (each one task at a time, cancelled when the dialog closes) ---------------------
    def start(self) -> asyncio.Task:
        return self._run(self._list)

    def refresh_selected(self) -> asyncio.Task | None:
        entry = self.selected()
        return self._run(lambda: self._refresh(entry)) if entry is not None else None

    def delete_selected(self) -> asyncio.Task | None:
        entry = self.selected()
        return self._run(lambda: self._delete(entry)) if entry is not None else None

    def stop(self) -> None:
        """The dialog closes: a refresh in flight is cancelled (its HTTP request too)."""
        if self._token is not None:
            self._token.cancel()
        if self._task is not None and not self._task.done():
            self._task.cancel()

    def _run(self, action) -> asyncio.Task:
        """``action()`` (a coroutine function) as the one task; made only when the task starts, so a
        task cancelled before it ran leaves no coroutine never awaited."""
        self._task = asyncio.ensure_future(self._guarded(action))
        self._refresh_buttons()
        return self._task

    async def _guarded(self, action) -> None:
        try:
            await action()
        except (PlanCancelled, asyncio.CancelledError):
            pass
        except (TripwrightError, OSError) as exc:
            self.say(one_line(exc, sentence=True), error=True)
        finally:
            if shiboken6.isValid(self):
                self._task = None
                self._refresh_buttons()

    async def _list(self) -> None:
        entries = await self.packs.reload()
        self._show_entries(entries)
        self.say("")

    async def _delete(self, entry) -> None:
        self.say(f"Deleting {entry.label}\u2026")
        deleted = await self.packs.delete(entry.slug)
        self._show_entries(self.packs.entries)
        self.say(f"Deleted {entry.label}." if deleted else f"{entry.label} was already gone.")

    async def _refresh(self, entry) -> None:
        self._token = token = CancelToken()
        self.say(f"Refreshing {entry.label}\u2026")
        try:
            outcome = await self.packs.refresh(entry.slug, progress=lambda message: self.say(
                f"Refreshing {entry.label}: {message}"), cancel=token)
        finally:
            if shiboken6.isValid(self):
                self._show_entries(self.packs.entries)
        if outcome.fetched:
            counts = outcome.pack.counts()
            self.say(f"Refreshed {outcome.pack.label}: {counts['sight']} sights, {counts['food']} places to eat, "
                     f"{counts['bed']} to stay.")
        else:  # offline or the service failed: the old pack is kept, and the reason said
            self.say("Not refreshed: " + "; ".join(outcome.notes or ["the cached pack is kept"]), error=True)
