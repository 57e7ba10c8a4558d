"""Which offline basemap file the map draws: ``TRIPWRIGHT_BASEMAP`` while it is set, else the
Settings field; a file the map cannot show is one warning line, and the built-in outlines stay."""

from __future__ import annotations

from engine.settings import Settings, apply_env
from widgets.offline_tiles import BasemapFileError


def show_basemap(window, settings: Settings) -> None:
    path = apply_env(settings).basemap_file
    try:
        window.map_view.set_basemap_file(path or None)
    except BasemapFileError as exc:
        window.map_view.set_basemap_file(None)
        window.show_message(f"Offline map: {exc}; showing the built-in outlines.", "warning")
