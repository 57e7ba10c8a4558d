/* Tripwright's standalone HTML map: draws the trip from the page's JSON blocks.
 *
 * Data arrives only as JSON (#tw-data: engine/export/html_document.py; #tw-basemap: the Natural
 * Earth outlines). Every string reaches the page through textContent or DOM nodes handed to
 * Leaflet, never through innerHTML or an HTML string, so a place name cannot become markup.
 * Runs once the document is parsed: folium's L.map call comes later in the same script block. */
document.addEventListener("DOMContentLoaded", function () {
  "use strict";

  var COLOUR = /^#[0-9a-fA-F]{6}$/;
  var KIND_TEXT = {attraction: "Sight", meal: "Meal", lodging: "Hotel", anchor: "Overnight stop",
                   origin: "Start", transit: "Transit", flight: "Flight"};

  function readJSON(id) {
    var node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  var doc = readJSON("tw-data");
  var basemap = readJSON("tw-basemap");
  var mapDiv = document.querySelector(".folium-map");
  var map = window[mapDiv.id];   // folium's L.map, a global named after its div
  var road = doc.mode === "road_trip";
  var dayGroups = [];
  var markers = [];

  function dayColour(number) {
    var day = doc.days[number - 1];
    return day && COLOUR.test(day.colour) ? day.colour : "#555555";
  }

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
    [[basemap.countries, land], [basemap.admin1, borders]].forEach(function (layer) {
      if (layer[0]) {
        L.geoJSON(layer[0], {pane: "basemap", renderer: renderer, interactive: false, style: layer[1]})
          .addTo(map);
      }
    });
    map.attributionControl.addAttribution("Basemap: Natural Earth");
  }

  // -- stops --------------------------------------------------------------------------------------
  function pinElement(stop) {
    var pin = el("div", "tw-pin tw-kind-" + (KIND_TEXT.hasOwnProperty(stop.kind) ? stop.kind : "other"));
    pin.style.setProperty("--day", dayColour(stop.day));
    pin.appendChild(el("span", "tw-dot", stop.mark));
    if (stop.label) pin.appendChild(el("span", "tw-label", stop.label));
    return pin;
  }

  function tipElement(stop) {
    var box = el("div", "tw-tip");
    box.appendChild(el("div", "tw-tip-title", stop.name));
    var meta = "Day " + stop.day + (stop.time ? " · " + stop.time : "") + " · " + (KIND_TEXT[stop.kind] || "Stop");
    box.appendChild(el("div", "tw-tip-meta", meta + (stop.locked ? " · locked" : "")));
    if (stop.note) box.appendChild(el("div", "tw-tip-warn", stop.note));
    return box;
  }

  function makeMarker(stop) {
    var size = stop.kind === "anchor" ? 24 : 20;
    var icon = L.divIcon({className: "tw-icon", iconSize: [size, size], iconAnchor: [size / 2, size / 2],
                          html: pinElement(stop)});
    var marker = L.marker([stop.lat, stop.lon], {icon: icon, keyboard: false, riseOnHover: true,
                                                 zIndexOffset: stop.kind === "anchor" ? 1000 : 0});
    marker.bindTooltip(tipElement(stop), {direction: "top", offset: [0, -size / 2], opacity: 0.96});
    return marker;
  }

  // -- days ---------------------------------------------------------------------------------------
  function dayTip(day) {
    var box = el("div", "tw-tip");
    box.appendChild(el("div", "tw-tip-title", day.label));
    if (day.summary) box.appendChild(el("div", "tw-tip-meta", day.summary));
    return box;
  }

  function dayLayer(day) {
    var group = L.featureGroup();
    if (day.path) {
      var colour = dayColour(day.number);
      var weight = day.driven ? 4 : 3;
      // a GeoJSON LineString ([lon, lat] pairs, engine/maps/trip_map.py): Leaflet takes [lat, lon]
      var lls = day.path.coordinates.map(function (c) { return [c[1], c[0]]; });
      L.polyline(lls, {color: "#ffffff", weight: weight + 4, opacity: 0.85})
        .bindTooltip(dayTip(day), {sticky: true}).addTo(group);
      var line = L.polyline(lls, {color: colour, weight: weight, opacity: 0.9, interactive: false,
                                       dashArray: day.driven ? null : "6 5", className: "tw-day-path"});
      if (day.driven) {
        line.bindTooltip(el("span", null, "Day " + day.number),
                         {permanent: true, direction: "center", className: "tw-day-tag"});
      }
      line.addTo(group);
    }
    return group;
  }

  doc.days.forEach(function (day) { dayGroups.push(dayLayer(day).addTo(map)); });
  doc.stops.forEach(function (stop) {
    var marker = makeMarker(stop);
    markers.push(marker);
    marker.addTo(dayGroups[stop.day - 1] || map);
  });

  /* Labels that would cover another label or a marker are hidden (towns and stops in visiting
     order win); zooming in brings them back. Their names stay in the tooltips and the list. */
  function placeLabels() {
    var shown = markers.filter(function (m) { return m.getElement(); });
    var labels = [];
    var taken = shown.map(function (m) { return m.getElement().querySelector(".tw-dot").getBoundingClientRect(); });
    shown.forEach(function (m) {
      var label = m.getElement().querySelector(".tw-label");
      if (label) { label.classList.remove("tw-label-hidden"); labels.push(label); }
    });
    labels.map(function (label) { return [label, label.getBoundingClientRect()]; })
      .forEach(function (pair) {
        var box = pair[1];
        var clash = taken.some(function (t) {
          return box.left < t.right && t.left < box.right && box.top < t.bottom && t.top < box.bottom;
        });
        if (clash) pair[0].classList.add("tw-label-hidden"); else taken.push(box);
      });
  }
  map.on("zoomend", placeLabels);

  // -- the itinerary beside the map ----------------------------------------------------------------
  function focusStop(index) {
    var marker = markers[index];
    if (!marker) return;
    var group = dayGroups[doc.stops[index].day - 1];
    if (group && !map.hasLayer(group)) map.addLayer(group);
    map.setView(marker.getLatLng(), Math.max(map.getZoom(), road ? 9 : 15));
    placeLabels();
    marker.openTooltip();
  }

  function badge(item, colour) {
    var stop = item.stop === null ? null : doc.stops[item.stop];
    var mark = el("span", "tw-badge", stop ? stop.mark : (item.kind === "flight" ? "✈" : ""));
    if (stop) mark.style.background = colour;
    else mark.classList.add("tw-badge-none");
    return mark;
  }

  function itemRow(item, colour) {
    var row = el("li", "tw-item tw-item-" + item.kind);
    row.appendChild(el("span", "tw-time", item.time));
    row.appendChild(badge(item, colour));
    row.appendChild(el("span", "tw-name", item.name + (item.locked ? " (locked)" : "")));
    if (item.stop !== null) {
      row.classList.add("tw-item-stop");
      row.title = "Show on the map";
      row.addEventListener("click", function () { focusStop(item.stop); });
    }
    return row;
  }

  function daySection(day) {
    var section = el("section", "tw-day");
    var head = el("label", "tw-day-head");
    var toggle = el("input");
    toggle.type = "checkbox";
    toggle.checked = true;
    toggle.title = "Show this day on the map";
    toggle.addEventListener("change", function () {
      var group = dayGroups[day.number - 1];
      if (toggle.checked) map.addLayer(group); else map.removeLayer(group);
      placeLabels();
    });
    var swatch = el("span", "tw-swatch");
    swatch.style.background = dayColour(day.number);
    head.appendChild(toggle);
    head.appendChild(swatch);
    head.appendChild(el("span", "tw-day-label", day.label));
    section.appendChild(head);
    if (day.summary) section.appendChild(el("div", "tw-day-summary", day.summary));
    var list = el("ol", "tw-items");
    day.items.forEach(function (item) { list.appendChild(itemRow(item, dayColour(day.number))); });
    section.appendChild(list);
    return section;
  }

  function buildItinerary(side) {
    side.appendChild(el("h1", null, doc.title));
    side.appendChild(el("div", "tw-dates", doc.dates));
    doc.days.forEach(function (day) { side.appendChild(daySection(day)); });
    side.appendChild(el("div", "tw-total", "Estimated total: " + doc.total));
    side.appendChild(el("div", "tw-note", doc.disclaimer));
  }

  document.title = doc.title + " – " + doc.dates;
  buildItinerary(document.getElementById("tw-itinerary"));
  map.invalidateSize();
  if (doc.bounds) {
    // Labels sit right of their markers: leave them room on that side.
    map.fitBounds(doc.bounds, {paddingTopLeft: [30, 30], paddingBottomRight: [150, 30], maxZoom: 15, animate: false});
  }
  if (region) {
    // The page carries the basemap of this region only: keep the view inside it.
    map.setMinZoom(Math.min(map.getZoom(), map.getBoundsZoom(region, true)));
    map.options.maxBoundsViscosity = 1.0;
    map.setMaxBounds(region);
  }
  placeLabels();
});
