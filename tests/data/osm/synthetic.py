"""A deterministic synthetic city of OSM-shaped elements, for "a 3,000-place pack" tests.

``synthetic_city()`` spreads ``count`` elements uniformly over a disc 12 km across around
``center`` (default: Chicago's Loop). The mix is exact, not sampled, so tests can count on it:
35% sights (tourism=museum/gallery/attraction/viewpoint, leisure=park, historic=monument,
amenity=place_of_worship; ~10% carry a wikidata tag), 45% restaurants and cafés with a cuisine,
8% hotels with stars 1–5, and the rest elements a city pack must not keep (``disused=yes`` or a
``disused:``/``abandoned:`` lifecycle prefix, ``access=private``, no name) — about half of those
still match the client's Overpass query, so the client's own filtering is exercised too.
~70% of sights and ~60% of restaurants/cafés carry an ``opening_hours`` in one of several real
OSM patterns (a Monday closure, a lunch break, ``PH off``, hours past midnight); the rest none.
Names are obviously synthetic ("Synthetic Gallery 0123"); ids start at 8_000_000_000 and
wikidata ids at Q9000000000, far beyond any real OSM or Wikidata id. Ways carry their "center".

    python tests/data/osm/synthetic.py > city.json   # the same list as JSON
"""

from __future__ import annotations

import json
import math
import random

ID_BASE = 8_000_000_000
QID_BASE = 9_000_000_000
RADIUS_M = 6_000.0

SIGHT_KINDS = [  # (tag key, value, name word, share among sights)
    ("tourism", "museum", "Museum", 0.22), ("tourism", "gallery", "Gallery", 0.14),
    ("tourism", "attraction", "Attraction", 0.16), ("tourism", "viewpoint", "Viewpoint", 0.08),
    ("leisure", "park", "Park", 0.18), ("historic", "monument", "Monument", 0.12),
    ("amenity", "place_of_worship", "Church", 0.10),
]
SIGHT_HOURS = [
    "Tu-Su 10:00-18:00; Mo off",
    "Mo-Su 09:00-17:00",
    "Mo-Fr 10:00-17:00; Sa,Su 10:00-18:00; PH off",
    "We-Mo 10:00-18:00; Tu off",
    "Tu-Su 10:00-13:00,14:00-18:00; Mo off",
    "Mo-Sa 09:30-17:30; Su,PH off",
]
PARK_HOURS = ["Mo-Su 06:00-23:00", "Mo-Su 05:00-22:00"]
FOOD_HOURS = [
    "Mo-Su 11:00-22:00",
    "Tu-Su 12:00-15:00,19:00-23:00; Mo off",
    "Mo-Fr 07:00-19:00; Sa,Su 08:00-17:00",
    "Mo-Th 11:30-22:00; Fr,Sa 11:30-23:30; Su 12:00-21:00",
    "Mo-Sa 17:00-02:00; Su off",
    "Mo-Su 11:00-23:00; PH off",
]
CUISINES = ["american", "italian", "mexican", "chinese", "japanese", "thai", "indian", "pizza", "burger",
            "sushi", "greek", "vietnamese", "korean", "seafood", "steak_house", "mediterranean", "vegan"]
CAFE_CUISINES = ["coffee_shop", "bakery", "donut", "sandwich"]
STAR_WEIGHTS = [(1, 0.08), (2, 0.17), (3, 0.35), (4, 0.28), (5, 0.12)]


def synthetic_city(center: tuple[float, float] = (41.8781, -87.6298), count: int = 3000,
                   seed: int = 7) -> list[dict]:
    rng = random.Random(seed)
    quotas = _quotas(count)
    makers = ["sight"] * quotas["sight"] + ["food"] * quotas["food"] + ["hotel"] * quotas["hotel"] \
        + ["drop"] * quotas["drop"]
    rng.shuffle(makers)
    serials: dict[str, int] = {}
    out = []
    for i, kind in enumerate(makers, start=1):
        tags = {"sight": _sight, "food": _food, "hotel": _hotel, "drop": _drop}[kind](rng, serials)
        out.append(_place(rng, ID_BASE + i, center, tags))
    return out


def _quotas(count: int) -> dict[str, int]:
    """Exact shares (35/45/8, the rest to drop) so a test can assert the mix."""
    sight, food, hotel = round(count * 0.35), round(count * 0.45), round(count * 0.08)
    return {"sight": sight, "food": food, "hotel": hotel, "drop": count - sight - food - hotel}


def _name(serials: dict[str, int], word: str) -> str:
    serials[word] = serials.get(word, 0) + 1
    return f"Synthetic {word} {serials[word]:04d}"


def _pick(rng: random.Random, weighted: list[tuple]) -> tuple:
    return rng.choices(weighted, weights=[w[-1] for w in weighted])[0]


def _sight(rng: random.Random, serials: dict[str, int]) -> dict:
    key, value, word, _ = _pick(rng, SIGHT_KINDS)
    tags = {key: value, "name": _name(serials, word)}
    if value == "place_of_worship":
        tags["religion"] = "christian"
    if rng.random() < 0.10:
        serials["wikidata"] = serials.get("wikidata", 0) + 1
        tags["wikidata"] = f"Q{QID_BASE + serials['wikidata']}"
    if rng.random() < 0.70:
        tags["opening_hours"] = rng.choice(PARK_HOURS if value == "park" else SIGHT_HOURS)
    if value in ("museum", "gallery", "attraction"):
        tags["fee"] = rng.choice(["yes", "yes", "no"])
        if tags["fee"] == "yes" and rng.random() < 0.5:
            tags["charge"] = f"{rng.randrange(5, 30)} USD"
    if rng.random() < 0.3:
        tags["wheelchair"] = rng.choice(["yes", "limited", "no"])
    return tags


def _food(rng: random.Random, serials: dict[str, int]) -> dict:
    cafe = rng.random() < 0.3
    tags = {"amenity": "cafe" if cafe else "restaurant",
            "name": _name(serials, "Cafe" if cafe else "Restaurant"),
            "cuisine": rng.choice(CAFE_CUISINES if cafe else CUISINES)}
    if rng.random() < 0.60:
        tags["opening_hours"] = rng.choice(FOOD_HOURS)
    if rng.random() < 0.3:
        tags["website"] = f"https://synthetic.example/{tags['name'].split()[-1]}"
    return tags


def _hotel(rng: random.Random, serials: dict[str, int]) -> dict:
    stars = _pick(rng, STAR_WEIGHTS)[0]
    return {"tourism": "hotel", "name": _name(serials, "Hotel"), "stars": str(stars)}


def _drop(rng: random.Random, serials: dict[str, int]) -> dict:
    """Elements a pack must not keep. The first three still match the client's query."""
    variant = rng.randrange(8)
    if variant == 0:
        return {"tourism": "museum", "name": _name(serials, "Closed Museum"), "disused": "yes"}
    if variant == 1:
        return {"amenity": "restaurant", "name": _name(serials, "Staff Canteen"), "cuisine": "american",
                "access": "private"}
    if variant == 2:
        return {"tourism": "attraction"}  # no name
    if variant == 3:
        return {"disused:amenity": "restaurant", "name": _name(serials, "Former Diner")}
    if variant == 4:
        return {"abandoned:tourism": "attraction", "name": _name(serials, "Former Attraction")}
    if variant == 5:
        return {"leisure": "park", "name": _name(serials, "Private Garden"), "access": "private"}
    if variant == 6:
        return {"amenity": "cafe", "cuisine": "coffee_shop"}  # no name
    return {"historic": "monument"}  # no name


def _place(rng: random.Random, osm_id: int, center: tuple[float, float], tags: dict) -> dict:
    """A uniform point in the disc; parks are always ways, other kinds are ways a third of the time."""
    r, theta = RADIUS_M * math.sqrt(rng.random()), rng.random() * 2 * math.pi
    lat = round(center[0] + r * math.sin(theta) / 111_320.0, 6)
    lon = round(center[1] + r * math.cos(theta) / (111_320.0 * math.cos(math.radians(center[0]))), 6)
    if tags.get("leisure") == "park" or rng.random() < 0.33:
        return {"type": "way", "id": osm_id, "center": {"lat": lat, "lon": lon}, "tags": tags}
    return {"type": "node", "id": osm_id, "lat": lat, "lon": lon, "tags": tags}


# -- a synthetic dense corridor (road trips, issue 20) -------------------------------------------
CORRIDOR_ID_BASE = 8_500_000_000
ROAD_SIGHTS = [  # (tag key, value, name word, share among sights)
    ("tourism", "museum", "Museum", 0.20), ("tourism", "viewpoint", "Viewpoint", 0.20),
    ("tourism", "attraction", "Attraction", 0.20), ("historic", "monument", "Monument", 0.10),
    ("natural", "waterfall", "Falls", 0.08), ("natural", "beach", "Beach", 0.05),
    ("boundary", "protected_area", "State Park", 0.12), ("historic", "ruins", "Ruins", 0.05),
]
ROAD_BEDS = [("motel", 0.4), ("hotel", 0.35), ("guest_house", 0.1), ("hostel", 0.05), ("camp_site", 0.1)]


def synthetic_corridor(path: list[tuple[float, float]], *, per_100_miles: int = 1200, band_miles: float = 30.0,
                       seed: int = 11) -> list[dict]:
    """OSM-shaped sights and beds scattered within ``band_miles`` of a (lat, lon) polyline:
    ``per_100_miles`` elements per 100 miles of it — 60% sights (museums, viewpoints, attractions,
    monuments, waterfalls, beaches, state parks; ~40% with a Monday-closed or daily
    ``opening_hours``, ~10% with a made-up ``wikidata``), 30% beds (motels, hotels with stars 1–5,
    guest houses, hostels, camp sites), 10% elements a road trip must not keep. Deterministic;
    names "Synthetic Falls 0123", ids from 8_500_000_000, Q-ids from Q9500000000."""
    rng = random.Random(seed)
    legs = [(a, b, _miles(a, b)) for a, b in zip(path, path[1:])]
    total = sum(m for *_, m in legs)
    count = int(total / 100 * per_100_miles)
    serials: dict[str, int] = {}
    out = []
    for i in range(1, count + 1):
        at = rng.random() * total
        for a, b, m in legs:
            if at <= m or (a, b, m) == legs[-1]:
                f = min(1.0, at / m) if m else 0.0
                lat, lon = a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f
                break
            at -= m
        lat2 = lat + (rng.random() * 2 - 1) * band_miles / 69.05
        lon2 = lon + (rng.random() * 2 - 1) * band_miles / (69.05 * max(0.2, math.cos(math.radians(lat))))
        roll = rng.random()
        tags = _road_sight(rng, serials) if roll < 0.6 else _road_bed(rng, serials) if roll < 0.9 else \
            _drop(rng, serials)
        kind = "way" if tags.get("boundary") or rng.random() < 0.3 else "node"
        e = {"type": kind, "id": CORRIDOR_ID_BASE + i, "tags": tags}
        point = {"lat": round(lat2, 6), "lon": round(lon2, 6)}
        e.update(point if kind == "node" else {"center": point})
        out.append(e)
    return out


def _road_sight(rng: random.Random, serials: dict[str, int]) -> dict:
    key, value, word, _ = _pick(rng, ROAD_SIGHTS)
    tags = {key: value, "name": _name(serials, word)}
    if value == "protected_area":
        tags["protection_title"] = "State Park"
    if rng.random() < 0.10:
        serials["qid"] = serials.get("qid", 0) + 1
        tags["wikidata"] = f"Q{9_500_000_000 + serials['qid']}"
    if key == "tourism" and value != "viewpoint" and rng.random() < 0.4:
        tags["opening_hours"] = rng.choice(["Tu-Su 10:00-17:00; Mo off", "Mo-Su 09:00-18:00"])
    return tags


def _road_bed(rng: random.Random, serials: dict[str, int]) -> dict:
    kind = _pick(rng, ROAD_BEDS)[0]
    tags = {"tourism": kind, "name": _name(serials, kind.replace("_", " ").title())}
    if kind == "hotel":
        tags["stars"] = str(_pick(rng, STAR_WEIGHTS)[0])
    return tags


def _miles(a: tuple[float, float], b: tuple[float, float]) -> float:
    dlat = (b[0] - a[0]) * 69.05
    dlon = (b[1] - a[1]) * 69.05 * math.cos(math.radians((a[0] + b[0]) / 2))
    return math.hypot(dlat, dlon)


if __name__ == "__main__":
    print(json.dumps(synthetic_city(), indent=1))
