"""Exports from the UI: the engine's JSON / GPX / iCalendar / KML / KMZ / HTML map / phone page, and the PDF itinerary,
chosen in a non-modal save dialog that opens in the folder of the last export. The formats, their menu
entries and file filters come from the engine's one table (``engine.export.formats``: ``FORMATS``,
``BY_KEY``).

The engine renders off the GUI thread (folium's HTML map takes most of a second); the PDF is
drawn on the GUI thread (it paints the map snapshot). Every file is written atomically.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog, QWidget

from engine.export.formats import BY_KEY, FORMATS, ExportFormat
from engine.frontend import export
from engine.models import ItineraryV1

from .pdf_itinerary import write_itinerary_pdf
from .ui_state import export_folder, remember


def kind_for_path(path: str | Path, fallback: str = "pdf") -> ExportFormat:
    """The export a file name asks for by its suffix (the chosen filter's otherwise). Two formats
    share ".html" (the map, the phone page): the chosen filter's wins when its suffix is the name's."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if BY_KEY[fallback].suffix == suffix:
        return BY_KEY[fallback]
    return next((k for k in FORMATS if k.suffix == suffix), BY_KEY[fallback])


def suggested_name(itinerary: ItineraryV1, kind: ExportFormat) -> str:
    intent = itinerary.intent
    stem = f"{intent.origin}-{intent.terminus}" if intent.mode == "road_trip" else intent.city
    safe = "".join(c if c.isalnum() else "-" for c in stem.lower()).strip("-") or "trip"
    while "--" in safe:
        safe = safe.replace("--", "-")
    tail = "-phone" if kind.key == "phone" else ""  # beside the HTML map, not over it
    return f"{safe}{tail}.{kind.suffix}"


def export_dialog(parent: QWidget, itinerary: ItineraryV1, key: str | None, export_to) -> QFileDialog:
    """A save dialog for one format (``key``) or any (the name's suffix decides); on a chosen file
    it calls ``export_to(kind_key, path)``. The caller shows it with ``open()``, never ``exec()``."""
    kinds = [BY_KEY[key]] if key else list(FORMATS)
    first = kinds[0] if key else BY_KEY["pdf"]
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


def _kind_of_filter(name_filter: str) -> ExportFormat:
    return next((k for k in FORMATS if k.name_filter == name_filter), BY_KEY["pdf"])


async def export_itinerary(kind: ExportFormat, itinerary: ItineraryV1, path: str | Path,
                           map_image: QImage | None = None, *, title: str = "", distance_unit: str = "mi") -> Path:
    """Write ``itinerary`` as ``kind`` to ``path`` (atomically); returns the absolute path."""
    if kind.renderer is not None:  # the engine's formats, through the front door (as `tripwright export`)
        return await asyncio.to_thread(export, itinerary, kind.key, path)
    target = Path(path).expanduser().resolve()  # the PDF: drawn here (the map snapshot needs Qt)
    if not target.parent.is_dir():
        raise FileNotFoundError(f"folder {target.parent} does not exist")
    write_itinerary_pdf(target, itinerary, map_image, title=title, distance_unit=distance_unit)
    return target
