"""The Leaflet map view: one local page, built once, that never navigates away.

The page and its bridge (the API both ways) are widgets/map_page.py. The view keeps the page in
step with the itinerary it is given, and validates what the page sends (known marker id, finite
lat/lon in range, an action from the fixed set that the marker's menu offered); anything else is
logged and dropped. Only valid calls become the view's typed signals.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtWebChannel import QWebChannel
from PySide6.QtWebEngineCore import QWebEngineSettings
from PySide6.QtWebEngineWidgets import QWebEngineView
from PySide6.QtWidgets import QWidget

from engine.models import ItineraryV1
from engine.roadtrip.corridor_band import corridor_band

from .formatting import check_distance_unit
from .map_page import RESOURCES_DIR, MapBridge, MapPage, map_page_html
from engine.maps.city_map import CityLayers, layers_document
from engine.maps.map_document import build_map_document, empty_map_document, is_finite_lat_lon
from engine.places.pack_store import PackStore
from .offline_tiles import handler_for, open_archive
from .tile_source import tile_source
from .web_profile import map_profile

log = logging.getLogger(__name__)

MAX_ID_LENGTH = 200
OFFLINE_TEXT = "Offline \u2014 showing the built-in map"  # the map's one-line note
TILE_RETRY_MS = 30_000  # failing street tiles are tried again after this, then twice as long, ...
ACTION_PATTERN = re.compile(r"(lock|unlock|remove|replace|rest|move:\d{1,2})\Z")


class MapView(QWebEngineView):
    """Shows resources/map.html and keeps it in step with the itinerary it is given."""


    marker_dragged = Signal(str, float, float)
    marker_action = Signal(str, str)
    map_clicked = Signal(float, float)
    marker_selected = Signal(str)
    legend_toggled = Signal(bool)  # the user opened (False) or collapsed (True) the legend
    tiles_failed = Signal()  # online tiles kept failing: the page fell back to the offline layers
    tiles_restored = Signal()  # after a failure, street tiles load again
    offline_copy_requested = Signal()  # "Make this trip available offline" on the map
    ready = Signal()
    drawn = Signal(int)  # the page has painted the document of this revision (see ``revision``)
    offline_copy_requested = Signal()  # "make this trip available offline" asked from the map

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._ready = False
        self._pending: list[tuple[str, str]] = []
        self._online = False
        self._street_wanted = False
        source = tile_source()
        #: The street tiles' template (TRIPWRIGHT_TILE_URL or OSM's; tests may use a data: image).
        self.tile_url = source.url
        self.tile_warning = source.warning  # one line when TRIPWRIGHT_TILE_URL could not be used
        self.tile_retry_ms = TILE_RETRY_MS
        self.offline_copy_offered = True  # the button shows with a trip on the street map
        self._distance_unit = "mi"
        self._itinerary: ItineraryV1 | None = None
        self._route = None
        self._document: dict = empty_map_document()
        self._document_json = json.dumps(self._document)
        self._markers: dict[str, dict] = {}
        self._basemap_tiles: dict | None = None
        #: Where a city trip's own map is read from: its cached city pack (issue 32 §4); None is
        #: the data dir's packs, looked up when first needed.
        self.pack_store: PackStore | None = None
        self._city_maps: dict[str, CityLayers | None] = {}
        self._city_map_sent: CityLayers | None = None
        self._city_map_json = "null"
        self.chunk_store = None  # the corridor chunks' store (None: the data dir's)
        self._road_map_of: object = None
        self._road_layers: CityLayers | None = None
        self._basemap_revision = 0
        self.revision = 0  # of the newest document sent; the page reports it back once painted
        self.drawn_revision = 0  # of the newest document the page has painted

        # Parented to the view so the page is deleted with it, before the profile.
        page = MapPage(map_profile(), self)  # identifying User-Agent, disk cache for online tiles
        # A file: page loads no http(s) image without this (docs/PLATFORM_NOTES.md); the page's
        # Content-Security-Policy still allows images from the one tile origin only.
        page.settings().setAttribute(QWebEngineSettings.WebAttribute.LocalContentCanAccessRemoteUrls, True)
        self.setPage(page)
        # The page blocks the browser's own context menu; this keeps Qt's from appearing too.
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.NoContextMenu)
        self.bridge = MapBridge(self)
        self._channel = QWebChannel(page)
        self._channel.registerObject("bridge", self.bridge)
        page.setWebChannel(self._channel)  # before the page loads
        # Also before: a scheme handler installed after the page loaded is never asked.
        self._tiles = handler_for(page.profile())
        self.bridge.ready_received.connect(self._on_page_ready)
        self.bridge.drag_received.connect(self._on_drag)
        self.bridge.action_received.connect(self._on_action)
        self.bridge.click_received.connect(self._on_click)
        self.bridge.select_received.connect(self._on_select)
        self.bridge.legend_received.connect(self._on_legend)
        self.bridge.tiles_failed_received.connect(self.tiles_failed)
        self.bridge.tiles_ok_received.connect(self.tiles_restored)
        self.bridge.offline_copy_received.connect(self._on_offline_copy)
        self.bridge.drawn_received.connect(self._on_drawn)
        self.loadStarted.connect(self._on_load_started)
        self.loadFinished.connect(self._refuse_drops)
        self.setHtml(map_page_html(source.origin), QUrl.fromLocalFile(str(RESOURCES_DIR) + "/"))
        self._refuse_drops()

    def _refuse_drops(self, *_args) -> None:
        """Files dropped on the map are the window's (the app imports saved places and bookings):
        neither the view nor the page's render widget takes a drop (the page would try to open
        the file, a navigation it refuses)."""
        for widget in (self, *self.findChildren(QWidget)):
            widget.setAcceptDrops(False)

    # -- public API ---------------------------------------------------------------------------
    @property
    def is_ready(self) -> bool:
        return self._ready

    @property
    def document(self) -> dict:
        """The layer document last sent (or queued) to the page."""
        return self._document

    def show_itinerary(self, itinerary: ItineraryV1 | None, *, route=None, online: bool | None = None,
                       keep_view: bool = False) -> None:
        """Draw ``itinerary``; ``route`` is the named :class:`~engine.roadtrip.routes.Route` whose
        corridor band to show (anything with ``.polyline`` and ``.name``); ``keep_view``: leave
        the zoom and centre as the user left them (a redraw after a refused edit)."""
        if online is not None:
            self._online = bool(online)
        self._itinerary, self._route = itinerary, route
        self._send_document(keep_view=keep_view)

    def highlight(self, activity_id: str) -> None:
        """Pan to the marker of ``activity_id`` and emphasise it (unknown ids are ignored)."""
        if activity_id not in self._markers:
            log.info("map: no marker %r to highlight", activity_id)
            return
        self._call("highlight", str(activity_id))

    def set_online(self, online: bool) -> None:
        """Street tiles (with their attribution) on top of the offline basemap, or not."""
        self.set_street_map(online, reachable=True)

    def set_street_map(self, wanted: bool, *, reachable: bool = True) -> None:
        """The street map the traveller wants (Settings), drawn when the network is ``reachable``;
        wanted but not reachable (or its tiles failing) is the built-in map with a one-line note."""
        online = bool(wanted) and bool(reachable)
        if (online, bool(wanted)) != (self._online, self._street_wanted):
            self._online, self._street_wanted = online, bool(wanted)
            self._send_document()

    def set_basemap_file(self, path: str | Path | None) -> None:
        """Draw an offline basemap — an ``.mbtiles`` raster or a ``.pmtiles`` vector (or raster)
        archive, served through the ``tripwright-tiles:`` scheme — over the built-in outlines; None
        goes back to the outlines alone. Raises ``BasemapFileError`` with a one-line reason for a
        file it cannot show."""
        archive = open_archive(path) if path else None
        self._tiles.use(archive)
        self._basemap_revision += 1
        self._basemap_tiles = ({**archive.page_source(), "rev": self._basemap_revision}
                               if archive is not None else None)
        self._send_document(keep_view=True)  # another basemap under the same view

    def set_legend_collapsed(self, collapsed: bool) -> None:
        """Open or collapse the map's legend (the window restores the user's last choice)."""
        self._call("set_legend", "1" if collapsed else "0")

    def set_distance_unit(self, unit: str) -> None:
        """Miles or kilometres in the day and corridor labels (the user's setting)."""
        if unit != self._distance_unit:
            self._distance_unit = check_distance_unit(unit)
            self._send_document()

    # -- Python -> JS -------------------------------------------------------------------------
    def _send_document(self, *, keep_view: bool = False) -> None:
        if self._itinerary is None:
            document = empty_map_document(online=self._online)
        else:
            route, intent = self._route, self._itinerary.intent
            band = (corridor_band(route.polyline, route.name, intent.corridor_max_deviation_miles)
                    if route is not None and intent.mode == "road_trip" else None)
            document = build_map_document(self._itinerary, corridor=band, online=self._online,
                                          distance_unit=self._distance_unit)
        self._send_city_map()
        if document["online"]:
            document["tile_url"] = self.tile_url
        document["street_map"] = self._street_wanted
        document["offline_text"] = OFFLINE_TEXT
        document["tile_retry_ms"] = self.tile_retry_ms
        document["offline_copy"] = self.offline_copy_offered
        if self._basemap_tiles is not None:
            document["basemap_tiles"] = self._basemap_tiles
        self.revision += 1
        document["revision"] = self.revision
        document["keep_view"] = keep_view
        self._document = document
        self._document_json = json.dumps(document, ensure_ascii=False, allow_nan=False)
        self._markers = {m["id"]: m for m in document["markers"]}
        self._call("set_layers", self._document_json)

    @property
    def city_map_document(self) -> dict | None:
        """The city's own map last sent to the page (``layers_document``), or None."""
        return json.loads(self._city_map_json)

    def _send_city_map(self) -> None:
        itinerary = self._itinerary
        city = itinerary.intent.city if itinerary is not None and itinerary.intent.mode == "city" else None
        road = itinerary is not None and itinerary.intent.mode == "road_trip" and self._route is not None
        layers = self._city_map(city) if city else self._road_map() if road else None
        if layers is self._city_map_sent:
            return
        self._city_map_sent = layers
        self._city_map_json = json.dumps(layers_document(layers), ensure_ascii=False, allow_nan=False)
        self._call("set_city_map", self._city_map_json)

    def _road_map(self) -> CityLayers | None:
        """A road trip's main roads and water from the cached corridor chunks along its route (issue
        32 §4), kept for the route's life once found: a re-plan on the same route sends nothing again,
        and a route with none yet looks again (its chunks may have been fetched since)."""
        polyline = self._route.polyline
        if self._road_map_of is not polyline or self._road_layers is None:
            from engine.places.corridor_map import corridor_map
            self._road_map_of, self._road_layers = polyline, corridor_map(polyline, store=self.chunk_store)
        return self._road_layers

    def _city_map(self, city: str) -> CityLayers | None:
        """The city's own map from its cached pack (fetched with it) or a fixture city's shipped
        one, or None (a pack fetched before maps were, no pack yet): a map found is kept for the
        view's life."""
        if self._city_maps.get(city) is None:
            if self.pack_store is None:
                self.pack_store = PackStore()
            self._city_maps[city] = self.pack_store.city_map(city)
        return self._city_maps[city]

    def _call(self, name: str, argument: str) -> None:
        if self._ready:
            getattr(self.bridge, name).emit(argument)
        elif name == "set_layers":
            self._queue_document()
        elif name == "set_city_map":  # only the newest waits
            self._pending = [p for p in self._pending if p[0] != name] + [(name, argument)]
        else:
            self._pending.append((name, argument))

    def _queue_document(self) -> None:
        """Only the newest document waits, ahead of the highlights (which name its markers)."""
        waiting = [p for p in self._pending if p[0] != "set_layers"]
        self._pending = [("set_layers", self._document_json), *waiting]

    def _on_load_started(self) -> None:
        # A (re)loaded page starts empty: it gets the current document again.
        self._ready = False
        self._queue_document()
        if self._city_map_sent is not None:
            self._pending = [p for p in self._pending if p[0] != "set_city_map"]
            self._pending.append(("set_city_map", self._city_map_json))

    def _on_page_ready(self) -> None:
        if self._ready:
            return
        self._ready = True
        pending, self._pending = self._pending, []
        for name, argument in pending:
            getattr(self.bridge, name).emit(argument)
        self.ready.emit()

    # -- JS -> Python: validate, then emit ---------------------------------------------------
    def _known_marker(self, marker_id, what: str) -> dict | None:
        if not isinstance(marker_id, str) or len(marker_id) > MAX_ID_LENGTH or marker_id not in self._markers:
            log.warning("map: ignored %s for unknown marker %s", what, _short(marker_id))
            return None
        return self._markers[marker_id]

    def _on_drag(self, marker_id, lat, lon) -> None:
        marker = self._known_marker(marker_id, "drag")
        if marker is None:
            return
        if not marker["draggable"]:
            log.warning("map: ignored drag of the fixed marker %r", marker_id)
        elif not is_finite_lat_lon(lat, lon):
            log.warning("map: ignored drag of %r to invalid position %s, %s", marker_id, _short(lat), _short(lon))
        else:
            self.marker_dragged.emit(marker_id, float(lat), float(lon))

    def _on_action(self, marker_id, action) -> None:
        marker = self._known_marker(marker_id, "action")
        if marker is None:
            return
        if not isinstance(action, str) or not ACTION_PATTERN.match(action) or action not in marker["actions"]:
            log.warning("map: ignored action %s on %r", _short(action), marker_id)
            return
        self.marker_action.emit(marker_id, action)

    def _on_click(self, lat, lon) -> None:
        if not is_finite_lat_lon(lat, lon):
            log.warning("map: ignored click at invalid position %s, %s", _short(lat), _short(lon))
            return
        self.map_clicked.emit(float(lat), float(lon))

    def _on_offline_copy(self) -> None:
        if not (self._online and self._itinerary is not None and self.offline_copy_offered):
            log.warning("map: ignored an offline-copy request with no trip on the street map")
            return
        self.offline_copy_requested.emit()

    def _on_drawn(self, revision) -> None:
        if isinstance(revision, (int, float)) and not isinstance(revision, bool) and 0 < revision <= self.revision:
            self.drawn_revision = max(self.drawn_revision, int(revision))
            self.drawn.emit(int(revision))

    def _on_legend(self, collapsed) -> None:
        if not isinstance(collapsed, bool):
            log.warning("map: ignored legend state %s", _short(collapsed))
            return
        self.legend_toggled.emit(collapsed)

    def _on_select(self, marker_id) -> None:
        marker = self._known_marker(marker_id, "selection")
        if marker is None:
            return
        if not marker["selectable"]:
            log.info("map: ignored selection of %r (not an activity)", marker_id)
        else:
            self.marker_selected.emit(marker_id)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
