"""The Group dock's three lists: ideas (priority, reactions), the planning chat (post, import an
export), feedback on the shown version (text, rating). Pure views: what the user does leaves as a
signal; what the store holds comes back through ``set_*``. Records are read by attribute
(``engine.store.group``'s IdeaRecord / ChatRecord / FeedbackRecord)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QComboBox, QFileDialog, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QListWidget,
                               QListWidgetItem, QPushButton, QSpinBox, QToolButton, QTreeWidget, QTreeWidgetItem,
                               QVBoxLayout, QWidget)

from .formatting import plain_tooltip
from .glyphs import with_emoji
from .reactions_bar import EMOJIS

CHAT_FILTERS = ["Chat exports (*.txt *.json)", "All files (*)"]


def _plain(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    return label


class IdeasSection(QWidget):
    idea_added = Signal(str, int)  # title, priority 1..5
    idea_reacted = Signal(str, str)  # idea_id, emoji

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tree = QTreeWidget()
        self.tree.setObjectName("ideas_tree")
        self.tree.setHeaderLabels(["P", "Idea", "Reactions"])
        self.tree.setRootIsDecorated(False)
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.title_edit = QLineEdit()
        self.title_edit.setPlaceholderText("An idea for the trip, e.g. picnic at Versailles")
        self.title_edit.setMaxLength(200)
        self.priority = QSpinBox()
        self.priority.setRange(1, 5)
        self.priority.setValue(3)
        self.priority.setPrefix("P")
        self.priority.setToolTip("Priority: 1 is the highest")
        self.add_button = QPushButton("Add idea")
        self.add_button.clicked.connect(self._add)
        self.title_edit.returnPressed.connect(self._add)
        add_row = QHBoxLayout()
        add_row.addWidget(self.title_edit, 1)
        add_row.addWidget(self.priority)
        add_row.addWidget(self.add_button)
        react_row = QHBoxLayout()
        react_row.addWidget(_plain("Selected idea:"))
        self.react_buttons = {}
        for emoji, word in EMOJIS[:3] + EMOJIS[4:]:
            button = QToolButton()
            button.setText(with_emoji(emoji, word, button.font()))  # the word alone where the emoji is a box
            button.setAutoRaise(True)
            button.clicked.connect(lambda _=False, e=emoji: self._react(e))
            self.react_buttons[emoji] = button
            react_row.addWidget(button)
        react_row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.tree, 1)
        layout.addLayout(react_row)
        layout.addLayout(add_row)

    def _add(self) -> None:
        title = self.title_edit.text().strip()
        if title:
            self.idea_added.emit(title, self.priority.value())

    def _react(self, emoji: str) -> None:
        item = self.tree.currentItem()
        if item is not None:
            self.idea_reacted.emit(item.data(0, Qt.ItemDataRole.UserRole), emoji)

    def added(self) -> None:
        self.title_edit.clear()

    def set_ideas(self, ideas) -> None:
        selected = self.tree.currentItem().data(0, Qt.ItemDataRole.UserRole) if self.tree.currentItem() else None
        self.tree.clear()
        for idea in ideas:
            shown = "  ".join(f"{e} {n}" for e, n in idea.reactions.items())
            item = QTreeWidgetItem([f"P{idea.priority}" if idea.priority else "\u2014", idea.title, shown])
            item.setData(0, Qt.ItemDataRole.UserRole, idea.idea_id)
            item.setToolTip(1, plain_tooltip(idea.title))  # a teammate's title, shown as typed
            self.tree.addTopLevelItem(item)
            if idea.idea_id == selected:
                self.tree.setCurrentItem(item)


class ChatSection(QWidget):
    message_posted = Signal(str)
    import_chosen = Signal(str)  # the export file's path

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.list = QListWidget()
        self.list.setObjectName("chat_list")
        self.list.setWordWrap(True)
        self.text_edit = QLineEdit()
        self.text_edit.setPlaceholderText("Write to the group\u2026")
        self.text_edit.setMaxLength(4000)
        self.post_button = QPushButton("Post")
        self.post_button.clicked.connect(self._post)
        self.text_edit.returnPressed.connect(self._post)
        self.import_button = QPushButton("Import chat\u2026")
        self.import_button.setToolTip("A WhatsApp chat export (.txt) or a Telegram export (result.json)")
        self.import_button.clicked.connect(self.choose_import)
        self.file_dialog: QFileDialog | None = None
        row = QHBoxLayout()
        row.addWidget(self.text_edit, 1)
        row.addWidget(self.post_button)
        row.addWidget(self.import_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.list, 1)
        layout.addLayout(row)

    def _post(self) -> None:
        text = self.text_edit.text().strip()
        if text:
            self.message_posted.emit(text)

    def posted(self) -> None:
        self.text_edit.clear()

    def choose_import(self) -> QFileDialog:
        """A non-modal open dialog (the same everywhere, testable offscreen)."""
        dialog = QFileDialog(self, "Import a chat export")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptOpen)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilters(CHAT_FILTERS)
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
        dialog.fileSelected.connect(self.import_chosen)
        self.file_dialog = dialog
        dialog.open()
        return dialog

    def set_messages(self, messages) -> None:
        at_end = self.list.verticalScrollBar().value() >= self.list.verticalScrollBar().maximum() - 4
        self.list.clear()
        for m in messages:
            who = m.author or "\u2014"
            item = QListWidgetItem(f"{m.sent_at:%d %b %H:%M}  {who}: {m.body}")
            item.setToolTip(plain_tooltip(f"from {m.source}" + (" (system line: not used by the model)"
                                                                if m.kind == "system" else "")))
            if m.kind == "system":
                item.setForeground(Qt.GlobalColor.gray)
            self.list.addItem(item)
        if at_end:
            self.list.scrollToBottom()


class FeedbackSection(QWidget):
    feedback_sent = Signal(str, int)  # text, rating (0 = none)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = _plain("Feedback on this version")
        self.list = QListWidget()
        self.list.setObjectName("feedback_list")
        self.list.setWordWrap(True)
        self.text_edit = QLineEdit()
        self.text_edit.setPlaceholderText("What works, what should change?")
        self.text_edit.setMaxLength(4000)
        self.rating = QComboBox()
        self.rating.addItem("No rating", 0)
        for n in range(1, 6):
            self.rating.addItem("\u2605" * n, n)
        self.send_button = QPushButton("Send")
        self.send_button.clicked.connect(self._send)
        self.text_edit.returnPressed.connect(self._send)
        row = QHBoxLayout()
        row.addWidget(self.text_edit, 1)
        row.addWidget(self.rating)
        row.addWidget(self.send_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.heading)
        layout.addWidget(self.list, 1)
        layout.addLayout(row)

    def _send(self) -> None:
        text = self.text_edit.text().strip()
        if text:
            self.feedback_sent.emit(text, int(self.rating.currentData()))

    def sent(self) -> None:
        self.text_edit.clear()
        self.rating.setCurrentIndex(0)

    def set_feedback(self, version: int | None, feedback) -> None:
        self.heading.setText(f"Feedback on v{version}" if version else "No version yet: plan the trip first")
        self.list.clear()
        for fb in feedback:
            stars = "\u2605" * fb.rating + "  " if fb.rating else ""
            self.list.addItem(f"{stars}{fb.text}")
