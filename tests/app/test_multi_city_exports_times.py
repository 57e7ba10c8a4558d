"""Issue 33 §4: a multi-city trip (Paris, then Rome by an estimated flight) exported to PDF by the
``tripwright`` executable (offscreen, offline), read back by pypdf: the whole trip's title, the leg
row with its source, and every activity's name."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.app.test_export_times import run

INTENT = Path(__file__).resolve().parents[1] / "data" / "multi_city" / "paris_rome.json"


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> tuple[dict, str]:
    where = tmp_path_factory.mktemp("paris_rome")
    home, planned, pdf = where / "home", where / "planned.json", where / "trip.pdf"
    run("plan", "--intent", str(INTENT), "--today", "2026-12-08", "--out", str(planned), home=home)
    run("export", str(planned), "--pdf", str(pdf), home=home)
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(pdf).pages)
    text = unicodedata.normalize("NFKC", text)  # the PDF's ligatures ("ﬀ") as letters
    return json.loads(planned.read_text(encoding="utf-8")), text


def test_the_pdf_names_the_whole_trip_and_its_leg(exported) -> None:
    itinerary, text = exported
    assert "Paris → Rome, 6 days" in text
    leg = itinerary["legs"][0]
    assert f"Flight {leg['from_name']} → {leg['to_name']}" in text and "estimated from distance" in text
    names = [" ".join(a["name"].split()) for d in itinerary["days"] for a in d["activities"]]
    assert [name for name in names if name not in text] == []
