"""Issue 30 §3, one front door for exports: the app's Export (app/exports.py) and ``tripwright
export`` write each engine format through ``engine.frontend.export_renderer`` — the same bytes
for the same itinerary (the PDF, drawn by the app with its map, is tests/app/test_exports.py's)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from app.exports import export_itinerary
from engine.export.formats import BY_KEY
from engine.cli import main as cli_main
from engine.errors import InputError
from engine.export.formats import RENDERED
from engine.frontend import export, export_renderer
from engine.models import ItineraryV1

BOOKED = Path(__file__).resolve().parents[2] / "docs" / "examples" / "paris-booked.json"


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    """A real itinerary file: a booked Paris trip planned offline by ``tripwright plan --out``."""
    where = tmp_path_factory.mktemp("saved")
    mp = pytest.MonkeyPatch()
    mp.setenv("TRIPWRIGHT_HOME", str(where / "home"))
    mp.setenv("TRIPWRIGHT_OFFLINE", "1")
    try:
        path = where / "paris.json"
        assert cli_main(["plan", "--intent", str(BOOKED), "--today", "2026-11-23", "--out", str(path)]) == 0
    finally:
        mp.undo()
    return path


@pytest.mark.parametrize("key", [fmt.key for fmt in RENDERED])
def test_the_app_and_the_cli_export_the_same_bytes(key, saved, tmp_path, capsys) -> None:
    itinerary = ItineraryV1.model_validate_json(saved.read_text(encoding="utf-8"))
    by_app = asyncio.run(export_itinerary(BY_KEY[key], itinerary, tmp_path / f"app.{key}"))
    assert cli_main(["export", str(saved), f"--{key}", str(tmp_path / f"cli.{key}")]) == 0
    assert f"wrote {tmp_path / f'cli.{key}'}" in capsys.readouterr().err
    written = (tmp_path / f"cli.{key}").read_bytes()
    assert len(written) > 200 and same(by_app.read_bytes(), written, key)
    assert same(export(itinerary, key, tmp_path / f"door.{key}").read_bytes(), written, key)


def same(one: bytes, other: bytes, key: str) -> bool:
    """Byte-equal; the HTML map apart from folium's random element ids (and so its scripts' hashes)."""
    if key != "html":
        return one == other

    def fixed(data: bytes) -> bytes:
        return re.sub(rb"[0-9a-f]{32}", b"ID", re.sub(rb"'sha256-[A-Za-z0-9+/=]+'", b"HASH", data))
    return fixed(one) == fixed(other)


def test_an_export_into_a_missing_folder_writes_nothing(saved, tmp_path) -> None:
    itinerary = ItineraryV1.model_validate_json(saved.read_text(encoding="utf-8"))
    with pytest.raises(FileNotFoundError, match="does not exist"):
        export(itinerary, "gpx", tmp_path / "nowhere" / "trip.gpx")
    assert not (tmp_path / "nowhere").exists()


def test_a_pdf_without_the_desktop_renderer_names_pdf(saved, monkeypatch) -> None:
    from engine.export import pdf_registry
    monkeypatch.setattr(pdf_registry, "_renderer", None)
    itinerary = ItineraryV1.model_validate_json(saved.read_text(encoding="utf-8"))
    with pytest.raises(InputError, match="desktop app") as refused:
        export_renderer(itinerary, "pdf")
    assert refused.value.field == "--pdf"
