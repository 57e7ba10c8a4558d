"""Shared test setup. Engine tests must also run where PySide6 is not installed."""

import atexit
import os
import shutil
import tempfile

# The suite never writes into the user's real data dir: one throwaway TRIPWRIGHT_HOME per run,
# shared with the CLI subprocesses (the gazetteer index is built there once, on first use).
if "TRIPWRIGHT_HOME" not in os.environ:
    _home = tempfile.mkdtemp(prefix="tripwright-test-home-")
    os.environ["TRIPWRIGHT_HOME"] = _home
    atexit.register(shutil.rmtree, _home, ignore_errors=True)

# Before any Qt import: render offscreen, and let QtWebEngine start as root.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QTWEBENGINE_DISABLE_SANDBOX", "1")

try:
    # QtWebEngine must be imported before pytest-qt creates the QApplication.
    import PySide6.QtWebEngineWidgets  # noqa: F401
except ImportError:
    pass
