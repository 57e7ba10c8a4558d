"""Legs with real times (issue 33 §2) from a MOTIS transit router — a stand-in on 127.0.0.1 answering
in MOTIS's documented format with published trains (``motis_standin.py`` says where each comes
from) — through the real httpx client and the house executor: the leg says ``source="router"`` with
the timetable's departure, arrival, stations, line and changes; the answer is cached; no train at
that time, an outage or garbage leave the labelled estimate; a dead network is not waited on twice;
offline, nothing is asked."""

from __future__ import annotations

import json
import random
import socket
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from engine.legs import LegQuery, plan_leg_online, transit_router
from engine.models import Geo
from engine.net.network import NetworkState
from engine.tools.executor import ExecutorPolicy, ToolExecutor
from engine.tools.motis import MotisRouter, TransitPlanRequest, parse_plan

from .motis_standin import PLAN_PATH, MotisStandIn, Reply

LISBON = Geo(lat=38.7223, lon=-9.1393)  # Praça do Comércio area
PORTO = Geo(lat=41.1579, lon=-8.6291)  # Avenida dos Aliados area
TOKYO = Geo(lat=35.6812, lon=139.7671)  # Tokyo Station
KYOTO = Geo(lat=35.0116, lon=135.7681)  # Kyoto city hall area
ROME = Geo(lat=41.8931, lon=12.4828)  # Piazza Venezia area
FLORENCE = Geo(lat=43.7696, lon=11.2558)  # Piazza della Signoria area
LISBON_TZ, TOKYO_TZ, ROME_TZ = ZoneInfo("Europe/Lisbon"), ZoneInfo("Asia/Tokyo"), ZoneInfo("Europe/Rome")


class RecordedSleep:
    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@pytest.fixture
def motis(monkeypatch):
    standin = MotisStandIn().start()
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)
    monkeypatch.setenv("TRIPWRIGHT_TRANSIT_URL", standin.url)
    yield standin
    standin.stop()


def executor() -> ToolExecutor:
    return ToolExecutor(ExecutorPolicy(), sleep=RecordedSleep(), rng=random.Random(3))


def lisbon_porto(at: str = "2027-05-13T06:40", **kw) -> LegQuery:
    return LegQuery(index=0, from_city="Lisbon", to_city="Porto", from_geo=LISBON, to_geo=PORTO,
                    to_tz="Europe/Lisbon", earliest=datetime.fromisoformat(at).replace(tzinfo=LISBON_TZ), **kw)


def plans(server: MotisStandIn) -> list:
    return [s for s in server.seen if s.path == PLAN_PATH]


async def test_lisbon_to_porto_takes_the_alfa_pendular_the_timetable_gives(motis) -> None:
    network = NetworkState()
    leg = await plan_leg_online(lisbon_porto(), executor(), transit_router(network))
    assert (leg.mode, leg.source, leg.changes) == ("train", "router", 0)
    assert (leg.from_name, leg.to_name) == ("Lisboa Santa Apolónia", "Porto Campanhã")
    assert leg.departure == datetime(2027, 5, 13, 7, 0, tzinfo=LISBON_TZ)
    assert leg.arrival == datetime(2027, 5, 13, 9, 50, tzinfo=LISBON_TZ)
    assert (leg.operator, leg.number) == ("CP - Comboios de Portugal", "AP")
    assert "by train beats" in leg.why and "times from the timetable" in leg.why and "fare estimated" in leg.why
    assert leg.provenance is not None and leg.provenance.data_source == "real"
    asked = plans(motis)[0]
    # asked from the stations (the walk to them is the stay's transfer), in UTC, for rail only
    assert asked.query["fromPlace"] == "38.7137,-9.1227" and asked.query["toPlace"] == "41.1487,-8.5856"
    assert asked.query["time"] == "2027-05-13T05:40:00Z" and asked.query["arriveBy"] == "false"
    assert asked.query["transitModes"] == "RAIL"
    assert asked.headers["user-agent"].startswith("Tripwright/")
    await network.aclose()


async def test_a_later_start_takes_the_next_train_and_an_asked_train_is_honoured(motis) -> None:
    network = NetworkState()
    leg = await plan_leg_online(lisbon_porto("2027-05-13T07:30", asked="train"), executor(), transit_router(network))
    assert leg.departure.strftime("%H:%M") == "09:00" and leg.arrival.strftime("%H:%M") == "11:48"
    assert leg.why.startswith("train as asked")
    await network.aclose()


async def test_tokyo_to_kyoto_is_the_next_nozomi_with_its_stops_drawn(motis) -> None:
    network = NetworkState()
    q = LegQuery(index=1, from_city="Tokyo", to_city="Kyoto", from_geo=TOKYO, to_geo=KYOTO, to_tz="Asia/Tokyo",
                 earliest=datetime(2027, 5, 16, 10, 4, tzinfo=TOKYO_TZ))
    leg = await plan_leg_online(q, executor(), transit_router(network))
    assert (leg.source, leg.from_name, leg.to_name, leg.number) == ("router", "Tokyo", "Kyoto", "Nozomi")
    assert leg.departure == datetime(2027, 5, 16, 10, 10, tzinfo=TOKYO_TZ)
    assert leg.arrival - leg.departure == (datetime(2027, 1, 1, 2, 15) - datetime(2027, 1, 1))
    assert [round(p.lat, 2) for p in leg.path] == [35.68, 35.63, 35.51, 35.17, 34.99]  # Tokyo … Nagoya, Kyoto
    await network.aclose()


async def test_rome_to_florence_at_dawn_is_frecciarossa_9502(motis) -> None:
    network = NetworkState()
    q = LegQuery(index=0, from_city="Rome", to_city="Florence", from_geo=ROME, to_geo=FLORENCE,
                 to_tz="Europe/Rome", earliest=datetime(2027, 5, 20, 5, 0, tzinfo=ROME_TZ))
    leg = await plan_leg_online(q, executor(), transit_router(network))
    assert (leg.source, leg.number, leg.operator) == ("router", "FR 9502", "Trenitalia")
    assert (leg.departure.strftime("%H:%M"), leg.arrival.strftime("%H:%M")) == ("05:35", "07:10")
    assert "Roma Termini 05:35 → Firenze Santa Maria Novella 07:10, direct" in leg.why
    await network.aclose()


async def test_an_answer_is_cached_and_a_near_identical_ask_shares_it(motis) -> None:
    network, ex = NetworkState(), executor()
    router = transit_router(network)
    first = await plan_leg_online(lisbon_porto("2027-05-13T06:40"), ex, router)
    again = await plan_leg_online(lisbon_porto("2027-05-13T06:42"), ex, router)  # rounds down to 06:40
    assert again.departure == first.departure and len(plans(motis)) == 1
    await network.aclose()


async def test_a_timetabled_train_far_slower_than_estimated_gives_way_to_the_flight(motis) -> None:
    # a constructed answer (not a timetable): only a 5 h 30 regional train that day
    slow = {"itineraries": [{"startTime": "2027-05-13T06:00:00Z", "endTime": "2027-05-13T11:30:00Z", "transfers": 0,
                             "legs": [{"mode": "REGIONAL_RAIL", "startTime": "2027-05-13T06:00:00Z",
                                       "endTime": "2027-05-13T11:30:00Z", "routeShortName": "R 4401",
                                       "from": {"name": "Lisboa Santa Apolónia", "lat": 38.7137, "lon": -9.1227},
                                       "to": {"name": "Porto Campanhã", "lat": 41.1487, "lon": -8.5856}}]}]}
    motis.then(Reply(body=json.dumps(slow).encode()))
    network = NetworkState()
    leg = await plan_leg_online(lisbon_porto(), executor(), transit_router(network))
    assert (leg.mode, leg.source) == ("flight", "estimated")
    assert "by flight" in leg.why and "beats" in leg.why and "the timetable's train takes 5 h 30" in leg.why
    # asked for the train, the traveller gets it as the timetable has it
    asked = await plan_leg_online(lisbon_porto(asked="train"), executor(), transit_router(network))
    assert (asked.mode, asked.source, asked.number) == ("train", "router", "AP")  # the stand-in's own answer
    await network.aclose()


async def test_no_train_left_that_day_leaves_the_estimate_and_says_when_the_next_goes(motis) -> None:
    network = NetworkState()
    leg = await plan_leg_online(lisbon_porto("2027-05-13T20:00"), executor(), transit_router(network))
    assert leg.source == "estimated" and "no train left that day (the next leaves Fri 07:00)" in leg.why
    assert "times estimated (Alfa Pendular in 2 h 48 as published)" in leg.why
    await network.aclose()


async def test_no_train_at_all_is_an_answer_and_the_leg_stays_estimated(motis) -> None:
    network = NetworkState()  # the stand-in has trains only: a coach is asked as COACH,BUS and none comes
    leg = await plan_leg_online(lisbon_porto(asked="bus"), executor(), transit_router(network))
    assert (leg.mode, leg.source) == ("bus", "estimated") and "knows no bus at that time" in leg.why
    assert plans(motis)[0].query["transitModes"] == "COACH,BUS"
    await network.aclose()


@pytest.mark.parametrize("reply", [Reply(body=b"<html>maintenance</html>", content_type="text/html"),
                                   Reply(body=b'{"itineraries": [{"legs": [{"mode": "RAIL"}]}]}')])
async def test_garbage_is_never_retried_and_leaves_the_estimate(motis, reply) -> None:
    motis.then(reply)
    network, ex = NetworkState(), executor()
    leg = await plan_leg_online(lisbon_porto(), ex, transit_router(network))
    assert leg.source == "estimated" and "did not answer" in leg.why
    assert len(plans(motis)) == 1 and ex.stats["transit_router"].retries == 0
    await network.aclose()


async def test_an_outage_is_retried_once_then_the_estimate(motis) -> None:
    motis.then(Reply(status=503, body=b"busy", content_type="text/plain"),
               Reply(status=503, body=b"busy", content_type="text/plain"))
    network, ex = NetworkState(), executor()
    leg = await plan_leg_online(lisbon_porto(), ex, transit_router(network))
    assert leg.source == "estimated" and len(plans(motis)) == 2
    await network.aclose()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_a_dead_network_is_not_waited_on_twice(monkeypatch) -> None:
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)
    monkeypatch.setenv("TRIPWRIGHT_TRANSIT_URL", f"http://127.0.0.1:{_closed_port()}")
    network, ex = NetworkState(), executor()
    leg = await plan_leg_online(lisbon_porto(), ex, transit_router(network))
    assert leg.source == "estimated" and network.offline()
    assert transit_router(network) is None  # the next leg asks nothing
    calls = ex.stats["transit_router"].calls
    second = await plan_leg_online(lisbon_porto(), ex, MotisRouter(network, "http://127.0.0.1:9"))
    assert second.source == "estimated" and ex.stats["transit_router"].retries == 0
    assert ex.stats["transit_router"].calls == calls + 1  # refused before any connection: offline
    await network.aclose()


async def test_offline_nothing_is_asked(motis, monkeypatch) -> None:
    monkeypatch.setenv("TRIPWRIGHT_OFFLINE", "1")
    leg = await plan_leg_online(lisbon_porto(), executor(), transit_router(NetworkState()))
    assert leg.source == "estimated" and "no transit router configured or offline" in leg.why
    assert plans(motis) == []


async def test_a_base_naming_its_api_version_is_asked_at_its_plan(motis, monkeypatch) -> None:
    monkeypatch.setenv("TRIPWRIGHT_TRANSIT_URL", f"{motis.url}/api/v1/")
    network = NetworkState()
    leg = await plan_leg_online(lisbon_porto(), executor(), transit_router(network))
    assert leg.source == "router" and [s.path for s in motis.seen] == [PLAN_PATH]
    await network.aclose()


async def test_unset_url_means_no_router(monkeypatch) -> None:
    monkeypatch.delenv("TRIPWRIGHT_TRANSIT_URL", raising=False)
    assert transit_router(NetworkState()) is None


def test_the_parser_keeps_the_asked_kind_reads_transfers_and_drops_earlier_journeys() -> None:
    request = TransitPlanRequest.of(LISBON, PORTO, datetime(2027, 5, 13, 8, 0, tzinfo=LISBON_TZ), "train")
    def ride(mode: str, a: str, b: str, t0: str, t1: str) -> dict:
        return {"mode": mode, "from": {"name": a, "lat": 38.7, "lon": -9.1}, "to": {"name": b, "lat": 41.1, "lon": -8.6},
                "startTime": t0, "endTime": t1, "routeShortName": mode[:2]}
    body = {"itineraries": [
        # a coach only: not a train journey
        {"startTime": "2027-05-13T07:10:00Z", "endTime": "2027-05-13T10:40:00Z", "transfers": 0,
         "legs": [ride("COACH", "Sete Rios", "Campanhã", "2027-05-13T07:10:00Z", "2027-05-13T10:40:00Z")]},
        # leaves before the asked 08:00 local (07:00Z)
        {"startTime": "2027-05-13T06:00:00Z", "endTime": "2027-05-13T08:50:00Z", "transfers": 0,
         "legs": [ride("HIGHSPEED_RAIL", "A", "B", "2027-05-13T06:00:00Z", "2027-05-13T08:50:00Z")]},
        # one change (a shape test, not a timetable)
        {"startTime": "2027-05-13T07:30:00Z", "endTime": "2027-05-13T11:00:00Z", "transfers": 1,
         "legs": [ride("LONG_DISTANCE", "A", "C", "2027-05-13T07:30:00Z", "2027-05-13T09:00:00Z"),
                  {"mode": "WALK", "from": {"name": "C", "lat": 40.2, "lon": -8.4}, "to": {"name": "C", "lat": 40.2,
                   "lon": -8.4}, "startTime": "2027-05-13T09:00:00Z", "endTime": "2027-05-13T09:05:00Z"},
                  ride("REGIONAL_RAIL", "C", "B", "2027-05-13T09:20:00Z", "2027-05-13T11:00:00Z")]},
    ]}
    journey = parse_plan(body, request)
    assert journey.found and journey.changes == 1 and [r.mode for r in journey.rides] == ["LONG_DISTANCE",
                                                                                         "REGIONAL_RAIL"]
    assert journey.departure == datetime(2027, 5, 13, 7, 30, tzinfo=ZoneInfo("UTC"))
    assert not parse_plan({"itineraries": []}, request).found
