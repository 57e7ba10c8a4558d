"""The window's size, place and dock sizes, kept between sessions (issue 22 §2.5) in
``ui_state.json`` — and the first launch's choices when there is nothing kept: the legend open
only where the map has room for it, the run table hidden until there is a run to show (§2.12)."""

from __future__ import annotations

from PySide6.QtCore import QByteArray

from .ui_state import load_ui_state, remember

LAYOUT_VERSION = 1  # QMainWindow.saveState's version: a new dock layout ignores the old state
ROOMY_MAP = (900, 600)  # narrower or lower, an open legend (284 px) covers a third of the map


def restore_window(window) -> bool:
    """Put the window back as it was left; False when nothing (usable) was kept.

    The size is set with ``resize`` rather than ``restoreGeometry``, which shrinks a window to the
    screen Qt reports (the offscreen platform's is smaller than the windows it draws)."""
    kept = load_ui_state()
    size, docks = kept.get("window_size"), kept.get("window_state")
    if not (_pair(size) and isinstance(docks, str)):
        return False
    window.resize(*size)
    if _pair(kept.get("window_pos")):
        window.move(*kept["window_pos"])
    if kept.get("window_maximized") is True:
        window.showMaximized()
    split = kept.get("itinerary_split")
    if isinstance(split, float) and 0 < split < 1:
        window.itinerary_panel.set_split_fraction(split)
    return window.restoreState(QByteArray.fromBase64(docks.encode("ascii")), LAYOUT_VERSION)


def remember_window(window) -> None:
    maximized = window.isMaximized()
    geometry = window.normalGeometry() if maximized else window.geometry()
    split = window.itinerary_panel.split_fraction
    remember(window_size=[geometry.width(), geometry.height()], window_pos=[geometry.x(), geometry.y()],
             window_maximized=maximized, **({"itinerary_split": split} if split is not None else {}),
             window_state=bytes(window.saveState(LAYOUT_VERSION).toBase64()).decode("ascii"))


def _pair(value) -> bool:
    return (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 100_000 for v in value))


def first_launch_legend(window) -> None:
    """On a first launch the legend opens only if the map has room beside it."""
    map_view = window.map_view
    if map_view.width() < ROOMY_MAP[0] or map_view.height() < ROOMY_MAP[1]:
        map_view.set_legend_collapsed(True)
