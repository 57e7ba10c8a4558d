"""Issue 32: names in other scripts are drawn, not boxes. A Kyoto plan from the Overpass stand-in
on 127.0.0.1 (tests/data/osm/kyoto.json: places mapped in Japanese) printed by the real
``tripwright export --pdf`` embeds a font that has the Japanese glyphs beside the body font, and
the window draws 金閣寺 and القاهرة as glyphs. Skipped, saying why, where the system has no such
font (Debian: fonts-noto-cjk, the README's system packages). Saves /tmp/tripwright-kyoto-window.png."""

from __future__ import annotations

import json
import os
import subprocess
import unicodedata

import pytest
from pypdf import PdfReader

from engine.models import ItineraryV1
from tests.engine.test_traveller_names import EXE, JAPANESE, KYOTO_JSON
from tests.overpass_standin import OverpassStandIn

SHOT = "/tmp/tripwright-kyoto-window.png"


@pytest.fixture(scope="module")
def japanese_font(qapp):
    from app.pdf_fonts import script_families
    from PySide6.QtGui import QFontDatabase
    found = [f for f in script_families() if f in QFontDatabase.families(QFontDatabase.WritingSystem.Japanese)]
    if not found:
        pytest.skip("no installed font has Japanese glyphs (Debian: apt-get install fonts-noto-cjk)")
    return found[0]


@pytest.fixture(scope="module")
def kyoto(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("kyoto-fonts")
    with OverpassStandIn(elements=json.loads(KYOTO_JSON.read_text(encoding="utf-8"))) as server:
        env = dict(os.environ, TRIPWRIGHT_HOME=str(tmp / "home"), TRIPWRIGHT_OVERPASS_URL=server.interpreter_url,
                   TRIPWRIGHT_OVERPASS_TIMEOUT_S="5")
        env.pop("TRIPWRIGHT_OFFLINE", None)
        done = subprocess.run([str(EXE), "plan", "--prompt", "4 days in Kyoto from 2027-05-17, flying from LAX, "
                               "budget 6000 USD, temples", "--today", "2026-11-26", "--out", str(tmp / "kyoto.json")],
                              capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return tmp, env


def _font_names(reader: PdfReader) -> set[str]:
    names = set()
    for page in reader.pages:
        for font in page["/Resources"].get("/Font", {}).values():
            names.add(str(font.get_object()["/BaseFont"]).lstrip("/").split("+")[-1])
    return names


def test_the_pdf_prints_the_japanese_names_with_a_font_that_has_them(kyoto, japanese_font):
    tmp, env = kyoto
    pdf = tmp / "kyoto.pdf"
    env = {**env, "TRIPWRIGHT_OFFLINE": "1"}
    done = subprocess.run([str(EXE), "export", str(tmp / "kyoto.json"), "--pdf", str(pdf)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    reader = PdfReader(str(pdf))
    fonts = _font_names(reader)
    squashed = japanese_font.replace(" ", "").lower()  # "Noto Sans CJK JP" is embedded as NotoSansCJKjp-Regular
    assert any(name.lower().startswith(squashed) for name in fonts), fonts
    assert any(name.startswith("DejaVuSans") for name in fonts), fonts  # the body keeps its own font
    # Text, not boxes or images (NFKC: the font's map names 水 by its Kangxi radical twin).
    text = "".join(unicodedata.normalize("NFKC", "".join(page.extract_text() for page in reader.pages)).split())
    assert "Kiyomizu-dera(清水寺)" in text and len(JAPANESE.findall(text)) > 50


def _drawn(char: str, font) -> bytes:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor, QImage, QPainter
    image = QImage(48, 48, QImage.Format.Format_Grayscale8)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setFont(font)
    painter.drawText(image.rect(), Qt.AlignmentFlag.AlignCenter, char)
    painter.end()
    return bytes(image.constBits())


def test_the_window_draws_japanese_and_arabic_names_as_glyphs(qtbot, make_window, kyoto, japanese_font):
    """A glyph a font lacks is the same empty box for every character: each of these is drawn
    differently, and none is blank."""
    tmp, _ = kyoto
    itinerary = ItineraryV1.model_validate_json((tmp / "kyoto.json").read_text(encoding="utf-8"))
    window = make_window()
    window.itinerary_panel.set_itinerary(itinerary)
    window.right_stack.setCurrentWidget(window.itinerary_panel)
    window.itinerary_dock.raise_()
    window.map_view.show_itinerary(itinerary)
    font = window.itinerary_panel.font()
    chars = "金閣寺清水ق"
    drawn = [_drawn(c, font) for c in chars]
    blank = _drawn(" ", font)
    assert len(set(drawn)) == len(chars) and blank not in drawn
    qtbot.wait(1000)
    window.map_view.page().runJavaScript("map.setView([35.0, 135.76], 13, {animate: false})")  # names show
    qtbot.wait(1500)  # the map's names paint after the markers
    window.grab().save(SHOT)
