"""Nominatim behind the offline gazetteer, against a real 127.0.0.1 stand-in: only what the
gazetteer cannot answer is asked, once (cached), at most one request per second, with our
User-Agent; every online candidate still passes the seed 000 trust checks."""

from __future__ import annotations

import asyncio
import json

import pytest

from engine.catalog import default_catalog
from engine.errors import InputError
from engine.geocode.models import GeocodeRequest
from engine.geocode.nominatim import MIN_INTERVAL_S, NominatimGeocoder, Throttle
from engine.models import RoadTripIntent
from engine.pipeline import PlanningSession
from engine.net.network import user_agent
from engine.tools.executor import ExecutorPolicy, ToolExecutor

from ..cpu_burner import cpu_burners
from .standin_server import Reply

ROAD = {"mode": "road_trip", "origin": "Zzyzx, CA", "terminus": "Las Vegas, NV", "days": 1,
        "start_date": "2027-05-03", "trip_type": "one_way"}


pytestmark = pytest.mark.standin_urls("TRIPWRIGHT_NOMINATIM_URL", "TRIPWRIGHT_OPEN_METEO_URL")


def road(**changes) -> RoadTripIntent:
    return RoadTripIntent.model_validate(ROAD | changes)


async def test_a_place_the_gazetteer_does_not_know_is_found_online_once(server) -> None:
    session = PlanningSession(default_catalog())
    result = await session.plan(road())
    assert result.status == "completed", result.failure
    first = result.itinerary.days[0]
    assert result.itinerary.degraded_tools == []
    searches = server.hits("/search")
    assert len(searches) == 1 and searches[0].query["q"] == "Zzyzx, CA"  # Las Vegas: the gazetteer's
    assert searches[0].headers["User-Agent"] == user_agent()
    assert first.activities and result.extra["road_plan"].origin.lat == pytest.approx(35.1433)
    again = await PlanningSession(default_catalog(), toolbox=session.toolbox).plan(road())
    assert again.status == "completed" and len(server.hits("/search")) == 1  # cached forever


async def test_offline_the_unknown_place_is_a_clear_input_error_without_a_request(server, monkeypatch) -> None:
    monkeypatch.setenv("TRIPWRIGHT_OFFLINE", "1")
    with pytest.raises(InputError, match="origin: could not find 'Zzyzx, CA'"):
        await PlanningSession(default_catalog()).plan(road())
    assert server.seen == []


async def test_an_online_candidate_on_null_island_fails_the_trust_checks(server) -> None:
    body = [{"lat": "0", "lon": "0", "name": "Zzyzx", "display_name": "Zzyzx", "importance": 0.9, "osm_type": "node", "osm_id": 1,
             "address": {"country_code": "us", "state": "California"}}]
    server.then("/search", Reply(body=json.dumps(body).encode()))
    with pytest.raises(InputError, match=r"origin: could not find 'Zzyzx, CA'.*INV-GEO-02"):
        await PlanningSession(default_catalog()).plan(road())


@pytest.mark.parametrize("reply", [Reply(body=b"[{\"lat\": "), Reply(status=503), Reply(status=200, body=b"{}")])
async def test_a_broken_geocoding_service_is_a_tool_failure_never_a_crash(server, reply) -> None:
    server.then("/search", reply, reply)
    with pytest.raises(InputError, match="origin: could not find"):
        await PlanningSession(default_catalog()).plan(road())
    assert 1 <= len(server.hits("/search")) <= 2


async def test_one_request_per_second_under_concurrency(server) -> None:
    geocoder = NominatimGeocoder(user_agent(), throttle=Throttle())
    ex = ToolExecutor()
    names = ["Zzyzx", "Hoboken", "Nowhere at all"]
    await asyncio.gather(*(ex.call("geocode", geocoder.candidates, GeocodeRequest(query=n))
                           for n in names))
    arrivals = sorted(s.at for s in server.hits("/search"))
    assert len(arrivals) == 3
    assert all(b - a >= MIN_INTERVAL_S for a, b in zip(arrivals, arrivals[1:])), arrivals


async def test_one_request_per_second_holds_at_the_server_on_a_busy_machine(server) -> None:
    """Issue 34 §4: spacing the sends let two requests arrive 0.10 s and 0.74 s apart under load (a
    late first send closes the gap). Each request now waits a second after the previous answer, so
    the server's own arrival stamps are a second apart however busy the client is: a burner per
    core spins beside the requests. (The executor's timeouts count the wait for the slot, so they are
    widened here and retries are off: every name is asked exactly once, however slow the machine.)"""
    geocoder = NominatimGeocoder(user_agent(), throttle=Throttle())
    ex = ToolExecutor(ExecutorPolicy(soft_timeout_s=60.0, hard_timeout_s=60.0, retries=0))
    names = ["Zzyzx", "Hoboken", "Nowhere at all", "Springfield"]
    with cpu_burners():
        await asyncio.gather(*(ex.call("geocode", geocoder.candidates, GeocodeRequest(query=n))
                               for n in names))
    arrivals = sorted(s.at for s in server.hits("/search"))
    assert len(arrivals) == len(names)
    gaps = [b - a for a, b in zip(arrivals, arrivals[1:])]
    assert all(gap >= MIN_INTERVAL_S for gap in gaps), gaps


async def test_the_executors_timeout_bounds_the_request_not_the_wait_for_its_turn(server) -> None:
    """Issue 34: four places asked at once of a stand-in that takes 0.6 s to answer, one request
    per 0.3 s after the previous answer. The last one's turn comes ~2.7 s after they were asked,
    past the executor's 2 s timeout; its request itself takes 0.6 s, so it is answered — the
    timeout counts from its turn (``layered.prefetch`` hands the geocoder's turn to the executor)."""
    from engine.geocode import default_gazetteer
    from engine.geocode.layered import prefetch

    names = ["Zzyzx, CA", "Qqxville, NV", "Wwzton, AZ", "Kkqburg, UT"]
    server.then("/search", *(Reply(delay_s=0.6) for _ in names))
    geocoder = NominatimGeocoder(user_agent(), throttle=Throttle(0.3))
    ex = ToolExecutor(ExecutorPolicy(soft_timeout_s=2.0, hard_timeout_s=2.0, retries=0))
    answers = await prefetch(default_gazetteer(), names, ex, geocoder)
    assert answers.failed == [] and ex.stats["geocode"].errors == 0
    assert len(answers.by_query) == len(names) and len(server.hits("/search")) == len(names)
    arrivals = sorted(s.at for s in server.hits("/search"))
    assert all(b - a >= 0.3 + 0.6 for a, b in zip(arrivals, arrivals[1:]))  # still spaced from each answer
