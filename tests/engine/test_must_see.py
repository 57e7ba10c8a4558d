"""The traveller's saved places in a plan (issue 21 §2), through the real pipeline: a catalog
venue they name comes first, a place of their own is planned at low confidence with unknown hours,
and one that cannot fit is listed with the reason — never dropped silently."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from engine.models import IntentV1
from engine.pipeline.run import PlanningSession
from tests.engine.conftest import PARIS_DEMO, TODAY

SHAKESPEARE = {"name": "Shakespeare and Company", "geo": {"lat": 48.85257, "lon": 2.34713}, "source": "kml"}
MONT_SAINT_MICHEL = {"name": "Mont-Saint-Michel", "geo": {"lat": 48.63600, "lon": -1.51140}, "source": "csv"}
SAINTE_CHAPELLE = {"name": "Sainte-Chapelle", "geo": {"lat": 48.85540, "lon": 2.34500}, "venue_id": "sainte_chapelle",
                   "source": "geojson"}


def intent(themes=("food",)) -> IntentV1:
    data = json.loads(json.dumps(PARIS_DEMO))
    data["prefs"]["themes"] = list(themes)
    data["prefs"]["must_see"] = [SAINTE_CHAPELLE, SHAKESPEARE, MONT_SAINT_MICHEL]
    return IntentV1.model_validate(data)


def test_saved_places_come_first_and_the_unfit_one_says_why() -> None:
    result = asyncio.run(PlanningSession(today=TODAY).plan(intent()))
    assert result.status == "completed", result.failure
    visits = {a.ref: a for d in result.itinerary.days for a in d.activities if a.kind.value == "attraction"}
    assert "sainte_chapelle" in visits  # food theme alone would not pick it: the must-see did
    own = next(a for a in visits.values() if a.name == "Shakespeare and Company")
    assert own.ref.startswith("user_") and own.provenance.data_source == "user" and own.confidence == "low"
    unplanned = [v for v in result.itinerary.violations if v.kind.value == "must_see_unplanned"]
    assert [(v.details["place"], v.details["reason"], v.blocking) for v in unplanned] == [
        ("Mont-Saint-Michel", "too_far", False)]
    assert "km from every other place" in unplanned[0].details["message"]


def test_a_plan_with_saved_places_verifies(tmp_path) -> None:
    result = asyncio.run(PlanningSession(today=TODAY).plan(intent()))
    path = tmp_path / "paris.json"
    path.write_text(result.itinerary.model_dump_json())
    exe = Path(sys.executable).with_name("tripwright")
    done = subprocess.run([str(exe), "verify", str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 blocking" in done.stdout


EXE = Path(sys.executable).with_name("tripwright")
PLACES = Path(__file__).resolve().parents[1] / "data" / "places"
PARIS_INTENT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "paris.json"


def tw(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=120)


def test_plan_places_takes_a_my_maps_export(tmp_path) -> None:
    out = tmp_path / "paris.json"
    done = tw("plan", "--intent", str(PARIS_INTENT), "--places", str(PLACES / "paris_my_maps.kml"),
              "--today", "2026-11-23", "--out", str(out))
    assert done.returncode == 0, done.stderr
    itinerary = json.loads(out.read_text())
    must = itinerary["intent"]["prefs"]["must_see"]
    assert {m["name"] for m in must} >= {"Shakespeare and Company", "Café de Flore"}
    acts = [a for d in itinerary["days"] for a in d["activities"]]
    flore = [a for a in acts if a["name"] == "Café de Flore"]
    assert [a["kind"] for a in flore] == ["meal"]  # a saved café is eaten at, once
    own = next(a for a in acts if a["name"] == "Shakespeare and Company")
    assert own["provenance"]["data_source"] == "user" and own["confidence"] == "low"


def test_plan_places_refuses_a_hostile_file_in_one_line(tmp_path) -> None:
    xxe = tmp_path / "evil.kml"
    xxe.write_text('<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                   '<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>&x;</name>'
                   '<Point><coordinates>2.35,48.85</coordinates></Point></Placemark></kml>')
    out = tmp_path / "never.json"
    done = tw("plan", "--intent", str(PARIS_INTENT), "--places", str(xxe), "--today", "2026-11-23", "--out", str(out))
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert "places" in lines[0] and not out.exists()
