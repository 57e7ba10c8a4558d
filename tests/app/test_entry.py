"""The console script: CLI arguments never import Qt; no arguments start the GUI."""

import subprocess
import sys
import textwrap
import types
from pathlib import Path

from app import entry

REPO = Path(__file__).resolve().parents[2]


def run_python(code, timeout=60):
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=REPO, capture_output=True, text=True, timeout=timeout,
    )


def test_importing_entry_does_not_import_qt():
    result = run_python("""
        import sys
        import app.entry
        print(sorted(m for m in ("PySide6", "qasync", "shiboken6") if m in sys.modules))
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_arguments_are_delegated_to_the_engine_cli(monkeypatch):
    seen = []
    fake_cli = types.ModuleType("engine.cli")
    fake_cli.main = lambda argv: seen.append(argv) or 7
    monkeypatch.setitem(sys.modules, "engine.cli", fake_cli)
    assert entry.main(["plan", "--prompt", "x"]) == 7
    assert seen == [["plan", "--prompt", "x"]]


def test_missing_engine_cli_exits_2(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "engine.cli", None)  # makes the import fail
    assert entry.main(["--help"]) == 2
    assert capsys.readouterr().err.strip() == "tripwright: command line not available"


def test_gui_starts_and_quits_cleanly():
    # Quit once the map has loaded; exercises the single qasync loop and the shutdown order.
    result = run_python("""
        import sys
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication
        from app import gui, main_window

        class QuittingWindow(main_window.MainWindow):
            def __init__(self):
                super().__init__()
                self.map_view.loadFinished.connect(self.quit_soon)

            def quit_soon(self, ok):
                print("loaded", ok, flush=True)
                QTimer.singleShot(200, QApplication.quit)

        main_window.MainWindow = QuittingWindow
        sys.exit(gui.run_gui())
    """)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "loaded True" in result.stdout
