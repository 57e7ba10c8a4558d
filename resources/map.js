/* Tripwright map page: the app's side of the one map renderer. resources/trip_map.js draws the
 * map document of engine/maps/map_document.py (days, markers, names, legend, "Fit trip" / "Show one
 * day"); this file adds what only the app has — the offline basemap files, street tiles, the
 * context menus, drag, selection and highlight — and talks to widgets/map_view.py through one
 * QWebChannel object, "bridge".
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
  var trip = null;             // the renderer (resources/trip_map.js), made below
  var highlighted = null;
  var tiles = null;
  var menu = null;
  var basemapFeatures = 0;
  var attribution = null;
  var el = function (tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  };

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

  // Water at city zoom around the fixture cities: trip_map.js's waterStyle (the export draws it too).
  function waterStyle(feature) { return TripMap.waterStyle(feature, map.getZoom()); }
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
  // At city zoom, outside the GSHHG city boxes, the unknown is land (trip_map.js's markCoarseCoast).
  map.on("zoomend", function () { TripMap.markCoarseCoast(map); });
  TripMap.markCoarseCoast(map);

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


  // -- the app's marker events: select, context menu, drag --------------------------------------
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

  function markerEvents(marker, m) {
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
  }

  function onDragEnd(id) {
    var marker = trip.markers.get(id);
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
    var markers = trip.markers;
    if (highlighted && markers.has(highlighted)) {
      var old = markers.get(highlighted).getElement();
      if (old) old.classList.remove("tw-highlight");
      markers.get(highlighted).setZIndexOffset(trip.markerZ(highlighted));
    }
    highlighted = markers.has(id) ? id : null;
    if (!highlighted) return;
    var marker = markers.get(id);
    var day = Number(trip.records.get(id).day);
    if (!trip.dayVisible(day)) trip.showDay(null);  // a stop of a hidden day: show every day again
    if (marker.getElement()) marker.getElement().classList.add("tw-highlight");
    marker.setZIndexOffset(5000);
    if (pan) {
      map.panTo(marker.getLatLng());
      marker.openTooltip();
    }
  }

  // -- the renderer -----------------------------------------------------------------------------
  /* The trip is fitted beside the legend (trip_map.js) and under the banner, above the offline note. */
  function fitPadding() {
    var banner = document.getElementById("banner");
    var note = document.getElementById("offline-note");
    return {top: banner.hidden ? 24 : banner.offsetHeight + 24, bottom: note.hidden ? 24 : note.offsetHeight + 36};
  }
  var fitted = false, fitting = false;
  trip = TripMap.create(map, {
    marker: markerEvents,
    tooltipExtra: editHint,
    padding: fitPadding,
    legendToggled: function (collapsed) { call("legend_toggled", collapsed); },
    fitted: function () { fitted = true; },
  });
  var legend = trip.legend;

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

  function setBanner(text) {
    var banner = document.getElementById("banner");
    banner.querySelector(".tw-banner-text").textContent = text || "";
    banner.hidden = !text;
  }


  function fitIfNeeded(force) {
    fitting = true;
    trip.fit(force);
    fitting = false;
  }

  /* A resized map (the window, a dock) is fitted again while it shows the trip as fitted; a view
     the traveller dragged or zoomed is kept. */
  map.on("dragstart", function () { fitted = false; });
  map.on("zoomstart", function () { if (!fitting) fitted = false; });
  map.on("resize", function () {
    if (!doc || !doc.focus || document.body.classList.contains("tw-print")) return;
    if (fitted) fitIfNeeded(true);
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


  function setLayers(next) {
    var first = !doc || doc.mode === "empty";
    highlighted = null;
    closeMenu();
    doc = next;
    setOnline(!!doc.online, doc.tile_url, doc.street_map);
    setBasemapTiles(doc.basemap_tiles);
    setBanner(doc.banner);
    trip.draw(doc);
    setCredits(doc.credits);
    // Every new plan is fitted (issue 22 §1: Denver → Salt Lake City stayed a speck in the view of
    // the trip before); an edit's redraw (keep_view) leaves the traveller's zoom alone.
    if (first || !doc.keep_view) fitIfNeeded(true);
  }


  // -- what tests (and screenshots) ask about ---------------------------------------------------
  function state() {
    var dashed = 0;
    var markers = trip.markers;
    var names = trip.names();
    markers.forEach(function (marker) {
      var dot = marker.getElement() && marker.getElement().querySelector(".tw-dot");
      if (dot && getComputedStyle(dot).borderTopStyle === "dashed") dashed += 1;
    });
    var corridorPolygons = 0;
    if (trip.corridor()) {
      trip.corridor().eachLayer(function (l) {
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
      names: names && map.hasLayer(names) ? names.getLayers().length : 0,
      shown_day: trip.shownDay(),
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
      if (trip.shownDay() !== null) trip.showDay(null);  // the printed map is the whole trip
      // A city trip's airport is often far out of town: the printed map shows the city itself
      // (the flights are in the itinerary). Road trips keep every stop.
      var city = doc && doc.mode === "city";
      var lls = [];
      trip.records.forEach(function (m) { if (!(city && trip.kindOf(m) === "flight")) lls.push([m.lat, m.lon]); });
      (doc && doc.days || []).forEach(function (d) {
        if (d.path && !city) d.path.coordinates.forEach(function (c) { lls.push([c[1], c[0]]); });
      });
      if (!lls.length) trip.records.forEach(function (m) { lls.push([m.lat, m.lon]); });
      var bounds = L.latLngBounds(lls);
      if (bounds.isValid()) map.fitBounds(bounds, {padding: [28, 28], maxZoom: 15, animate: false});
    }
    return JSON.stringify({print: !!on, zoom: map.getZoom(), markers: trip.markers.size});
  }

  window.tripwright = {
    state: state,
    printMode: printMode,
    marker: function (id) { return trip.markers.get(id) || null; },
    showDay: function (index) { trip.showDay(index); return JSON.stringify(trip.shownDay()); },
    fit: function () { return JSON.stringify(trip.fit(true)); },
    openMenu: function (id) {
      var marker = trip.markers.get(id);
      if (marker) marker.fire("contextmenu", {containerPoint: map.latLngToContainerPoint(marker.getLatLng())});
    },
    basemapLoaded: basemapLoaded,
    // Street tiles of the view still on their way (the printed map waits for them).
    tilesLoading: function () { return JSON.stringify(!!tiles && map.hasLayer(tiles) && tiles.isLoading()); },
    bridge: function () { return bridge; },
    // How many shapes of the city's own map are drawn (issue 32 §4; 0 without one).
    cityMap: function () {
      var layers = trip.cityMap(), n = 0;
      if (layers) layers.eachLayer(function () { n += 1; });
      return JSON.stringify(n);
    },
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
    bridge.set_city_map.connect(function (json) {
      try { trip.setCityMap(JSON.parse(json)); } catch (err) { console.error("set_city_map: " + err); }
    });
    bridge.highlight.connect(function (id) { setHighlight(String(id), true); });
    bridge.set_legend.connect(function (collapsed) {
      trip.setLegendCollapsed(collapsed === "1");
    });
    basemapLoaded.then(function () { call("page_ready"); });
  });
})();
