"""Issue 22 §2.10: the PDF in the traveller's words — a lock that prints (no □), notes cut at a word,
nights by their town's name (no coordinates) — and calendar events without coordinates either."""

from __future__ import annotations

import io
import re

from icalendar import Calendar
from pypdf import PdfReader
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSize
from PySide6.QtPdf import QPdfDocument

from app.pdf_itinerary import itinerary_pdf_bytes
from engine.export.ical_export import itinerary_to_ics
from tests.widgets.test_map_layers import road_trip, with_activity

COORDINATES = re.compile(r"\(\s*-?\d{1,3}\.\d+\s*,\s*-?\d{1,3}\.\d+\s*\)")
LONG_NOTE = ("The museum keeps the longest continuous collection of roadside signs on the whole route, "
             "restored neon from motels and diners between Chicago and Santa Monica, a workshop where "
             "volunteers repair them by hand every Saturday morning, and a small café that serves pie "
             "from the recipe of the diner that once stood across the street until nineteen seventy-two.")


def _trip():
    road = road_trip()
    stop = next(a for a in road.days[0].activities if a.role == "activity")
    return with_activity(road, stop.id, locked=True, notes=LONG_NOTE), stop


def _save_first_pages(data: bytes, folder, pages=2) -> None:
    """The PDF as the traveller sees it: its first pages rendered to PNG."""
    array = QByteArray(data)
    buffer = QBuffer(array)
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    document = QPdfDocument()
    document.load(buffer)
    for n in range(min(pages, document.pageCount())):
        size = document.pagePointSize(n).toSize() * 2
        assert document.render(n, QSize(size.width(), size.height())).save(str(folder / f"page-{n + 1}.png"))
    document.close()


def test_the_pdf_prints_the_lock_whole_notes_and_no_coordinates(qtbot, tmp_path):
    itinerary, stop = _trip()
    data = itinerary_pdf_bytes(itinerary, title="Route 66")
    _save_first_pages(data, tmp_path)
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    flat = " ".join(text.split())
    assert "\U0001f512" not in text and "□" not in text
    assert f"{stop.name} (locked)" in flat
    # Cut at a word, with an ellipsis: the last word before it is a whole word of the note.
    cut = re.search(r"The museum keeps the longest (.+?)…", flat)
    assert cut is not None
    last_word = cut.group(0)[:-1].split()[-1]
    assert last_word in LONG_NOTE.replace(",", "").split()
    assert not COORDINATES.search(flat), COORDINATES.search(flat)
    night = itinerary.days[0].anchor.name
    assert f"Overnight in {night}" in flat


def test_calendar_events_say_no_coordinates():
    calendar = Calendar.from_ical(itinerary_to_ics(road_trip()))
    for event in calendar.walk("VEVENT"):
        for field in ("summary", "location", "description"):
            value = str(event.get(field, ""))
            assert not COORDINATES.search(value), (field, value)
