"""The Overpass QL Tripwright asks: a city pack's places, a city's own map, a road trip's corridor.

Each group of statements is capped by its own ``out … N`` so a dense box cuts only its own lesser
group; the server's work is bounded by ``[timeout:]`` and ``[maxsize:]``. ``overpass.py`` sends
these; ``overpass_answer.py`` reads what comes back (its default caps are ``CAP_FACTOR`` × ``LIMITS``).
"""

from __future__ import annotations

from engine.geo import BBox

SERVER_TIMEOUT_S = 25
SERVER_MAXSIZE = 64 * 1024 * 1024
LIMITS = {"sight": 2500, "food": 1500, "bed": 600}
CAP_FACTOR = 2  # elements kept per kind: twice what the query asks for (a server may ignore ``out … N``)

SIGHT_STATEMENTS = (
    'nwr["tourism"~"^(museum|gallery|zoo|aquarium|theme_park|viewpoint|attraction)$"]["name"]',
    'nwr["historic"~"^(castle|fort|palace|monument|memorial|ruins|archaeological_site|monastery)$"]["name"]',
    'nwr["amenity"="place_of_worship"]["name"]["wikidata"]',
    'nwr["amenity"="place_of_worship"]["name"]["building"~"^(cathedral|basilica)$"]',
    'nwr["amenity"="marketplace"]["name"]',
    'nwr["leisure"~"^(park|garden|nature_reserve)$"]["name"]',
    'nwr["place"="square"]["name"]',
)
FOOD_STATEMENTS = ('nwr["amenity"~"^(restaurant|cafe|food_court)$"]["name"]',)
BED_STATEMENTS = ('nwr["tourism"~"^(hotel|guest_house|hostel|apartment)$"]["name"]',)

# Road trips (issue 20): one query per group of corridor boxes, each box with its own three capped
# groups — the well-known sights (parks, monuments, anything with a Wikidata entry), the other
# sights, the beds — so a dense box can cut only its own lesser sights. ``osm_tags.read_tags(road=True)``
# reads exactly these tags.
ROAD_SERVER_TIMEOUT_S = 60
ROAD_LIMITS = {"major": 1000, "sight": 2000, "bed": 1500}  # per box
ROAD_MAJOR_STATEMENTS = (
    'nwr["boundary"="national_park"]["name"]',
    'nwr["boundary"="protected_area"]["name"]["protect_class"~"^(2|3|5)$"]',
    'nwr["boundary"="protected_area"]["name"]["designation"~"(national|state)_(park|monument|historic_park|beach)"]',
    'nwr["boundary"="protected_area"]["name"]["protection_title"~"(National|State) '
    '(Park|Monument|Historic Park|Beach|Natural Reserve|Seashore|Recreation Area)",i]',
    *(s + f'["{known}"]' for known in ("wikidata", "wikipedia") for s in (
        'nwr["leisure"="nature_reserve"]["name"]',
        'nwr["natural"~"^(peak|arch)$"]["name"]',
        'nwr["tourism"~"^(museum|gallery|zoo|aquarium|viewpoint|attraction)$"]["name"]',
        'nwr["historic"~"^(castle|fort|monument|memorial|ruins|archaeological_site|monastery)$"]["name"]',
        'nwr["amenity"="place_of_worship"]["name"]')),
)
ROAD_SIGHT_STATEMENTS = (
    'nwr["natural"~"^(waterfall|beach)$"]["name"]',
    'nwr["natural"~"^(peak|arch)$"]["name"]["tourism"]',
    'nwr["tourism"~"^(museum|gallery|zoo|aquarium|viewpoint|attraction)$"]["name"]',
    'nwr["historic"~"^(castle|fort|monument|ruins|archaeological_site|monastery)$"]["name"]',
)
ROAD_BED_STATEMENTS = ('nwr["tourism"~"^(hotel|motel|guest_house|hostel|camp_site)$"]["name"]',)

# The city's own map (issue 32 §4), asked right after the places with the same client: water and
# the coastline, parks, the main streets with their names, rail lines — ways with their geometry
# (``out geom``) — and the named stations (nodes). ``engine/maps/city_layers.py`` simplifies and bounds them.
MAP_WAY_STATEMENTS = (
    'way["natural"="coastline"]',
    'way["natural"="water"]',
    'way["waterway"~"^(river|canal)$"]',
    'way["leisure"~"^(park|garden)$"]["name"]',
    'way["highway"~"^(motorway|trunk|primary|secondary)$"]["name"]',
    'way["railway"~"^(rail|subway|light_rail|tram)$"]',
)
# A corridor chunk's map (issue 32 §4), asked in the corridor query itself (one request, as many as
# before): per box the motorways and trunk roads, the primary roads, and the water — ways with their
# geometry, each group capped; ``engine/maps/city_layers.build_road_layers`` cuts them per cell.
CORRIDOR_MAP_GROUPS = (
    (('way["highway"~"^(motorway|trunk)$"]',), 2500),
    (('way["highway"="primary"]',), 1500),
    (('way["natural"="coastline"]', 'way["natural"="water"]', 'way["waterway"="river"]'), 1500),
)
MAP_NODE_STATEMENTS = ('node["railway"~"^(station|halt)$"]["name"]',)
MAP_LIMITS = {"ways": 6000, "stations": 400}


def city_query(box: BBox) -> str:
    """The Overpass QL of one city pack: three groups, each with its own cap."""
    head = f"[out:json][timeout:{SERVER_TIMEOUT_S}][maxsize:{SERVER_MAXSIZE}][bbox:{box.ql()}];"
    blocks = [_block(SIGHT_STATEMENTS, LIMITS["sight"]), _block(FOOD_STATEMENTS, LIMITS["food"]),
              _block(BED_STATEMENTS, LIMITS["bed"])]
    return "\n".join([head, *blocks])


def city_map_query(box: BBox) -> str:
    """The Overpass QL of a city's map: its water, parks, main streets and rail as ways with their
    geometry, then its stations — one query, each part capped."""
    head = f"[out:json][timeout:{SERVER_TIMEOUT_S}][maxsize:{SERVER_MAXSIZE}][bbox:{box.ql()}];"
    ways = "\n".join(f"  {s};" for s in MAP_WAY_STATEMENTS)
    nodes = "\n".join(f"  {s};" for s in MAP_NODE_STATEMENTS)
    return "\n".join([head, f"(\n{ways}\n);\nout geom {MAP_LIMITS['ways']};",
                      f"(\n{nodes}\n);\nout body {MAP_LIMITS['stations']};"])


def corridor_query(boxes: list[BBox]) -> str:
    """The Overpass QL of one corridor query: per box, its well-known sights, other sights and
    beds, each group capped (``out bb tags N``) for that box alone; then the box's main roads and
    water with their geometry (``out geom tags N``, ``CORRIDOR_MAP_GROUPS``)."""
    head = f"[out:json][timeout:{ROAD_SERVER_TIMEOUT_S}][maxsize:{SERVER_MAXSIZE}];"
    blocks = []
    for box in boxes:
        where = f"({box.ql()})"
        for statements, limit in ((ROAD_MAJOR_STATEMENTS, ROAD_LIMITS["major"]),
                                  (ROAD_SIGHT_STATEMENTS, ROAD_LIMITS["sight"]),
                                  (ROAD_BED_STATEMENTS, ROAD_LIMITS["bed"])):
            blocks.append(_block(tuple(s + where for s in statements), limit))
        for statements, limit in CORRIDOR_MAP_GROUPS:
            blocks.append(_block(tuple(s + where for s in statements), limit, "geom"))
    return "\n".join([head, *blocks])


def _block(statements: tuple[str, ...], limit: int, geometry: str = "bb") -> str:
    body = "\n".join(f"  {s};" for s in statements)
    return f"(\n{body}\n);\nout {geometry} tags {limit};"
