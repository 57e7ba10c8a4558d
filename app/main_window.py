"""The main window: the map in the middle, a planning dock on the left, a status line."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow

from widgets.map_view import MapView

STATUS_TEXT = "Offline · embedded data"
PLAN_HINT = "Plan a trip: tripwright plan --prompt ..."


class MainWindow(QMainWindow):
    """A minimal shell for now; the full product window replaces the placeholder dock."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Tripwright")
        self.resize(1200, 800)

        self.map_view = MapView(self)
        self.setCentralWidget(self.map_view)

        hint = QLabel(PLAN_HINT)
        hint.setWordWrap(True)
        hint.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        hint.setMargin(12)
        hint.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.plan_dock = QDockWidget("Trip", self)
        self.plan_dock.setObjectName("plan_dock")
        self.plan_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable)
        self.plan_dock.setMinimumWidth(260)
        self.plan_dock.setWidget(hint)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.plan_dock)

        # A widget, not showMessage(): temporary messages would wipe it.
        self.status_label = QLabel(STATUS_TEXT)
        self.statusBar().addWidget(self.status_label)
