"""The map's page (resources/map.html, loaded once; it refuses every navigation) and its bridge.

Live data reaches the page through one QWebChannel object, :class:`MapBridge`, with a tiny fixed
API both ways (see ``resources/map.js``):

* Python -> JS, bridge signals carrying JSON-encoded / plain string arguments:
  ``set_layers(json)`` (the map document of :mod:`engine.maps.map_document`, drawn by ``resources/trip_map.js``) and ``highlight(id)``.
  They are queued until the page calls ``page_ready()``, then sent in order (only the latest
  layer document is kept while waiting).
* JS -> Python, bridge slots: ``page_ready()``, ``marker_dragged(id, lat, lon)``,
  ``marker_action(id, action)``, ``map_clicked(lat, lon)``, ``marker_selected(id)``,
  ``legend_toggled(collapsed)``, ``tiles_failed(count)``, ``tiles_ok()``, ``offline_copy()``; and
  Python -> JS ``set_legend("1"|"0")`` and ``set_city_map(json)`` (the city trip's own map from its
  pack, sent apart from the document and only when it changes: a large city's is ~1 MB). Their
  arguments arrive as untyped variants and are validated by the view, widgets/map_view.py (known marker id, finite lat/lon in
  range, an action from the fixed set that the marker's menu offered); anything else is logged
  and dropped. Only valid calls become the view's typed signals.
"""

from __future__ import annotations

import logging
from pathlib import Path

import xstatic.pkg.leaflet
from PySide6.QtCore import QObject, QUrl, Signal, Slot
from PySide6.QtWebEngineCore import QWebEnginePage

log = logging.getLogger("widgets.map_view")  # the map's one logger, as before the page had its own module

RESOURCES_DIR = Path(__file__).resolve().parent.parent / "resources"
MAP_PAGE = RESOURCES_DIR / "map.html"

_NavType = QWebEnginePage.NavigationType
# setHtml() arrives as a "typed" navigation to a data: URL (and a reload repeats it); Leaflet's
# file: scripts and images are sub-resources, not navigations. Nothing else may replace the page.
_ALLOWED_NAVIGATIONS = frozenset({_NavType.NavigationTypeTyped, _NavType.NavigationTypeReload})


def map_page_html(tile_origin: str) -> str:
    """resources/map.html with Leaflet pointed at the installed xstatic-leaflet files and the
    street tiles' one origin (checked by widgets/tile_source.py) in its Content-Security-Policy.

    Only those two are substituted. The page is loaded with
    setHtml() and a file: base URL (about:blank would block local scripts), which
    keeps Leaflet in its package instead of copying it into resources/.
    """
    leaflet_url = QUrl.fromLocalFile(str(Path(xstatic.pkg.leaflet.BASE_DIR).resolve()))
    html = MAP_PAGE.read_text(encoding="utf-8").replace("@LEAFLET_URL@", leaflet_url.toString())
    return html.replace("@TILE_ORIGIN@", tile_origin)


class MapPage(QWebEnginePage):
    """A page that accepts only its own setHtml() load and refuses every other navigation."""

    navigation_refused = Signal(QUrl)

    def acceptNavigationRequest(self, url, nav_type, is_main_frame) -> bool:  # noqa: N802 (Qt API)
        url = QUrl(url)
        if url.scheme() == "data" and nav_type in _ALLOWED_NAVIGATIONS:
            return True
        log.info("map: refused navigation to %s", url.toDisplayString())
        self.navigation_refused.emit(url)
        return False

    def createWindow(self, window_type):  # noqa: N802 (Qt API)
        log.info("map: refused to open a new window")
        return None

    def javaScriptConsoleMessage(self, level, message, line, source) -> None:  # noqa: N802 (Qt API)
        log.warning("map js %s:%s: %s", source, line, message)


class MapBridge(QObject):
    """The one object the page sees. Signals go to JS; slots come from JS (untrusted)."""

    # Python -> JS
    set_layers = Signal(str)
    highlight = Signal(str)
    set_legend = Signal(str)  # "1" collapsed, "0" open
    set_city_map = Signal(str)  # the city's own map (JSON, "null" for none): sent only when it changes
    # JS -> Python, after the page's own type checks; the view validates the values
    ready_received = Signal()
    drag_received = Signal(object, object, object)
    action_received = Signal(object, object)
    click_received = Signal(object, object)
    select_received = Signal(object)
    legend_received = Signal(object)
    tiles_failed_received = Signal()
    tiles_ok_received = Signal()
    offline_copy_received = Signal()
    drawn_received = Signal(object)

    @Slot()
    def page_ready(self) -> None:
        self.ready_received.emit()

    @Slot("QVariant", "QVariant", "QVariant")
    def marker_dragged(self, marker_id, lat, lon) -> None:
        self.drag_received.emit(marker_id, lat, lon)

    @Slot("QVariant", "QVariant")
    def marker_action(self, marker_id, action) -> None:
        self.action_received.emit(marker_id, action)

    @Slot("QVariant", "QVariant")
    def map_clicked(self, lat, lon) -> None:
        self.click_received.emit(lat, lon)

    @Slot("QVariant")
    def marker_selected(self, marker_id) -> None:
        self.select_received.emit(marker_id)

    @Slot("QVariant")
    def tiles_failed(self, _count) -> None:
        self.tiles_failed_received.emit()

    @Slot()
    def tiles_ok(self) -> None:
        self.tiles_ok_received.emit()

    @Slot()
    def offline_copy(self) -> None:
        self.offline_copy_received.emit()

    @Slot("QVariant")
    def legend_toggled(self, collapsed) -> None:
        self.legend_received.emit(collapsed)

    @Slot("QVariant")
    def document_drawn(self, revision) -> None:
        self.drawn_received.emit(revision)
