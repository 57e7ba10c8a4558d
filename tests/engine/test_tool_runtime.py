"""The real-data tool runtime against a real HTTP server on 127.0.0.1 (an Open-Meteo stand-in):
executor timeouts, the one jittered retry, Retry-After, the breaker, caches (L1, de-dup, the store's
``tool_cache`` as L2), bad answers, and the weather ladder with ``data_source`` per day."""

from __future__ import annotations

import asyncio
import random
from datetime import date, timedelta

import pytest

from engine.catalog import default_catalog
from engine.errors import ToolResponseError, ToolTimeout, ToolUnavailable
from engine.models import Geo
from engine.pipeline import PlanningSession
from engine.tools import build_toolbox
from engine.tools.executor import ExecutorPolicy, ToolExecutor
from engine.net.network import NetworkState, user_agent
from engine.tools.open_meteo import OpenMeteoWeather
from engine.tools.requests import WeatherRangeRequest
from engine.tools.weather_series import WeatherSeries

from .conftest import make_intent
from .standin_server import Reply

TODAY = date(2027, 6, 10)  # the Paris trip (15–19 June) is inside the 16-day forecast horizon
PARIS = Geo(lat=48.8566, lon=2.3522)
REQ = WeatherRangeRequest(lat=48.8566, lon=2.3522, start=date(2027, 6, 15), end=date(2027, 6, 19))


pytestmark = pytest.mark.standin_urls("TRIPWRIGHT_OPEN_METEO_URL")


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class RecordedSleep:
    """Records each retry wait; waits for real only a token time (tests need no sleeping)."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        await asyncio.sleep(0)


def executor(**policy) -> tuple[ToolExecutor, FakeClock, RecordedSleep]:
    clock, sleep = FakeClock(), RecordedSleep()
    return ToolExecutor(ExecutorPolicy(**policy), clock=clock, sleep=sleep, rng=random.Random(7)), clock, sleep


async def forecast(ex: ToolExecutor, request: WeatherRangeRequest = REQ):
    return await ex.call("weather", OpenMeteoWeather(NetworkState()).forecast, request, result_type=WeatherSeries)


# -- the adapter and the executor ---------------------------------------------------------------
async def test_forecast_is_one_call_for_the_range_and_the_second_is_a_cache_hit(server) -> None:
    ex, _, _ = executor()
    series, hit = await forecast(ex)
    assert hit is False and [d.date for d in series.days] == [REQ.start + timedelta(days=i) for i in range(5)]
    first = series.days[0]
    assert (first.provenance.data_source, first.typical, first.provenance.source_url) == (
        "real", False, "https://open-meteo.com/")
    assert first.precip_prob == 0.1 and first.wind_kmh == 12.0 + 15 % 5
    again, hit = await forecast(ex)
    assert hit is True and len(server.hits("/v1/forecast")) == 1
    assert all(d.provenance.data_source == "cache" and d.provenance.cache_hit for d in again.days)
    query = server.hits("/v1/forecast")[0].query
    assert (query["start_date"], query["end_date"]) == ("2027-06-15", "2027-06-19")
    assert "precipitation_probability_max" in query["daily"]


async def test_identical_concurrent_calls_share_one_request(server) -> None:
    server.latency_s = 0.05
    ex, _, _ = executor()
    answers = await asyncio.gather(*(forecast(ex) for _ in range(5)))
    assert len(server.hits("/v1/forecast")) == 1
    assert sorted(hit for _, hit in answers) == [False, True, True, True, True]


async def test_user_agent_names_tripwright_its_version_and_a_contact_url(server) -> None:
    ex, _, _ = executor()
    await forecast(ex)
    agent = server.hits("/v1/forecast")[0].headers["User-Agent"]
    assert agent == user_agent() and agent.startswith("Tripwright/") and "(+https://" in agent
    assert "python-httpx" not in agent


async def test_slow_answer_past_the_soft_timeout_is_counted_not_failed(server) -> None:
    server.then("/v1/forecast", Reply(delay_s=0.15))
    ex, _, _ = executor(soft_timeout_s=0.1, hard_timeout_s=2.0)
    series, _ = await forecast(ex)
    assert len(series.days) == 5 and ex.stats["weather"].slow == 1 and ex.stats["weather"].errors == 0


async def test_hard_timeout_retries_once_after_jitter_in_range_then_fails(server) -> None:
    server.then("/v1/forecast", Reply(delay_s=0.6), Reply(delay_s=0.6))
    ex, _, sleep = executor(hard_timeout_s=0.2)
    with pytest.raises(ToolTimeout, match=r"timed out after 0\.2s"):
        await forecast(ex)
    assert len(server.hits("/v1/forecast")) == 2  # the try and exactly one retry
    assert len(sleep.waits) == 1 and 0.2 <= sleep.waits[0] <= 0.5
    assert ex.stats["weather"].error_reasons == {"timeout": 1}


async def test_5xx_is_retried_once_and_the_retry_after_is_honoured(server) -> None:
    server.then("/v1/forecast", Reply(status=503, body=b"busy", content_type="text/plain",
                                      headers={"Retry-After": "2"}))
    ex, _, sleep = executor()
    series, _ = await forecast(ex)
    assert len(series.days) == 5 and len(server.hits("/v1/forecast")) == 2
    assert sleep.waits == [2.0]  # the server's Retry-After, not the 200–500 ms jitter


async def test_a_retry_after_longer_than_the_budget_is_not_waited_for(server) -> None:
    server.then("/v1/forecast", Reply(status=429, headers={"Retry-After": "120"}))
    ex, _, sleep = executor()
    with pytest.raises(ToolUnavailable) as info:
        await forecast(ex)
    assert info.value.retry_after_s == 120 and sleep.waits == [] and len(server.hits("/v1/forecast")) == 1


@pytest.mark.parametrize("reply, reason", [
    (Reply(body=b'{"latitude": 48.8, "daily": {"time": ["2027-06'), "not valid JSON"),
    (Reply(body=b"<html>maintenance</html>", content_type="text/html"), "content type 'text/html'"),
    (Reply(body=b'{"error": true, "reason": "Cannot initialize WeatherVariable"}'), "Cannot initialize"),
    (Reply(status=400, body=b'{"error": true, "reason": "Latitude must be in range"}'), "HTTP 400: Latitude"),
    (Reply(body=b'{"latitude": 123.0, "longitude": 2.3, "daily": {"time": []}}'), "latitude"),
    (Reply(body=b'{"latitude": 48.8, "longitude": 2.3, "daily": {"time": ["2027-06-15"], '
                b'"wind_speed_10m_max": [], "temperature_2m_max": [1], "temperature_2m_min": [1], '
                b'"precipitation_probability_max": [1]}}'), "different lengths"),
])
async def test_unusable_answers_fail_with_a_clear_reason_and_are_never_retried(server, reply, reason) -> None:
    server.then("/v1/forecast", reply)
    ex, _, sleep = executor()
    with pytest.raises(ToolResponseError, match=reason):
        await forecast(ex)
    assert len(server.hits("/v1/forecast")) == 1 and sleep.waits == []
    assert ex.stats["weather"].error_reasons == {"bad_response": 1}


async def test_breaker_opens_after_five_failures_answers_unavailable_then_one_probe_closes_it(server) -> None:
    server.then("/v1/forecast", *[Reply(status=500) for _ in range(10)])
    ex, clock, _ = executor()
    for day in range(5):
        clock.now += 5 if day else 0  # five failures inside the 60 s window
        request = REQ.model_copy(update={"start": REQ.start + timedelta(days=day)})
        with pytest.raises(ToolUnavailable, match="HTTP 500"):
            await forecast(ex, request)
    assert len(server.hits("/v1/forecast")) == 10 and ex.breaker_state("weather") == "open"
    with pytest.raises(ToolUnavailable) as info:
        await forecast(ex)
    assert info.value.retry_after_s == 30 and len(server.hits("/v1/forecast")) == 10
    clock.now += 29
    with pytest.raises(ToolUnavailable, match="circuit open; retry after 1s"):
        await forecast(ex)
    clock.now += 1
    assert ex.breaker_state("weather") == "half_open"
    series, hit = await forecast(ex)  # the probe reaches the (now healthy) server
    assert hit is False and len(series.days) == 5 and ex.breaker_state("weather") == "closed"
    assert len(server.hits("/v1/forecast")) == 11


async def test_failures_spread_over_more_than_a_minute_do_not_open_the_breaker(server) -> None:
    server.then("/v1/forecast", *[Reply(status=500) for _ in range(12)])
    ex, clock, _ = executor()
    for day in range(6):
        with pytest.raises(ToolUnavailable, match="HTTP 500"):
            await forecast(ex, REQ.model_copy(update={"start": REQ.start + timedelta(days=day)}))
        clock.now += 20
    assert ex.breaker_state("weather") == "closed"


async def test_the_store_tool_cache_is_the_durable_second_level(server, tmp_path) -> None:
    from engine.store import Accounts, Store
    from engine.tools.durable_cache import StoreToolCache
    store = Store.open(f"sqlite:///{tmp_path / 'trips.db'}")
    ctx = Accounts(store).first_run()
    first = ToolExecutor(durable=StoreToolCache(store, ctx))
    series, _ = await forecast(first)
    # A new process (a fresh executor, empty L1) finds the answer in the table, not on the server.
    second = ToolExecutor(durable=StoreToolCache(store, ctx))
    again, hit = await forecast(second)
    assert hit is True and len(server.hits("/v1/forecast")) == 1
    assert [d.precip_prob for d in again.days] == [d.precip_prob for d in series.days]
    assert all(d.provenance.data_source == "cache" for d in again.days)
    with store.org(ctx) as repo:
        from engine.tools.executor import cache_key
        key = cache_key("weather", REQ, OpenMeteoWeather(NetworkState()).cache_variant)
        assert repo.tool_cache.get(key)["days"][0]["date"] == "2027-06-15"
    store.close()


# -- the ladder inside a plan -------------------------------------------------------------------
async def test_a_plan_inside_the_horizon_uses_the_real_forecast_and_a_replan_the_cache(server) -> None:
    session = PlanningSession(default_catalog(), today=TODAY)
    result = await session.plan(make_intent())
    itinerary = result.itinerary
    assert itinerary is not None and itinerary.degraded_tools == []
    weather = result.inputs.weather
    assert {w.provenance.data_source for w in weather.values()} == {"real"}
    assert len(server.hits("/v1/forecast")) == 1  # one call for the whole date range
    credited = [c for c in itinerary.citations if c.claim.startswith("Forecast")]
    assert len(credited) == 5 and all("Open-Meteo.com, CC BY 4.0" in c.claim for c in credited)
    assert all(c.provenance.source_url == "https://open-meteo.com/" for c in credited)
    # A new session (no node memo) over the same long-lived toolbox: the executor's cache answers.
    again = await PlanningSession(default_catalog(), today=TODAY, toolbox=session.toolbox).plan(make_intent())
    assert {w.provenance.data_source for w in again.inputs.weather.values()} == {"cache"}
    assert len(server.hits("/v1/forecast")) == 1


async def test_a_broken_weather_service_falls_back_to_fixtures_and_marks_the_run_degraded(server) -> None:
    server.then("/v1/forecast", Reply(body=b"not json at all", content_type="application/json"))
    session = PlanningSession(default_catalog(), today=TODAY)
    result = await session.plan(make_intent())
    assert result.status == "completed" and result.itinerary.degraded_tools == ["weather"]
    assert {w.provenance.data_source for w in result.inputs.weather.values()} == {"fixture"}
    assert all(w.provenance.source_url is None for w in result.inputs.weather.values())


async def test_days_beyond_the_horizon_are_typical_weather_without_any_request(server) -> None:
    session = PlanningSession(default_catalog(), today=date(2026, 11, 23))
    result = await session.plan(make_intent())
    assert result.itinerary.degraded_tools == [] and server.seen == []
    assert all(w.typical and w.provenance.data_source == "fixture" for w in result.inputs.weather.values())


async def test_a_place_far_from_fixture_cities_gets_typical_weather_from_the_archive(server) -> None:
    toolbox = build_toolbox(default_catalog(), today=date(2026, 11, 23))
    amarillo = Geo(lat=35.222, lon=-101.8313)
    days = [date(2027, 5, 3) + timedelta(days=i) for i in range(3)]
    answer = await toolbox.weather.for_place(amarillo, days)
    assert sorted(answer.days) == days and not answer.degraded
    assert all(d.typical and d.provenance.data_source == "real" for d in answer.days.values())
    assert [s.query["start_date"] for s in server.hits("/v1/archive")] == ["2026-05-03", "2025-05-03", "2024-05-03"]
    # 3 May: wet in the stand-in's odd-day years → probability = share of wet samples.
    assert answer.days[date(2027, 5, 3)].precip_prob == 1.0
    again = await toolbox.weather.for_place(amarillo, days)  # cached forever
    assert len(server.hits("/v1/archive")) == 3 and again.hits == 1


async def test_offline_makes_no_attempt_and_a_dead_network_is_tried_once(server, monkeypatch) -> None:
    monkeypatch.setenv("TRIPWRIGHT_OFFLINE", "1")
    session = PlanningSession(default_catalog(), today=TODAY)
    result = await session.plan(make_intent())
    assert server.seen == [] and result.itinerary.degraded_tools == ["weather"]
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE")
    server.stop()  # nothing listens there any more: connection refused
    session = PlanningSession(default_catalog(), today=TODAY)
    first = await session.plan(make_intent())
    assert first.itinerary.degraded_tools == ["weather"] and session.toolbox.network.offline()
    refused = session.toolbox.executor.stats["weather"].errors
    second = await PlanningSession(default_catalog(), today=TODAY, toolbox=session.toolbox).plan(make_intent())
    assert second.itinerary.degraded_tools == ["weather"]
    assert session.toolbox.executor.stats["weather"].errors == refused  # no second attempt


async def test_simulated_tool_timeout_hits_the_hard_timeout_and_opens_the_breaker(monkeypatch) -> None:
    monkeypatch.setenv("SIMULATE_TOOL_TIMEOUT", "flights:0.5s")
    toolbox = build_toolbox(default_catalog(), today=TODAY)
    ex, clock, sleep = executor(hard_timeout_s=0.02)
    for i in range(5):
        request = {"origin": "JFK", "dest": "CDG", "n": i}
        with pytest.raises(ToolTimeout):
            await ex.call("flights", lambda r: toolbox.flights, request)
    assert ex.breaker_state("flights") == "open" and len(sleep.waits) == 5  # one retry each
    with pytest.raises(ToolUnavailable, match="circuit open"):
        await ex.call("flights", lambda r: toolbox.flights, {"n": 99})


async def test_every_road_trip_overnight_stop_gets_its_forecast_in_one_call_each(server) -> None:
    from engine.models import RoadTripIntent
    intent = RoadTripIntent.model_validate({"mode": "road_trip", "origin": "Los Angeles, CA",
                                            "terminus": "Chicago, IL", "route": "route_66", "days": 7,
                                            "start_date": "2027-05-03", "trip_type": "one_way"})
    result = await PlanningSession(default_catalog(), today=date(2027, 5, 1)).plan(intent)
    assert result.status == "completed", result.failure
    claims = [c for c in result.itinerary.citations if c.claim.startswith("Forecast at ")]
    anchors = [d.anchor.name for d in result.itinerary.days]
    assert [c.claim.split(" at ")[1].split(" 2027")[0] for c in claims] == anchors
    assert all(c.provenance.data_source == "real" and "Open-Meteo.com" in c.claim for c in claims)
    assert len(server.hits("/v1/forecast")) == len(anchors) and result.itinerary.degraded_tools == []


async def test_offline_road_trips_beyond_the_horizon_carry_no_weather_and_no_banner(monkeypatch) -> None:
    from engine.models import RoadTripIntent
    monkeypatch.setenv("TRIPWRIGHT_OFFLINE", "1")
    intent = RoadTripIntent.model_validate({"mode": "road_trip", "origin": "Los Angeles, CA",
                                            "terminus": "Chicago, IL", "route": "route_66", "days": 7,
                                            "start_date": "2027-05-03", "trip_type": "one_way"})
    result = await PlanningSession(default_catalog(), today=date(2026, 11, 23)).plan(intent)
    assert result.itinerary.degraded_tools == []
    assert not [c for c in result.itinerary.citations if "weather" in c.claim.lower()]


async def test_a_node_waiting_on_the_network_sends_a_heartbeat_every_second(server) -> None:
    server.then("/v1/forecast", Reply(delay_s=2.5))
    events = []
    result = await PlanningSession(default_catalog(), today=TODAY).plan(make_intent(), on_event=events.append)
    assert result.status == "completed"
    beats = [e for e in events if e.status.value == "heartbeat"]
    waiting = [e for e in beats if e.decision_note == "waiting for weather"]
    assert len(waiting) >= 2 and {e.node for e in waiting} == {"planner"}
    assert [e.seq for e in result.events] == list(range(len(result.events)))


async def test_every_run_sends_heartbeats_while_its_nodes_work_on_the_cpu(monkeypatch) -> None:
    """Seed §8.2: offline, no tool waits on the network, yet the run still says it is alive: the
    heartbeat comes from a thread of the run's own, so CPU-bound nodes holding the loop send it too.
    (The interval is shortened so the test needs no second-long run.)"""
    monkeypatch.setenv("TRIPWRIGHT_OFFLINE", "1")
    session = PlanningSession(default_catalog(), today=TODAY)
    session.heartbeat_s = 0.002
    events = []
    import time

    import engine.verify
    verify = engine.verify.verify_plan

    def busy_verify(*args, **kwargs):
        """The verifier, then busy on the CPU (holding the loop) until a heartbeat got out: a run
        on a loaded machine may end before the heartbeat thread's first turn, so the test waits
        for the thread, not for a clock (at most 30 s)."""
        found = verify(*args, **kwargs)
        until = time.monotonic() + 30
        while not any(e.status.value == "heartbeat" for e in list(events)) and time.monotonic() < until:
            sum(range(1000))
        return found

    monkeypatch.setattr(engine.verify, "verify_plan", busy_verify)
    result = await session.plan(make_intent(), on_event=events.append)
    assert result.status == "completed"
    beats = [e for e in result.events if e.status.value == "heartbeat"]
    assert beats, "no heartbeat during an offline run"
    assert events == result.events and [e.seq for e in events] == list(range(len(events)))
    nodes = {e.node for e in result.events if e.status.value != "heartbeat"}
    assert {e.node for e in beats} <= nodes
    last = max(i for i, e in enumerate(result.events) if e.status.value != "heartbeat")
    assert result.events[last].node == "responder" and not result.events[last + 1:]  # none after the end
    seen = len(events)
    await asyncio.sleep(0.05)
    assert len(events) == seen  # the heartbeat stopped with the run
