"""Exports of an ItineraryV1: JSON, GPX 1.1 and iCalendar, each written atomically."""

from __future__ import annotations

import os

from engine.models import ItineraryV1

from .atomic import write_atomic
from .gpx_export import itinerary_to_gpx
from .html_export import itinerary_to_html
from .ical_export import itinerary_to_ics
from .json_export import itinerary_to_json, load_itinerary, read_plan_failure

StrPath = str | os.PathLike[str]

__all__ = ["export_files", "itinerary_to_gpx", "itinerary_to_html", "itinerary_to_ics", "itinerary_to_json",
           "load_itinerary", "read_plan_failure", "write_atomic"]


def export_files(itin: ItineraryV1, *, out: StrPath | None = None, gpx: StrPath | None = None,
                 ics: StrPath | None = None, html: StrPath | None = None) -> None:
    """Write each requested file; all are rendered first, so a rendering bug writes nothing."""
    renders = [(out, itinerary_to_json), (gpx, itinerary_to_gpx), (ics, itinerary_to_ics),
               (html, itinerary_to_html)]
    payloads = [(path, render(itin)) for path, render in renders if path is not None]
    for path, payload in payloads:
        write_atomic(path, payload)
