"""The tool cache across an eval run's scenarios (seed §1.3: weather cache hit rate ≥ 80%), through
the real ``tripwright eval`` executable: one executor for the whole suite, the durable
``tool_cache`` L2 carrying real answers to the next run, and a key that holds every pinned fact."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

import yaml

from engine.catalog import default_catalog
from engine.tools import ToolOverrides, build_toolbox
from engine.tools.executor import ToolExecutor
from engine.tools.requests import LodgingRequest
from engine.models import Geo, Tier
from tests.engine.standin_server import StandIn

EXE = Path(sys.executable).with_name("tripwright")
PARIS = Geo(lat=48.8566, lon=2.3522)
JUNE = [date(2027, 6, d) for d in range(15, 20)]


def tripwright(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in env} | {"TRIPWRIGHT_HOME": str(home), **env}
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, env=environ, timeout=300)


def test_the_bundled_suite_answers_most_weather_calls_from_the_cache(tmp_path) -> None:
    done = tripwright(tmp_path, "eval")
    assert done.returncode == 0, done.stdout + done.stderr
    found = re.search(r"Weather cache hit rate: ([\d.]+)% \((\d+)/(\d+) weather calls", done.stdout)
    assert found, done.stdout
    assert float(found[1]) >= 80.0 and int(found[3]) >= 13  # at least one call per scenario
    # The same figures are what `tripwright diagnostics` reports afterwards.
    report = json.loads(tripwright(tmp_path, "diagnostics", "--json").stdout)
    weather = report["tools"]["weather"]
    assert weather["calls"] == int(found[3]) and weather["cache_hit_rate"] >= 0.8


def _scenario(tmp_path: Path, name: str, **extra) -> Path:
    data = {"scenario_id": name, "today": "2027-06-10", "intent": {
        "city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
        "budget_usd_cents": 400000, "airports": ["CDG"], "origin_airport": "JFK", "prefs": {"themes": ["art"]}},
        "must_satisfy": ["itinerary is not None"], **extra}
    path = tmp_path / "suite" / f"{name}.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def test_real_forecasts_are_shared_by_scenarios_and_kept_for_the_next_run(tmp_path) -> None:
    server = StandIn().start()
    try:
        _scenario(tmp_path, "first")
        _scenario(tmp_path, "second", description="the same trip, asked again by another scenario")
        online = {"TRIPWRIGHT_OFFLINE": "0", "TRIPWRIGHT_OPEN_METEO_URL": server.url}
        done = tripwright(tmp_path, "eval", str(tmp_path / "suite"), **online)
        assert done.returncode == 0, done.stdout + done.stderr
        assert len(server.hits("/v1/forecast")) == 1  # the second scenario's forecast came from the cache
        # A new process: its memory is empty, the store's tool_cache still holds the forecast.
        again = tripwright(tmp_path, "eval", str(tmp_path / "suite"), **online)
        assert again.returncode == 0, again.stdout + again.stderr
        assert len(server.hits("/v1/forecast")) == 1
        assert "Weather cache hit rate: 100.0% (2/2" in again.stdout
    finally:
        server.stop()


async def test_pinned_weather_is_part_of_the_key_and_only_for_its_day() -> None:
    shared = ToolExecutor()
    catalog = default_catalog()
    today = date(2026, 11, 23)
    plain = build_toolbox(catalog, today=today, executor=shared)
    rainy = build_toolbox(catalog, today=today, executor=shared,
                          overrides=ToolOverrides(weather={JUNE[2]: {"precip_prob": 0.8}}))
    first = await plain.weather.for_place(PARIS, JUNE)
    second = await rainy.weather.for_place(PARIS, JUNE)
    assert first.days[JUNE[2]].precip_prob < 0.5 and second.days[JUNE[2]].precip_prob == 0.8
    assert (first.hits, second.hits) == (4, 4)  # one June climatology; the pinned day asked anew
    third = await plain.weather.for_place(PARIS, JUNE)
    assert third.days[JUNE[2]].precip_prob == first.days[JUNE[2]].precip_prob and third.hits == 5


async def test_a_pinned_rate_changes_the_key_of_every_converted_price() -> None:
    shared = ToolExecutor()
    catalog = default_catalog()
    today = date(2026, 11, 23)
    request = LodgingRequest(city="Paris", checkin=JUNE[0], checkout=JUNE[-1], tier_prefs=[Tier.mid])
    plain = build_toolbox(catalog, today=today, executor=shared)
    dear = build_toolbox(catalog, today=today, executor=shared, overrides=ToolOverrides(fx={"EUR": 2.0}))
    cheap_rows, _ = await shared.call("lodging", plain.lodging.search, request)
    dear_rows, hit = await shared.call("lodging", dear.lodging.search, request)
    assert hit is False
    assert dear_rows[0].price_per_night_usd_cents > cheap_rows[0].price_per_night_usd_cents
