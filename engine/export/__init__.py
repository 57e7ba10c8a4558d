"""Exports of an ItineraryV1: JSON, GPX 1.1, KML 2.2, iCalendar and HTML, written atomically as one set."""

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
