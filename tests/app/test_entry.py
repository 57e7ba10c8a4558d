"""The console script: CLI arguments never import Qt; no arguments start the GUI."""

import os
import struct
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
            def __init__(self, **options):
                super().__init__(**options)
                self.map_view.loadFinished.connect(self.quit_soon)

            def quit_soon(self, ok):
                print("loaded", ok, flush=True)
                QTimer.singleShot(200, QApplication.quit)

        main_window.MainWindow = QuittingWindow
        sys.exit(gui.run_gui())
    """)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "loaded True" in result.stdout


def test_quit_when_ready_reports_the_interactive_map():
    result = subprocess.run([sys.executable, "-c", "import sys; from app.entry import main; sys.exit(main([]))"],
                            cwd=REPO, capture_output=True, text=True, timeout=60,
                            env={**os.environ, "TRIPWRIGHT_QUIT_WHEN_READY": "1"})
    assert result.returncode == 0, result.stderr[-2000:]
    line = next(l for l in result.stdout.splitlines() if l.startswith("map-ready "))
    assert 0 < float(line.split()[1]) < 30


def test_screenshot_writes_a_png_of_the_window(tmp_path):
    out = tmp_path / "road.png"
    result = subprocess.run([sys.executable, "-c", "import sys; from app.entry import main; "
                             f"sys.exit(main(['screenshot', '--out', {str(out)!r}, '--trip', 'road', "
                             "'--size', '1000x700']))"],
                            cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().splitlines()[-1] == str(out)
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1000, 700)
    assert len(data) > 50_000  # a painted window, not a blank one


def test_screenshot_into_a_missing_folder_exits_2_with_one_line(tmp_path, capsys):
    code = entry.main(["screenshot", "--out", str(tmp_path / "nope" / "x.png")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "does not exist" in err
    assert entry.main(["screenshot", "--out", str(tmp_path / "x.png"), "--trip", "moon"]) == 2
    assert capsys.readouterr().err.startswith("tripwright screenshot: argument --trip: invalid choice")
