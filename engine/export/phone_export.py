"""The trip on a phone, in one file (issue 36 §3): ``tripwright export ITINERARY.json --phone FILE.html``.

One offline HTML page — no server, nothing to install, no network once it is copied: the whole
itinerary by day with Now and Next from the phone's own clock (``phone.js`` reads ``Date`` when the
page is opened, each minute after and when it comes back to the front; no animation runs), each
day's map, booking codes, addresses, opening hours and notes, readable at 360 px wide and dark when
the phone is (``prefers-color-scheme``).

Everything is inlined: Leaflet (the vendored ``xstatic`` copy, its image URLs and link dropped),
the app's own map renderer ``resources/trip_map.js``/``.css`` (the map the app and the HTML export
draw), the Natural Earth outlines of the trip's region and, for a city trip, the city's own map
from its pack (water, parks, main streets, rail: ``engine/maps/city_layers.py``), the shipped
city-zoom water (``resources/basemap/water.geojson``) and, when the trip has an offline copy, its
street tiles (``phone_tiles.py``, at most 4 MB, drawn by the vendored protomaps-leaflet). The trip reaches
the page only as JSON blocks (``phone_document.py``; ``<>&`` as ``\\u`` escapes), drawn with DOM
nodes and ``textContent``; a Content-Security-Policy allows only the page's own scripts (by hash)
and no network. A page over ``MAX_BYTES`` leaves the city's map out (and says so).
"""

from __future__ import annotations

import html
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from engine.models import ItineraryV1

from .html_parts import BASEMAP_DIR, RESOURCES_DIR, asset, basemap_block, json_block, leaflet_dir, region, renderer, vendored_script, with_csp
from .phone_document import phone_document
from .phone_tiles import PhoneTiles

if TYPE_CHECKING:
    from engine.catalog.city_places import CityPlace
    from engine.maps.city_map import CityLayers
    from engine.places.pack_store import PackStore

MAX_BYTES = 8_000_000  # a file to send to a phone; the city's own map is left out past it
_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_CSS_IMAGE = re.compile(r"url\(images/[^)]*\)")


def itinerary_to_phone(itin: ItineraryV1, *, packs: PackStore | None = None,
                       offline_maps: Path | None = None) -> str:
    """The phone page of ``itin``. ``packs``: where the city's pack is looked up (its own map,
    its places' hours and addresses); ``offline_maps``: the folder of the trips' offline copies
    (street tiles, ``phone_tiles.py``); the user's own by default."""
    from .phone_tiles import offline_copy_tiles

    city_map, places = city_sources(itin, packs)
    tiles = offline_copy_tiles(itin, offline_maps)
    page = _page(itin, city_map, places, tiles, "")
    if city_map is not None and len(page.encode("utf-8")) > MAX_BYTES:
        megabytes = len(page.encode("utf-8")) / 1e6
        note = f"The city's own map was left out: with it this file would be {megabytes:.1f} MB."
        page = _page(itin, None, places, tiles, note)
    return page


def size_text(page: str | bytes) -> str:
    """The file's size as a traveller reads it: "1.4 MB", "820 KB"."""
    return _size(len(page.encode("utf-8") if isinstance(page, str) else page))


def _size(size: int) -> str:
    return f"{size / 1e6:.1f} MB" if size >= 1_000_000 else f"{max(1, round(size / 1000))} KB"


def city_sources(itin: ItineraryV1, packs: PackStore | None = None) -> tuple[CityLayers | None, dict[str, CityPlace]]:
    """A city trip's own map (its cached pack's, never fetched here) and its places by ref (the
    fixtures' or the pack's, for their published hours and addresses). A road trip has neither."""
    if itin.intent.mode != "city":
        return None, {}
    from engine.catalog.catalog import default_catalog
    from engine.places.pack_store import PackStore

    pack = (packs or PackStore()).find(itin.intent.city)
    if pack is not None and not _covers(pack.bbox, itin):
        pack = None  # another city of that name ("Paris" finds a cached Paris, TX too)
    catalog = default_catalog()
    name = itin.intent.city
    if not catalog.has_city(name):
        if pack is None:
            return None, {}
        from engine.places.catalog_link import catalog_with
        catalog, name = catalog_with(catalog, pack, today=itin.created_at.date())
    city = catalog.city(name)
    places = {p.id: p for p in (*city.sights, *city.eateries, *city.beds)}
    return (pack.city_map if pack is not None else None), places


def _covers(bbox: tuple[float, float, float, float], itin: ItineraryV1) -> bool:
    """Whether most of the trip's located places (flights aside) lie in the pack's box."""
    south, west, north, east = bbox
    points = [a.geo for d in itin.days for a in d.activities if a.geo is not None and a.kind.value != "flight"]
    inside = sum(south <= p.lat <= north and west <= p.lon <= east for p in points)
    return bool(points) and inside * 2 >= len(points)


def _page(itin: ItineraryV1, city_map: CityLayers | None, places: dict, tiles: PhoneTiles | None, note: str) -> str:
    document = phone_document(itin, city_map=city_map, places=places)
    document["map_note"] = " ".join(filter(None, (note or _map_note(document), _tiles_note(tiles))))
    basemap = basemap_block(region(document["map"]["focus"])) + _water_block(document["map"]["focus"])
    title = html.escape(f"{document['title']} – {document['dates']}")
    page = "\n".join((
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="color-scheme" content="light dark">', f"<title>{title}</title>",
        f"<style>{_leaflet_css()}</style>", f"<style>{renderer('trip_map.css')}</style>",
        f"<style>{asset('phone.css')}</style>", "</head>", "<body>",
        '<header id="tw-head"></header>', '<section id="tw-now"></section>',
        '<main id="tw-days"></main>', '<footer id="tw-foot"></footer>',
        json_block("tw-phone", document),
        basemap, _tiles_block(tiles), f"<script>{_leaflet_js()}</script>",
        f"<script>{_protomaps_js()}</script>" if tiles is not None else "",
        f"<script>{renderer('trip_map.js')}\n{asset('phone.js')}</script>", "</body>", "</html>", ""))
    return with_csp(page)


def _water_block(focus: list[list[float]] | None) -> str:
    """The shipped city-zoom water (``resources/basemap/water.geojson``: GSHHG shores and rivers,
    each city's box drawn as land first) of the boxes the trip's places meet, or ""."""
    if focus is None:
        return ""
    (south, west), (north, east) = focus
    cities = set()
    kept = []
    for feature in _water_features():
        lons, lats = zip(*_coordinates(feature["geometry"]))
        city = feature["properties"].get("city")
        if feature["properties"].get("kind") == "land" and not (
                max(lats) < south or min(lats) > north or max(lons) < west or min(lons) > east):
            cities.add(city)
        kept.append(feature)
    kept = [f for f in kept if f["properties"].get("city") in cities]
    if not kept:
        return ""
    return json_block("tw-water", {"type": "FeatureCollection", "features": kept})


@lru_cache(maxsize=1)
def _water_features() -> list[dict]:
    path = BASEMAP_DIR / "water.geojson"
    return json.loads(path.read_text(encoding="utf-8"))["features"] if path.is_file() else []


def _coordinates(geometry: dict) -> list[tuple[float, float]]:
    """Every position of a GeoJSON geometry, however deeply it is nested."""
    out: list[tuple[float, float]] = []

    def walk(value) -> None:
        if value and isinstance(value[0], (int, float)):
            out.append((value[0], value[1]))
        else:
            for part in value:
                walk(part)
    walk(geometry["coordinates"])
    return out


def _tiles_block(tiles: PhoneTiles | None) -> str:
    if tiles is None:
        return ""
    return json_block("tw-tiles", tiles.document())


def _tiles_note(tiles: PhoneTiles | None) -> str:
    if tiles is None:
        return ""
    return (f"Street map: tiles from this trip's offline copy ({tiles.source.name}), zooms {tiles.min_zoom}–"
            f"{tiles.max_zoom}, {_size(tiles.size)}.")


def _map_note(document: dict) -> str:
    if document["map"]["city_map"]:
        return f"Map: {document['title']}'s own map (water, parks, main streets, rail) and the trip's stops."
    return "Map: the trip's stops on country outlines and the shipped shores and rivers (no city map is stored for this trip)."


@lru_cache(maxsize=1)
def _leaflet_css() -> str:
    """Leaflet's stylesheet without its comments and image URLs (the page draws no stock icons)."""
    css = leaflet_dir().joinpath("leaflet.css").read_text(encoding="utf-8")
    return _CSS_IMAGE.sub("none", _CSS_COMMENT.sub("", css))


@lru_cache(maxsize=1)
def _leaflet_js() -> str:
    """Leaflet, its home page a plain name: the phone file holds no web address at all (the page
    sets the attribution's prefix to plain text as well)."""
    return vendored_script(leaflet_dir() / "leaflet.js").replace("https://leafletjs.com", "leafletjs.com")


# protomaps-leaflet's web addresses, each a plain name in the page: the default attribution (the
# page gives its own) and the base that parses a string URL (the page gives the tiles themselves).
_PROTOMAPS_ADDRESSES = (("https://protomaps.com", "protomaps.com"),
                        ("https://openstreetmap.org/copyright", "openstreetmap.org/copyright"),
                        ('"http://example.com"', "location.href"))


@lru_cache(maxsize=1)
def _protomaps_js() -> str:
    """The vendored protomaps-leaflet (``resources/protomaps-leaflet``) with no web address in it."""
    text = vendored_script(RESOURCES_DIR / "protomaps-leaflet" / "protomaps-leaflet.js")
    for address, name in _PROTOMAPS_ADDRESSES:
        text = text.replace(address, name)
    return text
