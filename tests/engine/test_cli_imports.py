"""Issue 34 §2: each subcommand imports what it uses. Run in a child process through the
``tripwright`` entry point (a test process has imported everything already), offline, in a fresh
data dir; what the child had loaded is compared with what that command must not need. No timing
here: the figures are measured with ``python -X importtime`` (bench/, the branch's report)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHILD = """
import json, sys
from app.entry import main
try:
    code = main(sys.argv[2:])
except SystemExit as stop:  # --help ends in argparse
    code = stop.code
with open(sys.argv[1], "w") as fh:
    json.dump({"code": code, "modules": sorted(sys.modules)}, fh)
"""
PLAN_NEVER = {
    "engine.bookings": "the bookings readers (no --bookings given)",
    "engine.imports.saved_places": "the saved-places readers (no --places given)",
    "defusedxml": "the XML readers of saved places and bookings",
    "engine.llm": "the model's client and prompts (no --llm)",
    "openai": "the LLM client library",
    "psycopg": "the PostgreSQL driver (TRIPWRIGHT_DATABASE_URL unset)",
    "PySide6": "Qt (the PDF and the app)",
    "app.pdf_itinerary": "the PDF itinerary",
    "app.pdf_render": "the PDF's map",
    "engine.notes.library": "the notes library (no notes in a fresh data dir)",
    "engine.notes.embeddings": "the notes' embedding models",
    "engine.store.schema_notes": "the notes tables",
    "engine.places.fetch": "the OSM pack fetcher (a fixture city)",
    "prometheus_client": "the metrics' Prometheus view (only `diagnostics` shows it)",
}
# A city's intent file needs no road stack (a prompt still reads the named routes to tell a road trip).
INTENT_NEVER = {
    "engine.pipeline.road_run": "the road trip's run",
    "engine.roadtrip": "the road-trip planner",
    "numpy": "the road planner's arrays",
    "pyproj": "the road planner's projections",
    "shapely": "the road planner's geometry",
}
HELP_NEVER = ("pydantic", "structlog", "httpx", "sqlalchemy", "engine.models", "engine.pipeline", "engine.catalog",
              "engine.frontend")


def loaded(tmp_path: Path, *args: str) -> tuple[int, list[str]]:
    out = tmp_path / "modules.json"
    env = dict(os.environ, TRIPWRIGHT_HOME=str(tmp_path / "home"), TRIPWRIGHT_OFFLINE="1")
    env.pop("TRIPWRIGHT_DATABASE_URL", None)
    done = subprocess.run([sys.executable, "-c", CHILD, str(out), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert out.exists(), done.stderr
    found = json.loads(out.read_text())
    return found["code"], found["modules"]


def under(modules: list[str], package: str) -> list[str]:
    return [m for m in modules if m == package or m.startswith(package + ".")]


def test_a_fixture_city_plan_loads_no_reader_model_driver_or_pdf(tmp_path) -> None:
    code, modules = loaded(tmp_path, "plan", "--prompt", "5 days in Paris from 2027-06-15, flying from JFK, budget "
                           "4000 USD", "--today", "2026-11-23", "--out", str(tmp_path / "paris.json"))
    assert code == 0 and (tmp_path / "paris.json").exists()
    assert "engine.pipeline" in modules and "engine.frontend" in modules  # it did plan, through the front door
    assert {package: under(modules, package) for package in PLAN_NEVER if under(modules, package)} == {}


def test_an_intent_file_plan_loads_no_prompt_parser(tmp_path) -> None:
    code, modules = loaded(tmp_path, "plan", "--intent", str(ROOT / "docs" / "examples" / "paris.json"),
                           "--today", "2026-11-23")
    assert code == 0
    assert under(modules, "engine.intake.city_prompt") == [] and under(modules, "engine.intake.road_prompt") == []
    assert {package: under(modules, package) for package in PLAN_NEVER | INTENT_NEVER if under(modules, package)} == {}


def test_help_loads_no_engine_model_or_library(tmp_path) -> None:
    code, modules = loaded(tmp_path, "--help")
    assert code == 0
    assert {package: under(modules, package) for package in HELP_NEVER if under(modules, package)} == {}
    assert "engine.cli" in modules and "engine.cli.maps_cmd" not in modules  # its parser is declared lazily


LIST_NEVER = ("sqlalchemy", "pydantic", "engine.models", "engine.pipeline", "engine.planning", "engine.catalog",
              "engine.frontend", "engine.store.store", "engine.store.schema", "argon2")


def test_trips_list_reads_the_file_without_the_orm_models_or_planner(tmp_path) -> None:
    code, _ = loaded(tmp_path, "trips", "list")  # the first run creates the file: the full open
    assert code == 0
    env = dict(os.environ, TRIPWRIGHT_HOME=str(tmp_path / "home"), TRIPWRIGHT_OFFLINE="1")
    env.pop("TRIPWRIGHT_DATABASE_URL", None)
    made = subprocess.run([sys.executable, "-c", "from engine.frontend import signed_in\n"
                           "with signed_in() as (store, ctx), store.org(ctx) as repo:\n"
                           "    repo.trips.create('Lisbon, 4 days')\n"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr  # (the second open took the day's backup)
    code, modules = loaded(tmp_path, "trips", "list")
    assert code == 0 and "engine.store.trip_rows" in modules
    assert {package: under(modules, package) for package in LIST_NEVER if under(modules, package)} == {}
