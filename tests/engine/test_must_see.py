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
