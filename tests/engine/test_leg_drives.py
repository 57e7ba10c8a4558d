"""A drive between stays from the road engine's router when online (issue 33 §2): the house OSRM
stand-in on 127.0.0.1 (``standin_server.RoadNetwork``) through the real httpx client and the
executor; the leg says ``source="routed"`` with the road's kilometres, hours and line; no road is
the estimate, said so."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from engine.geo import distance_km
from engine.legs import LegQuery, plan_leg_online, road_router
from engine.models import Geo
from engine.net.network import NetworkState
from engine.tools.executor import ToolExecutor

pytestmark = pytest.mark.standin_urls("TRIPWRIGHT_ROUTING_URL")

LISBON, PORTO = Geo(lat=38.7223, lon=-9.1393), Geo(lat=41.1579, lon=-8.6291)


def drive_query() -> LegQuery:
    return LegQuery(index=0, from_city="Lisbon", to_city="Porto", from_geo=LISBON, to_geo=PORTO,
                    to_tz="Europe/Lisbon", asked="drive",
                    earliest=datetime(2027, 5, 13, 10, 10, tzinfo=ZoneInfo("Europe/Lisbon")))


async def test_an_asked_drive_takes_the_routed_road(server) -> None:
    network = NetworkState()
    leg = await plan_leg_online(drive_query(), ToolExecutor(), None, road_router(network))
    straight = distance_km(LISBON.lat, LISBON.lon, PORTO.lat, PORTO.lon)
    assert (leg.mode, leg.source) == ("drive", "routed")
    assert leg.distance_km == pytest.approx(straight * server.road.factor, rel=0.01)  # the stand-in's road
    hours = leg.distance_km * 1000 / server.road.speed_mps / 3600
    assert abs((leg.arrival - leg.departure) - timedelta(hours=hours)) <= timedelta(minutes=1)
    assert len(leg.path) == 3 and leg.path[0] == LISBON  # the stand-in's bend in the middle
    assert "road from the routing service" in leg.why and leg.provenance.data_source == "real"
    await network.aclose()


async def test_no_road_leaves_the_estimate_and_says_so(server) -> None:
    server.road.no_road = [(41.0, 41.3, -8.8, -8.5)]
    network = NetworkState()
    leg = await plan_leg_online(drive_query(), ToolExecutor(), None, road_router(network))
    assert leg.source == "estimated" and "found no road (NoRoute)" in leg.why
    await network.aclose()
