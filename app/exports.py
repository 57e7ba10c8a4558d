"""Exports from the UI: the engine's JSON / GPX / iCalendar / KML / KMZ / HTML map / phone page, and the PDF itinerary,
chosen in a non-modal save dialog that opens in the folder of the last export. The formats, their menu
entries and file filters come from the engine's one table (``engine.export.formats``: ``FORMATS``,
``BY_KEY``).

The engine renders off the GUI thread (folium's HTML map takes most of a second); the PDF is
drawn on the GUI thread (it paints the map snapshot). Every file is written atomically.

Export ▸ For my phone states the file's size before writing it, as ``tripwright export --phone``
prints it: the page is drawn first (off the GUI thread), a non-modal confirm says "one page of
1.4 MB, everything inlined …" and only Save writes it — the page already drawn, not drawn again.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from engine.export.formats import BY_KEY, FORMATS, ExportFormat
from engine.frontend import export, export_renderer
from engine.models import ItineraryV1

from .pdf_itinerary import write_itinerary_pdf
from .ui_state import export_folder, remember
from .trip_place import trip_place


def kind_for_path(path: str | Path, fallback: str = "pdf") -> ExportFormat:
    """The export a file name asks for by its suffix (the chosen filter's otherwise). Two formats
    share ".html" (the map, the phone page): the chosen filter's wins when its suffix is the name's."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if BY_KEY[fallback].suffix == suffix:
        return BY_KEY[fallback]
    return next((k for k in FORMATS if k.suffix == suffix), BY_KEY[fallback])


def suggested_name(itinerary: ItineraryV1, kind: ExportFormat) -> str:
    intent = itinerary.intent
    stem = trip_place(intent, "-")
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
    def chosen(path: str) -> None:
        kind = kind_for_path(path, fallback=_kind_of_filter(dialog.selectedNameFilter()).key)
        if kind.key == "phone":  # its size said first, then written on Save
            task = asyncio.ensure_future(confirm_phone_size(parent, itinerary, path, export_to))
            _tasks.add(task)
            task.add_done_callback(_tasks.discard)
        else:
            export_to(kind.key, path)
    dialog.fileSelected.connect(chosen)
    return dialog


_drawn: dict[tuple[str, str], str] = {}  # (itinerary, path) → the phone page drawn for its size, until written
_tasks: set[asyncio.Future] = set()  # the confirms being drawn (held until done)


async def confirm_phone_size(parent: QWidget, itinerary: ItineraryV1, path: str, export_to) -> QMessageBox | None:
    """The phone page drawn off the GUI thread and its size said in a non-modal confirm; Save
    writes that page (``export_to("phone", path)``), Cancel writes nothing."""
    from engine.errors import TripwrightError, one_line
    from engine.export.phone_export import size_text
    try:
        page = await asyncio.to_thread(export_renderer(itinerary, "phone"))
    except (OSError, TripwrightError) as exc:  # said as a failed export is (trip_controller.export_to)
        parent.show_message(f"Could not export to {path}: {one_line(exc)}", "error")
        return None
    key = _key(itinerary, path)
    _drawn.clear()  # one page waits at a time
    _drawn[key] = page
    box = QMessageBox(QMessageBox.Icon.Question, "For my phone",
                      f"One page of {size_text(page)}, everything inlined (it needs no network).\n"
                      f"Write it to {Path(path).name}?", QMessageBox.StandardButton.Save
                      | QMessageBox.StandardButton.Cancel, parent)
    box.setDefaultButton(QMessageBox.StandardButton.Save)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

    def answered(button) -> None:
        if box.standardButton(button) == QMessageBox.StandardButton.Save:
            export_to("phone", path)
        else:
            _drawn.pop(key, None)
    box.buttonClicked.connect(answered)
    box.open()
    return box


def _key(itinerary: ItineraryV1, path: str | Path) -> tuple[str, str]:
    return f"{itinerary.itinerary_id}|{itinerary.created_at.isoformat()}", str(Path(path).expanduser().resolve())


def _kind_of_filter(name_filter: str) -> ExportFormat:
    return next((k for k in FORMATS if k.name_filter == name_filter), BY_KEY["pdf"])


async def export_itinerary(kind: ExportFormat, itinerary: ItineraryV1, path: str | Path,
                           map_image: QImage | None = None, *, title: str = "", distance_unit: str = "mi") -> Path:
    """Write ``itinerary`` as ``kind`` to ``path`` (atomically); returns the absolute path."""
    drawn = _drawn.pop(_key(itinerary, path), None) if kind.key == "phone" else None
    if drawn is not None:  # the phone page whose size was confirmed: written as it was drawn
        from engine.atomic import write_atomic
        target = Path(path).expanduser().resolve()
        if not target.parent.is_dir():
            raise FileNotFoundError(f"folder {target.parent} does not exist")
        await asyncio.to_thread(write_atomic, target, drawn)
        return target
    if kind.renderer is not None:  # the engine's formats, through the front door (as `tripwright export`)
        return await asyncio.to_thread(export, itinerary, kind.key, path)
    target = Path(path).expanduser().resolve()  # the PDF: drawn here (the map snapshot needs Qt)
    if not target.parent.is_dir():
        raise FileNotFoundError(f"folder {target.parent} does not exist")
    write_itinerary_pdf(target, itinerary, map_image, title=title, distance_unit=distance_unit)
    return target
