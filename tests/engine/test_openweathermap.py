"""OpenWeatherMap One Call 3.0 when the user stored a key: against the stand-in on 127.0.0.1 speaking
the documented JSON, through the executor (retry, breaker, cache) and the real ``tripwright``
executable; the key never reaches a log line, the cache key, the store or an output file, and any
failure degrades to Open-Meteo, then the fixtures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from datetime import date
from pathlib import Path

import keyring
import pytest

from engine.errors import ToolResponseError, ToolUnavailable
from engine.models import Geo
from engine.settings import OPENWEATHERMAP_KEY_NAME
from engine.store.secret_store import SecretStore
from engine.tools import build_toolbox
from engine.catalog import default_catalog
from engine.tools.executor import ToolExecutor, adapter_variant, cache_key
from engine.net.network import NetworkState
from engine.tools.openweathermap import OpenWeatherMapWeather
from engine.tools.requests import WeatherRangeRequest
from engine.tools.weather_series import WeatherSeries

from .standin_server import ONECALL_KEY, Reply
from tests.store.conftest import MemoryKeyring

pytestmark = pytest.mark.standin_urls("TRIPWRIGHT_OPEN_METEO_URL", "TRIPWRIGHT_OPENWEATHERMAP_URL")

EXE = Path(sys.executable).with_name("tripwright")
ONECALL = "/data/3.0/onecall"
PARIS = Geo(lat=48.8566, lon=2.3522)
TRIP = [date(2027, 6, d) for d in range(15, 20)]
INTENT = {"city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
          "budget_usd_cents": 400000, "airports": ["CDG", "ORY"], "origin_airport": "JFK",
          "prefs": {"themes": ["art", "food"]}}


@pytest.fixture()
def keyed(server, monkeypatch):
    """The stand-in with a key in the environment; One Call's rows start on 12 June 2027."""
    monkeypatch.setenv("OPENWEATHERMAP_API_KEY", ONECALL_KEY)
    server.onecall_today = date(2027, 6, 12)
    return server


def ladder(today: date = date(2027, 6, 12), executor: ToolExecutor | None = None):
    return build_toolbox(default_catalog(), today=today, executor=executor or ToolExecutor()).weather


# -- the adapter through the ladder --------------------------------------------------------------
async def test_the_documented_request_and_every_trip_day_from_one_call(keyed) -> None:
    answer = await ladder().for_place(PARIS, TRIP)
    (seen,) = keyed.hits(ONECALL)
    assert seen.query == {"lat": "48.8566", "lon": "2.3522", "exclude": "current,minutely,hourly,alerts",
                          "units": "metric", "appid": ONECALL_KEY}
    assert keyed.hits("/v1/forecast") == [] and not answer.degraded
    assert sorted(answer.days) == TRIP
    assert {d.provenance.ref_id for d in answer.days.values()} == {"openweathermap"}
    assert {d.provenance.data_source for d in answer.days.values()} == {"real"}
    wet = answer.days[date(2027, 6, 15)]  # the stand-in's fourth row (12 June + 3): pop 0.85, 7 m/s
    assert (wet.precip_prob, wet.wind_kmh, wet.typical) == (0.85, 25.2, False)


async def test_days_past_its_8_day_horizon_come_from_open_meteo(keyed) -> None:
    answer = await ladder(today=date(2027, 6, 10)).for_place(PARIS, TRIP)
    keyed_days = {d for d, w in answer.days.items() if w.provenance.ref_id == "openweathermap"}
    assert keyed_days == {date(2027, 6, 15), date(2027, 6, 16), date(2027, 6, 17)}
    (forecast,) = keyed.hits("/v1/forecast")
    assert (forecast.query["start_date"], forecast.query["end_date"]) == ("2027-06-18", "2027-06-19")
    assert answer.days[date(2027, 6, 19)].provenance.ref_id == "open-meteo"


@pytest.mark.parametrize("reply, asked, reason", [
    (Reply(status=500), 2, "HTTP 500"),  # retried once, then the next rung
    (Reply(status=401, body=b'{"cod": 401, "message": "Invalid API key."}'), 1, "Invalid API key"),
    (Reply(body=b'{"cod": "400", "message": "wrong latitude"}'), 1, "wrong latitude"),  # 200 + error body
    (Reply(body=b'{"lat": 48.8, "lon": 2.3, "daily": [{"dt": "soon"}]}'), 1, "unexpected answer shape"),
    (Reply(content_type="text/html", body=b"<html>busy</html>"), 1, "not JSON"),
])
async def test_a_failing_one_call_degrades_to_open_meteo(keyed, reply, asked, reason) -> None:
    keyed.then(ONECALL, reply, reply)
    executor = ToolExecutor()
    answer = await ladder(executor=executor).for_place(PARIS, TRIP)
    assert len(keyed.hits(ONECALL)) == asked and len(keyed.hits("/v1/forecast")) == 1
    assert {d.provenance.ref_id for d in answer.days.values()} == {"open-meteo"} and not answer.degraded
    assert list(executor.stats["openweathermap"].error_reasons.values()) == [1]
    adapter = OpenWeatherMapWeather(NetworkState())
    request = WeatherRangeRequest(lat=48.8566, lon=2.3522, start=TRIP[0], end=TRIP[-1])
    keyed.then(ONECALL, reply)
    with pytest.raises((ToolResponseError, ToolUnavailable), match=reason):
        await adapter.forecast(request)


async def test_both_services_down_fall_to_the_fixtures_with_the_banner(keyed) -> None:
    keyed.then(ONECALL, Reply(status=503), Reply(status=503))
    keyed.then("/v1/forecast", Reply(status=503), Reply(status=503))
    answer = await ladder().for_place(PARIS, TRIP)
    assert answer.degraded and {d.provenance.data_source for d in answer.days.values()} == {"fixture"}


async def test_its_own_breaker_leaves_open_meteo_usable(keyed) -> None:
    keyed.then(ONECALL, *[Reply(status=500) for _ in range(10)])
    executor = ToolExecutor()
    for week in range(5):  # five distinct failing calls open One Call's breaker
        start = date(2027, 6, 12 + week % 2)
        await ladder(executor=executor).for_place(PARIS, [start, date(2027, 6, 19 - week)])
    assert executor.breaker_state("openweathermap") == "open"
    assert executor.breaker_state("weather") == "closed"
    answer = await ladder(executor=executor).for_place(PARIS, TRIP)
    assert {d.provenance.ref_id for d in answer.days.values()} == {"open-meteo"}


async def test_a_cached_answer_is_keyed_by_the_service_never_by_the_key(keyed) -> None:
    executor = ToolExecutor()
    await ladder(executor=executor).for_place(PARIS, TRIP)
    again = await ladder(executor=executor).for_place(PARIS, TRIP)
    assert len(keyed.hits(ONECALL)) == 1 and again.hits == 1
    assert {d.provenance.data_source for d in again.days.values()} == {"cache"}
    adapter = OpenWeatherMapWeather(NetworkState())
    assert ONECALL_KEY not in adapter_variant(adapter.forecast) and keyed.url in adapter_variant(adapter.forecast)
    request = WeatherRangeRequest(lat=48.8566, lon=2.3522, start=TRIP[0], end=TRIP[-1])
    other_key = OpenWeatherMapWeather(NetworkState(), key_source=lambda: "another-users-key")
    assert cache_key("openweathermap", request, adapter_variant(other_key.forecast)) == \
        cache_key("openweathermap", request, adapter_variant(adapter.forecast))


async def test_a_key_stored_in_the_keyring_is_used(server, monkeypatch) -> None:
    monkeypatch.delenv("OPENWEATHERMAP_API_KEY", raising=False)
    server.onecall_today = date(2027, 6, 12)
    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    try:
        assert not OpenWeatherMapWeather(NetworkState()).available()  # no key anywhere: not asked
        SecretStore().set(OPENWEATHERMAP_KEY_NAME, ONECALL_KEY)
        answer = await ladder().for_place(PARIS, TRIP)
    finally:
        keyring.set_keyring(previous)
    assert server.hits(ONECALL)[0].query["appid"] == ONECALL_KEY
    assert {d.provenance.ref_id for d in answer.days.values()} == {"openweathermap"}


@pytest.mark.parametrize("toggle", ["DISABLE_WEATHER_API", "TRIPWRIGHT_OFFLINE"])
async def test_no_call_when_the_weather_api_is_disabled_or_offline(keyed, monkeypatch, toggle) -> None:
    monkeypatch.setenv(toggle, "1")
    answer = await ladder().for_place(PARIS, TRIP)
    assert keyed.seen == [] and {d.provenance.data_source for d in answer.days.values()} == {"fixture"}


# -- the real executable: attribution, redaction -------------------------------------------------
def test_a_saved_plan_credits_openweather_and_the_key_is_nowhere(tmp_path, keyed) -> None:
    intent, out, events = tmp_path / "intent.json", tmp_path / "it.json", tmp_path / "events.jsonl"
    intent.write_text(json.dumps(INTENT))
    env = os.environ | {"TRIPWRIGHT_HOME": str(tmp_path / "home")}
    done = subprocess.run([str(EXE), "-vv", "plan", "--intent", str(intent), "--out", str(out), "--events",
                           str(events), "--today", "2027-06-12", "--save", "--name", "Paris"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert keyed.hits(ONECALL)[0].query["appid"] == ONECALL_KEY  # the key did travel to the service
    itinerary = json.loads(out.read_text())
    weather = [c for c in itinerary["citations"] if c["provenance"]["ref_id"] == "openweathermap"]
    assert len(weather) == 5 and all("(weather data by OpenWeather, openweathermap.org)" in c["claim"]
                                     for c in weather)
    assert all(c["provenance"]["source_url"] == "https://openweathermap.org/" for c in weather)
    assert "onecall" in done.stderr and "appid=***" in done.stderr  # httpx's request line, redacted
    bundle = tmp_path / "bundle.zip"
    subprocess.run([str(EXE), "diagnostics", "--bundle", str(bundle)], env=env, check=True, timeout=60,
                   capture_output=True)
    with zipfile.ZipFile(bundle) as zf:
        packed = [zf.read(name) for name in zf.namelist()]
    home = tmp_path / "home"  # the database (tool_cache, runs, events), the log file, diagnostics
    written = [done.stdout.encode(), done.stderr.encode(), out.read_bytes(), events.read_bytes(), *packed,
               *(p.read_bytes() for p in home.rglob("*") if p.is_file())]
    log_file = (home / "logs" / "tripwright.log").read_text()
    assert "onecall" in log_file and "appid=***" in log_file  # the file got the URL too, redacted
    assert sum(ONECALL_KEY.encode() in w for w in written) == 0
