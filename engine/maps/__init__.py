"""Map data (Qt-free): the offline copy of a trip's area, and what a map of a trip draws.

`engine/maps/offline_area.py` + `engine/maps/offline_download.py` (Qt-free): a trip's offline map copy
(issue 22 §1) — the trip's bbox, the remote PMTiles archive (`offline_map_url` / `TRIPWRIGHT_PMTILES_URL`)
read by HTTP range requests only (header, root and the leaf directories over the bbox; 200 instead of 206
refused), the size estimated from the directory entries, the cap (`offline_map_cap_mb`), then the tiles'
bytes in coalesced ranges kept in `<file>.part/` for resume, written with `pmtiles.writer` to a temp file
and renamed to `<data dir>/offline_maps/<trip>.pmtiles`.

`engine/maps/map_document.py`: the one map document of a trip (days, lines, markers with confidence and
data-source styles, corridor, focus, legend entries — `map_legend.py`), screened first by `map_checks.py`
(the trust boundary), drawn by the one renderer `resources/trip_map.js` in the app (`resources/map.js` adds
the edits) and in the HTML export (`engine/export/html_document.py` adds the itinerary list).
`engine/maps/city_layers.py`: a city's own map (issue 32 §4) — water and the sea from the coastline, parks,
named main streets, rail and stations — read from OSM with the city pack, cut to its box, simplified and
bounded; stored in the pack (`CityPack.city_map`) and drawn by `trip_map.js` under the trip. The four fixture
cities ship hand-made ones (`fixtures/cities/maps/`, read by `city_map.shipped_city_layers`); a city's map is
found by `PackStore.city_map` (its pack's, else the shipped one) for the app's map and the HTML export.
A road trip's corridor chunks keep their cell's main roads and water likewise (`build_road_layers`), merged
along the route by `engine/places/corridor_map.py` into the same layers.
`engine/maps/trip_map.py`: the pieces — the day and ring palettes, kinds' glyphs and words, day lines, the
road trip's start, bounds.
"""
