"""The Group dock (seed 001): planning a trip together. A header with the revision status ("X
feedback, Y reactions since vN" / "Waiting for feedback or reactions"), "Plan with AI" and
"Revise" (enabled by the controller, with the reason when not), the shown version's reactions,
and tabs: Ideas, Chat, Feedback, Changes (what the shown version changed). A pure view."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QTabWidget, QVBoxLayout, QWidget

from .group_sections import ChatSection, FeedbackSection, IdeasSection
from .reactions_bar import ReactionsBar
from .version_diff_view import VersionDiffView


class GroupPanel(QWidget):
    plan_ai_requested = Signal()
    revise_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.trip_label = QLabel("")
        self.trip_label.setTextFormat(Qt.TextFormat.PlainText)
        self.trip_label.setObjectName("group_trip")
        font = self.trip_label.font()
        font.setBold(True)
        self.trip_label.setFont(font)
        self.status_label = QLabel("")
        self.status_label.setTextFormat(Qt.TextFormat.PlainText)
        self.status_label.setWordWrap(True)
        self.status_label.setObjectName("group_status")
        self.plan_button = QPushButton("Plan with AI")
        self.plan_button.setObjectName("plan_ai")
        self.plan_button.clicked.connect(self.plan_ai_requested)
        self.revise_button = QPushButton("Revise")
        self.revise_button.setObjectName("revise")
        self.revise_button.clicked.connect(self.revise_requested)
        self.reactions = ReactionsBar()
        self.ideas = IdeasSection()
        self.chat = ChatSection()
        self.feedback = FeedbackSection()
        self.changes = VersionDiffView()
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.ideas, "Ideas")
        self.tabs.addTab(self.chat, "Chat")
        self.tabs.addTab(self.feedback, "Feedback")
        self.tabs.addTab(self.changes, "Changes")
        buttons = QHBoxLayout()
        buttons.addWidget(self.plan_button)
        buttons.addWidget(self.revise_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.trip_label)
        layout.addWidget(self.status_label)
        layout.addLayout(buttons)
        layout.addWidget(self.reactions)
        layout.addWidget(self.tabs, 1)
        self.show_empty("Open or plan a saved trip to plan it with your group.")

    def show_empty(self, why: str) -> None:
        """No trip in the store to plan together (none open, or not signed in)."""
        self.trip_label.setText("No trip")
        self.status_label.setText(why)
        for w in (self.plan_button, self.revise_button, self.reactions, self.tabs):
            w.setEnabled(False)
        self.plan_button.setEnabled(True)  # plans the form's trip with the model
        self.plan_button.setToolTip("Plan the Trip form's request with the model")
        self.revise_button.setToolTip("Plan and save a trip first")

    def show_trip(self, name: str, version: int | None, latest: int | None) -> None:
        shown = f" \u00b7 showing v{version}" if version else ""
        newest = f" (latest v{latest})" if latest and latest != version else ""
        self.trip_label.setText(f"{name}{shown}{newest}")
        self.reactions.set_title(f"v{version}:" if version else "React:")
        for w in (self.reactions, self.tabs):
            w.setEnabled(True)

    def set_ai_state(self, status: str, plan: tuple[bool, str], revise: tuple[bool, str]) -> None:
        """``status``: the revision line; ``plan``/``revise``: (enabled, tooltip — the reason when not)."""
        self.status_label.setText(status)
        for button, (enabled, tip) in ((self.plan_button, plan), (self.revise_button, revise)):
            button.setEnabled(enabled)
            button.setToolTip(tip)

    def set_busy(self, busy: bool) -> None:
        """While a model run is in flight the buttons wait (the progress panel shows it)."""
        if busy:
            self.plan_button.setEnabled(False)
            self.revise_button.setEnabled(False)
