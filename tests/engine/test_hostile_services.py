"""Hostile services (issue 25 §1, §3): every reply bounded, validated and refused cleanly, through
the real clients (httpx, the openai SDK on httpx2, geopy) against real servers on 127.0.0.1 that
answer what a broken or malicious service would: gzip bombs, endless bodies, slow drips, NaN
weather, redirects to another machine, broken JSON with HTTP 200."""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import subprocess
import sys
import threading
import time
import tracemalloc
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from pydantic import BaseModel

from engine.errors import ModelUnavailable, ToolResponseError, ToolTimeout
from engine.llm.client import LLMClient
from engine.llm.config import LLMConfig
from engine.net.network import NetworkState
from engine.tools.open_meteo import OpenMeteoWeather
from engine.tools.openweathermap import OpenWeatherMapWeather
from engine.tools.osrm import OsrmRouter, RouteRequest
from engine.tools.requests import WeatherRangeRequest

from .llm.scripted_server import Reply as ModelReply, ScriptedServer, completion
from .standin_server import Reply, StandIn

EXE = Path(sys.executable).with_name("tripwright")
MB = 1024 * 1024


@pytest.fixture(autouse=True)
def online(monkeypatch):
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)


@pytest.fixture()
def other():
    """A second machine a redirect may point at; it records whether it was asked."""
    standin = StandIn().start()
    yield standin
    standin.stop()


def bomb(decompressed: int, head: bytes = b'{"pad": "', tail: bytes = b'"}') -> bytes:
    """A valid JSON document of ``decompressed`` bytes, gzip-compressed (~1,000:1)."""
    return gzip.compress(head + b" " * (decompressed - len(head) - len(tail)) + tail, compresslevel=9)


def run(coro):
    async def go():
        net = NetworkState()
        try:
            return await coro(net)
        finally:
            await net.aclose()
    return asyncio.run(go())


def peak_mb(fn) -> tuple[object, float]:
    """``fn()``'s outcome (its value or the exception) and the Python heap's peak while it ran."""
    tracemalloc.start()
    try:
        try:
            outcome = fn()
        except Exception as exc:  # noqa: BLE001 - the outcome is asserted by the caller
            outcome = exc
        return outcome, tracemalloc.get_traced_memory()[1] / MB
    finally:
        tracemalloc.stop()


# -- §1 bounded replies -------------------------------------------------------------------------
def test_a_gzip_bomb_from_the_weather_service_is_refused_at_its_cap(server) -> None:
    server.then("/v1/forecast", Reply(body=bomb(200 * MB), headers={"Content-Encoding": "gzip"}))
    outcome, peak = peak_mb(lambda: run(lambda net: net.get_json("weather", f"{server.url}/v1/forecast", {})))
    assert isinstance(outcome, ToolResponseError), outcome
    assert "larger than 10 MB decompressed" in outcome.reason
    assert peak < 40, peak  # the 200 MB were never held


def test_the_sync_and_async_readers_bound_and_decode_a_reply_alike(server) -> None:
    """One body reader behind both transports (httpx's async client, and the synchronous one geopy
    uses): the same bytes decoded from gzip and raw deflate, the same refusal past a request's cap."""
    import zlib

    import httpx

    from engine.net.bounded_http import CAP_KEY, async_transport, refusal, sync_transport
    deflater = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    raw_deflate = deflater.compress(b'{"ok": true}') + deflater.flush()
    replies = [Reply(body=gzip.compress(b'{"ok": true}'), headers={"Content-Encoding": "gzip"}),
               Reply(body=raw_deflate, headers={"Content-Encoding": "deflate"}),
               Reply(body=bomb(2 * MB), headers={"Content-Encoding": "gzip"})]
    capped = {"extensions": {CAP_KEY: MB}}

    def sync_reads() -> list:
        with httpx.Client(transport=sync_transport()) as client:
            return [_read(lambda: client.get(f"{server.url}/body", **capped).content) for _ in replies]

    async def async_reads() -> list:
        async with httpx.AsyncClient(transport=async_transport()) as client:
            return [await _aread(lambda: client.get(f"{server.url}/body", **capped)) for _ in replies]

    def _read(get):
        try:
            return get()
        except Exception as exc:  # noqa: BLE001 - a refusal, whichever exception carries it
            if refusal(exc) is None:
                raise
            return refusal(exc).reason

    async def _aread(get):
        try:
            return (await get()).content
        except Exception as exc:  # noqa: BLE001 - a refusal, whichever exception carries it
            if refusal(exc) is None:
                raise
            return refusal(exc).reason

    server.then("/body", *replies, *replies)
    expected = [b'{"ok": true}', b'{"ok": true}', "reply larger than 1 MB decompressed"]
    assert sync_reads() == expected
    assert asyncio.run(async_reads()) == expected


def test_a_plain_endless_routing_reply_is_refused_at_its_cap() -> None:
    with Streamer(lambda w: w.endless(b"x" * 65536)) as streamer:
        outcome, peak = peak_mb(lambda: run(lambda net: OsrmRouter(net, streamer.url).route(
            RouteRequest(points=((40.0, -100.0), (41.0, -101.0))))))
    assert isinstance(outcome, ToolResponseError) and "larger than 10 MB" in outcome.reason, outcome
    assert peak < 40, peak


def test_an_unknown_content_coding_is_refused(server) -> None:
    server.then("/v1/forecast", Reply(body=b"\x00" * 64, headers={"Content-Encoding": "br"}))
    with pytest.raises(ToolResponseError, match="unsupported content coding 'br'"):
        run(lambda net: net.get_json("weather", f"{server.url}/v1/forecast", {}))


def test_a_reply_that_drips_is_stopped_by_the_total_time_cap(monkeypatch) -> None:
    from engine.net import bounded_http
    monkeypatch.setattr(bounded_http, "DEFAULT_TOTAL_S", 1.5)
    with Streamer(lambda w: w.drip(b"{", every_s=0.2)) as streamer:
        with pytest.raises(ToolTimeout, match="reply took longer than 1.5 s"):
            run(lambda net: net.get_json("weather", f"{streamer.url}/v1/forecast", {}))


def test_a_gzip_bomb_from_the_model_server_leaves_the_model_unusable() -> None:
    body = bomb(100 * MB, head=completion("{}")[:-1].encode() + b', "pad": "')
    with Streamer(lambda w: w.whole(body, {"Content-Encoding": "gzip"})) as streamer:
        client = LLMClient(LLMConfig(base_url=streamer.url + "/v1", model="m", timeout_s=20))

        def ask():
            async def go():
                try:
                    return await client.ask_json("draft", [{"role": "user", "content": "hi"}], _Answer)
                finally:
                    await client.close()
            return asyncio.run(go())
        outcome, peak = peak_mb(ask)
    assert isinstance(outcome, ModelUnavailable), outcome
    assert "larger than 10 MB decompressed" in outcome.reason
    assert peak < 60, peak


def test_a_model_server_that_drips_is_abandoned_at_the_models_timeout() -> None:
    with Streamer(lambda w: w.drip(b" ", every_s=0.2)) as streamer:
        client = LLMClient(LLMConfig(base_url=streamer.url + "/v1", model="m", timeout_s=1.5))

        async def go():
            try:
                return await client.ask_json("draft", [{"role": "user", "content": "hi"}], _Answer)
            finally:
                await client.close()
        with pytest.raises(ModelUnavailable, match="reply took longer than 1.5 s"):
            asyncio.run(go())


# -- §3 services --------------------------------------------------------------------------------
ASKED = WeatherRangeRequest(lat=48.8566, lon=2.3522, start=date(2027, 6, 15), end=date(2027, 6, 16))


def forecast_body(**daily) -> bytes:
    values = {"time": ["2027-06-15", "2027-06-16"], "precipitation_probability_max": [10, 20],
              "wind_speed_10m_max": [12.0, 14.0], "temperature_2m_max": [24.0, 25.0],
              "temperature_2m_min": [14.0, 15.0]} | daily
    return json.dumps({"latitude": 48.86, "longitude": 2.35, "daily": values}).encode()  # NaN as JSON's NaN


@pytest.mark.parametrize(("field", "values", "words"), [
    ("temperature_2m_max", [1e308, 25.0], "temperature_2m_max"),
    ("temperature_2m_min", [-400.0, 15.0], "temperature_2m_min"),
    ("temperature_2m_max", [float("inf"), 25.0], "temperature_2m_max"),
    ("precipitation_probability_max", [float("nan"), 20], "precipitation_probability_max"),
    ("wind_speed_10m_max", [-3.0, 14.0], "wind_speed_10m_max"),
    ("temperature_2m_min", [30.0, 15.0], "low 30 °C above its high 24 °C"),
])
def test_absurd_weather_values_are_a_tool_error(server, monkeypatch, field, values, words) -> None:
    monkeypatch.setenv("TRIPWRIGHT_OPEN_METEO_URL", server.url)
    server.then("/v1/forecast", Reply(body=forecast_body(**{field: values})))
    with pytest.raises(ToolResponseError, match=words):
        run(lambda net: OpenMeteoWeather(net).forecast(ASKED))


@pytest.mark.parametrize("row", [{"temp": {"min": float("nan"), "max": 20}}, {"temp": {"min": -1e308, "max": 20}},
                                 {"wind_speed": float("inf")}, {"pop": 7}, {"temp": {"min": 25, "max": 20}}])
def test_absurd_openweathermap_values_are_a_tool_error(server, monkeypatch, row) -> None:
    from .standin_server import ONECALL_KEY, onecall
    monkeypatch.setenv("TRIPWRIGHT_OPENWEATHERMAP_URL", server.url)
    body = onecall({"appid": ONECALL_KEY, "lat": "48.85", "lon": "2.35"}, date(2027, 6, 15))
    body["daily"][0] |= row
    server.then("/data/3.0/onecall", Reply(body=json.dumps(body).encode()))
    weather = lambda net: OpenWeatherMapWeather(net, key_source=lambda: ONECALL_KEY).forecast(ASKED)  # noqa: E731
    with pytest.raises(ToolResponseError, match="unexpected answer shape at daily.0"):
        run(weather)


@pytest.mark.parametrize("route", [{"distance": float("nan"), "duration": 60.0}, {"distance": 1e308, "duration": 60.0},
                                   {"distance": 1000.0, "duration": -5.0}])
def test_absurd_routes_are_a_tool_error(server, route) -> None:
    body = {"code": "Ok", "routes": [route | {"geometry": {"coordinates": [[-100.0, 40.0], [-101.0, 41.0]]}}]}
    server.then("/route/v1/driving/", Reply(body=json.dumps(body).encode()))
    with pytest.raises(ToolResponseError, match="lacks a usable route"):
        run(lambda net: OsrmRouter(net, server.url).route(RouteRequest(points=((40.0, -100.0), (41.0, -101.0)))))


def plan_paris(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    intent = tmp_path / "intent.json"
    intent.write_text(json.dumps({"city": "Paris", "budget_usd_cents": 400000, "airports": ["CDG", "ORY"],
                                  "origin_airport": "JFK", "prefs": {"themes": ["art"]},
                                  "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"}}))
    environ = {k: v for k, v in os.environ.items() if k not in ("TRIPWRIGHT_OFFLINE",) and not k.startswith("OPENAI_")}
    return subprocess.run([str(EXE), "plan", "--intent", str(intent), "--out", str(tmp_path / "it.json"),
                           "--today", "2027-06-10", *env.pop("_args", "").split()],
                          capture_output=True, text=True, env=environ | env, timeout=120)


def test_nan_weather_degrades_the_plan_instead_of_blaming_the_user(tmp_path, server) -> None:
    nan = forecast_body(precipitation_probability_max=[float("nan")] * 5, temperature_2m_max=[1e308] * 5,
                        time=[f"2027-06-{d}" for d in range(15, 20)], wind_speed_10m_max=[1.0] * 5,
                        temperature_2m_min=[1.0] * 5)
    server.then("/v1/forecast", Reply(body=nan), Reply(body=nan))
    done = plan_paris(tmp_path, TRIPWRIGHT_OPEN_METEO_URL=server.url)
    assert done.returncode == 0, done.stderr
    itinerary = json.loads((tmp_path / "it.json").read_text())
    assert itinerary["degraded_tools"] == ["weather"]
    shown = json.dumps(itinerary)
    assert "1e+308" not in shown and "NaN" not in shown and "Infinity" not in shown


def test_a_model_answering_200_with_broken_json_is_unusable_not_the_users_fault() -> None:
    with ScriptedServer(default=ModelReply(body='{"id": "x", "choices": [{"message": {"content": "{')) as server:
        client = LLMClient(LLMConfig(base_url=server.base_url, model="m", timeout_s=5))

        async def go():
            try:
                return await client.ask_json("draft", [{"role": "user", "content": "hi"}], _Answer)
            finally:
                await client.close()
        with pytest.raises(ModelUnavailable, match="not a JSON chat completion"):
            asyncio.run(go())
        assert len(server.chat_requests()) == 1  # a bad answer is not retried


def test_plan_llm_with_broken_json_from_the_model_plans_rule_based_with_a_warning(tmp_path) -> None:
    with ScriptedServer(default=ModelReply(body='{"choices": [{"message": {"content": "{"}]')) as server:
        done = plan_paris(tmp_path, TRIPWRIGHT_OFFLINE="1", OPENAI_BASE_URL=server.base_url, OPENAI_TIMEOUT_S="5",
                          _args="--llm")
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == ("tripwright: warning: model unavailable (the endpoint's answer is not a JSON "
                                   "chat completion); planned rule-based")
    assert json.loads((tmp_path / "it.json").read_text())["status"] == "ok"


def test_a_redirect_to_another_origin_is_refused_and_never_followed(server, other) -> None:
    server.then("/v1/forecast", Reply(status=302, body=b"", headers={"Location": f"{other.url}/v1/forecast?x=1"}))
    with pytest.raises(ToolResponseError, match="refused a redirect to another origin"):
        run(lambda net: net.get_json("weather", f"{server.url}/v1/forecast", {}))
    assert other.seen == []
    # the same origin may move a path
    server.then("/v1/old", Reply(status=301, body=b"", headers={"Location": "/v1/forecast?latitude=1&longitude=2"
                                                                  "&start_date=2027-06-15&end_date=2027-06-15"}))
    body = run(lambda net: net.get_json("weather", f"{server.url}/v1/old", {}))
    assert body["daily"]["time"] == ["2027-06-15"]


def test_a_model_endpoint_redirecting_elsewhere_is_refused(other) -> None:
    target = f"{other.url}/v1/chat/completions"
    with ScriptedServer(default=ModelReply(status=307, body="{}", headers={"Location": target})) as server:
        client = LLMClient(LLMConfig(base_url=server.base_url, model="m", timeout_s=5))

        async def go():
            try:
                return await client.ask_json("draft", [{"role": "user", "content": "hi"}], _Answer)
            finally:
                await client.close()
        with pytest.raises(ModelUnavailable, match="refused a redirect to another origin"):
            asyncio.run(go())
    assert other.seen == []


def test_a_nominatim_redirect_to_another_origin_is_refused(server, other, monkeypatch) -> None:
    from engine.geocode.models import GeocodeRequest
    from engine.geocode.nominatim import NominatimGeocoder, Throttle
    monkeypatch.setenv("TRIPWRIGHT_NOMINATIM_URL", server.url)
    server.then("/search", Reply(status=302, body=b"", headers={"Location": f"{other.url}/search?q=hoboken"}))
    geocoder = NominatimGeocoder("test", throttle=Throttle(0.0))
    with pytest.raises(ToolResponseError, match="refused a redirect"):
        asyncio.run(geocoder.candidates(GeocodeRequest(query="Hoboken")))
    assert other.seen == []
    assert asyncio.run(geocoder.candidates(GeocodeRequest(query="Hoboken")))[0].name == "Hoboken"


DRIPPED_GEOCODE = """
import asyncio, sys
from engine.geocode.models import GeocodeRequest
from engine.geocode.nominatim import NominatimGeocoder, Throttle
async def main():
    try:
        await asyncio.wait_for(NominatimGeocoder("test", throttle=Throttle(0.0)).candidates(
            GeocodeRequest(query="Hoboken")), 4.0)
    except Exception as exc:
        print(type(exc).__name__, exc)
asyncio.run(main())
"""


def test_a_slow_drip_nominatim_cannot_keep_the_process_alive(monkeypatch) -> None:
    """The blocking geopy call runs in a worker thread, which ``asyncio.run`` waits for at exit: a
    server dripping a byte every half second must not keep it (and the CLI) alive."""
    with Streamer(lambda w: w.drip(b"[", every_s=0.5)) as streamer:
        env = {k: v for k, v in os.environ.items() if k != "TRIPWRIGHT_OFFLINE"} | {"TRIPWRIGHT_NOMINATIM_URL": streamer.url}
        done = subprocess.run([sys.executable, "-c", DRIPPED_GEOCODE], capture_output=True, text=True, env=env,
                              timeout=60)
    assert done.returncode == 0, done.stderr
    # the caller's 4 s wait, or the adapter's own 3 s deadline (issue 35) when the thread started at once
    assert done.stdout.startswith(("TimeoutError", "ToolTimeout geocode: reply took longer than 3 s")), done.stdout


def test_credentials_in_service_urls_never_reach_the_log_or_stderr(tmp_path, server) -> None:
    secret = "hunter2-pw"
    home = tmp_path / "home"
    base = server.url.replace("http://", f"http://alice:{secret}@")
    with ScriptedServer(default=ModelReply(status=500, body='{"error": {"message": "boom"}}')) as model:
        model_url = model.base_url.replace("http://", f"http://bob:{secret}@")
        done = plan_paris(tmp_path, TRIPWRIGHT_HOME=str(home), TRIPWRIGHT_OPEN_METEO_URL=base,
                          TRIPWRIGHT_ROUTING_URL=base, OPENAI_BASE_URL=model_url, OPENAI_TIMEOUT_S="3",
                          _args="--llm -vv")
    assert done.returncode == 0, done.stderr
    logged = "".join(p.read_text() for p in (home / "logs").glob("*.log*"))
    assert "127.0.0.1" in done.stderr + logged  # the URLs were logged, without their userinfo
    assert secret not in done.stderr and secret not in logged
    from engine.diagnostics import redact
    assert secret not in redact(f"base_url={model_url}")


# -- helpers ------------------------------------------------------------------------------------
class _Answer(BaseModel):
    ok: bool = True


class _Writer:
    def __init__(self, handler: BaseHTTPRequestHandler, stop: threading.Event) -> None:
        self.h, self.stop = handler, stop

    def whole(self, body: bytes, headers: dict[str, str]) -> None:
        self.h.send_response(200)
        self.h.send_header("Content-Type", "application/json")
        self.h.send_header("Content-Length", str(len(body)))
        for k, v in headers.items():
            self.h.send_header(k, v)
        self.h.end_headers()
        self.h.wfile.write(body)

    def endless(self, chunk: bytes) -> None:
        self.h.send_response(200)
        self.h.send_header("Content-Type", "application/json")
        self.h.end_headers()
        for _ in range(2000):  # 128 MB at most, should the client never stop reading
            if self.stop.is_set():
                return
            self.h.wfile.write(chunk)

    def drip(self, byte: bytes, every_s: float) -> None:
        self.h.send_response(200)
        self.h.send_header("Content-Type", "application/json")
        self.h.end_headers()
        while not self.stop.is_set():
            self.h.wfile.write(byte)
            self.h.wfile.flush()
            time.sleep(every_s)


class Streamer:
    """A server whose every GET and POST is answered by ``act(writer)``."""

    def __init__(self, act) -> None:
        stop = self.stop = threading.Event()

        class Handler(BaseHTTPRequestHandler):
            def _any(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                if length:
                    self.rfile.read(length)
                try:
                    act(_Writer(self, stop))
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_GET = do_POST = _any  # noqa: N815

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> "Streamer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()


def test_an_absurd_answer_cached_before_the_range_checks_is_a_cache_miss(server, monkeypatch, tmp_path) -> None:
    from engine.store import Accounts, Store
    from engine.tools.durable_cache import StoreToolCache
    from engine.tools.executor import ToolExecutor, cache_key
    from engine.tools.weather_series import WeatherSeries

    monkeypatch.setenv("TRIPWRIGHT_OPEN_METEO_URL", server.url)
    store = Store.open(f"sqlite:///{tmp_path / 'trips.db'}")
    ctx = Accounts(store).first_run()

    async def forecast(ex):
        net = NetworkState()
        try:
            return await ex.call("weather", OpenMeteoWeather(net).forecast, ASKED, result_type=WeatherSeries)
        finally:
            await net.aclose()
    asyncio.run(forecast(ToolExecutor(durable=StoreToolCache(store, ctx))))
    key = cache_key("weather", ASKED, OpenMeteoWeather(NetworkState()).cache_variant)
    with store.org(ctx, write=True) as repo:
        row = repo.tool_cache.get(key)
        row["days"][0]["temp_c_high"] = 1e308
        repo.tool_cache.put(key, "weather", row, __import__("datetime").timedelta(days=1))
    series, hit = asyncio.run(forecast(ToolExecutor(durable=StoreToolCache(store, ctx))))
    store.close()
    assert hit is False and len(server.hits("/v1/forecast")) == 2
    assert all(-95 <= d.temp_c_high <= 65 for d in series.days)
