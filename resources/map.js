/* Tripwright map page: draws the layer document of widgets/map_layers.py and talks to
 * widgets/map_view.py through one QWebChannel object, "bridge".
 *
 * Python -> JS (bridge signals): set_layers(json), highlight(id), set_legend(collapsed).
 * JS -> Python (bridge slots):   page_ready(), marker_dragged(id, lat, lon),
 *   marker_action(id, action), map_clicked(lat, lon), marker_selected(id), legend_toggled(collapsed),
 *   tiles_failed(count), tiles_ok(), offline_copy(), document_drawn(revision).
 *
 * Every string from the document reaches the DOM through textContent, never innerHTML. */
(function () {
  "use strict";

  var OFFLINE_ATTRIBUTION = "Offline basemap: Natural Earth, GSHHG";
  var OSM_ATTRIBUTION = "© OpenStreetMap contributors";
  var COLOUR = /^#[0-9a-fA-F]{6}$/;
  var SOURCES = ["real", "fixture", "computed", "omitted", "osm", "estimated"];
  var SOURCE_TEXT = {
    real: "Real data", fixture: "Fixture data", computed: "Computed", omitted: "Omitted",
    osm: "OpenStreetMap", estimated: "Estimated",
  };
  var EXTRA_SOURCES = ["osm", "estimated"];  // in the legend only when a stop of the trip has one
  var KINDS = {
    anchor:     {size: 25, glyph: "⌂", text: "Overnight stop"},
    origin:     {size: 18, glyph: "S", text: "Start"},
    lodging:    {size: 20, glyph: "H", text: "Hotel"},
    attraction: {size: 19, glyph: "",  text: "Sight / stop (visit order)"},
    meal:       {size: 19, glyph: "",  text: "Meal"},
    flight:     {size: 18, glyph: "✈", text: "Airport (flight)"},
    transit:    {size: 13, glyph: "",  text: "Transit"},
  };
  var ACTION_TEXT = {lock: "Lock", unlock: "Unlock", remove: "Remove from plan", replace: "Replace…",
                     rest: "Rest a day here"};

  var map = L.map("map", {worldCopyJump: true, minZoom: 2, zoomSnap: 0.25}).setView([42, -45], 3);
  map.attributionControl.setPrefix("Leaflet");
  var scale = L.control.scale({position: "bottomleft", maxWidth: 120}).addTo(map);  // km and mi (issue 22 §1)
  L.DomEvent.disableClickPropagation(scale.getContainer());  // a click on it is no "Add a stop here"
  map.createPane("basemap").style.zIndex = 150;   // under the tiles (200) when online
  map.createPane("offlinetiles").style.zIndex = 160;  // an .mbtiles basemap covers the outlines it shows
  var basemapRenderer = L.canvas({pane: "basemap", padding: 0.5});

  var bridge = null;
  var doc = null;
  var layers = {corridor: null, days: null, markers: null};
  var markers = new Map();      // id -> L.Marker
  var markerData = new Map();   // id -> marker record of the document
  var highlighted = null;
  var tiles = null;
  var menu = null;
  var openTip = null;  // the marker whose tooltip is open (at most one)
  var legend = null;
  var basemapFeatures = 0;
  var attribution = null;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function call(slot) {
    var args = Array.prototype.slice.call(arguments, 1);
    if (bridge && typeof bridge[slot] === "function") bridge[slot].apply(bridge, args);
  }

  // -- offline basemap --------------------------------------------------------------------------
  function loadGeoJSON(path, style, into) {
    return new Promise(function (resolve) {
      var xhr = new XMLHttpRequest();
      xhr.open("GET", path);
      xhr.onload = function () {
        try {
          var data = JSON.parse(xhr.responseText);
          var layer = L.geoJSON(data, {pane: "basemap", renderer: basemapRenderer, interactive: false, style: style});
          layer.addTo(map);
          if (into) into.push(layer);
          basemapFeatures += data.features.length;
        } catch (err) {
          console.error("basemap " + path + ": " + err);
        }
        resolve();
      };
      xhr.onerror = function () { console.error("basemap " + path + ": cannot be read"); resolve(); };
      xhr.send();
    });
  }

  /* Water at city zoom around the fixture cities (GSHHG full-resolution shores and rivers, see
     basemap/README.md): each city's box is land, with its sea, lakes and rivers on it, so the
     coarse country outlines underneath do not show through. Rivers widen as the map zooms in. */
  var WATER = "#a9cde3";
  function riverWeight(zoom) { return Math.max(1, Math.min(14, 1.5 * Math.pow(1.55, zoom - 9))); }
  function waterStyle(feature) {
    var kind = feature.properties.kind;
    if (kind === "land") return {stroke: false, fillColor: "#f3f0e8", fillOpacity: 1};
    if (kind === "river") return {color: WATER, weight: riverWeight(map.getZoom()), opacity: 1, lineCap: "round"};
    return {stroke: false, fillColor: WATER, fillOpacity: 1};
  }
  var waterLayers = [];
  map.on("zoomend", function () {
    waterLayers.forEach(function (layer) { layer.setStyle(waterStyle); });
  });

  var basemapLoaded = loadGeoJSON("basemap/countries.geojson", {
    color: "#8f8a80", weight: 0.9, fillColor: "#f3f0e8", fillOpacity: 1, opacity: 1,
  }).then(function () {
    return loadGeoJSON("basemap/water.geojson", waterStyle, waterLayers);
  }).then(function () {
    return loadGeoJSON("basemap/admin1.geojson", {color: "#b7b0a2", weight: 0.7, fill: false, opacity: 1},
                       stateLines);
  }).then(showStateLines);
  // The state outlines are simplified by ~5 km: at city zoom they would cut across rivers and bays.
  var stateLines = [];
  var STATE_LINES_MAX_ZOOM = 10;
  function showStateLines() {
    var show = map.getZoom() <= STATE_LINES_MAX_ZOOM;
    stateLines.forEach(function (layer) {
      if (show && !map.hasLayer(layer)) layer.addTo(map);
      if (!show && map.hasLayer(layer)) map.removeLayer(layer);
    });
  }
  map.on("zoomend", showStateLines);
  /* At city zoom the Natural Earth coastline is kilometres off (Lisbon's waterfront falls in its
     sea): outside the GSHHG city boxes, the unknown is drawn as land, never as water. */
  var COARSE_COAST_ZOOM = 10;
  function markCoarseCoast() {
    map.getContainer().classList.toggle("tw-coast-unknown", map.getZoom() >= COARSE_COAST_ZOOM);
  }
  map.on("zoomend", markCoarseCoast);
  markCoarseCoast();

  // -- an offline basemap file through the app's tripwright-tiles: scheme ------------------------
  // Raster (.mbtiles, raster .pmtiles) as image tiles; vector .pmtiles drawn by protomaps-leaflet
  // in its "light" flavour (the Protomaps basemap schema: earth, water, roads, places, ...).
  var basemapTiles = null;
  var basemapTilesUrl = null;
  var basemapTilesLoaded = 0;
  function basemapLayer(full, source) {
    var attribution = String(source.attribution || "offline tiles");
    if (source.kind === "vector" && typeof protomapsL !== "undefined") {
      return protomapsL.leafletLayer({
        url: full, flavor: "light", lang: "en", pane: "offlinetiles", maxDataZoom: source.max_zoom,
        attribution: attribution,
      });
    }
    return L.tileLayer(full, {
      pane: "offlinetiles", minZoom: 0, maxZoom: 19, maxNativeZoom: source.max_zoom,
      minNativeZoom: source.min_zoom, attribution: attribution,
    });
  }
  function setBasemapTiles(source) {
    var url = source && /^tripwright-tiles:\/\/basemap\//.test(source.url) ? source.url : null;
    // Each archive the app opens has its own revision: a new file never shows the old one's tiles.
    var full = url ? url + "?v=" + encodeURIComponent(String(source.rev)) : null;
    if (basemapTiles && basemapTilesUrl !== full) {
      map.removeLayer(basemapTiles);
      basemapTiles = basemapTilesUrl = null;
    }
    if (full && !basemapTiles) {
      basemapTilesLoaded = 0;
      basemapTilesUrl = full;
      basemapTiles = basemapLayer(full, source).addTo(map);
      basemapTiles.on("tileload", function () { basemapTilesLoaded += 1; });
    }
  }

  /* Street tiles (issue 22 §1), only from the one origin the page was built for (widgets/tile_source.py;
     the Content-Security-Policy says the same) or an inline image (tests). Tiles that keep failing
     (no network, refused) are dropped: the offline layers below show through, a one-line note says
     so, the app is told once, and a new layer is tried later (only the tiles in view, as always);
     its first tile back takes the note away. */
  var TILE_FAILURES = 4;
  var RETRY_MAX_MS = 5 * 60 * 1000;
  var tileOrigin = (document.querySelector('meta[name="tw-tile-origin"]') || {}).content || "";
  var tilesFailed = false;
  var tilesLoaded = 0;
  var retryTimer = null;
  var retryMs = 30000;
  var tileUrl = null;
  var streetWanted = false;

  function allowedTileUrl(url) {
    if (typeof url !== "string") return false;
    if (/^data:image\//.test(url)) return true;
    return tileOrigin !== "" && url.indexOf(tileOrigin + "/") === 0;
  }

  function showOfflineNote() {
    var note = document.getElementById("offline-note");
    var text = doc && typeof doc.offline_text === "string" ? doc.offline_text : "";
    var shown = streetWanted && (!tiles || tilesFailed) && text !== "";
    note.textContent = shown ? text : "";
    note.hidden = !shown;
    showOfflineCopy();
  }

  function watchTiles(layer) {
    var failed = 0;  // in a row: a network lost mid-trip fails every new tile, cached ones still load
    layer.on("tileload", function () {
      failed = 0;
      tilesLoaded += 1;
      if (tilesFailed && layer === tiles) {
        tilesFailed = false;
        retryMs = doc && typeof doc.tile_retry_ms === "number" ? doc.tile_retry_ms : 30000;
        setAttribution(true);
        showOfflineNote();
        call("tiles_ok");
      }
    });
    layer.on("tileerror", function () {
      failed += 1;
      if (failed < TILE_FAILURES || layer !== tiles || !map.hasLayer(layer)) return;
      map.removeLayer(layer);
      setAttribution(false);
      var first = !tilesFailed;
      tilesFailed = true;
      showOfflineNote();
      if (first) call("tiles_failed", failed);
      scheduleRetry();
    });
  }

  function addTiles(url) {
    // No bulk loading: the tiles in view, one row kept around it, none asked for mid-zoom.
    tiles = L.tileLayer(url, {maxZoom: 19, keepBuffer: 1, updateWhenZooming: false,
                              attribution: OSM_ATTRIBUTION}).addTo(map);
    watchTiles(tiles);
  }

  function scheduleRetry() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(function () {
      retryTimer = null;
      if (!tilesFailed || !tiles || map.hasLayer(tiles)) return;
      addTiles(tileUrl);  // tilesFailed stays until one of its tiles loads
    }, retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  }

  function setAttribution(online) {
    var text = online ? null : OFFLINE_ATTRIBUTION;  // the tile layer brings its own
    if (attribution !== text) {
      if (attribution) map.attributionControl.removeAttribution(attribution);
      if (text) map.attributionControl.addAttribution(text);
      attribution = text;
    }
  }

  function setOnline(online, url, wanted) {
    url = allowedTileUrl(url) ? url : null;
    if (online && !url) console.error("street tiles: no allowed tile URL");
    online = online && !!url;
    streetWanted = !!wanted;
    if (tiles && (tileUrl !== url || !online)) {
      if (map.hasLayer(tiles)) map.removeLayer(tiles);
      tiles = null;
      tilesFailed = false;
      clearTimeout(retryTimer);
      retryTimer = null;
    }
    if (online && !tiles) {
      tileUrl = url;
      retryMs = doc && typeof doc.tile_retry_ms === "number" ? doc.tile_retry_ms : 30000;
      addTiles(url);
    }
    setAttribution(online && !tilesFailed);
    showOfflineNote();
  }

  // -- markers ----------------------------------------------------------------------------------
  function kindOf(m) { return KINDS.hasOwnProperty(m.kind) ? m.kind : "attraction"; }
  function sourceOf(m) { return SOURCES.indexOf(m.data_source) >= 0 ? m.data_source : "omitted"; }
  function dayColour(index) {
    var day = doc && doc.days[index];
    return day && COLOUR.test(day.colour) ? day.colour : "#555555";
  }

  function lockSvg() {
    var ns = "http://www.w3.org/2000/svg";
    var svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 10 10");
    var body = document.createElementNS(ns, "rect");
    [["x", "1.5"], ["y", "4.5"], ["width", "7"], ["height", "5"], ["rx", "1"], ["fill", "#fff"]]
      .forEach(function (a) { body.setAttribute(a[0], a[1]); });
    var shackle = document.createElementNS(ns, "path");
    [["d", "M3 4.6V3.2a2 2 0 0 1 4 0v1.4"], ["fill", "none"], ["stroke", "#fff"], ["stroke-width", "1.3"]]
      .forEach(function (a) { shackle.setAttribute(a[0], a[1]); });
    svg.appendChild(body);
    svg.appendChild(shackle);
    return svg;
  }

  /* The marker's look, as an element: also used by the legend. */
  function pinElement(kind, source, colour, low, locked, seq) {
    var pin = el("div", "tw-pin tw-kind-" + kind + " tw-src-" + source + (low ? " tw-low" : "") +
                        (locked ? " tw-locked" : ""));
    pin.style.setProperty("--day", colour);
    var dot = el("span", "tw-dot");
    var glyph = KINDS[kind].glyph || (seq ? String(seq) : "");
    if (glyph) dot.appendChild(el("span", "tw-glyph", glyph));
    pin.appendChild(dot);
    if (low) pin.appendChild(el("span", "tw-badge tw-badge-warn", "!"));
    if (locked) {
      var lock = el("span", "tw-badge tw-badge-lock");
      lock.appendChild(lockSvg());
      pin.appendChild(lock);
    }
    return pin;
  }

  function tooltipElement(m) {
    var box = el("div", "tw-tip");
    box.appendChild(el("div", "tw-tip-title", m.label));
    var meta = "Day " + (Number(m.day) + 1) + (m.time ? " · " + m.time : "") + " · " +
               KINDS[kindOf(m)].text.replace(/ \(.*\)$/, "");
    box.appendChild(el("div", "tw-tip-meta", meta));
    box.appendChild(el("div", "tw-tip-meta", SOURCE_TEXT[sourceOf(m)] + (m.locked ? " · locked" : "")));
    if (m.confidence === "low") {
      box.appendChild(el("div", "tw-tip-warn", "Low confidence: " + (m.low_reason || "location uncertain")));
    }
    var hint = editHint(m);
    if (hint) box.appendChild(el("div", "tw-tip-hint", hint));
    return box;
  }

  /* How the stop can be edited, in words: a city stop is not dragged (its day and time come from
     the plan), it is moved to another day from its menu. */
  function editHint(m) {
    var actions = m.actions || [];
    var words = [];
    if (actions.indexOf("unlock") >= 0) words.push("unlock");
    if (actions.indexOf("lock") >= 0) words.push("lock");
    if (actions.indexOf("remove") >= 0) words.push("remove");
    if (actions.indexOf("replace") >= 0) words.push("replace");
    if (actions.some(function (a) { return /^move:/.test(a); })) words.push("move to another day");
    var text = words.length ? "Right-click to " + words.join(", ").replace(/, ([^,]*)$/, " or $1") + "." : "";
    if (m.draggable) return (text ? text + " " : "") + "Drag to move this night.";
    if (actions.some(function (a) { return /^move:/.test(a); })) text += " City stops are not dragged.";
    return text;
  }

  function makeMarker(m) {
    var kind = kindOf(m);
    var size = KINDS[kind].size;
    var low = m.confidence === "low";
    var icon = L.divIcon({
      className: "tw-icon", iconSize: [size, size], iconAnchor: [size / 2, size / 2],
      html: pinElement(kind, sourceOf(m), dayColour(m.day), low, !!m.locked,
                       Number.isInteger(m.seq) && m.seq > 0 && m.seq < 100 ? m.seq : null),
    });
    var marker = L.marker([m.lat, m.lon], {
      icon: icon, draggable: !!m.draggable, keyboard: false, autoPan: true,
      zIndexOffset: kind === "anchor" ? 1000 : (kind === "lodging" ? 500 : 0),
      riseOnHover: true, interactive: true,
    });
    marker.bindTooltip(tooltipElement(m), {direction: "top", offset: [0, -size / 2], opacity: 0.96});
    // One tooltip at a time: one opened by a selection (setHighlight) stays until another opens.
    marker.on("tooltipopen", function () {
      if (openTip && openTip !== marker && openTip.isTooltipOpen()) openTip.closeTooltip();
      openTip = marker;
    });
    marker.on("tooltipclose", function () { if (openTip === marker) openTip = null; });
    if (m.selectable !== false) {
      marker.on("click", function () { setHighlight(m.id, false); call("marker_selected", m.id); });
    }
    marker.on("contextmenu", function (e) {
      if (e.originalEvent) L.DomEvent.preventDefault(e.originalEvent);
      openMenu(m, e.containerPoint);
    });
    if (m.draggable) {
      marker.on("dragstart", closeMenu);
      marker.on("dragend", function () { onDragEnd(m.id); });
    }
    return marker;
  }

  function onDragEnd(id) {
    var marker = markers.get(id);
    if (!marker) return;
    var ll = marker.getLatLng().wrap();
    var pin = marker.getElement() && marker.getElement().querySelector(".tw-pin");
    if (pin) pin.classList.add("tw-pending");   // until Python sends the re-planned layers
    call("marker_dragged", id, ll.lat, ll.lng);
  }

  // -- context menu -----------------------------------------------------------------------------
  function actionText(action) {
    if (ACTION_TEXT.hasOwnProperty(action)) return ACTION_TEXT[action];
    var move = /^move:(\d+)$/.exec(action);
    return move ? "Move to day " + (Number(move[1]) + 1) : null;
  }

  function closeMenu() {
    if (menu) { menu.remove(); menu = null; }
  }

  function openMenu(m, point) {
    closeMenu();
    var actions = (m.actions || []).filter(function (a) { return actionText(a) !== null; });
    if (!actions.length) return;
    menu = el("div", "tw-menu");
    menu.appendChild(el("div", "tw-menu-title", m.label));
    actions.forEach(function (action) {
      var button = el("button", null, actionText(action));
      button.type = "button";
      button.dataset.action = action;
      button.addEventListener("click", function (e) {
        e.stopPropagation();
        closeMenu();
        call("marker_action", m.id, action);
      });
      menu.appendChild(button);
    });
    L.DomEvent.disableClickPropagation(menu);
    L.DomEvent.disableScrollPropagation(menu);
    map.getContainer().appendChild(menu);
    var size = map.getSize();
    var x = Math.min(point.x, size.x - menu.offsetWidth - 4);
    var y = Math.min(point.y, size.y - menu.offsetHeight - 4);
    menu.style.left = Math.max(4, x) + "px";
    menu.style.top = Math.max(4, y) + "px";
  }

  document.addEventListener("keydown", function (e) { if (e.key === "Escape") closeMenu(); });
  // No browser context menu anywhere on the page (its Back/Reload/View source mean nothing here).
  document.addEventListener("contextmenu", function (e) { e.preventDefault(); });
  map.on("movestart zoomstart", closeMenu);
  map.on("click", function (e) {
    if (menu) { closeMenu(); return; }
    var ll = e.latlng.wrap();
    call("map_clicked", ll.lat, ll.lng);
  });

  // -- highlight --------------------------------------------------------------------------------
  function setHighlight(id, pan) {
    if (highlighted && markers.has(highlighted)) {
      var old = markers.get(highlighted).getElement();
      if (old) old.classList.remove("tw-highlight");
      markers.get(highlighted).setZIndexOffset(markerZ(highlighted));
    }
    highlighted = markers.has(id) ? id : null;
    if (!highlighted) return;
    var marker = markers.get(id);
    if (marker.getElement()) marker.getElement().classList.add("tw-highlight");
    marker.setZIndexOffset(5000);
    if (pan) {
      map.panTo(marker.getLatLng());
      marker.openTooltip();
    }
  }

  function markerZ(id) {
    var kind = kindOf(markerData.get(id) || {});
    return kind === "anchor" ? 1000 : (kind === "lodging" ? 500 : 0);
  }

  // -- legend -----------------------------------------------------------------------------------
  function legendRow(swatch, text) {
    var row = el("div", "tw-legend-row");
    row.appendChild(swatch);
    row.appendChild(el("span", null, text));
    return row;
  }

  function swatchPin(kind, source, low, locked, colour) {
    var box = el("span", "tw-swatch");
    box.appendChild(pinElement(kind, source, colour || "#6b7785", low, locked));
    return box;
  }

  function legendSection(box, title) {
    box.appendChild(el("h4", null, title));
    var grid = el("div", "tw-legend-grid");
    box.appendChild(grid);
    return grid;
  }

  function buildLegend(box) {
    box.replaceChildren();
    var head = el("div", "tw-legend-head");
    head.appendChild(el("span", "tw-legend-title", (doc && doc.title) || "Legend"));
    var toggle = el("button", "tw-legend-toggle", box.classList.contains("tw-collapsed") ? "Legend ▸" : "Hide ▾");
    toggle.type = "button";
    toggle.addEventListener("click", function (e) {
      // The legend is rebuilt below, which takes this button out of the page: Leaflet would then
      // no longer see that the click began inside the legend and would treat it as a map click.
      L.DomEvent.stop(e);
      box.classList.toggle("tw-collapsed");
      call("legend_toggled", box.classList.contains("tw-collapsed"));
      buildLegend(box);
      // An opened legend must not cover the trip: frame it again beside the legend.
      if (!box.classList.contains("tw-collapsed") && doc) fitIfNeeded(doc.focus, true);
    });
    head.appendChild(toggle);
    box.appendChild(head);
    if (box.classList.contains("tw-collapsed")) return;
    var body = el("div", "tw-legend-body");
    box.appendChild(body);
    var days = (doc && doc.days) || [];
    var kinds = new Set(((doc && doc.markers) || []).map(kindOf));
    if (days.length) {
      var list = legendSection(body, "Days");
      list.classList.add("tw-legend-days");
      days.forEach(function (d) {
        var line = el("span", "tw-swatch-line");
        line.style.background = COLOUR.test(d.colour) ? d.colour : "#555555";
        list.appendChild(legendRow(line, d.label));
      });
      if (doc.corridor) {
        list.appendChild(legendRow(el("span", "tw-swatch-band"),
          doc.corridor.name + " corridor, " + (doc.corridor.width_label || ("±" + Math.round(doc.corridor.width_miles) + " mi"))));
      }
    }
    var stops = legendSection(body, "Stops (fill: day colour)");
    stops.classList.add("tw-legend-wide");
    Object.keys(KINDS).forEach(function (kind) {
      if (kinds.size && !kinds.has(kind)) return;
      stops.appendChild(legendRow(swatchPin(kind, "fixture", false, false), KINDS[kind].text));
    });
    var ring = legendSection(body, "Ring: data source");
    var used = new Set(((doc && doc.markers) || []).map(sourceOf));
    SOURCES.forEach(function (s) {
      if (EXTRA_SOURCES.indexOf(s) >= 0 && !used.has(s)) return;
      ring.appendChild(legendRow(swatchPin("attraction", s, false, false), SOURCE_TEXT[s]));
    });
    var marks = legendSection(body, "Marks");
    marks.classList.add("tw-legend-wide");
    marks.appendChild(legendRow(swatchPin("attraction", "fixture", true, false), "Dashed ring and !: low confidence"));
    marks.appendChild(legendRow(swatchPin("attraction", "fixture", false, true), "Locked (re-plans keep it)"));
    var road = doc && doc.mode === "road_trip";
    body.appendChild(el("div", "tw-legend-hint", "Hover a stop for details (and why it is uncertain). " +
      (road ? "Right-click it to edit; drag an overnight stop to move it; click the map to add a stop."
            : "Right-click it to edit.")));
  }

  var LegendControl = L.Control.extend({
    options: {position: "bottomright"},
    onAdd: function () {
      var box = el("div", "tw-legend");
      L.DomEvent.disableClickPropagation(box);
      L.DomEvent.disableScrollPropagation(box);
      buildLegend(box);
      return box;
    },
  });
  legend = new LegendControl().addTo(map);

  // -- "Make this trip available offline" (when the street map shows a trip) -----------------------
  var OfflineCopyControl = L.Control.extend({
    options: {position: "topright"},
    onAdd: function () {
      var box = el("div", "tw-offline-copy-box");
      var button = el("button", "tw-offline-copy", "Make this trip available offline");
      button.type = "button";
      button.title = "Keep the street map of this trip's area on this computer, for use with no network";
      button.addEventListener("click", function (e) {
        L.DomEvent.stop(e);
        call("offline_copy");
      });
      box.appendChild(button);
      // Like the legend: a click on the button is never a click on the map ("Add a stop here").
      L.DomEvent.disableClickPropagation(box);
      L.DomEvent.disableScrollPropagation(box);
      box.style.display = "none";
      return box;
    },
  });
  var offlineCopy = new OfflineCopyControl().addTo(map);
  function offlineCopyShown() {
    return !!(doc && doc.offline_copy && doc.mode !== "empty" && tiles && map.hasLayer(tiles) && !tilesFailed);
  }
  function showOfflineCopy() {
    if (offlineCopy) offlineCopy.getContainer().style.display = offlineCopyShown() ? "" : "none";
  }
  setAttribution(false);

  // -- the document -----------------------------------------------------------------------------
  // -- place names at street zoom -----------------------------------------------------------------
  var NAME_ZOOM = 14;
  function buildNames() {
    layers.names = L.layerGroup();
    markerData.forEach(function (m) {
      if (!m.label) return;
      var size = KINDS[kindOf(m)].size;
      var icon = L.divIcon({className: "tw-name", iconSize: null, iconAnchor: [-size / 2 - 3, 9],
                            html: el("span", "tw-name-text", m.label)});
      L.marker([m.lat, m.lon], {icon: icon, interactive: false, keyboard: false}).addTo(layers.names);
    });
    showNames();
  }
  function showNames() {
    if (!layers.names) return;
    var show = map.getZoom() >= NAME_ZOOM;
    if (show && !map.hasLayer(layers.names)) layers.names.addTo(map);
    if (!show && map.hasLayer(layers.names)) map.removeLayer(layers.names);
  }
  map.on("zoomend", showNames);

  function clearLayers() {
    ["corridor", "days", "markers", "names"].forEach(function (k) {
      if (layers[k]) { map.removeLayer(layers[k]); layers[k] = null; }
    });
    markers.clear();
    markerData.clear();
    highlighted = null;
    openTip = null;
    closeMenu();
  }

  function setBanner(text) {
    var banner = document.getElementById("banner");
    banner.querySelector(".tw-banner-text").textContent = text || "";
    banner.hidden = !text;
  }

  /* Fit the trip beside the legend (and under the banner) when it is not all in view. */
  function fitIfNeeded(focus, force) {
    if (!focus) return;
    var bounds = L.latLngBounds(focus);
    if (!bounds.isValid()) return;
    if (!force && map.getBounds().contains(bounds)) return;
    var size = map.getSize();
    var box = legend.getContainer();
    var right = box.offsetWidth + 24 < size.x * 0.45 ? box.offsetWidth + 24 : 24;
    var banner = document.getElementById("banner");
    var top = banner.hidden ? 24 : banner.offsetHeight + 24;
    var note = document.getElementById("offline-note");  // the trip is fitted above it, not under it
    var bottom = note.hidden ? 24 : note.offsetHeight + 36;
    fitting = true;
    map.fitBounds(bounds, {paddingTopLeft: [48, top], paddingBottomRight: [right, bottom], maxZoom: 14, animate: false});
    fitting = false;
    fitted = true;
  }

  /* A resized map (the window, a dock) is fitted again while it shows the trip as fitted; a view
     the traveller dragged or zoomed is kept. */
  var fitted = false, fitting = false;
  map.on("dragstart", function () { fitted = false; });
  map.on("zoomstart", function () { if (!fitting) fitted = false; });
  map.on("resize", function () {
    if (!doc || !doc.focus || document.body.classList.contains("tw-print")) return;
    if (fitted) fitIfNeeded(doc.focus, true);
  });

  /* Whose data the trip's places are (OpenStreetMap, ODbL): Leaflet takes attribution as HTML,
     so each credit goes in as text escaped by the DOM. */
  var credits = [];
  function setCredits(list) {
    credits.forEach(function (c) { map.attributionControl.removeAttribution(c); });
    credits = (Array.isArray(list) ? list : []).filter(function (c) { return typeof c === "string"; })
      .map(function (c) { var span = document.createElement("span"); span.textContent = c; return span.innerHTML; });
    credits.forEach(function (c) { map.attributionControl.addAttribution(c); });
  }

  /* The last line of the pre-render check (widgets/map_checks.py does the trust boundary): a
     position Leaflet cannot place is never drawn. */
  function drawable(lat, lon) {
    return typeof lat === "number" && typeof lon === "number" && isFinite(lat) && isFinite(lon) &&
      Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && !(lat === 0 && lon === 0);
  }

  function setLayers(next) {
    var first = !doc || doc.mode === "empty";
    clearLayers();
    doc = next;
    setOnline(!!doc.online, doc.tile_url, doc.street_map);
    setBasemapTiles(doc.basemap_tiles);
    if (doc.corridor && doc.corridor.geometry) {
      layers.corridor = L.geoJSON(doc.corridor.geometry, {
        interactive: false,
        style: {color: "#e65100", weight: 1, opacity: 0.55, fillColor: "#e65100", fillOpacity: 0.12, dashArray: "4 4"},
      }).addTo(map);
    }
    layers.days = L.layerGroup().addTo(map);
    (doc.days || []).forEach(function (d) {
      if (!d.path) return;
      var colour = COLOUR.test(d.colour) ? d.colour : "#555555";
      var lls = d.path.coordinates.map(function (c) { return [c[1], c[0]]; });
      var weight = doc.mode === "road_trip" ? 4 : 3;
      L.polyline(lls, {color: "#ffffff", weight: weight + 3, opacity: 0.8, interactive: false}).addTo(layers.days);
      L.polyline(lls, {color: colour, weight: weight, opacity: 0.9, interactive: false, className: "tw-day-line"})
        .addTo(layers.days);
    });
    layers.markers = L.layerGroup().addTo(map);
    (doc.markers || []).forEach(function (m) {
      if (!drawable(m.lat, m.lon)) { console.error("marker " + m.id + ": no valid position, not drawn"); return; }
      var marker = makeMarker(m);
      markers.set(m.id, marker);
      markerData.set(m.id, m);
      marker.addTo(layers.markers);
    });
    buildNames();
    setBanner(doc.banner);
    setCredits(doc.credits);
    buildLegend(legend.getContainer());
    // Every new plan is fitted (issue 22 §1: Denver → Salt Lake City stayed a speck in the view of
    // the trip before); an edit's redraw (keep_view) leaves the traveller's zoom alone.
    if (first || !doc.keep_view) fitIfNeeded(doc.focus, true);
  }

  // -- what tests (and screenshots) ask about ---------------------------------------------------
  function state() {
    var dashed = 0;
    markers.forEach(function (marker) {
      var dot = marker.getElement() && marker.getElement().querySelector(".tw-dot");
      if (dot && getComputedStyle(dot).borderTopStyle === "dashed") dashed += 1;
    });
    var corridorPolygons = 0;
    if (layers.corridor) {
      layers.corridor.eachLayer(function (l) {
        var lls = l.getLatLngs();
        corridorPolygons += (l instanceof L.Polygon) ? (L.LineUtil.isFlat(lls[0]) ? 1 : lls.length) : 0;
      });
    }
    var banner = document.getElementById("banner");
    return JSON.stringify({
      markers: markers.size,
      dashed: dashed,
      draggable: Array.from(markers.values()).filter(function (m) { return m.options.draggable; }).length,
      corridor_polygons: corridorPolygons,
      day_lines: document.querySelectorAll("path.tw-day-line").length,
      banner: banner.hidden ? null : banner.querySelector(".tw-banner-text").textContent,
      online: !!tiles && map.hasLayer(tiles),
      tiles_failed: tilesFailed,
      tiles_loaded: tilesLoaded,
      tile_origin: tileOrigin,
      offline_note: document.getElementById("offline-note").hidden ? null : document.getElementById("offline-note").textContent,
      offline_copy: offlineCopyShown(),
      attribution: map.attributionControl.getContainer().textContent,
      basemap_features: basemapFeatures,
      basemap_tiles: basemapTiles ? basemapTilesLoaded : null,
      legend_rows: legend.getContainer().querySelectorAll(".tw-legend-row").length,
      legend_collapsed: legend.getContainer().classList.contains("tw-collapsed"),
      names: layers.names && map.hasLayer(layers.names) ? layers.names.getLayers().length : 0,
      highlighted: highlighted,
      menu: menu ? Array.from(menu.querySelectorAll("button")).map(function (b) { return b.dataset.action; }) : null,
      zoom: map.getZoom(),
      draw_ms: drawMs,
    });
  }

  /* The map as printed: no zoom buttons, legend or menu, the whole trip in view. */
  function printMode(on) {
    document.body.classList.toggle("tw-print", !!on);
    closeMenu();
    map.invalidateSize({animate: false});
    if (on) {
      // A city trip's airport is often far out of town: the printed map shows the city itself
      // (the flights are in the itinerary). Road trips keep every stop.
      var city = doc && doc.mode === "city";
      var lls = [];
      markerData.forEach(function (m) { if (!(city && kindOf(m) === "flight")) lls.push([m.lat, m.lon]); });
      (doc && doc.days || []).forEach(function (d) {
        if (d.path && !city) d.path.coordinates.forEach(function (c) { lls.push([c[1], c[0]]); });
      });
      if (!lls.length) markerData.forEach(function (m) { lls.push([m.lat, m.lon]); });
      var bounds = L.latLngBounds(lls);
      if (bounds.isValid()) map.fitBounds(bounds, {padding: [28, 28], maxZoom: 15, animate: false});
    }
    return JSON.stringify({print: !!on, zoom: map.getZoom(), markers: markers.size});
  }

  window.tripwright = {
    state: state,
    printMode: printMode,
    marker: function (id) { return markers.get(id) || null; },
    openMenu: function (id) {
      var marker = markers.get(id);
      if (marker) marker.fire("contextmenu", {containerPoint: map.latLngToContainerPoint(marker.getLatLng())});
    },
    basemapLoaded: basemapLoaded,
    // Street tiles of the view still on their way (the printed map waits for them).
    tilesLoading: function () { return JSON.stringify(!!tiles && map.hasLayer(tiles) && tiles.isLoading()); },
    bridge: function () { return bridge; },
  };
  window.map = map;

  // -- the channel ------------------------------------------------------------------------------
  var drawMs = null;  // how long the page took to draw the last document (state(), the bench)
  function onSetLayers(json) {
    var began = performance.now();
    var revision = null;
    try {
      var doc = JSON.parse(json);
      revision = typeof doc.revision === "number" ? doc.revision : null;
      setLayers(doc);
    } catch (err) {
      console.error("set_layers: " + err);
    }
    drawMs = Math.round((performance.now() - began) * 10) / 10;
    // Two frames later the layers are painted: the app waits for this before its own heavier
    // relayout, so the two do not compete for the cores (issue 14: draw stalls).
    if (revision !== null) {
      requestAnimationFrame(function () {
        requestAnimationFrame(function () { call("document_drawn", revision); });
      });
    }
  }

  if (typeof QWebChannel === "undefined" || typeof qt === "undefined") {
    console.warn("no Qt WebChannel: the map runs without a bridge");
    return;
  }
  new QWebChannel(qt.webChannelTransport, function (channel) {
    bridge = channel.objects.bridge;
    bridge.set_layers.connect(onSetLayers);
    bridge.highlight.connect(function (id) { setHighlight(String(id), true); });
    bridge.set_legend.connect(function (collapsed) {
      var box = legend.getContainer();
      box.classList.toggle("tw-collapsed", collapsed === "1");
      buildLegend(box);
    });
    basemapLoaded.then(function () { call("page_ready"); });
  });
})();
