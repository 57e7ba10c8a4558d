"""Exports of an ItineraryV1: JSON, GPX 1.1, KML 2.2, iCalendar and HTML, written atomically as one set.

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
the itinerary JSON, the PDF and the calendar only: GPX, KML and HTML render `_bookings.masked_itinerary`
(every code of the intent's bookings masked in names, notes, citations and the intent); the standalone HTML
map (`html_document.py` builds one JSON document — numbered stops per day, road-trip days' driven paths, the
itinerary rows — and `html_export.py` puts it in a `<script type="application/json">` block with `<>&` as
`\\u` escapes, inlines Leaflet, the Natural Earth outlines of the trip's region (±20°; the view stays inside
it) and `html_map.js`, which draws everything with DOM nodes/`textContent`; folium gives only the skeleton;
a CSP allows only the page's own scripts by hash and no network; credits only Natural Earth, when drawn);
`atomic.write_all` writes a set of files as one (each staged to a temp file beside its target, then all
renamed; a staging failure removes every temp file, a rename failure puts back the replaced targets from
hard links; the `OSError` names the target); `write_atomic` is a set of one
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping

from engine.models import ItineraryV1

from .atomic import StrPath, write_all, write_atomic
from .json_export import itinerary_to_json, load_itinerary, parse_itinerary, parse_plan_failure

__all__ = ["RENDERERS", "export_files", "render", "itinerary_to_gpx", "itinerary_to_html", "itinerary_to_ics",
           "itinerary_to_json", "itinerary_to_kml", "load_itinerary", "parse_itinerary", "write_all", "write_atomic"]

# Each export's format by the keyword ``export_files`` takes it under: (module, function). The GPX
# (gpxpy, shapely) and iCalendar renderers cost ~0.1-0.4 s to import, so a plan that writes only
# JSON never loads them.
_WHERE = {"out": ("json_export", "itinerary_to_json"), "gpx": ("gpx_export", "itinerary_to_gpx"),
          "ics": ("ical_export", "itinerary_to_ics"), "html": ("html_export", "itinerary_to_html"),
          "kml": ("kml_export", "itinerary_to_kml")}


class _Renderers(Mapping[str, Callable[[ItineraryV1], "str | bytes"]]):
    """The renderers by format, each module imported when first asked for."""

    def __getitem__(self, kind: str) -> Callable[[ItineraryV1], str | bytes]:
        module, name = _WHERE[kind]
        return getattr(importlib.import_module(f"{__name__}.{module}"), name)

    def __iter__(self) -> Iterator[str]:
        return iter(_WHERE)

    def __len__(self) -> int:
        return len(_WHERE)


RENDERERS: Mapping[str, Callable[[ItineraryV1], str | bytes]] = _Renderers()


def render(kind: str, itin: ItineraryV1, **options: object) -> str | bytes:
    """One export by its format's keyword; its renderer is imported only now. ``options`` go to the
    renderer (``render("ics", itin, transfers=True)``: the calendar with its short transfers too)."""
    return RENDERERS[kind](itin, **options)


def __getattr__(name: str):  # itinerary_to_gpx, _ics, _html, _kml: on first use
    for kind, (_, function) in _WHERE.items():
        if function == name:
            return RENDERERS[kind]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def export_files(itin: ItineraryV1, *, out: StrPath | None = None, gpx: StrPath | None = None,
                 ics: StrPath | None = None, html: StrPath | None = None, kml: StrPath | None = None) -> None:
    """Write each requested file, all or none; all are rendered first, so a rendering bug writes nothing."""
    paths = {"out": out, "gpx": gpx, "ics": ics, "html": html, "kml": kml}
    write_all([(path, RENDERERS[kind](itin)) for kind, path in paths.items() if path is not None])
