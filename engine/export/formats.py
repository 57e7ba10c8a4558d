"""The export formats, once: each format's key, its ``tripwright export`` option and help, its
menu entry and file filter in the app, and where its renderer lives.

A new export format is one :class:`ExportFormat` row here plus its ``*_export.py`` module (a
function ``ItineraryV1 -> str | bytes``); the CLI's options, ``export_files``/``render`` and the
app's Export menu are built from this table. The PDF has no engine renderer: the app draws it
(a map snapshot needs Qt), reached through ``engine/export/pdf_registry.py``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ExportFormat:
    key: str  # the format's one name: --{key} on `tripwright export`, the app's export key
    suffix: str  # the file name's ending
    label: str  # the app's File ▸ Export entry
    name_filter: str  # the app's save dialog filter
    cli_help: str
    renderer: str | None  # "module:function" inside engine.export; None: drawn by the app


FORMATS = (
    ExportFormat("json", "json", "JSON itinerary\u2026", "Itinerary JSON (*.json)",
                 "the itinerary JSON again (normalised, as plan --out writes it)", "json_export:itinerary_to_json"),
    ExportFormat("gpx", "gpx", "GPX (GPS devices)\u2026", "GPX 1.1 (*.gpx)",
                 "GPX 1.1: waypoints, a route and a track per day (device-ready)", "gpx_export:itinerary_to_gpx"),
    ExportFormat("ics", "ics", "iCalendar\u2026", "iCalendar (*.ics)",
                 "iCalendar: each visit, meal, flight and stay as an event in its own zone "
                 "(booked flights and hotel with their confirmation code)", "ical_export:itinerary_to_ics"),
    ExportFormat("kml", "kml", "KML (Google Earth, My Maps)\u2026", "KML 2.2 (*.kml)",
                 "KML 2.2 for Google Earth, Organic Maps and OsmAnd (a folder per day)", "kml_export:itinerary_to_kml"),
    ExportFormat("kmz", "kmz", "KMZ (Organic Maps, OsmAnd)\u2026", "KMZ, zipped KML (*.kmz)",
                 "KMZ (the KML zipped) for offline maps apps: each day's route and its places, named as in the plan",
                 "kmz_export:itinerary_to_kmz"),
    ExportFormat("html", "html", "HTML map\u2026", "Standalone HTML map (*.html)",
                 "standalone HTML map (works offline)", "html_export:itinerary_to_html"),
    ExportFormat("phone", "html", "For my phone\u2026", "One offline page for a phone (*.html)",
                 "one offline page for your phone: the trip by day with Now/Next on the phone's clock, each "
                 "day's map, booking codes, addresses and hours", "phone_export:itinerary_to_phone"),
    ExportFormat("pdf", "pdf", "PDF itinerary\u2026", "Printable PDF itinerary (*.pdf)",
                 "printable PDF itinerary with the trip's map (rendered offscreen)", None),
)
BY_KEY = {fmt.key: fmt for fmt in FORMATS}
RENDERED = tuple(fmt for fmt in FORMATS if fmt.renderer is not None)  # the engine draws these
