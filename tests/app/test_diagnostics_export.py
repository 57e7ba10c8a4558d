"""The Diagnostics panel's "Export bundle…": after a real plan in the window, the button (with the
save dialog answered by the test) writes the same zip as ``tripwright diagnostics --bundle``, from
the window's own executor, logs redacted."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from engine.models import IntentV1
from tests.app.conftest import wait_task
from tests.engine.conftest import PARIS_DEMO

EXE = Path(sys.executable).with_name("tripwright")
SECRET = "s3cr3t-appid-value"


def answer_dialog(monkeypatch, path: Path | None) -> list[str]:
    """The save dialog returns ``path`` (None: the user cancelled); the titles asked are recorded."""
    asked: list[str] = []

    def dialog(parent, title, directory, filters):
        asked.append(title)
        return (str(path) if path is not None else "", filters)

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(dialog))
    return asked


def test_export_writes_the_cli_bundle_from_the_windows_executor(qtbot, make_window, tmp_path, monkeypatch):
    home = tmp_path / "home"  # the CLI (inheriting it) and the app read the same data dir
    monkeypatch.setenv("TRIPWRIGHT_HOME", str(home))
    logs = home / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    (logs / "tripwright.log.1").write_text(f'{{"event": "GET https://x.test/onecall?lat=1&appid={SECRET}"}}\n')
    window = make_window()
    version = wait_task(qtbot, window.controller.plan_intent(IntentV1.model_validate(PARIS_DEMO)))
    assert version is not None
    asked = answer_dialog(monkeypatch, tmp_path / "from-app")  # no suffix typed: .zip is added
    qtbot.mouseClick(window.diagnostics.export_button, Qt.MouseButton.LeftButton)
    target = tmp_path / "from-app.zip"
    assert asked == ["Export diagnostics bundle"] and target.is_file()
    assert window.diagnostics.export_note.text().startswith("Wrote from-app.zip (")
    cli = tmp_path / "from-cli.zip"
    subprocess.run([str(EXE), "diagnostics", "--bundle", str(cli)], check=True, capture_output=True, timeout=60)
    with zipfile.ZipFile(target) as app_zip, zipfile.ZipFile(cli) as cli_zip:
        assert sorted(app_zip.namelist()) == sorted(cli_zip.namelist())
        assert {"report.json", "metrics.prom", "versions.json", "logs/tripwright.log.1"} <= set(app_zip.namelist())
        report = json.loads(app_zip.read("report.json"))
        assert set(report) == set(json.loads(cli_zip.read("report.json"))) - {"note"}
        executor = window.planning.toolbox.executor
        assert report["tools"]["flights"]["calls"] == executor.stats["flights"].calls > 0
        assert "tool_latency_ms" in app_zip.read("metrics.prom").decode()
        log_text = app_zip.read("logs/tripwright.log.1").decode()
        assert SECRET not in log_text and "appid=***" in log_text


def test_cancelling_or_an_unwritable_folder_writes_nothing(qtbot, make_window, tmp_path, monkeypatch):
    window = make_window()
    answer_dialog(monkeypatch, None)
    assert window.diagnostics.export_bundle() is None and list(tmp_path.iterdir()) == []
    answer_dialog(monkeypatch, tmp_path / "missing-folder" / "bundle.zip")
    assert window.diagnostics.export_bundle() is None
    assert window.diagnostics.export_note.text().startswith("Not written: ")
    assert not (tmp_path / "missing-folder").exists()
