"""Road-trip mode (seed 000): named routes, corridors, directional progress, pacing, geocoding.

named routes (`fixtures/routes/*.json`, equidistant-conic projection per route as a PROJ pipeline (no CRS
database), progress/offset in miles), the direct corridor, place resolution (route towns → gazetteer with
trust/corridor/proximity → re-query with context → detour for requested stops), the trip's ends and corridor
resolved once per run (`trip_ends.py`: `RoadTripPlanner.ends()` — the OpenStreetMap outline, the booking's
placing, the plan and each re-plan on measured roads are forks of one planner sharing it, so a loop or a
corridor round the sea is built once —, each stop, visit and rest town resolved once), the planner (each
stretch's nights chosen together by a shortest path over corridor towns — `anchors.py`, every hop under the
daily cap and never back towards the origin, day lengths balanced, interpolated points only where no town
fits; POIs, then walks in the towns on the way, the overnight town or the morning's town, so every day has
two visits; a rest stop of kind `break` is never counted as one), loops for round trips from home
(`loop.py`: a `LoopCorridor` home → one side town → the turnaround → another side town → home, the
turnaround the largest town in a ring the days allow, the side towns off the straight line as wide as the
days allow, a coastal one first — `scenery.py` reads the coast from the map's Natural Earth 1:50m countries
—, no leg across the sea), corridors on land (`land_route.py`: a straight line that crosses open sea is bent
through towns by A* over the gazetteer's towns, each hop checked against the mainland — countries merged,
islands left out), honest miles (`detours.py`: a day's miles are its corridor miles plus what leaving the
corridor for its stops and nights adds, the seed's 1.3 × straight line, the same formula in `verify`; the
nights and the stops keep the day under the cap with it; each day's drawn path runs through its stops to its
night), rest days (`rest_days.py`: the trip driven in the days left with each rest town a night, the rest
day after it — no drive, the town's sights, the same bed; `exemption='rest'`), a booked motel
(`booked_night.py`, issue 21 §1: `RoadTripIntent.bookings`, read by `plan --bookings` as for city trips; the
check-in date names the night, whose day must end there — the stretches before and after it split apart over
their own days, the other nights chosen around it under the cap, or one line naming the booking; off the
corridor it is still the night, its day's miles counting the road out to it in full — `Node.spur` — and
verify's `INV-BOOKED-02` says how far; a loop from home that would miss it by more than the corridor's width
goes round by it instead of its side town (`loop.booked_via`, re-derived the same way by verify); a stay of
several nights rests a day there per extra night (a stop or rest day the traveller put in that town is that
night); its bed `data_source='user'` with the confirmation in the itinerary, masked in logs; a plan whose
booked night is elsewhere is `INV-BOOKED-01`, blocking; placed before the planner by
`pipeline/booked_stage.locate_road_booking` — its own point, the one corridor bed of that name, else
Nominatim within 150 mi of the trip — ), travel-only days (`day_stops.quiet_stretch`: nothing within 30 mi
of the drive, `exemption='travel_only'`, re-checked by verify), near-tied names (`resolve.py`:
`AmbiguousPlaceError`, exit 2 listing them), a model's proposal (`proposal.py`: the candidate towns and
sights of the outbound stretch, the draft checks, and what the planner keeps — `RoadTripPlanner.prepare()`
then `plan(draft)`: proposed towns become fixed nights, proposed stops are preferred on the days passing
them), honest geography (a terminus whose best match is across an ocean is exit 2, not its namesake at
home), imported routes (`route_file.py`: `plan --route-file TRACK.gpx|.kml` → `TrackCorridor`, the track
carried in the intent as `route_track`; regular files ≤ 20 MB read once, GPX point by point with the
standard parser, the line thinned linearly to 5,000 points before shapely's Douglas–Peucker — which crashed
on a 200,000-point zig-zag — brings it to ≤ 2,000), loop routes (North Coast 500: `endpoints` the same town,
driven once round, INV-DIR-04 on every night), real driving routes (`driving.py`: each day routed through
the executor when `TRIPWRIGHT_ROUTING_URL` is set and the session is online — routed miles, hours and
geometry replace the estimate and `Drive.source` says `routed`; a night no road reaches is planned around;
days over the cap on real roads are planned again with each stretch measured by its routed miles,
`road_measure.py`; the anchors DP works in road miles), stops removed on the map (`skip_stops`), places to
visit without a night (`visits`, added on the map: a walk on the day whose drive passes them), the seed 000
invariants as pure verifiers, itinerary conversion (anchor, drive, per-day zone, driven path; each event on
the clock of where it happens — one timeline from 08:30 in the start town, a drive starting in its origin's
zone and ending in its destination's — town visits after the 30-minute check-in, nothing clipped to 23:59
but the windows); each point's zone from timezonefinder, remembered in `<data dir>/zones-v1.json` by
`zones.py` (exact coordinates as keys, so a re-planned trip skips importing timezonefinder; the file is only
a cache) and the §10 report; `osm_stops.py`/`osm_beds.py` (each driving day's OpenStreetMap sights within 25
mi of the corridor by hours and rank, town walks labelled and counted for INV-PACE-01 only when no real
sight was in reach; the night's bed within 5 mi, estimated price, or "no lodging mapped within 5 mi");
`stop_hours.py` (a route POI's published hours on the day's clock: the visit fits inside them or is left out;
a meal place without them says "Opening hours unknown", at low confidence);
`integrity.py` re-derives a saved road trip for `verify` (anchors from the route towns or the gazetteer,
each day starting at the previous anchor, drive miles/hours by the planner's formula, a named route's stops,
costs, a route POI visited outside its published hours) before the invariants run on it
"""
