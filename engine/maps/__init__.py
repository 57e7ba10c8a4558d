"""Map data the engine fetches for the app (Qt-free): the offline copy of a trip's area.

`engine/maps/offline_area.py` + `engine/maps/offline_download.py` (Qt-free): a trip's offline map copy
(issue 22 §1) — the trip's bbox, the remote PMTiles archive (`offline_map_url` / `TRIPWRIGHT_PMTILES_URL`)
read by HTTP range requests only (header, root and the leaf directories over the bbox; 200 instead of 206
refused), the size estimated from the directory entries, the cap (`offline_map_cap_mb`), then the tiles'
bytes in coalesced ranges kept in `<file>.part/` for resume, written with `pmtiles.writer` to a temp file
and renamed to `<data dir>/offline_maps/<trip>.pmtiles`.
"""
