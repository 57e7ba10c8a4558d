"""The Notes dock (issue 13): a destination's notes — list, import by file or drag-and-drop,
delete with undo — and an ask box showing the passages found, with their scores and sources.

A pure view: it never touches the store. It asks through signals (``import_requested``,
``delete_requested``, ``restore_requested``, ``ask_requested``, ``destination_changed``) and the
owner answers with ``set_items``, ``show_answer``, ``show_passage``, ``show_deleted``,
``show_error``. Note text is user data: it is shown as plain text, never as markup.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from html import escape

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (QComboBox, QFileDialog, QFrame, QHBoxLayout, QLabel, QLineEdit, QListWidget,
                               QListWidgetItem, QPushButton, QSplitter, QTextBrowser, QVBoxLayout, QWidget)

UNDO_TIMEOUT_MS = 10_000
FILE_FILTER = "Notes (*.md *.markdown *.txt *.html *.htm *.pdf);;All files (*)"
UNKNOWN_TEXT = "Information not available \u2014 your notes do not answer that (nothing scored \u2265 0.70)."
EMPTY_TEXT = "No notes for this destination yet. Drop files here, or use Import\u2026"


def _label(text: str = "", name: str = "") -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setObjectName(name)
    return label


class NotesPanel(QWidget):
    import_requested = Signal(list, str)  # file paths, destination
    delete_requested = Signal(str)  # item_id
    restore_requested = Signal(str)  # item_id (Undo)
    ask_requested = Signal(str, str)  # question, destination
    destination_changed = Signal(str)
    import_folder_changed = Signal(str)  # the folder files were last imported from

    def __init__(self, parent: QWidget | None = None, *, undo_timeout_ms: int = UNDO_TIMEOUT_MS) -> None:
        super().__init__(parent)
        self.setObjectName("notes_panel")
        self.setAcceptDrops(True)
        self.file_dialog: QFileDialog | None = None
        self.import_folder = ""  # where the import dialog opens (the app restores the last one)
        self._undo_item = ""
        self._undo_timer = QTimer(self, singleShot=True, interval=undo_timeout_ms, timeout=self.dismiss_undo)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(self._destination_row())
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self._notes_box())
        split.addWidget(self._ask_box())
        split.setSizes([220, 320])
        layout.addWidget(split, 1)
        self.status = _label("", "notes_status")
        layout.addWidget(self.status)

    # -- building --------------------------------------------------------------------------------
    def _destination_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.addWidget(QLabel("Destination"))
        self.destination_box = QComboBox()
        self.destination_box.setObjectName("notes_destination")
        self.destination_box.setEditable(True)
        self.destination_box.setToolTip("A city (Paris), a named route (Route 66) or any place name")
        self.destination_box.activated.connect(lambda _i: self.destination_changed.emit(self.destination()))
        self.destination_box.lineEdit().returnPressed.connect(lambda: self.destination_changed.emit(self.destination()))
        row.addWidget(self.destination_box, 1)
        return row

    def _notes_box(self) -> QWidget:
        box = QWidget()
        col = QVBoxLayout(box)
        col.setContentsMargins(0, 0, 0, 0)
        self.items = QListWidget()
        self.items.setObjectName("notes_list")
        self.items.setAlternatingRowColors(True)
        self.items.itemSelectionChanged.connect(self._update_buttons)
        self.empty = _label(EMPTY_TEXT, "notes_empty")
        buttons = QHBoxLayout()
        self.import_button = QPushButton("Import\u2026")
        self.import_button.setToolTip("Markdown, text, HTML or PDF; e-mail addresses and phone numbers are removed")
        self.import_button.clicked.connect(self.choose_files)
        self.delete_button = QPushButton("Delete")
        self.delete_button.clicked.connect(self._delete_selected)
        buttons.addWidget(self.import_button)
        buttons.addWidget(self.delete_button)
        buttons.addStretch(1)
        col.addWidget(self.items, 1)
        col.addWidget(self.empty)
        col.addWidget(self._undo_bar())
        col.addLayout(buttons)
        self._update_buttons()
        return box

    def _undo_bar(self) -> QFrame:
        bar = self.undo_bar = QFrame()
        bar.setObjectName("notes_undo_bar")
        bar.setStyleSheet("#notes_undo_bar { background: #fff8e1; border: 1px solid #ffe082; border-radius: 4px; }")
        row = QHBoxLayout(bar)
        row.setContentsMargins(6, 2, 6, 2)
        self.undo_label = _label("", "notes_undo_label")
        self.undo_button = QPushButton("Undo")
        self.undo_button.clicked.connect(self._undo)
        row.addWidget(self.undo_label, 1)
        row.addWidget(self.undo_button)
        bar.hide()
        return bar

    def _ask_box(self) -> QWidget:
        box = QWidget()
        col = QVBoxLayout(box)
        col.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.question = QLineEdit()
        self.question.setObjectName("notes_question")
        self.question.setPlaceholderText("Ask your notes, e.g. Louvre entrance")
        self.question.setMaxLength(500)
        self.question.returnPressed.connect(self._ask)
        self.ask_button = QPushButton("Ask")
        self.ask_button.clicked.connect(self._ask)
        row.addWidget(self.question, 1)
        row.addWidget(self.ask_button)
        self.answer = QTextBrowser()
        self.answer.setObjectName("notes_answer")
        self.answer.setOpenLinks(False)
        col.addLayout(row)
        col.addWidget(self.answer, 1)
        return box

    # -- state in --------------------------------------------------------------------------------
    def set_destinations(self, destinations: Sequence[tuple[str, str]], current: str | None = None) -> None:
        """``(slug, label)`` pairs: the open trip's destination first, then the rest."""
        box = self.destination_box
        keep = current or self.destination()
        box.blockSignals(True)
        box.clear()
        for slug, label in destinations:
            box.addItem(label, slug)
        index = box.findData(keep)
        if index >= 0:
            box.setCurrentIndex(index)
        elif keep:
            box.setEditText(keep)
        box.blockSignals(False)

    def destination(self) -> str:
        box = self.destination_box
        index = box.currentIndex()
        if index >= 0 and box.itemText(index) == box.currentText():
            return box.itemData(index) or box.currentText().strip()
        return box.currentText().strip()

    def set_items(self, items: Iterable) -> None:  # NoteItem records
        self.items.clear()
        for it in items:
            origin = "Tripwright" if it.source_kind == "tripwright" else (it.source_name or it.source_kind)
            row = QListWidgetItem(f"{it.title}\n{origin} \u00b7 {it.chunk_count} passage(s)")
            row.setData(Qt.ItemDataRole.UserRole, it.item_id)
            row.setToolTip(escape(f"{it.title} ({origin})"))
            self.items.addItem(row)
        self.empty.setVisible(self.items.count() == 0)
        self._update_buttons()

    def show_answer(self, answer) -> None:  # engine.notes.retrieval.Answer
        if answer.status != "found":
            self.answer.setHtml(f"<p><i>{escape(UNKNOWN_TEXT)}</i></p>")
            return
        parts = [_passage_html(p.text, p.source, p.score, p.method) for p in answer.passages]
        self.answer.setHtml("<hr>".join(parts))

    def show_passage(self, text: str, source: str, score: float | None = None) -> None:
        """A passage opened from a citation in the itinerary."""
        self.answer.setHtml(_passage_html(text, source, score, "cited in the itinerary"))

    def show_deleted(self, item_id: str, title: str) -> None:
        self._undo_item = item_id
        self.undo_label.setText(f"Deleted \u201c{title[:60]}\u201d.")
        self.undo_bar.show()
        self._undo_timer.start()

    def dismiss_undo(self) -> None:
        self._undo_item = ""
        self.undo_bar.hide()

    def show_status(self, text: str) -> None:
        self.status.setStyleSheet("")
        self.status.setText(text)

    def show_error(self, text: str) -> None:
        self.status.setStyleSheet("color: #b00020;")
        self.status.setText(text)

    def set_busy(self, busy: bool) -> None:
        for w in (self.import_button, self.ask_button, self.question):
            w.setEnabled(not busy)
        if not busy:
            self._update_buttons()

    # -- user actions ------------------------------------------------------------------------------
    def choose_files(self) -> None:
        dialog = self.file_dialog = QFileDialog(self, "Import notes", self.import_folder, FILE_FILTER)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
        dialog.filesSelected.connect(self._chose_in_folder)
        dialog.filesSelected.connect(self.import_files)
        dialog.open()

    def _chose_in_folder(self, paths: Sequence[str]) -> None:
        if paths:
            self.import_folder = os.path.dirname(os.path.abspath(paths[0]))
            self.import_folder_changed.emit(self.import_folder)

    def import_files(self, paths: Sequence[str]) -> None:
        if paths:
            self.import_requested.emit(list(paths), self.destination())

    def dragEnterEvent(self, event) -> None:  # noqa: N802 (Qt override)
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802 (Qt override)
        paths = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.import_files(paths)

    def selected_item(self) -> str | None:
        row = self.items.currentItem()
        return row.data(Qt.ItemDataRole.UserRole) if row is not None and row.isSelected() else None

    def _delete_selected(self) -> None:
        item_id = self.selected_item()
        if item_id:
            self.delete_requested.emit(item_id)

    def _undo(self) -> None:
        if self._undo_item:
            self.restore_requested.emit(self._undo_item)
        self.dismiss_undo()

    def _ask(self) -> None:
        question = self.question.text().strip()
        if question:
            self.ask_requested.emit(question, self.destination())

    def _update_buttons(self) -> None:
        self.delete_button.setEnabled(self.selected_item() is not None)


def _passage_html(text: str, source: str, score: float | None, method: str) -> str:
    head = f"<b>{escape(source)}</b>"
    if score is not None:
        head += f" &nbsp;\u00b7&nbsp; score {score:.2f}"
    body = escape(text).replace("\n\n", "<br><br>")
    return f"<p>{head} &nbsp;<small>({escape(method)})</small></p><p>{body}</p>"
