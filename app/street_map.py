"""Whether the map shows the online street map (issue 22 §1): the traveller's choice (Settings'
"Map tiles", View ▸ Street map) while the network can be used — not ``TRIPWRIGHT_OFFLINE=1``,
not marked down after a failed connection —; otherwise the built-in map, with the map's one-line
note when the street map was wanted. The status bar says which map shows.

The network's state is looked at again every ``RECHECK_MS`` (a network marked down is tried again
after two minutes); tiles that fail and come back are the page's own (see ``resources/map.js``).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer

from engine.net.network import offline_by_env

RECHECK_MS = 30_000
SHOWING = {"street": ("Street map \u00b7 online", "color: #2e7d32;"),
           "offline": ("Offline \u00b7 built-in map", "color: #8a5a00;"),
           "builtin": ("Built-in map", "color: #616161;")}


class StreetMap(QObject):
    def __init__(self, window) -> None:
        super().__init__(window)
        self._window = window
        self._wanted = False
        self._failing = False
        view = window.map_view
        view.tiles_failed.connect(self._tiles_failed)
        view.tiles_restored.connect(self._tiles_restored)
        self._timer = QTimer(self)
        self._timer.setInterval(RECHECK_MS)
        self._timer.timeout.connect(self.refresh)
        if view.tile_warning:
            window.show_message(view.tile_warning, "warning")

    @property
    def wanted(self) -> bool:
        return self._wanted

    def reachable(self) -> bool:
        return not offline_by_env() and not self._window.planning.toolbox.network.offline()

    def set_wanted(self, wanted: bool) -> None:
        self._wanted = bool(wanted)
        self._failing = False
        self.refresh()

    def refresh(self) -> None:
        reachable = self.reachable()
        self._window.map_view.set_street_map(self._wanted, reachable=reachable)
        if self._wanted and not reachable:
            self._timer.start()  # until the network can be used again
        else:
            self._timer.stop()
        self._show(reachable)

    def _tiles_failed(self) -> None:
        self._failing = True
        self._show(self.reachable())

    def _tiles_restored(self) -> None:
        self._failing = False
        self._show(self.reachable())

    def _show(self, reachable: bool) -> None:
        showing = "builtin" if not self._wanted else "street" if reachable and not self._failing else "offline"
        text, style = SHOWING[showing]
        label = self._window.online_label
        label.setText(text)
        label.setStyleSheet(style)
