"""Qt views over engine models (no database, no network of their own): map, itinerary, progress, form, trips.

- Destination notes: `widgets/notes_panel.py` (the Notes dock, tabbed with the Trip form: a destination box
  — the open trip's city first, then the fixture cities and named routes, or any place typed — the notes
  list, Import… and drag-and-drop of files, Delete with an undo bar, an ask box showing passages with score,
  method and source; a pure view) and `app/notes_service.py` (every engine call through `asyncio.to_thread`;
  while signed in the planning session gets a `StoreNotesLookup`, detached when the window closes; selecting
  an activity whose notes cite a passage opens that passage in the dock). The dock is shown only with a
  store, like Trips.

- `widgets/map_view.py`: a QWebEngineView on `resources/map.html` (Leaflet from xstatic-leaflet, the Natural
  Earth basemap in `resources/basemap/` with GSHHG water at city zoom around the fixture cities —
  `water.geojson`: each city's box as land, its sea, bays and lakes, rivers widening with the zoom; state
  lines hidden from zoom 11 —, an optional offline basemap file read by `widgets/tile_archives.py`
  (`.mbtiles` raster; `.pmtiles` vector, drawn by protomaps-leaflet vendored in `resources/protomaps-
  leaflet/`, or raster) and served as plain XYZ tiles by `widgets/offline_tiles.py` through the `tripwright-
  tiles:` QtWebEngine URL scheme (fetch-able, with a CORS header) — registered before the QApplication, its
  handler installed before the page loads — street tiles when online from `widgets/tile_source.py`'s one
  origin (OSM's, or the checked `TRIPWRIGHT_TILE_URL` template; the page's CSP and `map.js` accept that
  origin only; `maxZoom` 19), dropped with a `tiles_failed` report and the one-line "Offline — showing the
  built-in map" when they keep failing, tried again after 30 s (doubling to 5 min) and `tiles_ok` when they
  load, fetched through `widgets/web_profile.py`'s named profile: an identifying User-Agent and a 200 MB
  disk HTTP cache in the data dir honouring the servers' cache headers; the "Make this trip available
  offline" button (a Leaflet control, clicks kept off the map) → `offline_copy` →
  `MapView.offline_copy_requested`; the trip's place names beside their markers from zoom 14) with one
  QWebChannel bridge: Python → JS `set_layers(json)`, `highlight(id)`, `set_legend`; JS → Python
  `page_ready`, `marker_dragged`, `marker_action`, `map_clicked`, `marker_selected`, `legend_toggled`,
  `tiles_failed`, `tiles_ok`, `offline_copy`, each argument validated; calls queue until ready; labels go in
  with `textContent`; navigation away is refused. The document is `engine/maps/map_document.py`'s (Qt-free),
  drawn by the one renderer `resources/trip_map.js`; `resources/map.js` adds the app's edits on top.

- Panels with real item models: `progress_panel.py` (event log throttled through `ThrottledStream`,
  progress, cancel, replay; a Model column and a run total with each model call's tokens and cost; the log's
  model in `event_log_model.py`: `city_pack` named "Fetching city data", a running count that only moves on
  — "12 KB received" — updates its row, the fixed columns widened as rows come; the bar shows busy while an
  open-ended node — the fetch — runs), `itinerary_model.py` (a `QStandardItemModel`: every cell's answers
  are computed once per itinerary into Qt's own items, so painting, hovering and laying out the tree never
  call into Python — as a Python model a first draw made ~1,500 calls from C++ into Python, each waiting for
  the GIL while another thread held it)/`itinerary_panel.py`/`itinerary_details.py`/`itinerary_facts.py` (a visit's hours,
  a day's weather and what is an estimate, read from the itinerary's notes and citations)/`itinerary_words.py`
  (the side lists in a traveller's words: each source line names its place, advisories name places, not ids),
  `intent_form.py`/`intent_fields.py`/`intent_filling.py`/`intent_city.py` (city and road tabs, inline field
  errors; the city field editable: the fixture cities and the cached packs' cities completed, any other name
  accepted — a prompt naming one is read as named —, a grey note saying its places come from OpenStreetMap;
  filling from a prompt or a shown version, carrying what has no field — locked slots, a road trip's visits,
  removed stops, imported track), `diagnostics_panel.py` ("Export bundle…" writes the `diagnostics --bundle`
  zip from the report source the window sets: its long-lived executor),
  `trip_list.py`/`trip_list_model.py`/`trip_list_keys.py`/`trip_list_undo.py` (the org's trips: search,
  sort, inline rename, delete with an undo bar; a pure view that asks through signals); shared
  `table_model.py` and `formatting.py` (distances in miles or km).
"""
