"""The desktop app's wiring: the one qasync loop, the main window and its flows, the services behind them.

- `app/entry.py` dispatches: `screenshot` → `app/screenshot.py`; other arguments → `engine.cli` (imported
  lazily, so the CLI never loads Qt; for `export` it first registers the PDF renderer in
  `engine/export/pdf_registry.py`, so `export --pdf` draws the map through `app/pdf_render.py` offscreen on a
  local Qt event loop while the engine imports no Qt); none → `app/desktop_libs.py` (on a Linux xcb session,
  `ldd` on Qt's xcb plugin: a missing system library is named with the exact `apt-get` command, `make run`
  runs it too) then `app/gui.py` (QApplication + exactly one qasync loop + `MainWindow`).

- `app/planner_service.py` runs `PlanningSession.plan` on one long-lived engine loop (its own thread; the
  real tools' HTTP client, breakers and caches live on it across runs); the GUI thread hands each run to one
  long-lived planner thread through a queue (a thread started per plan made the GUI thread wait in
  `Thread.start()` for the GIL) and gets events/results back on the GUI loop (`call_soon_threadsafe`);
  `cancel()` answers at once and the worker stops at its next node. `app/trip_controller.py` holds the async
  flows (plan, cancel, undo/redo, export) behind thin slots, with the map's edits in its mixin
  `app/map_edit_flow.py` and the failure text and warm-ups in `app/run_outcome.py`; before a road trip is
  planned, an end the gazetteer cannot settle (best candidate below 50%: "Springfield") — or after, an end
  the planner refused across an ocean ("Dallas to Paris") — is asked about in `app/place_chooser.py` ("Which
  place did you mean?": name, region/country, confidence), the candidates coming from `app/place_choice.py`
  (Qt-free: only places a road from the other end reaches, each written back so the gazetteer ranks it
  first, "Springfield, IL, USA"); a city trip's city several places share (the engine's
  `AmbiguousCityError`, "Córdoba") is asked in the same picker — country and population, the chosen label
  ("Córdoba, ES") planned; `app/trip_session.py` keeps the open trip's versions and the undo pointer (with
  its store `trip_id` and each version's stored `number`; a reopened trip's other versions are
  `UnloadedVersion`s until undo/redo reaches them, and the controller loads them off the GUI thread; "vN/M"
  is the stored number out of the trip's stored versions, as the Trips list counts them); `app/map_edits.py`
  turns map gestures into engine edits (city: `engine/edits.py`; road trips: a dragged overnight stop snaps
  to the nearest corridor town and becomes a forced stop; "Add a stop here" asks "Stay overnight here" (a
  forced stop) or "Visit on the way" (the intent's `visits`: a walk on the day whose drive passes it, the
  nights unchanged); Remove/Replace on a stop along the way adds it to the intent's `skip_stops` and re-
  plans); `app/exports.py` + `app/pdf_itinerary.py` write JSON, GPX, iCalendar, HTML and PDF atomically (the
  PDF: the trip's name as title, the map in print mode — `window.tripwright.printMode`: no zoom buttons,
  legend or menu, the whole trip fitted in a 3:2 box with a day key under it — then the days, packed so
  short days share a page by laying each out first; QTextDocument numbers the pages and keeps the text selectable;
  `app/pdf_fonts.py` names the installed CJK and Arabic fonts after the default one, for the PDF and the window); `app/window_memory.py` brings
  the app's window back at its last size with its dock sizes (the first launch: legend open only where the
  map has room, the run table hidden until a run); `app/ui_state.py` keeps what the window remembers that is
  no setting (`ui_state.json`: the last export folder, the legend's state); `app/basemap_choice.py` picks
  the offline basemap file (the open trip's own offline copy, else `TRIPWRIGHT_BASEMAP` or Settings);
  `app/offline_copy.py` is Trip ▸ Make this trip available offline… (and the map's
  `offline_copy_requested`): the estimate question, the progress dialog with Cancel, on the qasync loop;
  `app/street_map.py` shows the online street map while the traveller wants it (Settings ▸ Map tiles, View ▸
  Street map, on by default) and the network can be used (not `TRIPWRIGHT_OFFLINE`, not marked down — looked
  at again every 30 s), else the built-in map with the map's one-line note, and says which in the status
  bar; `app/welcome.py`, `app/message_bar.py` (every message goes through `app/plain_words.py` first: code
  field names and switches in the traveller's words), `app/error_box.py`.

- The store in the app: `app/workspace.py` (Qt-free, synchronous, every method one short transaction) opens
  the store, signs in without a prompt when it can (first run's personal user, or the remembered login),
  prunes at start-up (then `TripLibrary` daily: runs that made a saved version are kept), fails orphaned
  runs at sign-in, lists/opens/renames/deletes trips (an opened trip whose last run was interrupted says
  "Last run interrupted at <node>, <time>" in the progress panel and the status bar: `app/run_notice.py`,
  from `Workspace.last_run`), reopens a trip as the undo history the user had (the shown version's parent
  links, not version numbers in order), reading only the shown version in full (`load_version` for the
  others), turns stored versions back into `TripVersion`s and remembers the shown trip and version in `open-
  trip-<database>.json` in the data dir. `app/library.py` (`TripLibrary`) calls it through
  `asyncio.to_thread` only: start-up, the login dialog, the Trips dock, and recording each run live
  (`PlanRecorder`: begin before the run, events in batches of 16 off the GUI thread, the version at the end;
  the pipeline's run id is the store's). The controller decides the trip: the form's plan continues the open
  trip when it is the same kind and place, else starts a new one; requests are idempotent (the form: trip +
  intent; an edit: what it does + the version it starts from; Re-plan: always anew); each saved version
  records the version the run started from. Without a usable store the app plans in memory and says why in
  the status bar; a database restored from its backup is said in the message bar. Until the store has
  answered at start-up the window shows "Opening your trips…" (and "Opening…" in the status bar), never
  the welcome page first, so a restored trip appears without a flash. `MainWindow(use_store=True)` is the
  app's; tests and the screenshot tool work in memory unless they ask.

- The traveller's places and bookings (issue 21): `app/trip_imports.py` (File ▸ Import places…/Import
  bookings… and drag-and-drop on the window — `MapView` refuses drops so they reach it; files read off the
  GUI thread, bookings on the engine loop so a PDF can use the model; the shown city trip re-planned as a
  new version through the controller; on a road trip, bookings only: its motel, that night's stop) with
  `app/import_merge.py` (adding to the intent, checked as the CLI checks); `widgets/intent_bookings.py` +
  `booking_fields.py` ("I already have" in the trip form: flights with local times, the zone from the
  airport, and a hotel; on the road-trip tab the motel only; inline errors); Export ▸ KML in
  `app/exports.py`.

- Dialogs: `app/settings_dialog.py` (non-modal; per-field inline errors; the API key in the keyring with a
  warning when none is available; settings changes audited without the key; "Test connection" lists the
  endpoint's models or the exact error, on a worker thread via `engine/llm/connection.py`; an Embedding
  model field — saving rebuilds the notes' embeddings client through `NotesService.settings_changed`;
  "Cities for offline use", `app/city_packs_section.py`: the cached OSM city packs — city, places, size,
  fetch date, "older than 30 days" —, Refresh and Delete, what happens said inline) and
  `app/login_dialog.py` (Argon2 on a worker thread via `Accounts.alogin`; lockout time shown).

- Group planning (seed 001, issue 11): the Group dock `widgets/group_panel.py` (revision status, "Plan with
  AI" and "Revise" with the reason as tooltip when disabled, the shown version's reactions, tabs Ideas /
  Chat / Feedback / Changes from `group_sections.py` and `version_diff_view.py`; `reactions_bar.py` (its
  emoji only where a font draws them, else the word: `glyphs.py`) also sits over the itinerary), pure views;
  `app/group_room.py` (Qt-free, synchronous: the store's `GroupPlanning` in one org-scoped transaction per
  call, as the CLI's commands), `app/group_service.py` (every call through `asyncio.to_thread`; the enabling
  rules — Revise needs feedback or a reaction on the latest version, the latest shown, a city trip, and a
  model-made version left under `TRIPWRIGHT_MAX_VERSIONS`; polls `change_marker` every 3 s; the diff of the
  shown version against its parent) and `app/model_runs.py` (Plan with AI = `plan --llm`'s `Drafter` with
  the trip's top ideas and, under the flag, the chat brief; Revise = `revise`'s `Reviser`; both through
  `TripController.run(drafter=, meta_of=)` on the planner's engine loop, llm_meta saved with the version; a
  model that cannot be used → the rule-based plan and a warning banner naming the reason; one that fails
  midway — after an answer, before a proposal — makes the run's `IfFellBack` edit re-plan the plan on
  screen, so the traveller's locks and removals stay and an unchanged plan saves no version). The window
  itself is split in mixins: `app/window_layout.py` (central widget, docks, default layout) and
  `app/window_dialogs.py` (Settings, map menu, replace chooser, export/import dialogs, About).

- Any city (issue 19) in the app: `app/city_packs.py` (`CityPacks`: lists the pack cache in a thread at
  start-up and after each change, giving the form its cities — `IntentForm.set_known_cities` —; a city just
  planned from its pack is offered at once; Delete in a thread; Refresh through the session's `PackFetcher`
  on the planner's engine loop, steps back on the GUI loop, cancelled when Settings closes). The form sends
  a city with no pack yet with placeholder airports (`XXX`) and zone (`UTC`); the `city_pack` node fetches
  its pack (rows "Fetching city data" in the progress panel, Cancel stops the HTTP request) and puts the
  pack city's airports and zone in the intent, and the controller keeps the itinerary's intent as the
  version's (`planned_intent`); offline with no pack says to plan it once online.

- Keeping the window responsive (issue 14 §3, measured by `bench/app_bench.py`): the GUI thread shares the
  GIL with the planner, the store and the notes threads, so anything long that holds it stalls the window.
  Three things did, each found with a 10 ms timer on the GUI thread, `gc` callbacks and per-thread CPU: (1)
  full garbage collections (65–125 ms over the whole heap) — `app/heap.py` holds the collector while the app
  starts, then `gc.freeze()`s what is alive once the engine is warm and after each plan is on screen, and
  runs full collections ten times less often; only the app's own process (`gui.run_gui`) follows this; (2)
  the itinerary panel relaying out while the web page painted the same plan, two cores for three busy
  threads — the page now reports `document_drawn(revision)` two animation frames after drawing a document
  (`MapView.drawn`) and the controller shows the panel after that (`app/map_probe.painted`, at most 0.5 s;
  at once when the map is hidden); (3) the built-in notes prepared on a fresh data dir beside the first plan
  (tokenizer and phone metadata, ~1 s of CPU) — now shipped prepared (`fixtures/notes/builtin_pack.json`).
  The street map's tiles load in Chromium's network service and renderer, off the GUI thread: the bench's
  `tile_stall_max_ms` (a tile server in its own process, 40 ms per tile) is 14–36 ms. A snapshot of the map
  (the PDF's, `tripwright screenshot`) waits for the tiles of its view
  (`app/map_probe.street_tiles_settled`).
"""
