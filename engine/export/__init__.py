"""Exports of an ItineraryV1: JSON, GPX 1.1, iCalendar and HTML, written atomically as one set."""

from __future__ import annotations

from collections.abc import Callable

from engine.models import ItineraryV1

from .atomic import StrPath, write_all, write_atomic
from .gpx_export import itinerary_to_gpx
from .html_export import itinerary_to_html
from .ical_export import itinerary_to_ics
from .json_export import itinerary_to_json, load_itinerary, parse_itinerary, parse_plan_failure

__all__ = ["RENDERERS", "export_files", "itinerary_to_gpx", "itinerary_to_html", "itinerary_to_ics",
           "itinerary_to_json", "load_itinerary", "parse_itinerary", "write_all", "write_atomic"]

# Each export's format by the keyword ``export_files`` takes it under.
RENDERERS: dict[str, Callable[[ItineraryV1], str | bytes]] = {
    "out": itinerary_to_json, "gpx": itinerary_to_gpx, "ics": itinerary_to_ics, "html": itinerary_to_html}


def export_files(itin: ItineraryV1, *, out: StrPath | None = None, gpx: StrPath | None = None,
                 ics: StrPath | None = None, html: StrPath | None = None) -> None:
    """Write each requested file, all or none; all are rendered first, so a rendering bug writes nothing."""
    paths = {"out": out, "gpx": gpx, "ics": ics, "html": html}
    write_all([(path, RENDERERS[kind](itin)) for kind, path in paths.items() if path is not None])
