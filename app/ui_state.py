"""What the window remembers between sessions that is no setting: the folder each file dialog was
last used in (exports, imported routes, imported notes), and whether the map's legend was collapsed (and the version About shows). ``ui_state.json`` in the data dir, written
atomically; a missing or unreadable file is simply the first launch (nothing here is precious).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from engine.atomic import write_atomic

log = logging.getLogger(__name__)
STATE_FILE = "ui_state.json"


def _path() -> Path:
    from engine.store.sqlite_file import data_dir

    return data_dir() / STATE_FILE


def load_ui_state() -> dict:
    try:
        data = json.loads(_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def remember(**values) -> None:
    """Merge ``values`` into the file; a failure is logged, never shown (the app works without)."""
    state = load_ui_state() | values
    try:
        _path().parent.mkdir(parents=True, exist_ok=True)
        write_atomic(_path(), json.dumps(state, indent=1))
    except OSError as exc:
        log.warning("ui state not saved: %s", exc)


def export_folder() -> str:
    """The folder of the last export, if it is still there (else the home folder)."""
    return last_folder("export")


def last_folder(purpose: str) -> str:
    """The folder a file was last chosen in for ``purpose`` ("export", "route", "notes"), if it is
    still there (else the home folder): each file dialog opens where it was left."""
    folder = load_ui_state().get(f"{purpose}_folder")
    return folder if isinstance(folder, str) and Path(folder).is_dir() else str(Path.home())


def remember_folder(purpose: str, path: str) -> None:
    """Remember the folder of ``path`` (a chosen file) for the next dialog of ``purpose``."""
    remember(**{f"{purpose}_folder": str(Path(path).resolve().parent)})


def app_version() -> str:
    """The installed package's version (About shows it)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tripwright")
    except PackageNotFoundError:
        return "(not installed)"


def restore_legend(map_view) -> bool:
    """The legend opens on the first launch and starts collapsed after it, unless the user last
    left it open: every toggle is remembered. True on the first launch (the window then closes
    the legend again if the map is small: ``app.window_memory.first_launch_legend``)."""
    collapsed = load_ui_state().get("legend_collapsed")
    first = not isinstance(collapsed, bool)
    if first:
        collapsed = False
        remember(legend_collapsed=True)  # the first launch shows it; later ones start collapsed
    map_view.set_legend_collapsed(collapsed)
    map_view.legend_toggled.connect(lambda value: remember(legend_collapsed=value))
    return first
