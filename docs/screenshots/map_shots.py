"""Regenerate the map screenshots (offscreen, no network)::

    .venv/bin/python docs/screenshots/map_shots.py docs/screenshots

* ``map-paris-offline.png``, ``map-rome-offline.png``: the built-in offline layer (Natural Earth,
  GSHHG water) at street zoom with a planned trip, its places named beside their markers;
* ``map-rome-pmtiles.png``: the same trip over a ``.pmtiles`` vector basemap drawn by
  protomaps-leaflet. No real Protomaps extract can be fetched here, so the archive is a demo built
  from the built-in water data (earth and water layers only) with the tests' archive writer.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QTWEBENGINE_DISABLE_SANDBOX", "1")
os.environ["TRIPWRIGHT_OFFLINE"] = "1"

import PySide6.QtWebEngineWidgets  # noqa: E402,F401  (before the QApplication)

import widgets.map_view  # noqa: E402  (registers the tiles' URL scheme before the QApplication)

CENTRES = {"paris": ("Paris", (48.859, 2.335)), "rome": ("Rome", (41.897, 12.478))}


def _wait(ms: int) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def _trips() -> dict:
    from engine.models import IntentV1
    from tests.widgets.test_map_layers import _plan, city_trip

    rome = _plan(IntentV1.model_validate({
        "city": "Rome", "date_window": {"start": "2027-05-10", "end": "2027-05-13", "tz": "Europe/Rome"},
        "budget_usd_cents": 400000, "airports": ["FCO"], "origin_airport": "LHR",
        "prefs": {"themes": ["history"]}}))
    return {"paris": city_trip(), "rome": rome}


def demo_archive(city: str, path: Path) -> Path:
    from shapely.geometry import shape

    from tests.widgets.pmtiles_build import write_pmtiles

    features = json.loads((widgets.map_view.RESOURCES_DIR / "basemap" / "water.geojson").read_text())["features"]
    mine = {f["properties"]["kind"]: shape(f["geometry"]) for f in features if f["properties"]["city"] == city}
    water = [(mine["water"], {"kind": "water"})] if "water" in mine else []
    water.append((mine["river"].buffer(0.0007), {"kind": "river"}))
    return write_pmtiles(path, {"earth": [(mine["land"], {})], "water": water}, mine["land"].bounds,
                         max_zoom=14, attribution="Demo archive from the built-in GSHHG water")


def main(out: Path) -> int:
    import tempfile

    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])  # noqa: F841 (kept alive)
    trips = _trips()
    view = widgets.map_view.MapView()
    view.resize(1200, 800)
    view.show()
    while not view.is_ready:
        _wait(50)
    with tempfile.TemporaryDirectory() as tmp:
        for key, (city, (lat, lon)) in CENTRES.items():
            view.set_basemap_file(None)
            view.show_itinerary(trips[key])
            _wait(1500)
            view.page().runJavaScript(f"map.setView([{lat}, {lon}], 14, {{animate: false}}); 1")
            _wait(1500)
            view.grab().save(str(out / f"map-{key}-offline.png"))
            if key == "rome":
                view.set_basemap_file(demo_archive(city, Path(tmp) / f"{key}.pmtiles"))
                _wait(2500)
                view.grab().save(str(out / f"map-{key}-pmtiles.png"))
        view.close()
        view.deleteLater()
        _wait(200)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]).absolute()))
