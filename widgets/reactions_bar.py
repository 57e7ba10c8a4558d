"""Quick reactions on a version (seed 001): one button per emoji with how many people chose it.
A pure view: a press emits ``reacted(emoji)``; the counts come back through ``set_counts``."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from .glyphs import drawable, with_emoji

# The emoji are what is stored (as the CLI's ``react``); the word keeps a button readable where
# the system has no emoji font.
EMOJIS = (("\U0001F44D", "Like"), ("\u2764\ufe0f", "Love"), ("\U0001F389", "Yes!"), ("\U0001F914", "Hmm"),
          ("\U0001F44E", "No"))


class ReactionsBar(QWidget):
    reacted = Signal(str)

    def __init__(self, parent: QWidget | None = None, *, title: str = "React:", can_draw=drawable) -> None:
        """``can_draw(text, font)``: whether the system draws the emoji (else only the word shows)."""
        super().__init__(parent)
        self._can_draw = can_draw
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.setSpacing(4)
        self.title = QLabel(title)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.title)
        self.buttons: dict[str, QToolButton] = {}
        self._words = dict(EMOJIS)
        for emoji, word in EMOJIS:
            button = QToolButton()
            button.setObjectName(f"react_{word.strip('!').lower()}")
            button.setAutoRaise(True)
            button.setToolTip(f"React to this version with {emoji} ({word})")
            button.clicked.connect(lambda _=False, e=emoji: self.reacted.emit(e))
            self.buttons[emoji] = button
            layout.addWidget(button)
        self.others = QLabel("")  # reactions made elsewhere with other emoji (the CLI takes any)
        self.others.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.others)
        layout.addStretch(1)
        self.set_counts({})

    def set_title(self, text: str) -> None:
        self.title.setText(text)

    def set_counts(self, counts: dict[str, int]) -> None:
        for emoji, button in self.buttons.items():
            n = counts.get(emoji, 0)
            label = with_emoji(emoji, self._words[emoji], button.font(), can_draw=self._can_draw)
            button.setText(label + (f" {n}" if n else ""))
        rest = [f"{e} {n}" for e, n in counts.items() if e not in self.buttons]
        self.others.setText("  ".join(rest))

    def count_text(self, emoji: str) -> str:
        return self.buttons[emoji].text()
