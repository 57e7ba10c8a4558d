/* Tripwright's one map renderer (issue 30 §4): draws the map document of
 * engine/maps/map_document.py on a Leaflet map — the corridor, each day's line, the markers
 * (fill = day, ring = data source, dashed ring + "!" = low confidence, lock badge = locked), the
 * names beside them, the legend, the "Fit trip" / "Show one day" control, and the city's own map
 * from its pack (doc.city_map: water, parks, main streets, rail, stations, with names at city zoom), and
 * a multi-city trip's stays and legs (doc.stays, doc.legs: each city's pin below city zoom, each leg a line
 * styled by mode, dashed when estimated, "Show one city" to zoom to a stay).
 *
 * Used by the app (resources/map.js adds the bridge, context menus and drag through `hooks`) and
 * by the HTML export (engine/export/html_map.js adds the itinerary list). Every string reaches the
 * DOM through textContent or DOM nodes, never innerHTML, so a place name cannot become markup.
 *
 *   var trip = TripMap.create(map, hooks);   trip.draw(doc);
 *   hooks (all optional): marker(leafletMarker, record)  — add events to a drawn marker;
 *     tooltipExtra(record) -> string  — one more line in its tooltip; padding() -> {top, bottom};
 *     legendToggled(collapsed); daysChanged(); fitted(). */
(function () {
  "use strict";

  var COLOUR = /^#[0-9a-fA-F]{6}$/;
  var SIZES = {anchor: 25, origin: 18, lodging: 20, attraction: 19, meal: 19, flight: 18, transit: 13};
  var KIND_WORD = {anchor: "Overnight stop", origin: "Start", lodging: "Hotel", attraction: "Sight",
                   meal: "Meal", flight: "Airport (flight)", transit: "Transit"};

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function colour(value, fallback) { return typeof value === "string" && COLOUR.test(value) ? value : fallback; }
  function kindOf(m) { return SIZES.hasOwnProperty(m.kind) ? m.kind : "attraction"; }
  function sizeOf(m) { return SIZES[kindOf(m)]; }
  function markerZ(m) {
    var kind = kindOf(m);
    return kind === "anchor" ? 1000 : (kind === "lodging" ? 500 : 0);
  }

  /* The last line of the pre-render check (engine/maps/map_checks.py does the trust boundary): a
     position Leaflet cannot place is never drawn. */
  function drawable(lat, lon) {
    return typeof lat === "number" && typeof lon === "number" && isFinite(lat) && isFinite(lon) &&
      Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && !(lat === 0 && lon === 0);
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

  /* The marker's look, as an element: the legend draws its entries with it too. */
  function pinElement(kind, ring, fill, mark, low, locked) {
    var pin = el("div", "tw-pin tw-kind-" + kind + (low ? " tw-low" : "") + (locked ? " tw-locked" : ""));
    pin.style.setProperty("--day", fill);
    pin.style.setProperty("--src", ring);
    var dot = el("span", "tw-dot");
    if (mark) dot.appendChild(el("span", "tw-glyph", String(mark).slice(0, 3)));
    pin.appendChild(dot);
    if (low) pin.appendChild(el("span", "tw-badge tw-badge-warn", "!"));
    if (locked) {
      var lock = el("span", "tw-badge tw-badge-lock");
      lock.appendChild(lockSvg());
      pin.appendChild(lock);
    }
    return pin;
  }

  function create(map, hooks) {
    hooks = hooks || {};
    var doc = null;
    var corridor = null;
    var days = [];                // per day: L.featureGroup of its line and markers
    var shownDay = null;          // the one day shown, or null for all
    var hiddenDays = new Set();   // days the reader switched off (the export's list)
    var names = null;
    var markers = new Map();      // id -> L.Marker
    var records = new Map();      // id -> marker record of the document
    var nameMarkers = [];
    var openTip = null;           // the marker whose tooltip is open (at most one)
    var legendBox = null;
    var dayPicker = null;
    var stayPicker = null;        // "Show one city" (multi-city trips)
    var shownStay = null;
    var stayLayer = null, legLayer = null;

    function dayColour(index) {
      var day = doc && doc.days[index];
      return day ? colour(day.colour, "#555555") : "#555555";
    }

    // -- markers ----------------------------------------------------------------------------------
    function tooltipElement(m) {
      var box = el("div", "tw-tip");
      box.appendChild(el("div", "tw-tip-title", m.label));
      var meta = "Day " + (Number(m.day) + 1) + (m.time ? " · " + m.time : "") + " · " + KIND_WORD[kindOf(m)];
      box.appendChild(el("div", "tw-tip-meta", meta));
      var source = (doc.legend.sources || []).filter(function (s) { return s.source === m.data_source; })[0];
      box.appendChild(el("div", "tw-tip-meta", (source ? source.text : "Omitted") + (m.locked ? " · locked" : "")));
      if (m.confidence === "low") {
        box.appendChild(el("div", "tw-tip-warn", "Low confidence: " + (m.low_reason || "location uncertain")));
      }
      var extra = hooks.tooltipExtra ? hooks.tooltipExtra(m) : "";
      if (extra) box.appendChild(el("div", "tw-tip-hint", extra));
      return box;
    }

    function makeMarker(m) {
      var size = sizeOf(m);
      var icon = L.divIcon({
        className: "tw-icon", iconSize: [size, size], iconAnchor: [size / 2, size / 2],
        html: pinElement(kindOf(m), colour(m.ring, "#9a9a9a"), dayColour(m.day), m.mark,
                         m.confidence === "low", !!m.locked),
      });
      var marker = L.marker([m.lat, m.lon], {
        icon: icon, draggable: !!(doc.editable && m.draggable), keyboard: false, autoPan: true,
        zIndexOffset: markerZ(m), riseOnHover: true, interactive: true,
      });
      marker.bindTooltip(tooltipElement(m), {direction: "top", offset: [0, -size / 2], opacity: 0.96});
      // One tooltip at a time: one opened by a selection stays until another opens.
      marker.on("tooltipopen", function () {
        if (openTip && openTip !== marker && openTip.isTooltipOpen()) openTip.closeTooltip();
        openTip = marker;
      });
      marker.on("tooltipclose", function () { if (openTip === marker) openTip = null; });
      if (hooks.marker) hooks.marker(marker, m);
      return marker;
    }

    // -- days -------------------------------------------------------------------------------------
    function dayTip(day) {
      var box = el("div", "tw-tip");
      box.appendChild(el("div", "tw-tip-title", day.label));
      if (day.summary) box.appendChild(el("div", "tw-tip-meta", day.summary));
      return box;
    }

    function dayLayer(day) {
      var group = L.featureGroup();
      if (!day.path) return group;
      var weight = day.driven ? 4 : 3;
      // a GeoJSON LineString ([lon, lat] pairs, engine/maps/trip_map.py): Leaflet takes [lat, lon]
      var lls = day.path.coordinates.map(function (c) { return [c[1], c[0]]; });
      L.polyline(lls, {color: "#ffffff", weight: weight + 4, opacity: 0.85, className: "tw-day-casing"})
        .bindTooltip(dayTip(day), {sticky: true}).addTo(group);
      var line = L.polyline(lls, {color: colour(day.colour, "#555555"), weight: weight, opacity: 0.9,
                                  interactive: false, dashArray: day.driven ? null : "6 5",
                                  className: "tw-day-line"});
      if (day.driven) {
        line.bindTooltip(el("span", null, "Day " + day.number),
                         {permanent: true, direction: "center", className: "tw-day-tag"});
      }
      line.addTo(group);
      return group;
    }

    function dayVisible(index) {
      return (shownDay === null || shownDay === index) && !hiddenDays.has(index);
    }

    function applyDays() {
      days.forEach(function (group, index) {
        var show = dayVisible(index);
        if (show && !map.hasLayer(group)) map.addLayer(group);
        if (!show && map.hasLayer(group)) map.removeLayer(group);
      });
      placeNames();
      if (dayPicker) dayPicker.value = shownDay === null ? "" : String(shownDay);
      if (legendBox && doc) buildLegend();
      if (hooks.daysChanged) hooks.daysChanged();
    }

    // -- names beside the pins --------------------------------------------------------------------
    function buildNames() {
      names = L.layerGroup();
      nameMarkers = [];
      records.forEach(function (m) {
        if (!m.tag) return;
        var size = sizeOf(m);
        var icon = L.divIcon({className: "tw-name", iconSize: null, iconAnchor: [-size / 2 - 3, 9],
                              html: el("span", "tw-name-text", m.tag)});
        var name = L.marker([m.lat, m.lon], {icon: icon, interactive: false, keyboard: false});
        name.record = m;
        nameMarkers.push(name);
        name.addTo(names);
      });
      placeNames();
    }

    /* Names show from the document's names_zoom on, for the days shown. A name that would cover
       another name or a pin is hidden (towns and the start first, then stops in visiting order);
       zooming in brings it back. Every name stays in the tooltips (and the export's list). */
    function placeNames() {
      if (!names) return;
      var show = map.getZoom() >= (Number(doc.names_zoom) || 0);
      if (show && !map.hasLayer(names)) names.addTo(map);
      if (!show && map.hasLayer(names)) map.removeLayer(names);
      if (!show) return;
      var taken = [];
      markers.forEach(function (marker) {
        var dot = map.hasLayer(marker) && marker.getElement() && marker.getElement().querySelector(".tw-dot");
        if (dot) taken.push(dot.getBoundingClientRect());
      });
      var order = nameMarkers.slice().sort(function (a, b) {
        var ta = /^(anchor|origin)$/.test(a.record.kind) ? 0 : 1, tb = /^(anchor|origin)$/.test(b.record.kind) ? 0 : 1;
        return ta - tb;
      });
      order.forEach(function (name) {
        var node = name.getElement();
        if (!node) return;
        node.classList.remove("tw-name-hidden");
        if (!dayVisible(Number(name.record.day))) { node.classList.add("tw-name-hidden"); return; }
        var box = node.querySelector(".tw-name-text").getBoundingClientRect();
        var clash = taken.some(function (t) {
          return box.left < t.right && t.left < box.right && box.top < t.bottom && t.top < box.bottom;
        });
        if (clash) node.classList.add("tw-name-hidden"); else taken.push(box);
      });
    }
    map.on("zoomend", placeNames);

    // -- fitting ----------------------------------------------------------------------------------
    var NAME_ROOM = 110;  // names sit right of their pins: leave them room on that side
    function padding() {
      var size = map.getSize();
      var right = legendBox && legendBox.offsetWidth + 24 < size.x * 0.45 ? legendBox.offsetWidth + 24 : 24;
      if (doc && (doc.mode === "city" || doc.mode === "multi_city" || !Number(doc.names_zoom)) && right + NAME_ROOM < size.x * 0.5) right += NAME_ROOM;
      var extra = hooks.padding ? hooks.padding() : {};
      return {paddingTopLeft: [48, extra.top || 24], paddingBottomRight: [right, extra.bottom || 24]};
    }

    function boundsOf(index) {
      if (index === null || index === undefined) return doc && doc.focus ? L.latLngBounds(doc.focus) : null;
      var lls = [];
      records.forEach(function (m) { if (Number(m.day) === index && m.kind !== "flight") lls.push([m.lat, m.lon]); });
      var day = doc.days[index];
      if (day && day.path) day.path.coordinates.forEach(function (c) { lls.push([c[1], c[0]]); });
      return lls.length ? L.latLngBounds(lls) : null;
    }

    /* Fit the trip (or the one day shown) beside the legend and under the banner. */
    function fit(force) {
      var bounds = boundsOf(shownDay);
      if (!bounds || !bounds.isValid()) return false;
      if (!force && map.getBounds().contains(bounds)) return false;
      var options = padding();
      options.maxZoom = 14;
      options.animate = false;
      map.fitBounds(bounds, options);
      if (hooks.fitted) hooks.fitted();
      placeNames();
      return true;
    }

    function showDay(index) {
      shownStay = null;
      if (stayPicker) stayPicker.value = "";
      shownDay = index === null || index === undefined || index === "" ? null : Number(index);
      if (shownDay !== null && !(shownDay >= 0 && shownDay < days.length)) shownDay = null;
      applyDays();
      fit(true);
    }

    // -- legend -----------------------------------------------------------------------------------
    function legendRow(swatch, text) {
      var row = el("div", "tw-legend-row");
      row.appendChild(swatch);
      row.appendChild(el("span", null, text));
      return row;
    }

    function swatchPin(kind, ring, mark, low, locked) {
      var box = el("span", "tw-swatch");
      box.appendChild(pinElement(kind, ring, "#6b7785", mark, low, locked));
      return box;
    }

    function legendSection(body, title, wide) {
      body.appendChild(el("h4", null, title));
      var grid = el("div", "tw-legend-grid" + (wide ? " tw-legend-wide" : ""));
      body.appendChild(grid);
      return grid;
    }

    function buildLegend() {
      var box = legendBox;
      box.replaceChildren();
      var collapsed = box.classList.contains("tw-collapsed");
      var head = el("div", "tw-legend-head");
      if (!collapsed) head.appendChild(el("span", "tw-legend-title", "Legend"));
      var toggle = el("button", "tw-legend-toggle", collapsed ? "Legend ▸" : "Hide ▾");
      toggle.type = "button";
      toggle.addEventListener("click", function (e) {
        // The legend is rebuilt below, which takes this button out of the page: Leaflet would then
        // no longer see that the click began inside the legend and would treat it as a map click.
        L.DomEvent.stop(e);
        setLegendCollapsed(!box.classList.contains("tw-collapsed"));
        if (hooks.legendToggled) hooks.legendToggled(box.classList.contains("tw-collapsed"));
        // An opened legend must not cover the trip: frame it again beside the legend.
        if (!box.classList.contains("tw-collapsed") && doc) fit(true);
      });
      head.appendChild(toggle);
      box.appendChild(head);
      if (collapsed) return;
      var legend = (doc && doc.legend) || {};
      var body = el("div", "tw-legend-body");
      box.appendChild(body);
      if ((legend.legs || []).length) {
        var legs = legendSection(body, "Between the cities", true);
        legend.legs.forEach(function (leg) {
          var swatch = el("span", "tw-swatch-line" + (leg.dashed ? " tw-swatch-dashed" : ""));
          swatch.style.setProperty("--leg", colour(leg.colour, "#555555"));
          legs.appendChild(legendRow(swatch, leg.text));
        });
      }
      if ((legend.days || []).length || legend.corridor) {
        var list = legendSection(body, "Days", true);
        list.classList.add("tw-legend-days");
        (legend.days || []).forEach(function (d, index) {
          var line = el("span", "tw-swatch-line");
          line.style.background = colour(d.colour, "#555555");
          var row = legendRow(line, d.label);
          // A day's row shows that day alone; clicked again, every day.
          row.classList.add("tw-legend-day");
          if (shownDay === index) row.classList.add("tw-legend-day-shown");
          row.title = shownDay === index ? "Show every day" : "Show this day only";
          row.addEventListener("click", function (e) {
            L.DomEvent.stop(e);  // the legend is rebuilt: the click must not reach the map
            showDay(shownDay === index ? null : index);
          });
          list.appendChild(row);
        });
        if (legend.corridor) list.appendChild(legendRow(el("span", "tw-swatch-band"), legend.corridor));
      }
      var neutral = "#9a9a9a";
      var stops = legendSection(body, "Stops (fill: day colour)", true);
      (legend.kinds || []).forEach(function (k) {
        stops.appendChild(legendRow(swatchPin(k.kind in SIZES ? k.kind : "attraction", neutral, k.mark), k.text));
      });
      var ring = legendSection(body, "Ring: data source");
      (legend.sources || []).forEach(function (s) {
        ring.appendChild(legendRow(swatchPin("attraction", colour(s.colour, neutral), ""), s.text));
      });
      var marks = legendSection(body, "Marks", true);
      (legend.marks || []).forEach(function (mark) {
        marks.appendChild(legendRow(swatchPin("attraction", neutral, "", mark.what === "low", mark.what === "locked"),
                                    mark.text));
      });
      if (legend.hint) body.appendChild(el("div", "tw-legend-hint", legend.hint));
    }

    function setLegendCollapsed(collapsed) {
      legendBox.classList.toggle("tw-collapsed", !!collapsed);
      buildLegend();
    }

    var LegendControl = L.Control.extend({
      options: {position: "bottomright"},
      onAdd: function () {
        legendBox = el("div", "tw-legend");
        L.DomEvent.disableClickPropagation(legendBox);
        L.DomEvent.disableScrollPropagation(legendBox);
        buildLegend();
        return legendBox;
      },
    });
    var legendControl = new LegendControl().addTo(map);

    // -- "Fit trip" and "Show one day" ------------------------------------------------------------
    var ViewControl = L.Control.extend({
      options: {position: "topleft"},
      onAdd: function () {
        var box = el("div", "tw-view-bar leaflet-bar");
        var button = el("button", "tw-fit", "Fit trip");
        button.type = "button";
        button.title = "Show the whole trip (or the day shown)";
        button.addEventListener("click", function (e) {
          L.DomEvent.stop(e);
          shownStay = null;
          if (stayPicker) stayPicker.value = "";
          fit(true);
        });
        dayPicker = el("select", "tw-day-picker");
        dayPicker.title = "Show one day";
        dayPicker.addEventListener("change", function () { showDay(dayPicker.value); });
        stayPicker = el("select", "tw-stay-picker");
        stayPicker.title = "Show one city";
        stayPicker.addEventListener("change", function () { showStay(stayPicker.value); });
        box.appendChild(button);
        box.appendChild(stayPicker);
        box.appendChild(dayPicker);
        L.DomEvent.disableClickPropagation(box);
        L.DomEvent.disableScrollPropagation(box);
        return box;
      },
    });
    var viewControl = new ViewControl().addTo(map);

    function fillDayPicker() {
      dayPicker.replaceChildren();
      var all = el("option", null, "All days");
      all.value = "";
      dayPicker.appendChild(all);
      (doc.days || []).forEach(function (d, index) {
        var option = el("option", null, "Day " + (index + 1));
        option.value = String(index);
        dayPicker.appendChild(option);
      });
      dayPicker.value = shownDay === null ? "" : String(shownDay);
      viewControl.getContainer().style.display = doc.mode === "empty" ? "none" : "";
      stayPicker.replaceChildren();
      var every = el("option", null, "All cities");
      every.value = "";
      stayPicker.appendChild(every);
      (doc.stays || []).forEach(function (s) {
        var option = el("option", null, s.number + ". " + s.city);
        option.value = String(s.index);
        stayPicker.appendChild(option);
      });
      stayPicker.style.display = (doc.stays || []).length ? "" : "none";
      stayPicker.value = shownStay === null ? "" : String(shownStay);
    }

    // -- a multi-city trip: its cities and the legs between them (engine/maps/stay_layers.py) ----------
    var STAY_ZOOM = 11;  // the cities' pins show below city zoom; from there on the stops take over
    function legTip(leg) {
      var box = el("div", "tw-tip");
      box.appendChild(el("div", "tw-tip-title", leg.label));
      if (leg.why) box.appendChild(el("div", "tw-tip-meta", leg.why));
      return box;
    }

    function drawStays() {
      if (legLayer) map.removeLayer(legLayer);
      if (stayLayer) map.removeLayer(stayLayer);
      legLayer = stayLayer = null;
      if (!(doc.stays || []).length && !(doc.legs || []).length) return;
      legLayer = L.featureGroup();
      (doc.legs || []).forEach(function (leg) {
        if (!leg.path) return;
        var lls = leg.path.coordinates.map(function (c) { return [c[1], c[0]]; });
        L.polyline(lls, {color: "#ffffff", weight: 9, opacity: 0.8, className: "tw-leg-casing"})
          .bindTooltip(legTip(leg), {sticky: true}).addTo(legLayer);
        var line = L.polyline(lls, {color: colour(leg.colour, "#333333"), weight: 4, opacity: 0.95, interactive: false,
                                    dashArray: leg.estimated ? "10 8" : null, className: "tw-leg-line"});
        line.bindTooltip(el("span", null, String(leg.label).split(" ")[0]),
                         {permanent: true, direction: "center", className: "tw-leg-tag"});
        line.addTo(legLayer);
      });
      legLayer.addTo(map);
      stayLayer = L.layerGroup();
      (doc.stays || []).forEach(function (s) {
        if (!drawable(s.lat, s.lon)) return;
        var pin = el("div", "tw-stay");
        pin.appendChild(el("span", "tw-stay-number", s.number));
        pin.appendChild(el("span", "tw-stay-city", s.city));
        var icon = L.divIcon({className: "tw-stay-icon", iconSize: null, iconAnchor: [13, 13], html: pin});
        var marker = L.marker([s.lat, s.lon], {icon: icon, keyboard: false, zIndexOffset: 2000, riseOnHover: true});
        marker.bindTooltip(el("div", "tw-tip-title", s.label), {direction: "top", offset: [0, -13]});
        marker.on("click", function () { showStay(s.index); });
        marker.addTo(stayLayer);
      });
      placeStays();
    }

    function placeStays() {
      if (!stayLayer) return;
      var show = map.getZoom() < STAY_ZOOM;
      if (show && !map.hasLayer(stayLayer)) stayLayer.addTo(map);
      if (!show && map.hasLayer(stayLayer)) map.removeLayer(stayLayer);
    }
    map.on("zoomend", placeStays);

    /* Zoom to one city's stops (null: the whole trip). */
    function showStay(index) {
      shownStay = index === null || index === undefined || index === "" ? null : Number(index);
      var stay = shownStay === null || !doc ? null : (doc.stays || []).filter(function (s) { return s.index === shownStay; })[0];
      if (!stay || !stay.focus) shownStay = null;
      if (stayPicker) stayPicker.value = shownStay === null ? "" : String(shownStay);
      if (shownStay === null) { fit(true); return; }
      if (shownDay !== null) { shownDay = null; applyDays(); }
      var options = padding();
      options.maxZoom = 15;
      options.animate = false;
      map.fitBounds(L.latLngBounds(stay.focus), options);
      if (hooks.fitted) hooks.fitted();
      placeNames();
    }

    // -- the city's own map (issue 32 §4) ---------------------------------------------------------
    /* The pack's water, parks, main streets, rail and stations (engine/maps/city_layers.py), drawn
       on the page's land under the trip; street, park and station names from CITY_NAMES_ZOOM on,
       a name that would cover another one hidden. The export's document carries it (doc.city_map);
       the app sends it apart, only when it changes (setCityMap). */
    var CITY = {water: "#a9cde3", park: "#cfe5bf", parkEdge: "#b3d39c", street: "#ffffff",
                casing: "#c9bca4", rail: "#7b7482", station: "#4a4453", road: "#8a8178"};
    var ROAD_ZOOM = 10;  // below it (a road trip's region) main roads are grey: white on pale land reads as nothing
    var STREET_WEIGHT = {motorway: 5, trunk: 5, primary: 4, secondary: 3};
    var CITY_NAMES_ZOOM = 14;
    var cityMap = null, cityLabels = null, cityLines = [];
    if (!map.getPane("citymap")) map.createPane("citymap").style.zIndex = 170;  // over the outlines
    if (!map.getPane("citymapnames")) map.createPane("citymapnames").style.zIndex = 390;  // under the pins
    var cityRenderer = L.canvas({pane: "citymap", padding: 0.5});
    function latLngs(coords) { return coords.map(function (c) { return [c[1], c[0]]; }); }
    function zoomScale() { return Math.max(0.5, Math.min(2.2, Math.pow(1.35, map.getZoom() - 14))); }
    function cityLabel(lat, lon, text, className, angle) {
      var span = el("span", "tw-city-name-text", text);
      if (angle) span.style.transform = "translate(-50%, -50%) rotate(" + angle.toFixed(1) + "deg)";
      var icon = L.divIcon({className: "tw-city-name " + className, iconSize: null, iconAnchor: [0, 0], html: span});
      return L.marker([lat, lon], {icon: icon, interactive: false, keyboard: false, pane: "citymapnames"});
    }
    /* A street's name sits along one of its longest stretches: the first of them where it covers
       no pin and no other name (placeCityNames tries them in turn). */
    function streetLabel(name, lines) {
      var stretches = [];
      lines.forEach(function (line) {
        var lls = latLngs(line.coordinates);
        for (var i = 0; i + 1 < lls.length; i++) {
          var a = map.project(lls[i], 16), b = map.project(lls[i + 1], 16);
          var angle = Math.atan2(b.y - a.y, b.x - a.x) * 180 / Math.PI;
          if (angle > 90) angle -= 180; else if (angle < -90) angle += 180;  // never upside down
          stretches.push({len: a.distanceTo(b), at: map.unproject(a.add(b).divideBy(2), 16), angle: angle});
        }
      });
      stretches.sort(function (x, y) { return y.len - x.len; });
      var label = cityLabel(stretches[0].at.lat, stretches[0].at.lng, name, "tw-street-name", stretches[0].angle);
      label.spots = stretches.slice(0, 6);
      return label;
    }
    function ringMiddle(ring) {
      var lat = 0, lon = 0;
      ring.forEach(function (c) { lon += c[0]; lat += c[1]; });
      return [lat / ring.length, lon / ring.length];
    }
    function drawCityMap(layers) {
      if (cityMap) { map.removeLayer(cityMap); map.removeLayer(cityLabels); }
      cityMap = cityLabels = null;
      cityLines = [];
      if (!layers) return;
      var base = {renderer: cityRenderer, pane: "citymap", interactive: false};
      cityMap = L.layerGroup();
      cityLabels = L.layerGroup();
      function area(a, style) { L.polygon(a.rings.map(latLngs), L.extend({}, base, style)).addTo(cityMap); }
      function line(coords, style, kind) {
        var drawn = L.polyline(latLngs(coords), L.extend({}, base, style)).addTo(cityMap);
        cityLines.push({layer: drawn, kind: kind, weight: style.weight});
      }
      (layers.parks || []).forEach(function (a) {
        area(a, {color: CITY.parkEdge, weight: 1, fillColor: CITY.park, fillOpacity: 1});
        if (a.name && a.rings.length) {
          var m = ringMiddle(a.rings[0]);
          cityLabel(m[0], m[1], a.name, "tw-park-name").addTo(cityLabels);
        }
      });
      (layers.water || []).forEach(function (a) { area(a, {stroke: false, fillColor: CITY.water, fillOpacity: 1}); });
      (layers.rivers || []).forEach(function (r) { line(r.coordinates, {color: CITY.water, weight: 4, lineCap: "round"}, "river"); });
      (layers.rail || []).forEach(function (r) { line(r.coordinates, {color: CITY.rail, weight: 2, dashArray: "7 4"}, "rail"); });
      var streets = layers.streets || [];
      streets.forEach(function (st) {
        line(st.coordinates, {color: CITY.casing, weight: (STREET_WEIGHT[st.kind] || 3) + 2, lineCap: "round"}, "casing");
      });
      var byName = {};
      streets.forEach(function (st) {
        line(st.coordinates, {color: CITY.street, weight: STREET_WEIGHT[st.kind] || 3, lineCap: "round"}, "street");
        if (st.name) (byName[st.name] = byName[st.name] || []).push(st);
      });
      Object.keys(byName).forEach(function (name) { streetLabel(name, byName[name]).addTo(cityLabels); });
      (layers.stations || []).forEach(function (s) {
        L.circleMarker([s.lat, s.lon], L.extend({}, base, {radius: 4, color: CITY.station, weight: 2,
                                                            fillColor: "#ffffff", fillOpacity: 1})).addTo(cityMap);
        cityLabel(s.lat, s.lon, s.name, "tw-station-name").addTo(cityLabels);
      });
      cityMap.addTo(map);
      styleCityMap();
    }
    function styleCityMap() {
      if (!cityMap) return;
      var k = zoomScale();
      var far = map.getZoom() < ROAD_ZOOM;
      cityLines.forEach(function (l) {
        var style = {weight: Math.max(1, l.weight * k)};
        if (l.kind === "street") style.color = far ? CITY.road : CITY.street;
        l.layer.setStyle(style);
      });
      var show = map.getZoom() >= CITY_NAMES_ZOOM;
      if (show && !map.hasLayer(cityLabels)) cityLabels.addTo(map);
      if (!show && map.hasLayer(cityLabels)) map.removeLayer(cityLabels);
      if (show) placeCityNames();
    }
    function placeCityNames() {  // the trip's pins and names first: a city name never covers them
      var taken = Array.prototype.map.call(map.getContainer().querySelectorAll(
        ".tw-dot, .tw-name:not(.tw-name-hidden) .tw-name-text"), function (n) { return n.getBoundingClientRect(); });
      function clear(box) {
        return !taken.some(function (t) {
          return box.left < t.right && t.left < box.right && box.top < t.bottom && t.top < box.bottom;
        });
      }
      cityLabels.eachLayer(function (label) {
        var node = label.getElement();
        if (!node) return;
        node.classList.remove("tw-name-hidden");
        var spots = label.spots || [null];
        for (var i = 0; i < spots.length; i++) {
          if (spots[i]) {
            label.setLatLng(spots[i].at);
            node.firstChild.style.transform = "translate(-50%, -50%) rotate(" + spots[i].angle.toFixed(1) + "deg)";
          }
          var box = node.firstChild.getBoundingClientRect();
          if (clear(box)) { taken.push(box); return; }
        }
        node.classList.add("tw-name-hidden");
      });
    }
    map.on("zoomend", styleCityMap);
    map.on("moveend", function () { if (cityLabels && map.hasLayer(cityLabels)) placeCityNames(); });

    // -- the document -----------------------------------------------------------------------------
    function clear() {
      if (corridor) { map.removeLayer(corridor); corridor = null; }
      days.forEach(function (group) { if (map.hasLayer(group)) map.removeLayer(group); });
      days = [];
      if (names) { map.removeLayer(names); names = null; }
      markers.clear();
      records.clear();
      openTip = null;
    }

    function draw(next) {
      clear();
      doc = next;
      if (!doc.legend) doc.legend = {};
      if (shownDay !== null && shownDay >= (doc.days || []).length) shownDay = null;
      if (doc.city_map) drawCityMap(doc.city_map);  // the export's; the app sends its own apart (setCityMap)
      if (doc.corridor && doc.corridor.geometry) {
        corridor = L.geoJSON(doc.corridor.geometry, {
          interactive: false,
          style: {color: "#e65100", weight: 1, opacity: 0.55, fillColor: "#e65100", fillOpacity: 0.12, dashArray: "4 4"},
        }).addTo(map);
      }
      days = (doc.days || []).map(dayLayer);
      (doc.markers || []).forEach(function (m) {
        if (!drawable(m.lat, m.lon)) { console.error("marker " + m.id + ": no valid position, not drawn"); return; }
        var marker = makeMarker(m);
        markers.set(m.id, marker);
        records.set(m.id, m);
        marker.addTo(days[Number(m.day)] || days[0] || map);
      });
      applyDays();
      drawStays();
      buildNames();
      buildLegend();
      if (shownStay !== null && shownStay >= (doc.stays || []).length) shownStay = null;
      fillDayPicker();
    }

    return {
      draw: draw,
      fit: fit,
      showDay: showDay,
      shownDay: function () { return shownDay; },
      showStay: showStay,
      shownStay: function () { return shownStay; },
      stays: function () { return stayLayer; },
      legs: function () { return legLayer; },
      setDayHidden: function (index, hidden) {
        if (hidden) hiddenDays.add(index); else hiddenDays.delete(index);
        applyDays();
      },
      dayGroup: function (index) { return days[index] || null; },
      dayVisible: dayVisible,
      placeNames: placeNames,
      markers: markers,
      records: records,
      names: function () { return names; },
      corridor: function () { return corridor; },
      cityMap: function () { return cityMap; },
      setCityMap: function (layers) { drawCityMap(layers || null); },
      cityLabels: function () { return cityLabels; },
      legend: legendControl,
      setLegendCollapsed: setLegendCollapsed,
      markerZ: function (id) { return markerZ(records.get(id) || {}); },
      kindOf: kindOf,
      sizeOf: sizeOf,
      el: el,
    };
  }

  /* The fixture cities' water at city zoom (resources/basemap/water.geojson: GSHHG shores and rivers,
     see basemap/README.md), the same in the app's page (map.js) and the export (html_map.js): each
     city's box is land, with its sea, lakes and rivers on it, so the coarse country outlines
     underneath do not show through. Rivers widen as the map zooms in. From COARSE_COAST_ZOOM on,
     outside those boxes, the unknown is drawn as land, never as water (Natural Earth's coastline is
     kilometres off there: Lisbon's waterfront falls in its sea). */
  var WATER = "#a9cde3", LAND = "#f3f0e8", COARSE_COAST_ZOOM = 10;
  function riverWeight(zoom) { return Math.max(1, Math.min(14, 1.5 * Math.pow(1.55, zoom - 9))); }
  function waterStyle(feature, zoom) {
    var kind = feature.properties.kind;
    if (kind === "land") return {stroke: false, fillColor: LAND, fillOpacity: 1};
    if (kind === "river") return {color: WATER, weight: riverWeight(zoom), opacity: 1, lineCap: "round"};
    return {stroke: false, fillColor: WATER, fillOpacity: 1};
  }
  function markCoarseCoast(map) {
    map.getContainer().classList.toggle("tw-coast-unknown", map.getZoom() >= COARSE_COAST_ZOOM);
  }

  window.TripMap = {create: create, pinElement: pinElement, drawable: drawable, waterStyle: waterStyle,
                    markCoarseCoast: markCoarseCoast};
})();
