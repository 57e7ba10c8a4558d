/* Tripwright's standalone HTML map: the page's own part. The map itself is drawn by the app's
 * renderer (resources/trip_map.js, inlined before this script) from the page's JSON blocks;
 * this adds the Natural Earth outlines and the itinerary list beside the map.
 *
 * Data arrives only as JSON (#tw-data: engine/export/html_document.py; #tw-basemap: the Natural
 * Earth outlines). Every string reaches the page through textContent or DOM nodes handed to
 * Leaflet, never through innerHTML or an HTML string, so a place name cannot become markup.
 * Runs once the document is parsed: folium's L.map call comes later in the same script block. */
document.addEventListener("DOMContentLoaded", function () {
  "use strict";

  function readJSON(id) {
    var node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  var el = function (tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  };

  var doc = readJSON("tw-data");
  var basemap = readJSON("tw-basemap");
  var mapDiv = document.querySelector(".folium-map");
  var map = window[mapDiv.id];   // folium's L.map, a global named after its div
  var road = doc.mode === "road_trip";

  // -- basemap and credits ------------------------------------------------------------------------
  map.attributionControl.setPrefix("Leaflet");
  (doc.credits || []).forEach(function (credit) {  // whose data the places are (ODbL), when not ours
    // Leaflet takes attribution as HTML: hand it the text escaped by the DOM itself
    if (typeof credit === "string") { map.attributionControl.addAttribution(el("span", null, credit).innerHTML); }
  });
  var region = basemap && basemap.region ? L.latLngBounds(basemap.region) : null;
  if (basemap) {
    map.createPane("basemap").style.zIndex = 150;
    var renderer = L.canvas({pane: "basemap", padding: 0.5});
    var land = {color: "#8f8a80", weight: 0.9, fillColor: "#f3f0e8", fillOpacity: 1, opacity: 1};
    var borders = {color: "#b7b0a2", weight: 0.7, fill: false, opacity: 1};
    var waterLayer = null;  // a fixture city's GSHHG land, water and rivers, drawn as the app draws them
    var waterStyle = function (feature) { return TripMap.waterStyle(feature, map.getZoom()); };
    [[basemap.countries, land], [basemap.water, waterStyle], [basemap.admin1, borders]].forEach(function (layer) {
      if (layer[0]) {
        var drawn = L.geoJSON(layer[0], {pane: "basemap", renderer: renderer, interactive: false, style: layer[1]})
          .addTo(map);
        if (layer[0] === basemap.water) waterLayer = drawn;
      }
    });
    if (waterLayer) map.on("zoomend", function () { waterLayer.setStyle(waterStyle); });  // rivers widen
    map.attributionControl.addAttribution(basemap.water ? "Basemap: Natural Earth, GSHHG" : "Basemap: Natural Earth");
  }
  map.on("zoomend", function () { TripMap.markCoarseCoast(map); });  // city zoom: the unknown is land
  TripMap.markCoarseCoast(map);

  // -- the trip, drawn as the app draws it ----------------------------------------------------------
  var toggles = [];
  var trip = TripMap.create(map, {
    // "Show one day" hides the other days: their boxes in the list follow.
    daysChanged: function () {
      toggles.forEach(function (toggle, index) { toggle.checked = trip.dayVisible(index); });
    },
  });

  // -- the itinerary beside the map ----------------------------------------------------------------
  function focusStop(id) {
    var marker = trip.markers.get(id);
    if (!marker) return;
    var day = Number(trip.records.get(id).day);
    if (!trip.dayVisible(day)) {
      if (trip.shownDay() !== null) trip.showDay(null);
      trip.setDayHidden(day, false);
    }
    map.setView(marker.getLatLng(), Math.max(map.getZoom(), road ? 9 : 15));
    trip.placeNames();
    marker.openTooltip();
  }

  function badge(item, colour) {
    var record = item.marker === null ? null : trip.records.get(item.marker);
    var mark = el("span", "tw-row-mark", record ? record.mark : (item.kind === "flight" ? "✈" : ""));
    if (record) mark.style.background = colour;
    else mark.classList.add("tw-row-mark-none");
    return mark;
  }

  function itemRow(item, colour) {
    var row = el("li", "tw-item tw-item-" + item.kind);
    row.appendChild(el("span", "tw-time", item.time));
    row.appendChild(badge(item, colour));
    row.appendChild(el("span", "tw-item-name", item.name + (item.locked ? " (locked)" : "")));
    if (item.marker !== null && trip.markers.has(item.marker)) {
      row.classList.add("tw-item-stop");
      row.title = "Show on the map";
      row.addEventListener("click", function () { focusStop(item.marker); });
    }
    return row;
  }

  function daySection(day, index) {
    var colour = /^#[0-9a-fA-F]{6}$/.test(day.colour) ? day.colour : "#555555";
    var section = el("section", "tw-day");
    var head = el("label", "tw-day-head");
    var toggle = el("input");
    toggle.type = "checkbox";
    toggle.checked = true;
    toggle.title = "Show this day on the map";
    toggle.addEventListener("change", function () {
      if (toggle.checked && trip.shownDay() !== null && trip.shownDay() !== index) trip.showDay(null);
      trip.setDayHidden(index, !toggle.checked);
    });
    toggles.push(toggle);
    var swatch = el("span", "tw-day-swatch");
    swatch.style.background = colour;
    head.appendChild(toggle);
    head.appendChild(swatch);
    head.appendChild(el("span", "tw-day-label", day.label));
    section.appendChild(head);
    if (day.summary) section.appendChild(el("div", "tw-day-summary", day.summary));
    var list = el("ol", "tw-items");
    (day.items || []).forEach(function (item) { list.appendChild(itemRow(item, colour)); });
    section.appendChild(list);
    return section;
  }

  function buildItinerary(side) {
    side.appendChild(el("h1", null, doc.title));
    side.appendChild(el("div", "tw-dates", doc.dates));
    if (doc.banner) side.appendChild(el("div", "tw-banner-note", doc.banner));
    doc.days.forEach(function (day, index) { side.appendChild(daySection(day, index)); });
    side.appendChild(el("div", "tw-total", "Estimated total: " + doc.total));
    side.appendChild(el("div", "tw-note", doc.disclaimer));
  }

  document.title = doc.title + " – " + doc.dates;
  map.invalidateSize();
  trip.draw(doc);
  buildItinerary(document.getElementById("tw-itinerary"));
  trip.fit(true);
  if (region) {
    // The page carries the basemap of this region only: keep the view inside it.
    map.setMinZoom(Math.min(map.getZoom(), map.getBoundsZoom(region, true)));
    map.options.maxBoundsViscosity = 1.0;
    map.setMaxBounds(region);
  }
  trip.placeNames();
});
