"""Issue 31 §3 in the itinerary panel: a Kyoto plan from its OpenStreetMap city pack (the eval runner,
tests/eval/packs/kyoto_jp.json.gz) lists each place in English with the Japanese beside it — the row,
its tooltip, the map's label and the PDF — and the panel is painted offscreen (saved under /tmp to look at)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.pdf_itinerary import itinerary_html, itinerary_pdf_bytes
from engine.evaluation import run_scenario
from engine.maps.map_document import build_map_document
from widgets.itinerary_panel import ItineraryModel, ItineraryPanel

KYOTO = Path(__file__).resolve().parents[1] / "eval" / "quality_scenarios" / "quality_kyoto.yaml"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
PNG = Path("/tmp/tripwright-kyoto-names-panel.png")


@pytest.fixture(scope="module")
def kyoto():
    outcome = run_scenario(KYOTO)
    assert outcome.result is not None and outcome.result.itinerary is not None, outcome.explain()
    return outcome.result.itinerary


def test_the_panel_rows_tooltips_and_map_labels_show_both_names(qtbot, kyoto):
    panel = ItineraryPanel()
    qtbot.addWidget(panel)
    panel.resize(1800, 900)  # wide: the rows' names need not be shortened to fit
    panel.set_itinerary(kyoto)
    panel.show()
    qtbot.waitExposed(panel)
    qtbot.wait(50)  # the What column is fitted to its width once laid out
    model = panel.tree.model()
    rows = []
    for d in range(model.rowCount()):
        day = model.index(d, 0)
        for r in range(model.rowCount(day)):
            activity = model.index(r, 0, day).data(ItineraryModel.ActivityRole)
            name = model.index(r, ItineraryModel.COL_NAME, day)
            whole = name.data(ItineraryModel.FullTextRole) or name.data()  # before fitting to the column
            rows.append((activity, whole, name.data(Qt.ItemDataRole.ToolTipRole) or ""))
    named = [(a, text, tip) for a, text, tip in rows if a is not None and a.local_name]
    assert len(named) >= 5
    for activity, text, tip in named:
        assert not JAPANESE.search(activity.name) and JAPANESE.search(activity.local_name)
        assert text.startswith(f"{activity.name} ({activity.local_name})"), text
        assert f"{activity.name} ({activity.local_name})" in tip
    assert any(text.startswith("Kinkaku-ji (金閣寺)") for _, text, _ in named)
    labels = {m["label"] for m in build_map_document(kyoto)["markers"] if m.get("label")}
    assert "Kinkaku-ji (金閣寺)" in labels
    panel.tree.expandAll()
    panel.splitter.setSizes([1300, 500])  # the tree wide enough to read the names in the picture
    panel.resize(1801, 900)  # a resize fits the What column again
    qtbot.wait(100)
    assert panel.grab().save(str(PNG))


def test_the_pdf_shows_both_names(qtbot, kyoto):  # qtbot: a QApplication for the PDF writer
    page = itinerary_html(kyoto)  # what Qt's PDF writer prints
    assert "Kinkaku-ji (金閣寺)" in page
    named = [a for d in kyoto.days for a in d.activities if a.local_name]
    assert all(html.escape(a.shown_name, quote=True) in page for a in named)
    assert itinerary_pdf_bytes(kyoto).startswith(b"%PDF")
