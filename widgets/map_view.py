"""The Leaflet map view: one local page, built once, that never navigates away."""

from __future__ import annotations

import logging
from pathlib import Path

import xstatic.pkg.leaflet
from PySide6.QtCore import QUrl, Signal
from PySide6.QtWebEngineCore import QWebEnginePage
from PySide6.QtWebEngineWidgets import QWebEngineView

log = logging.getLogger(__name__)

RESOURCES_DIR = Path(__file__).resolve().parent.parent / "resources"
MAP_PAGE = RESOURCES_DIR / "map.html"

_NavType = QWebEnginePage.NavigationType
# setHtml() arrives as a "typed" navigation to a data: URL (and a reload repeats it); Leaflet's
# file: scripts and images are sub-resources, not navigations. Nothing else may replace the page.
_ALLOWED_NAVIGATIONS = frozenset({_NavType.NavigationTypeTyped, _NavType.NavigationTypeReload})


def map_page_html() -> str:
    """resources/map.html with Leaflet pointed at the installed xstatic-leaflet files.

    Only the leaflet directory's file: URL is substituted. The page is loaded with
    setHtml() and a file: base URL (about:blank would block local scripts), which
    keeps Leaflet in its package instead of copying it into resources/.
    """
    leaflet_url = QUrl.fromLocalFile(str(Path(xstatic.pkg.leaflet.BASE_DIR).resolve()))
    return MAP_PAGE.read_text(encoding="utf-8").replace("@LEAFLET_URL@", leaflet_url.toString())


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

    def javaScriptConsoleMessage(self, level, message, line, source) -> None:  # noqa: N802 (Qt API)
        log.warning("map js %s:%s: %s", source, line, message)


class MapView(QWebEngineView):
    """Shows resources/map.html; live layers will be pushed to it through a QWebChannel bridge."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        # Parented to the view so the page is deleted with it, before the profile.
        self.setPage(MapPage(self))
        self.setHtml(map_page_html(), QUrl.fromLocalFile(str(RESOURCES_DIR) + "/"))
