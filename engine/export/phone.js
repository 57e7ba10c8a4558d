/* Tripwright's phone file: the page's own part (engine/export/phone_export.py). Leaflet and the
 * app's map renderer (resources/trip_map.js) are inlined before this script.
 *
 * Now and Next come from the phone's own clock: each activity carries its start and end as ISO
 * 8601 with their UTC offsets, so Date.parse gives instants that mean the same on every clock;
 * the times shown are the plan's, on the clock where each thing happens. The page looks at the
 * clock when it opens, once a minute after (a single timer, no animation) and when it comes back
 * to the front. The one map is made only when a day's map is first shown, and moves to the day shown.
 *
 * Data arrives only as JSON (#tw-phone, #tw-basemap); every string reaches the page through
 * textContent or DOM nodes, never innerHTML, so a place name cannot become markup. */
(function () {
  "use strict";

  var WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  var DAY_MS = 86400000;

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

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  var data = readJSON("tw-phone");
  var basemap = readJSON("tw-basemap");
  var entries = [];  // every activity, in the order it happens: {item, day}
  data.days.forEach(function (day) {
    day.items.forEach(function (item) {
      item.t0 = Date.parse(item.start);
      item.t1 = Date.parse(item.end);
      entries.push({item: item, day: day});
    });
  });
  entries.sort(function (a, b) { return a.item.t0 - b.item.t0; });
  var rows = new Map();       // activity id -> its row
  var sections = [];          // per day: {details, slot, button}

  // -- the phone's clock --------------------------------------------------------------------------
  function dateIn(zone, t) {
    try {
      return new Intl.DateTimeFormat("en-CA", {timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit"})
        .format(new Date(t));
    } catch (e) {  // a zone this phone does not know: its own calendar day
      var d = new Date(t);
      return d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate());
    }
  }

  function phoneOffset(t) {
    var minutes = -new Date(t).getTimezoneOffset(), sign = minutes < 0 ? "-" : "+";
    minutes = Math.abs(minutes);
    return sign + pad(Math.floor(minutes / 60)) + ":" + pad(minutes % 60);
  }

  function planOffset(iso) {
    var m = /([+-]\d\d:\d\d|Z)$/.exec(iso);
    return !m ? null : (m[1] === "Z" ? "+00:00" : m[1]);
  }

  function phoneClock(t) {
    var d = new Date(t);
    return WEEKDAYS[d.getDay()] + " " + d.getDate() + " " + MONTHS[d.getMonth()] + ", " +
      pad(d.getHours()) + ":" + pad(d.getMinutes());
  }

  function midnight(t) {
    var d = new Date(t);
    return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  }

  function span(ms) {
    var minutes = Math.max(1, Math.round(ms / 60000));
    if (minutes < 60) return minutes + " min";
    if (minutes < 48 * 60) return Math.floor(minutes / 60) + " h " + pad(minutes % 60) + " min";
    return Math.round(minutes / 1440) + " days";
  }

  // -- Now and Next -------------------------------------------------------------------------------
  // a transfer is the way to something; a leg between two cities (a train, a flight) is a thing itself
  function isWay(item) { return item.kind === "transit" && item.role !== "leg"; }

  function moment(t) {
    var now = null, next = null, leg = null;
    entries.forEach(function (e) {
      if (isWay(e.item)) return;
      if (e.item.t0 <= t && t < e.item.t1) now = e;           // the latest begun, if two overlap
      else if (e.item.t0 > t && next === null) next = e;
    });
    if (next) {  // the way there: the last leg that ends by the next thing and is not over yet
      entries.forEach(function (e) {
        if (isWay(e.item) && e.item.t1 > t && e.item.t0 < next.item.t0 &&
            (!now || e.item.t0 >= now.item.t0)) leg = e;
      });
    }
    return {now: now, next: next, leg: leg};
  }

  function card(label, entry, line, className) {
    var box = el("div", "tw-card " + className);
    box.appendChild(el("div", "tw-card-label", label));
    var item = entry.item;
    box.appendChild(el("div", "tw-card-name", item.name));
    box.appendChild(el("div", "tw-card-time", line));
    if (item.code) box.appendChild(codeLine(item.code));
    if (item.address) box.appendChild(el("div", "tw-card-more", item.address));
    if (item.hours) box.appendChild(el("div", "tw-card-more", "Hours: " + item.hours));
    if (item.marker) {
      box.classList.add("tw-card-stop");
      box.addEventListener("click", function () { focusStop(entry); });
    }
    return box;
  }

  function codeLine(code) {
    var line = el("div", "tw-code");
    line.appendChild(el("span", "tw-code-label", "Booking "));
    line.appendChild(el("span", "tw-code-value", code));
    return line;
  }

  function showNow(t, state) {
    var box = document.getElementById("tw-now");
    box.replaceChildren();
    var first = entries[0], last = entries[entries.length - 1];
    if (!first) return;
    if (t < first.item.t0 && !state.now) {
      var days = Math.round((midnight(first.item.t0) - midnight(t)) / DAY_MS);  // on the phone's calendar
      box.appendChild(el("div", "tw-trip-state",
        days > 1 ? "Your trip starts in " + days + " days." : (days === 1 ? "Your trip starts tomorrow." : "Your trip starts today.")));
    } else if (t >= last.item.t1 && !state.now) {
      box.appendChild(el("div", "tw-trip-state", "Your trip is over. Welcome home."));
    }
    if (state.now) {
      box.appendChild(card("Now", state.now, "until " + endClock(state.now.item) + " · " +
                           span(state.now.item.t1 - t) + " left", "tw-card-now"));
    } else if (state.leg && state.leg.item.t0 <= t) {
      box.appendChild(card("Now", state.leg, "On the way: " + state.leg.item.time +
                           (state.leg.item.notes ? " · " + state.leg.item.notes : ""), "tw-card-now"));
    } else if (state.next && t >= first.item.t0) {
      box.appendChild(el("div", "tw-trip-state", "Free time now."));
    }
    if (state.next) {
      var next = card("Next", state.next, "at " + state.next.item.clock + " · in " + span(state.next.item.t0 - t),
                      "tw-card-next");
      if (state.leg && state.leg.item.t0 > t) {
        next.appendChild(el("div", "tw-leave", "Leave at " + state.leg.item.clock +
                            (state.leg.item.notes ? " · " + state.leg.item.notes : "")));
      }
      box.appendChild(next);
    }
  }

  function endClock(item) {
    var m = /T(\d\d:\d\d)/.exec(item.end);
    return m ? m[1] : "";
  }

  function showClock(t, state) {
    var line = document.getElementById("tw-clock");
    var shown = state.now || state.next || entries[0];
    var offset = shown ? planOffset(shown.item.start) : null;
    var text = "On this phone: " + phoneClock(t) + " (UTC" + phoneOffset(t) + ")";
    if (offset && offset !== phoneOffset(t)) text += ". Times below are local to the trip (UTC" + offset + ").";
    line.textContent = text;
  }

  function markRows(t, state) {
    rows.forEach(function (row) { row.classList.remove("tw-is-now", "tw-is-next", "tw-is-past"); });
    entries.forEach(function (e) {
      if (e.item.t1 <= t) rows.get(e.item.id).classList.add("tw-is-past");
    });
    if (state.now) rows.get(state.now.item.id).classList.add("tw-is-now");
    if (state.next) rows.get(state.next.item.id).classList.add("tw-is-next");
    sections.forEach(function (s, index) {
      s.today.hidden = dateIn(data.days[index].tz, t) !== data.days[index].date;
    });
  }

  function update() {
    var t = Date.now();
    var state = moment(t);
    showClock(t, state);
    showNow(t, state);
    markRows(t, state);
    return {t: t, state: state};
  }

  function everyMinute() {
    window.setTimeout(function () { update(); everyMinute(); }, 60000 - (Date.now() % 60000) + 50);
  }

  // -- the days -----------------------------------------------------------------------------------
  function itemRow(item, day) {
    var row = el("li", "tw-item tw-kind-" + item.kind);
    rows.set(item.id, row);
    if (isWay(item)) {
      row.classList.add("tw-leg");
      row.appendChild(el("div", "tw-when", item.time));
      row.appendChild(el("div", "tw-what", item.notes || item.name));
      return row;
    }
    row.appendChild(el("div", "tw-when", item.time));
    var what = el("div", "tw-what");
    var name = el("div", "tw-name");
    if (item.mark) {
      var mark = el("span", "tw-mark", item.mark);
      mark.style.background = /^#[0-9a-fA-F]{6}$/.test(day.colour) ? day.colour : "#555555";
      name.appendChild(mark);
    }
    name.appendChild(el("span", "tw-row-name", item.name + (item.locked ? " (locked)" : "")));
    what.appendChild(name);
    if (item.code) what.appendChild(codeLine(item.code));
    if (item.address) what.appendChild(el("div", "tw-addr", item.address));
    if (item.hours) what.appendChild(el("div", "tw-hours", "Hours: " + item.hours));
    if (item.notes) what.appendChild(el("div", "tw-notes", item.notes));
    row.appendChild(what);
    if (item.marker) {
      row.classList.add("tw-item-stop");
      row.addEventListener("click", function () { focusStop({item: item, day: day}); });
    }
    return row;
  }

  function daySection(day) {
    var details = el("details", "tw-day");
    var summary = el("summary", "tw-day-head");
    var swatch = el("span", "tw-swatch");
    swatch.style.background = /^#[0-9a-fA-F]{6}$/.test(day.colour) ? day.colour : "#555555";
    summary.appendChild(swatch);
    summary.appendChild(el("span", "tw-day-label", day.label));
    var today = el("span", "tw-today", "Today");
    today.hidden = true;
    summary.appendChild(today);
    details.appendChild(summary);
    if (day.summary) details.appendChild(el("div", "tw-day-summary", day.summary));
    var button = el("button", "tw-map-button", "Show the map of this day");
    button.type = "button";
    var located = day.items.some(function (item) { return item.marker; });
    button.hidden = !located;
    var slot = el("div", "tw-map-slot");
    button.addEventListener("click", function () { showMap(day.index); });
    details.appendChild(button);
    details.appendChild(slot);
    var list = el("ol", "tw-items");
    day.items.forEach(function (item) { list.appendChild(itemRow(item, day)); });
    details.appendChild(list);
    sections.push({details: details, slot: slot, button: button, today: today});
    return details;
  }

  // -- the map ------------------------------------------------------------------------------------
  var map = null, trip = null, mapBox = el("div", "tw-map"), mapDay = null;

  /* The shipped water at city zoom (resources/basemap/water.geojson, as the app's map draws it):
     the city's box as land, then its sea, lakes and rivers over the coarse country outlines. */
  var water = readJSON("tw-water");
  function waterStyle(feature) {
    var kind = feature.properties.kind, zoom = map ? map.getZoom() : 12;
    if (kind === "land") return {stroke: false, fillColor: "#f3f0e8", fillOpacity: 1};
    if (kind === "river") {
      return {color: "#a9cde3", weight: Math.max(1, Math.min(14, 1.5 * Math.pow(1.55, zoom - 9))), opacity: 1, lineCap: "round"};
    }
    return {stroke: false, fillColor: "#a9cde3", fillOpacity: 1};
  }

  /* Street tiles from the trip's offline copy (engine/export/phone_tiles.py): vector tiles as
     base64, handed to protomaps-leaflet as a PMTiles-like source that fetches nothing. */
  var tiles = readJSON("tw-tiles");
  function tile(z, x, y) {
    var b64 = tiles.tiles[z + "/" + x + "/" + y];
    if (!b64) return Promise.resolve(undefined);
    var text = atob(b64), bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    return Promise.resolve({data: bytes.buffer});
  }

  function makeMap() {
    map = L.map(mapBox, {zoomSnap: 0.25, fadeAnimation: false, zoomAnimation: false, markerZoomAnimation: false,
                         inertia: false});
    map.attributionControl.setPrefix("Leaflet");
    (data.credits || []).forEach(function (credit) {  // Leaflet takes attribution as HTML: escaped by the DOM
      if (typeof credit === "string") map.attributionControl.addAttribution(el("span", null, credit).innerHTML);
    });
    if (basemap) {
      map.createPane("basemap").style.zIndex = 150;
      var renderer = L.canvas({pane: "basemap", padding: 0.5});
      var styles = [[basemap.countries, {color: "#8f8a80", weight: 0.9, fillColor: "#f3f0e8", fillOpacity: 1}],
                    [water, waterStyle],
                    [basemap.admin1, {color: "#b7b0a2", weight: 0.7, fill: false}]];
      styles.forEach(function (layer) {
        if (!layer[0]) return;
        var drawn = L.geoJSON(layer[0], {pane: "basemap", renderer: renderer, interactive: false, style: layer[1]}).addTo(map);
        if (layer[0] === water) map.on("zoomend", function () { drawn.setStyle(waterStyle); });  // rivers widen
      });
      map.attributionControl.addAttribution("Basemap: Natural Earth" + (water ? ", GSHHG" : ""));
    }
    if (tiles && typeof protomapsL !== "undefined") {  // the trip's offline copy, carried in the page
      map.createPane("offlinetiles").style.zIndex = 160;  // over the outlines, under the city's own map
      protomapsL.leafletLayer({url: {getZxy: tile}, flavor: "light", lang: "en", pane: "offlinetiles",
                               maxDataZoom: tiles.max_zoom, attribution: String(tiles.attribution)}).addTo(map);
    }
    trip = TripMap.create(map, {});
    trip.draw(data.map);
    trip.setLegendCollapsed(true);
    if (basemap && basemap.region) {  // the page carries this region only: the view stays inside it
      map.options.maxBoundsViscosity = 1.0;
      map.setMaxBounds(L.latLngBounds(basemap.region));
    }
  }

  function showMap(index) {
    var section = sections[index];
    section.details.open = true;
    if (mapDay !== null && sections[mapDay]) sections[mapDay].button.hidden = false;
    section.slot.appendChild(mapBox);
    section.button.hidden = true;
    mapDay = index;
    if (!map) makeMap(); else map.invalidateSize(false);
    trip.showDay(index);
  }

  function focusStop(entry) {
    showMap(entry.day.index);
    var marker = trip.markers.get(entry.item.marker);
    if (!marker) return;
    map.setView(marker.getLatLng(), Math.max(map.getZoom(), data.map.mode === "road_trip" ? 10 : 15), {animate: false});
    trip.placeNames();
    marker.openTooltip();
    mapBox.scrollIntoView({block: "nearest"});
  }

  // -- the page -----------------------------------------------------------------------------------
  function build() {
    var head = document.getElementById("tw-head");
    head.appendChild(el("h1", null, data.title));
    head.appendChild(el("div", "tw-dates", data.dates));
    var clock = el("div", "tw-clock");
    clock.id = "tw-clock";
    head.appendChild(clock);
    var days = document.getElementById("tw-days");
    data.days.forEach(function (day) { days.appendChild(daySection(day)); });
    var foot = document.getElementById("tw-foot");
    foot.appendChild(el("div", "tw-total", "Estimated total: " + data.total));
    if (data.disclaimer) foot.appendChild(el("div", "tw-note", data.disclaimer));
    foot.appendChild(el("div", "tw-note", data.map_note));
    (data.credits || []).forEach(function (credit) { foot.appendChild(el("div", "tw-note", credit)); });
    foot.appendChild(el("div", "tw-note", "Made with Tripwright. This file needs no network."));
  }

  document.title = data.title + " – " + data.dates;
  build();
  var first = update();
  // Open the day under way on the phone's clock (before the trip: its first day) with its map.
  var open = data.days.findIndex(function (day) { return dateIn(day.tz, first.t) === day.date; });
  if (open < 0 && entries.length && first.t < entries[0].item.t0) open = 0;
  if (open >= 0) {
    sections[open].details.open = true;
    if (!sections[open].button.hidden) showMap(open);
  }
  everyMinute();
  document.addEventListener("visibilitychange", function () { if (!document.hidden) update(); });
  window.tripwrightPhone = {update: update, showMap: showMap, map: function () { return map; },
                            trip: function () { return trip; }};
})();
