"""Seed §16.3 chaos toggles through the real ``tripwright`` executable: each runs the happy path and
asserts the degraded behaviour (no crash, the right exit code, the banner's data)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from engine.models import ItineraryV1

from .standin_server import StandIn

EXE = Path(sys.executable).with_name("tripwright")
TODAY = "2027-06-10"  # the trip (15–19 June) is inside the forecast horizon: the real rung is asked
INTENT = {"city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
          "budget_usd_cents": 400000, "airports": ["CDG", "ORY"], "origin_airport": "JFK",
          "prefs": {"themes": ["art", "food"]}}


def plan(tmp_path: Path, server: StandIn, **env: str) -> tuple[subprocess.CompletedProcess, Path]:
    intent, out = tmp_path / "intent.json", tmp_path / "it.json"
    intent.write_text(json.dumps(INTENT))
    environ = {k: v for k, v in os.environ.items() if k != "TRIPWRIGHT_OFFLINE"}
    environ |= {"TRIPWRIGHT_OPEN_METEO_URL": server.url, "TRIPWRIGHT_NOMINATIM_URL": server.url, **env}
    done = subprocess.run([str(EXE), "plan", "--intent", str(intent), "--out", str(out), "--today", TODAY],
                          capture_output=True, text=True, env=environ, timeout=120)
    return done, out


def banner_of(out: Path) -> str | None:
    from engine.maps.map_document import build_map_document  # Qt-free: the map's layer document
    return build_map_document(ItineraryV1.model_validate_json(out.read_text()))["banner"]


def test_happy_path_uses_the_real_forecast_without_a_banner(tmp_path, server) -> None:
    done, out = plan(tmp_path, server)
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["degraded_tools"] == []
    assert len(server.hits("/v1/forecast")) == 1 and banner_of(out) is None


def test_disable_weather_api_plans_on_fixture_weather_with_the_banner(tmp_path, server) -> None:
    done, out = plan(tmp_path, server, DISABLE_WEATHER_API="1")
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["degraded_tools"] == ["weather"]
    assert server.seen == []  # no call at all
    assert "Limited data available" in banner_of(out) and "weather" in banner_of(out)


def test_offline_makes_no_network_attempt_and_says_weather_is_estimated(tmp_path, server) -> None:
    done, out = plan(tmp_path, server, TRIPWRIGHT_OFFLINE="1")
    assert done.returncode == 0, done.stderr
    assert server.seen == [] and json.loads(out.read_text())["degraded_tools"] == ["weather"]


def test_simulated_flight_timeout_fails_clearly_with_out_written(tmp_path, server) -> None:
    done, out = plan(tmp_path, server, SIMULATE_TOOL_TIMEOUT="flights:5s")
    assert done.returncode == 3, done.stderr
    failure = json.loads(out.read_text())
    assert failure["status"] == "error" and failure["message"].startswith("Flight data unavailable")
    assert "timed out after 4s" in failure["message"]
    assert "Traceback" not in done.stderr and "Flight data unavailable" in done.stderr


def test_attractions_dining_transit_and_fx_outages_take_their_rungs_not_the_trip(tmp_path, server) -> None:
    """Seed §12.1: attractions/dining → the day's activities omitted (grey rows, the banner);
    transit → transfer notes omitted; FX → 1.0 with a disclaimer. The trip is still planned (exit 0)."""
    done, out = plan(tmp_path, server, TRIPWRIGHT_HOME=str(tmp_path / "home"),
                     SIMULATE_TOOL_TIMEOUT="attractions:5s,dining:5s,transit:5s,fx:5s")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    it = ItineraryV1.model_validate_json(out.read_text())
    assert {"attractions", "dining", "transit", "fx"} <= set(it.degraded_tools)
    for day in it.days:
        assert not [a for a in day.activities if a.role in ("activity", "meal")]  # nothing from a dead tool
    omitted = [a for d in it.days for a in d.activities if a.role == "omitted"]
    assert len(omitted) >= len(it.days) - 1  # a day filled by flights alone has no free time to mark
    assert all(a.provenance.data_source == "omitted" and "omitted" in a.name for a in omitted)
    transfers = [a for d in it.days for a in d.activities if a.role == "transfer"]
    assert transfers and all(a.notes == "" and a.provenance.data_source == "omitted" for a in transfers)
    assert "rate 1.0" in it.cost_breakdown.currency_disclaimer
    assert not [c for c in it.citations if c.provenance.tool in ("fx", "transit", "attractions", "dining")]
    assert "Limited data available" in banner_of(out)
    from engine.export.ical_export import itinerary_to_ics
    assert b"omitted" not in itinerary_to_ics(it)  # a calendar gets no event for what an outage left out
    # Transit went through the executor like every tool: Diagnostics lists it with its error.
    report = json.loads((tmp_path / "home" / "diagnostics-last.json").read_text())
    assert report["tools"]["transit"]["errors"] == {"timeout": 1}
    assert report["tools"]["fx"]["errors"].get("timeout", 0) >= 1


def test_events_are_written_as_they_happen_with_a_heartbeat_every_second(tmp_path, server) -> None:
    """Seed §8.2 / issue 23: ``--events`` is a live log (``tail -f`` follows the run) and the run
    sends heartbeats while a tool waits (the weather service answers after 2.5 s)."""
    import time

    from .standin_server import Reply
    server.then("/v1/forecast", Reply(delay_s=2.5))
    intent, events = tmp_path / "intent.json", tmp_path / "ev.jsonl"
    intent.write_text(json.dumps(INTENT))
    environ = {k: v for k, v in os.environ.items() if k != "TRIPWRIGHT_OFFLINE"}
    environ |= {"TRIPWRIGHT_OPEN_METEO_URL": server.url, "TRIPWRIGHT_NOMINATIM_URL": server.url,
                "TRIPWRIGHT_HOME": str(tmp_path / "home")}
    process = subprocess.Popen([str(EXE), "plan", "--intent", str(intent), "--events", str(events),
                                "--today", TODAY], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=environ)
    try:
        seen_while_running = []
        while process.poll() is None and not seen_while_running:
            if events.is_file():
                seen_while_running = [json.loads(line) for line in events.read_text().splitlines() if line]
            time.sleep(0.05)
        _, stderr = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 0, stderr
    assert seen_while_running, "nothing in the events file before the run ended"
    assert seen_while_running[0]["node"] == "intent_extractor"
    assert not any(e["node"] == "responder" and e["status"] == "done" for e in seen_while_running)
    lines = [json.loads(line) for line in events.read_text().splitlines()]
    assert [e["seq"] for e in lines] == list(range(len(lines)))
    assert (lines[-1]["node"], lines[-1]["status"]) == ("responder", "done")
    beats = [e for e in lines if e["status"] == "heartbeat"]
    assert len([e for e in beats if e["decision_note"] == "waiting for weather"]) >= 2
