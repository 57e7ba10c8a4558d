"""First launch: two example trips one click away and example prompts for the prompt box."""

from __future__ import annotations

import html

from dataclasses import dataclass
from datetime import date, timedelta

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget


@dataclass(frozen=True)
class Example:
    key: str  # city | road
    title: str  # the button
    blurb: str
    prompt: str


def _start(today: date, preferred: date) -> date:
    """The example's fixed date while it is comfortably ahead, else a month from today."""
    return preferred if preferred - today >= timedelta(days=14) else today + timedelta(days=30)


def examples(today: date) -> dict[str, Example]:
    paris = _start(today, date(2027, 6, 15))
    road = _start(today, date(2027, 5, 3))
    return {
        "city": Example("city", "Paris, 5 days, art & food",
                        "Museums, caf\u00e9s and a verified schedule from JFK",
                        f"5 days in Paris from {paris.isoformat()}, flying from JFK, budget 4000 USD, art and food"),
        "road": Example("road", "Route 66, LA \u2192 Chicago, 7 days",
                        "Overnight stops along the historic corridor",
                        f"LA to Chicago via Route 66, 7 days from {road.isoformat()}"),
    }


def example_prompts(today: date) -> list[str]:
    start = _start(today, date(2027, 9, 6)).isoformat()
    return [
        f"4 days in Rome from {start}, flying from LHR, budget 2500 EUR, history and food",
        f"A week in Tokyo from {start}, flying from SFO, budget 6000 USD, with kids",
        f"Pacific Coast Highway from San Francisco to Los Angeles, 4 days from {start}",
    ]


class WelcomePanel(QWidget):
    """Shown until the first trip is planned (in the right dock)."""

    example_chosen = Signal(str)  # "city" | "road"
    prompt_chosen = Signal(str)  # planned like a card, its text left in the prompt box

    def __init__(self, today: date, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("welcome")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 16)
        layout.setSpacing(10)
        layout.addWidget(_label("Welcome to Tripwright", "font-size: 18pt; font-weight: bold;"))
        layout.addWidget(_label("Plans city trips and road trips and proves they are feasible: opening hours, "
                                "budget, transfers and the route's corridor are all checked. Everything runs "
                                "offline on embedded data.", "color: #37474f;", wrap=True))
        layout.addWidget(_label("Try an example", "font-weight: bold; margin-top: 8px;"))
        self.example_buttons: dict[str, QPushButton] = {}
        for example in examples(today).values():
            # "&" would mark a keyboard mnemonic in a button
            button = QPushButton(f"{example.title}\n{example.blurb}".replace("&", "&&"))
            button.setObjectName(f"example_{example.key}")
            button.setMinimumHeight(54)
            button.setStyleSheet("text-align: left; padding: 6px 10px;")
            button.setToolTip(example.prompt)
            button.clicked.connect(lambda _=False, key=example.key: self.example_chosen.emit(key))
            self.example_buttons[example.key] = button
            layout.addWidget(button)
        layout.addWidget(_label("More examples, planned with one click", "font-weight: bold; margin-top: 8px;"))
        self.prompt_links: list[QLabel] = []
        for prompt in example_prompts(today):
            link = QLabel(f"<a href='prompt' style='color: #1565c0;'>{html.escape(prompt)}</a>")
            link.setTextFormat(Qt.TextFormat.RichText)
            link.setWordWrap(True)
            link.setToolTip("Plan this trip (the text goes in the prompt box, to change and plan again)")
            link.linkActivated.connect(lambda _href, text=prompt: self.prompt_chosen.emit(text))
            self.prompt_links.append(link)
            layout.addWidget(link)
        hint = _label("Or describe your own trip in the Trip form's prompt box and press Read, then Plan. "
                      "Tips: drag an overnight stop on the map to move it; right-click a marker to lock, remove, "
                      "replace or move it; Ctrl+Z undoes an edit.", "color: #616161;", wrap=True)
        layout.addWidget(hint)
        layout.addStretch(1)


def _label(text: str, style: str, *, wrap: bool = False) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setStyleSheet(style)
    label.setWordWrap(wrap)
    return label
