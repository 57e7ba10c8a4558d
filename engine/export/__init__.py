"""Exports of an ItineraryV1: JSON, GPX 1.1, KML 2.2 / KMZ, iCalendar, HTML and the phone page, written atomically as one set.

KML 2.2 (`kml_export.py`: a folder per day, timed placemarks, the day's route as a LineString, valid against
the OGC schema fastkml ships; `export --kml`), JSON, GPX 1.1 (gpxpy; valid against the official XSD; per day
a `<rte>` of ≤ 50 points and a timed `<trk>` of ≤ 500 — the driven path simplified with shapely — and
`<sym>Lodging</sym>` on overnight waypoints; `export --gpx-per-day` writes one file per day), iCalendar
(icalendar; events at their true `start`/`end`, each in its own zone, with a VTIMEZONE for every zone used;
older itineraries fall back to the day's window; booked flights and the booked hotel's check-in/out say
"Confirmation CODE" first in their description, matched from `intent.bookings` by flight number and hotel
name; transfers under 30 minutes are no events unless `transfers=True` — `export --ics-transfers`,
`render("ics", itin, transfers=True)`; LOCATION is the place's name, a flight's the city's airport "CDG
airport", never coordinates — those are in GEO; descriptions and the PDF's notes go through `text.py`: raw
"(lat, lon)" pairs left out, long notes cut at a word), all written atomically; confirmation codes stay in
the itinerary JSON, the PDF, the calendar and the phone page only: GPX, KML/KMZ and HTML render `_bookings.masked_itinerary`
(every code of the intent's bookings masked in names, notes, citations and the intent); the standalone HTML
map (`html_document.py` is the app's own map document, `engine/maps/map_document.py`, plus the itinerary
rows, and `html_export.py` puts it in a `<script type="application/json">` block with `<>&` as
`\\u` escapes, inlines Leaflet, the Natural Earth outlines of the trip's region (±20°; the view stays inside
it), the app's renderer `resources/trip_map.js`/`.css` and `html_map.js` (the list), all drawing with DOM
nodes/`textContent`; folium gives only the skeleton;
a CSP allows only the page's own scripts by hash and no network; credits only Natural Earth, when drawn);
the trip on a phone (`phone_export.py` + `phone_document.py`, `phone.js`/`.css`: one offline page, everything
inlined and no web address, the city's own map from its pack and street tiles from the trip's offline copy
(`phone_tiles.py`), Now/Next from the phone's clock; booking codes shown,
it is the traveller's own) and KMZ (`kmz_export.py`: the KML zipped as `doc.kml`, codes masked);
`engine.atomic.write_all` writes a set of files as one (each staged to a temp file beside its target, then all
renamed; a staging failure removes every temp file, a rename failure puts back the replaced targets from
hard links; the `OSError` names the target); `write_atomic` is a set of one; `atomic_file` (a handle,
streamed) and `atomic_path` (a temp path, for SQLite/zip) give the same guarantees — the tree's one
atomic writer, used by settings, caches, packs, offline maps, backups and exports (a test keeps it so)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING

from .formats import BY_KEY, RENDERED

if TYPE_CHECKING:
    from engine.atomic import StrPath
    from engine.models import ItineraryV1

__all__ = ["RENDERERS", "export_files", "render", "itinerary_to_gpx", "itinerary_to_html", "itinerary_to_ics",
           "itinerary_to_json", "itinerary_to_kml", "load_itinerary", "parse_itinerary", "parse_plan_failure"]
# The JSON reader's names, loaded on first use like the renderers (the formats table above is
# light, so `tripwright --help` can list the export options without loading pydantic).
_JSON_READERS = ("load_itinerary", "parse_itinerary", "parse_plan_failure")


class _Renderers(Mapping[str, "Callable[[ItineraryV1], str | bytes]"]):
    """The engine's renderers by format key (``engine/export/formats.py``), each module imported
    when first asked for: the GPX (gpxpy, shapely) and iCalendar renderers cost ~0.1-0.4 s to
    import, so a plan that writes only JSON never loads them."""

    def __getitem__(self, kind: str) -> Callable[[ItineraryV1], str | bytes]:
        module, name = (BY_KEY[kind].renderer or "").partition(":")[::2]
        if not name:
            raise KeyError(kind)
        return getattr(importlib.import_module(f"{__name__}.{module}"), name)

    def __iter__(self) -> Iterator[str]:
        return iter(fmt.key for fmt in RENDERED)

    def __len__(self) -> int:
        return len(RENDERED)


RENDERERS: Mapping[str, Callable[[ItineraryV1], str | bytes]] = _Renderers()


def render(kind: str, itin: ItineraryV1, **options: object) -> str | bytes:
    """One export by its format's key; its renderer is imported only now. ``options`` go to the
    renderer (``render("ics", itin, transfers=True)``: the calendar with its short transfers too)."""
    return RENDERERS[kind](itin, **options)


def __getattr__(name: str):  # itinerary_to_gpx, _ics, _html, _kml, _json and the JSON readers: on first use
    if name in _JSON_READERS:
        return getattr(importlib.import_module(f"{__name__}.json_export"), name)
    for fmt in RENDERED:
        if fmt.renderer.endswith(f":{name}"):
            return RENDERERS[fmt.key]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def export_files(itin: ItineraryV1, *, out: StrPath | None = None, **paths: StrPath | None) -> None:
    """Write each requested file (``out``: the JSON; else by format key: ``gpx=``, ``ics=``, ``kml=``,
    ``html=``), all or none; all are rendered first, so a rendering bug writes nothing."""
    from engine.atomic import write_all
    wanted = {"json": out, **paths}
    unknown = sorted(set(wanted) - set(RENDERERS))
    if unknown:
        raise TypeError(f"export_files: no engine renderer for {', '.join(unknown)}")
    write_all([(path, RENDERERS[kind](itin)) for kind, path in wanted.items() if path is not None])
