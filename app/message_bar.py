"""A non-modal message strip above the map: planning failures with their explanation, one-line
input errors, and what an edit changed. Closable; never blocks the window. At most a few lines
tall: a longer message scrolls inside it, so the map keeps its room (issue 32 §6: at 1024×700 a
long failure took 140 px and left the map 41 % of the window)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QScrollArea, QToolButton, QWidget

MAX_LINES = 3  # lines shown before the message scrolls

STYLES = {
    "info": "background: #e3f2fd; color: #0d3c61; border: 1px solid #90caf9;",
    "warning": "background: #fff3cd; color: #5d4200; border: 1px solid #e0c36c;",
    "error": "background: #fdecea; color: #611a15; border: 1px solid #ef9a9a;",
}


class MessageBar(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("message_bar")
        self.level = "info"
        self.label = QLabel()
        self.label.setObjectName("message_text")
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # engine text is never markup
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.close_button = QToolButton()
        self.close_button.setText("\u2715")
        self.close_button.setToolTip("Dismiss")
        self.close_button.setAutoRaise(True)
        self.close_button.clicked.connect(self.clear)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        self.scroll = QScrollArea()
        self.scroll.setObjectName("message_scroll")
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setWidget(self.label)
        self.scroll.viewport().setAutoFillBackground(False)
        self.label.setAutoFillBackground(False)
        layout.addWidget(self.scroll, 1)
        layout.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self.hide()

    def show_message(self, text: str, level: str = "info") -> None:
        self.level = level if level in STYLES else "info"
        self.setStyleSheet(f"#message_bar {{ {STYLES[self.level]} border-radius: 3px; }}"
                           f" #message_text {{ color: {STYLES[self.level].split('color: ')[1].split(';')[0]};"
                           f" background: transparent; }} #message_scroll {{ background: transparent; }}")
        self.label.setText(text)
        self._fit_height()
        self.show()

    def _fit_height(self) -> None:
        """As tall as the message, up to MAX_LINES lines (then it scrolls)."""
        lines = self.label.fontMetrics().lineSpacing()
        width = max(self.scroll.viewport().width(), 200)
        needed = self.label.heightForWidth(width) if self.label.hasHeightForWidth() else self.label.sizeHint().height()
        self.scroll.setFixedHeight(min(max(needed, lines) + 2, lines * MAX_LINES + 2))

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        if self.label.text():
            self._fit_height()

    def text(self) -> str:
        return "" if self.isHidden() else self.label.text()

    def clear(self) -> None:
        self.label.setText("")
        self.hide()
