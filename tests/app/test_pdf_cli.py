"""``tripwright export ITINERARY.json --pdf FILE.pdf`` (issue 14 §2) through the real executable:
the map is drawn offscreen by the app layer, the pages are read back with pypdf."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.engine.test_cli import EXE, INTENT, ROAD, TODAY, tw


def _plan(tmp: Path, intent: dict, name: str) -> Path:
    intent_path, out = tmp / f"{name}-intent.json", tmp / f"{name}.json"
    intent_path.write_text(json.dumps(intent))
    done = tw("plan", "--intent", str(intent_path), "--out", str(out), "--today", TODAY)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def paris(tmp_path_factory) -> Path:
    return _plan(tmp_path_factory.mktemp("paris"), INTENT, "paris")


@pytest.fixture(scope="module")
def route66(tmp_path_factory) -> Path:
    return _plan(tmp_path_factory.mktemp("road"), ROAD, "road")


def _image_widths(page) -> list[int]:
    xobjects = page["/Resources"].get("/XObject", {})
    return [int(x.get_object()["/Width"]) for x in xobjects.values() if x.get_object()["/Subtype"] == "/Image"]


def _texts(path: Path) -> list[str]:
    return [" ".join(page.extract_text().split()) for page in PdfReader(str(path)).pages]


def test_city_pdf_has_title_map_shared_pages_and_page_numbers(paris, tmp_path):
    pdf = tmp_path / "paris.pdf"
    done = tw("export", str(paris), "--pdf", str(pdf), "--gpx", str(tmp_path / "paris.gpx"))
    assert done.returncode == 0, done.stderr
    assert f"wrote {pdf}" in done.stderr and (tmp_path / "paris.gpx").exists()
    # no Qt or Chromium chatter on a successful export: only the files written
    assert done.stderr.splitlines() == [f"wrote {tmp_path / 'paris.gpx'}", f"wrote {pdf}"]
    days = len(json.loads(paris.read_text())["days"])
    reader = PdfReader(str(pdf))
    texts = _texts(pdf)
    assert reader.metadata.title == f"Paris, {days} days"
    assert texts[0].startswith(f"Paris, {days} days") and "Total" in texts[0]
    assert 1 < len(texts) < 1 + days  # short days share a page
    assert all(f"Day {n} \u00b7" in "".join(texts) for n in range(1, days + 1))
    assert [t.split()[-1] for t in texts] == [str(n) for n in range(1, len(texts) + 1)]
    assert max(_image_widths(reader.pages[0])) >= 1000  # the offscreen print map, at full size


def test_road_pdf_shows_every_drive(route66, tmp_path):
    pdf = tmp_path / "road.pdf"
    done = tw("export", str(route66), "--pdf", str(pdf))
    assert done.returncode == 0, done.stderr
    text = "".join(_texts(pdf))
    assert text.startswith("Los Angeles \u2192 Chicago via Route 66")
    itinerary = json.loads(route66.read_text())
    drives = [d for d in itinerary["days"] if d.get("drive")]
    assert drives and len(re.findall(r"Drive [\d,]+ mi \(about", text)) == len(drives)


def test_pdf_into_a_missing_folder_is_one_line_and_writes_nothing(paris, tmp_path):
    gpx = tmp_path / "ok.gpx"
    done = tw("export", str(paris), "--gpx", str(gpx), "--pdf", str(tmp_path / "nope" / "x.pdf"))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [f"tripwright: --pdf: folder {tmp_path / 'nope'} does not exist"]
    assert not gpx.exists()


def test_without_the_desktop_layer_pdf_is_refused_by_name(paris, tmp_path):
    """The engine alone (no app registered a renderer) names --pdf and writes nothing."""
    code = ("import sys; from engine.cli import main; "
            f"sys.exit(main(['export', {str(paris)!r}, '--pdf', {str(tmp_path / 'x.pdf')!r}]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          cwd=EXE.parents[2])
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == "tripwright: --pdf: PDF export needs the desktop app (run it as `tripwright export`)"
    assert not (tmp_path / "x.pdf").exists()


def test_pdf_distances_follow_the_unit_setting(route66, tmp_path):
    """The settings file of the data dir says km: every drive and the fuel note print in km."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.json").write_text(json.dumps({"distance_unit": "km"}))
    pdf = tmp_path / "road-km.pdf"
    done = subprocess.run([str(EXE), "export", str(route66), "--pdf", str(pdf)], capture_output=True, text=True,
                          timeout=120, env=os.environ | {"TRIPWRIGHT_HOME": str(home)})
    assert done.returncode == 0, done.stderr
    text = "".join(_texts(pdf))
    assert re.search(r"Drive [\d,]+ km \(about", text) and re.search(r"fuel for [\d,]+ km", text)
    assert " mi " not in text and not re.search(r"\d mi\b", text)
