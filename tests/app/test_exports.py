"""Exports from the window: through the non-modal save dialog, atomically, with a confirmation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtWidgets import QFileDialog, QMessageBox

from app.exports import kind_for_path, suggested_name
from engine.export.formats import BY_KEY, FORMATS
from app.pdf_itinerary import itinerary_html
from tests.app.conftest import wait_task
from tests.app.test_main_window import PARIS, ROUTE66, plan
from tests.widgets.test_map_layers import XSS, with_activity

GPX_XSD = Path(__file__).resolve().parents[1] / "data" / "reference" / "gpx-1.1.xsd"


def export_through_dialog(qtbot, window, key, path: Path) -> Path:
    dialog = window.choose_export(key)
    assert isinstance(dialog, QFileDialog) and dialog.isVisible()
    assert dialog.acceptMode() == QFileDialog.AcceptMode.AcceptSave
    dialog.selectFile(str(path))
    dialog.accept()  # emits fileSelected: the export runs as an asyncSlot
    qtbot.waitUntil(lambda: path.exists() and window.statusBar().currentMessage().startswith("Exported"),
                    timeout=20_000)
    return path


@pytest.fixture
def road_window(qtbot, make_window):
    window = make_window()
    plan(qtbot, window, ROUTE66)
    return window


def test_gpx_export_validates_against_the_schema(qtbot, road_window, tmp_path):
    path = export_through_dialog(qtbot, road_window, "gpx", tmp_path / "route66.gpx")
    assert str(path) in road_window.statusBar().currentMessage()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # atomic: no temp left
    from lxml import etree
    schema = etree.XMLSchema(etree.parse(str(GPX_XSD)))
    document = etree.parse(str(path))
    assert schema.validate(document), schema.error_log
    assert len(document.getroot().findall("{http://www.topografix.com/GPX/1/1}trk")) >= 1


def test_pdf_from_the_window_is_titled_by_the_trip_and_shares_pages(qtbot, make_window, tmp_path):
    window = make_window()
    plan(qtbot, window, PARIS)
    qtbot.wait(300)  # the map snapshot is taken from the painted view
    path = export_through_dialog(qtbot, window, "pdf", tmp_path / "paris.pdf")
    pages = PdfReader(str(path)).pages
    days = len(window.trip.current.itinerary.days)
    texts = [" ".join(page.extract_text().split()) for page in pages]
    assert texts[0].startswith(window.trip.name or window.trip_title())
    assert 1 < len(pages) < 1 + days  # short days share a page
    assert all(f"Day {n} " in "".join(texts) for n in range(1, days + 1))
    assert [t.split()[-1] for t in texts] == [str(n) for n in range(1, len(pages) + 1)]  # numbered
    assert "/XObject" in pages[0]["/Resources"]  # the map snapshot
    assert f"to {path}" in window.statusBar().currentMessage()
    answer = []  # print mode is undone after the snapshot
    window.map_view.page().runJavaScript("document.body.classList.contains('tw-print')", 0, answer.append)
    qtbot.waitUntil(lambda: len(answer) == 1, timeout=5000)
    assert answer == [False]


def test_export_any_picks_the_format_from_the_file_name(qtbot, road_window, tmp_path):
    dialog = road_window.choose_export(None)
    assert len(dialog.nameFilters()) == len(FORMATS)
    path = tmp_path / "trip.ics"
    dialog.selectFile(str(path))
    dialog.accept()
    qtbot.waitUntil(path.exists, timeout=20_000)
    assert path.read_text().startswith("BEGIN:VCALENDAR")


@pytest.mark.parametrize("key, check", [
    ("json", lambda text: json.loads(text)["intent"]["mode"] == "road_trip"),
    ("html", lambda text: "<html" in text.lower() and "leaflet" in text.lower()),
])
def test_engine_exports(qtbot, road_window, tmp_path, key, check):
    path = tmp_path / f"trip.{key}"
    written = wait_task(qtbot, road_window.controller.export_to(key, str(path)), timeout=20_000)
    assert written == path and check(path.read_text(encoding="utf-8"))


def test_export_to_a_missing_folder_is_a_one_line_message(qtbot, road_window, tmp_path):
    target = tmp_path / "nowhere" / "trip.gpx"
    assert wait_task(qtbot, road_window.controller.export_to("gpx", str(target))) is None
    text = road_window.message_bar.text()
    assert text.startswith(f"Could not export to {target}") and "\n" not in text


def test_pdf_text_is_escaped():
    from tests.widgets.test_map_layers import city_trip
    itinerary = with_activity(city_trip(), "d2-activity-louvre", name=XSS)
    html = itinerary_html(itinerary)
    assert XSS not in html and "&lt;img src=x onerror=window.__xss=1&gt;" in html


def test_file_names_and_kinds():
    from tests.widgets.test_map_layers import city_trip, road_trip
    assert suggested_name(road_trip(), kind_for_path("x.gpx")) == "los-angeles-chicago.gpx"
    assert kind_for_path("a.PDF").key == "pdf" and kind_for_path("a.txt", fallback="json").key == "json"
    # two formats end in .html: the map unless the phone page's filter (or menu entry) is the chosen one
    assert kind_for_path("a.html").key == kind_for_path("a.html", fallback="html").key == "html"
    assert kind_for_path("a.html", fallback="phone").key == "phone" and kind_for_path("a.kmz").key == "kmz"
    assert suggested_name(city_trip(), BY_KEY["phone"]) == "paris-phone.html"


def phone_size_box(qtbot, window, path: Path):
    """The confirm Export ▸ For my phone shows once the page is drawn, before anything is written."""
    dialog = window.choose_export("phone")
    dialog.selectFile(str(path))
    dialog.accept()
    def shown():
        return [b for b in window.findChildren(QMessageBox) if b.isVisible() and b.windowTitle() == "For my phone"]
    qtbot.waitUntil(lambda: bool(shown()), timeout=20_000)
    assert not path.exists()  # the size is said before writing
    return shown()[0]


def test_for_my_phone_from_the_export_menu_states_the_size_then_writes_the_phone_page(qtbot, make_window, tmp_path):
    from engine.export.phone_export import size_text
    window = make_window()
    plan(qtbot, window, PARIS)
    entry = window.commands.exports["phone"]
    assert entry.text() == "For my phone\u2026"
    path = tmp_path / "paris-phone.html"
    box = phone_size_box(qtbot, window, path)
    box.grab().save("/tmp/phone_size_confirm.png")
    said = box.text()
    box.button(QMessageBox.StandardButton.Save).click()
    qtbot.waitUntil(lambda: path.exists() and window.statusBar().currentMessage().startswith("Exported"),
                    timeout=20_000)
    page = path.read_text(encoding="utf-8")
    assert 'id="tw-phone"' in page and 'id="tw-data"' not in page  # the phone page, not the HTML map
    assert f"One page of {size_text(path.read_bytes())}, everything inlined" in said  # the size of what was written
    assert "Write it to paris-phone.html?" in said
    assert "Exported For my phone" in window.statusBar().currentMessage()


def test_for_my_phone_cancelled_at_its_size_writes_nothing(qtbot, make_window, tmp_path):
    window = make_window()
    plan(qtbot, window, PARIS)
    path = tmp_path / "paris-phone.html"
    box = phone_size_box(qtbot, window, path)
    box.button(QMessageBox.StandardButton.Cancel).click()
    qtbot.wait(300)
    assert not path.exists() and list(tmp_path.iterdir()) == []
    assert not window.statusBar().currentMessage().startswith("Exported")
