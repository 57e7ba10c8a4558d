"""Exports from the UI: the engine's JSON / GPX / iCalendar / KML / HTML map, and the PDF itinerary,
chosen in a non-modal save dialog that opens in the folder of the last export.

The engine renders off the GUI thread (folium's HTML map takes most of a second); the PDF is
drawn on the GUI thread (it paints the map snapshot). Every file is written atomically.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog, QWidget

from engine.export import export_files
from engine.models import ItineraryV1

from .pdf_itinerary import write_itinerary_pdf
from .ui_state import export_folder, remember


@dataclass(frozen=True)
class ExportKind:
    key: str  # json | gpx | ics | kml | html | pdf
    label: str  # menu text
    suffix: str
    name_filter: str


EXPORT_KINDS = (
    ExportKind("json", "JSON itinerary\u2026", "json", "Itinerary JSON (*.json)"),
    ExportKind("gpx", "GPX (GPS devices)\u2026", "gpx", "GPX 1.1 (*.gpx)"),
    ExportKind("ics", "iCalendar\u2026", "ics", "iCalendar (*.ics)"),
    ExportKind("kml", "KML (Google Earth, My Maps)\u2026", "kml", "KML 2.2 (*.kml)"),
    ExportKind("html", "HTML map\u2026", "html", "Standalone HTML map (*.html)"),
    ExportKind("pdf", "PDF itinerary\u2026", "pdf", "Printable PDF itinerary (*.pdf)"),
)
KINDS = {kind.key: kind for kind in EXPORT_KINDS}
_ENGINE_ARGUMENT = {"json": "out", "gpx": "gpx", "ics": "ics", "kml": "kml", "html": "html"}


def kind_for_path(path: str | Path, fallback: str = "pdf") -> ExportKind:
    """The export a file name asks for by its suffix (the chosen filter's otherwise)."""
    suffix = Path(path).suffix.lower().lstrip(".")
    return next((k for k in EXPORT_KINDS if k.suffix == suffix), KINDS[fallback])


def suggested_name(itinerary: ItineraryV1, kind: ExportKind) -> str:
    intent = itinerary.intent
    stem = f"{intent.origin}-{intent.terminus}" if intent.mode == "road_trip" else intent.city
    safe = "".join(c if c.isalnum() else "-" for c in stem.lower()).strip("-") or "trip"
    while "--" in safe:
        safe = safe.replace("--", "-")
    return f"{safe}.{kind.suffix}"


def export_dialog(parent: QWidget, itinerary: ItineraryV1, key: str | None, export_to) -> QFileDialog:
    """A save dialog for one format (``key``) or any (the name's suffix decides); on a chosen file
    it calls ``export_to(kind_key, path)``. The caller shows it with ``open()``, never ``exec()``."""
    kinds = [KINDS[key]] if key else list(EXPORT_KINDS)
    first = kinds[0] if key else KINDS["pdf"]
    start = os.path.join(export_folder(), suggested_name(itinerary, first))
    dialog = QFileDialog(parent, "Export trip", start)
    dialog.setNameFilters([k.name_filter for k in kinds])
    dialog.selectNameFilter(first.name_filter)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.setDefaultSuffix(first.suffix)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog)  # the same dialog everywhere, testable offscreen
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.filterSelected.connect(lambda name_filter: dialog.setDefaultSuffix(_kind_of_filter(name_filter).suffix))
    dialog.fileSelected.connect(lambda path: remember(export_folder=os.path.dirname(os.path.abspath(path))))
    dialog.fileSelected.connect(lambda path: export_to(
        kind_for_path(path, fallback=_kind_of_filter(dialog.selectedNameFilter()).key).key, path))
    return dialog


def _kind_of_filter(name_filter: str) -> ExportKind:
    return next((k for k in EXPORT_KINDS if k.name_filter == name_filter), KINDS["pdf"])


async def export_itinerary(kind: ExportKind, itinerary: ItineraryV1, path: str | Path,
                           map_image: QImage | None = None, *, title: str = "", distance_unit: str = "mi") -> Path:
    """Write ``itinerary`` as ``kind`` to ``path`` (atomically); returns the absolute path."""
    target = Path(path).expanduser().resolve()
    if not target.parent.is_dir():
        raise FileNotFoundError(f"folder {target.parent} does not exist")
    if kind.key == "pdf":
        write_itinerary_pdf(target, itinerary, map_image, title=title, distance_unit=distance_unit)
    else:
        await asyncio.to_thread(export_files, itinerary, **{_ENGINE_ARGUMENT[kind.key]: target})
    return target
