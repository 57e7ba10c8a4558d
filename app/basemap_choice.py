"""Which offline basemap file the map draws: the open trip's own offline copy
(``<data dir>/offline_maps/<trip>.pmtiles``, made by Trip ▸ Make this trip available offline…)
when it exists, else ``TRIPWRIGHT_BASEMAP`` while it is set, else the Settings field; a file the
map cannot show is one warning line, and the built-in outlines (or the next choice) stay."""

from __future__ import annotations

import re
from pathlib import Path

from engine.maps.offline_download import offline_map_path
from engine.settings import Settings, apply_env
from widgets.offline_tiles import BasemapFileError

from .trip_place import trip_place


def trip_key(trip) -> str | None:
    """The name of the open trip's offline copy: its stored id, else (a trip kept in memory) its
    place — the city, or origin to terminus; None with no trip open."""
    if trip.trip_id:
        return str(trip.trip_id)
    intent = trip.intent
    if intent is None:
        return None
    place = trip_place(intent, "-")
    return "unsaved-" + (re.sub(r"[^a-z0-9]+", "-", str(place).lower()).strip("-") or "trip")


def trip_offline_file(trip, data_dir: Path | None = None) -> Path | None:
    """Where the open trip's offline copy is (or would be); None with no trip open."""
    key = trip_key(trip)
    if key is None:
        return None
    if data_dir is None:
        from engine.store.sqlite_file import data_dir as default_dir
        data_dir = default_dir()
    return offline_map_path(data_dir, key)


_UNCHOSEN = object()


def forget_basemap(window) -> None:
    """The next ``show_basemap`` draws its choice again (a file was written or removed)."""
    window._basemap_chosen = _UNCHOSEN  # noqa: SLF001


def show_basemap(window, settings: Settings) -> None:
    """Point the map at the chosen file (only when the choice changed) and say so."""
    own = trip_offline_file(window.trip)
    if own is not None and own.is_file():
        if getattr(window, "_basemap_chosen", None) == str(own):
            return
        try:
            window.map_view.set_basemap_file(own)
        except BasemapFileError as exc:
            window.show_message(f"This trip's offline map: {exc}; using the other basemap.", "warning")
        else:
            window._basemap_chosen = str(own)
            window.show_status(f"Map: this trip's offline copy ({own.name}) is drawn, no network needed.", 8000)
            return
    path = apply_env(settings).basemap_file or None
    if getattr(window, "_basemap_chosen", _UNCHOSEN) == path:  # None (no file) is a choice too
        return
    try:
        window.map_view.set_basemap_file(path)
        window._basemap_chosen = path
    except BasemapFileError as exc:
        window.map_view.set_basemap_file(None)
        window._basemap_chosen = None
        window.show_message(f"Offline map: {exc}; showing the built-in outlines.", "warning")
