"""Shared test setup. Engine tests must also run where PySide6 is not installed."""

import os

# Before any Qt import: render offscreen, and let QtWebEngine start as root.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QTWEBENGINE_DISABLE_SANDBOX", "1")

try:
    # QtWebEngine must be imported before pytest-qt creates the QApplication.
    import PySide6.QtWebEngineWidgets  # noqa: F401
except ImportError:
    pass
