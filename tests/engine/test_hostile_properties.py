"""Issue 25 §4: random bytes and random JSON into every import path and every service parser.
Whatever comes in, the outcome is a value or one of the engine's own errors (an ``InputError``
naming the field for a file, a ``ToolError`` or ``ModelUnavailable`` for a service) — never
another exception, never an unbounded read. Services are asked over real HTTP on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import InputError, ModelUnavailable, ToolError

from .llm.scripted_server import Reply as ModelReply, ScriptedServer, completion
from .standin_server import Reply

PROPS = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
FLOATS = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([1e308, -1e308, -400.0, 0.0, 1.0])
SCALARS = st.none() | st.booleans() | st.integers(-2**70, 2**70) | FLOATS | st.text(max_size=20)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5)
                    | st.dictionaries(st.text(max_size=10), inner, max_size=5), max_leaves=30)


def shaped(keys: dict) -> st.SearchStrategy:
    """A document with the service's own keys holding random values (deeper than pure noise)."""
    return st.fixed_dictionaries({k: v for k, v in keys.items()}) | JSON


def dump(doc) -> bytes:
    return json.dumps(doc, allow_nan=True).encode()


BYTES = st.binary(max_size=4096) | JSON.map(dump) | st.sampled_from([
    b"\xef\xbb\xbf{", b"%PDF-1.4\n", b"<?xml version='1.0'?><kml><Placemark>", b"BEGIN:VCALENDAR\r\n",
    b"[31/12/2023, 21:41:05] A: hi\x00", b"<html><body>\x1b]0;x\x07</body></html>", b"\xff\xfe\x00\x00"])
SUFFIXES = st.sampled_from([".txt", ".md", ".html", ".pdf", ".json", ".kml", ".kmz", ".gpx", ".csv", ".geojson",
                            ".eml", ".ics", ""])


# -- imports ------------------------------------------------------------------------------------
def test_random_files_into_every_import_path_end_as_a_value_or_an_input_error(tmp_path: Path) -> None:
    from engine.bookings.reader import parse_bookings
    from engine.imports.saved_places import parse_saved_places
    from engine.llm.chat_import import read_export
    from engine.notes.reading import read_note_file
    from engine.roadtrip.route_file import read_route_file

    readers = (read_note_file, read_export, read_route_file, lambda p: parse_saved_places(p.read_bytes(), p.name),
               lambda p: parse_bookings(p.read_bytes(), p.name, today=date(2026, 11, 23)))

    @PROPS
    @given(data=BYTES, suffix=SUFFIXES)
    def check(data: bytes, suffix: str) -> None:
        path = tmp_path / f"input{suffix}"
        path.write_bytes(data)
        for read in readers:
            try:
                read(path)
            except InputError:
                pass
    check()


def test_random_chat_exports_end_as_messages_or_an_input_error() -> None:
    from engine.llm.chat_import import parse_telegram, parse_whatsapp

    @PROPS
    @given(doc=shaped({"messages": st.lists(shaped({"type": st.just("message"), "date": st.text(max_size=25),
                                                   "date_unixtime": SCALARS, "from": SCALARS, "text": JSON}),
                                            max_size=4)}),
           text=st.text(max_size=500))
    def check(doc, text: str) -> None:
        for parse, given_text in ((parse_telegram, json.dumps(doc)), (parse_whatsapp, text)):
            try:
                parse(given_text)
            except InputError:
                pass
    check()


# -- services -----------------------------------------------------------------------------------
def _ask(coro_fn):
    from engine.net.network import NetworkState

    async def go():
        net = NetworkState()
        try:
            return await coro_fn(net)
        except ToolError as exc:
            return exc
        finally:
            await net.aclose()
    return asyncio.run(go())


@pytest.fixture()
def online(monkeypatch):
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)


def test_random_weather_answers_are_days_in_range_or_a_tool_error(server, online, monkeypatch) -> None:
    from engine.tools.open_meteo import OpenMeteoWeather
    from engine.tools.openweathermap import OpenWeatherMapWeather
    from engine.tools.requests import WeatherRangeRequest
    from .standin_server import ONECALL_KEY

    monkeypatch.setenv("TRIPWRIGHT_OPEN_METEO_URL", server.url)
    monkeypatch.setenv("TRIPWRIGHT_OPENWEATHERMAP_URL", server.url)
    asked = WeatherRangeRequest(lat=48.85, lon=2.35, start=date(2027, 6, 15), end=date(2027, 6, 16))
    values = st.lists(FLOATS | st.none(), min_size=2, max_size=2)
    meteo = shaped({"latitude": FLOATS, "longitude": FLOATS, "daily": shaped({
        "time": st.just(["2027-06-15", "2027-06-16"]), "precipitation_probability_max": values,
        "wind_speed_10m_max": values, "temperature_2m_max": values, "temperature_2m_min": values})})
    owm = shaped({"lat": FLOATS, "lon": FLOATS, "daily": st.lists(shaped({
        "dt": st.integers(-2**40, 2**40), "temp": shaped({"min": FLOATS, "max": FLOATS}),
        "wind_speed": FLOATS, "pop": FLOATS}), max_size=3)})

    @PROPS
    @given(a=meteo, b=owm)
    def check(a, b) -> None:
        server.then("/v1/forecast", Reply(body=dump(a)))
        server.then("/data/3.0/onecall", Reply(body=dump(b)))
        for outcome in (_ask(lambda net: OpenMeteoWeather(net).forecast(asked)),
                        _ask(lambda net: OpenWeatherMapWeather(net, key_source=lambda: ONECALL_KEY).forecast(asked))):
            if isinstance(outcome, ToolError):
                continue
            for day in outcome.days:
                assert -95 <= day.temp_c_low <= day.temp_c_high <= 65 and 0 <= day.precip_prob <= 1
                assert 0 <= day.wind_kmh <= 500
    check()


def test_random_routing_and_overpass_answers_are_values_or_a_tool_error(server, online) -> None:
    from engine.places.overpass import parse_answer
    from engine.tools.osrm import OsrmRouter, RouteRequest

    route = shaped({"code": st.sampled_from(["Ok", "NoRoute", "x"]) | SCALARS, "routes": st.lists(shaped({
        "distance": FLOATS, "duration": FLOATS, "geometry": shaped({"coordinates": st.lists(
            st.lists(FLOATS, min_size=2, max_size=3), max_size=4)})}), max_size=2)})

    @PROPS
    @given(doc=route, raw=BYTES)
    def check(doc, raw: bytes) -> None:
        server.then("/route/v1/driving/", Reply(body=dump(doc)))
        outcome = _ask(lambda net: OsrmRouter(net, server.url).route(RouteRequest(points=((40.0, -100.0), (41.0, -101.0)))))
        assert isinstance(outcome, ToolError) or 0 <= outcome.miles <= 25_000
        try:
            parse_answer(raw)
        except ToolError:
            pass
    check()


def test_random_nominatim_answers_are_candidates_or_a_tool_error(server, online, monkeypatch) -> None:
    from engine.geocode.models import GeocodeRequest
    from engine.geocode.nominatim import NominatimGeocoder, Throttle

    monkeypatch.setenv("TRIPWRIGHT_NOMINATIM_URL", server.url)
    place = shaped({"lat": SCALARS, "lon": SCALARS, "name": SCALARS, "importance": SCALARS,
                    "address": shaped({"country_code": SCALARS})})

    @PROPS
    @given(body=st.lists(place, max_size=3).map(dump) | BYTES)
    def check(body: bytes) -> None:
        server.then("/search", Reply(body=body))
        try:
            found = asyncio.run(NominatimGeocoder("test", throttle=Throttle(0.0)).candidates(GeocodeRequest(query="x")))
        except ToolError:
            return
        assert all(-90 <= c.lat <= 90 and -180 <= c.lon <= 180 for c in found)
    check()


def test_random_model_answers_are_text_or_the_model_unusable() -> None:
    from engine.llm.client import LLMClient
    from engine.llm.config import LLMConfig
    from pydantic import BaseModel

    class Answer(BaseModel):
        ok: bool = True

    bodies = (JSON.map(lambda d: json.dumps(d, allow_nan=True)) | st.text(max_size=200)
              | st.text(max_size=200).map(completion))

    with ScriptedServer() as server:
        @PROPS
        @given(body=bodies)
        def check(body: str) -> None:
            server.script.append(ModelReply(body=body))
            client = LLMClient(LLMConfig(base_url=server.base_url, model="m", timeout_s=5))

            async def go():
                try:
                    return await client.ask_json("draft", [{"role": "user", "content": "hi"}], Answer)
                except ModelUnavailable as exc:
                    return exc
                finally:
                    await client.close()
            outcome = asyncio.run(go())
            assert isinstance(outcome, ModelUnavailable) or isinstance(outcome[0], str)
        check()
