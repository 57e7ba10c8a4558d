"""Desktop entry: one QApplication, one qasync loop, the main window."""

from __future__ import annotations

import asyncio
import os
import sys


def run_gui() -> int:
    # QtWebEngine's sandbox refuses to start as root; the process would exit 1.
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        os.environ.setdefault("QTWEBENGINE_DISABLE_SANDBOX", "1")

    import PySide6.QtWebEngineWidgets  # noqa: F401  (must precede the QApplication)
    import qasync
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    from app.main_window import MainWindow

    app = QApplication(sys.argv[:1])
    app.setApplicationName("Tripwright")

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    window = MainWindow()
    window.show()
    # The loop is entered exactly once: every exit emits aboutToQuit, and a second one
    # crashes QtWebEngine (PLATFORM_NOTES). Closing the last window ends run_forever().
    with loop:
        exit_code = loop.run_forever()
    asyncio.set_event_loop(None)
    # Web views must be deleted while the QApplication still exists.
    window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    del window
    return int(exit_code or 0)
