"""Unexpected exceptions: a non-modal box with a one-line summary (the traceback under "Show
Details"), logged, and nothing else touched, so the open trip stays as it was.

Installed as ``sys.excepthook`` (qasync's ``asyncSlot`` reports a failed slot through it) and as
the asyncio loop's exception handler (a failed task nobody awaited).
"""

from __future__ import annotations

import logging
import sys
import traceback
from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

log = logging.getLogger(__name__)
MAX_SUMMARY = 200


def summary(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or "(no message)"
    line = f"{type(exc).__name__}: {text}"
    return line if len(line) <= MAX_SUMMARY else line[:MAX_SUMMARY - 1] + "\u2026"


class ErrorReporter:
    """Shows unexpected exceptions next to ``parent()`` (the main window, looked up when needed)."""

    def __init__(self, parent: Callable[[], QWidget | None]) -> None:
        self._parent = parent
        self.boxes: list[QMessageBox] = []
        self.seen: list[BaseException] = []

    def report(self, exc: BaseException) -> QMessageBox:
        self.seen.append(exc)
        log.error("unexpected error", exc_info=(type(exc), exc, exc.__traceback__))
        box = QMessageBox(self._parent())
        box.setIcon(QMessageBox.Icon.Critical)
        box.setWindowTitle("Tripwright: unexpected error")
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText(summary(exc))
        box.setInformativeText("Your open trip is unchanged. The details help us fix this.")
        box.setDetailedText("".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
        box.setModal(False)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(lambda _result, b=box: self.boxes.remove(b) if b in self.boxes else None)
        self.boxes.append(box)
        box.show()
        return box

    # -- hooks ----------------------------------------------------------------------------------
    def excepthook(self, exc_type, exc, tb) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            sys.__excepthook__(exc_type, exc, tb)
            return
        if exc.__traceback__ is None:
            exc = exc.with_traceback(tb)
        try:
            self.report(exc)
        except Exception:  # noqa: BLE001 — never let the hook itself fail
            sys.__excepthook__(exc_type, exc, tb)

    def loop_exception_handler(self, loop, context: dict) -> None:
        exc = context.get("exception")
        if exc is None:
            log.error("asyncio: %s", context.get("message"))
            return
        self.excepthook(type(exc), exc, exc.__traceback__)

    def install(self, loop=None) -> None:
        sys.excepthook = self.excepthook
        if loop is not None:
            loop.set_exception_handler(self.loop_exception_handler)
