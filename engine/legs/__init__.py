"""Legs between the stays of a multi-city trip (issue 33 §2): what joins one city to the next.

``plan_leg(query)`` answers one :class:`engine.models.PlannedLeg` offline: a booked ticket as a fact,
else the mode asked for (an ``InputError`` when it cannot make the leg: a train across the sea) or
the one a traveller would take, with its times, price and the reason, estimated (``estimate.py``:
stations and rail speeds from ``rail.py``, seas from ``water.py``) and labelled ``source="estimated"``.
``plan_leg_online(query, executor, router)`` (``online.py``) asks the MOTIS transit router for a
train, bus or ferry and answers ``source="router"`` with the timetable's times where it has them,
and a drive of the OSRM road router (``source="routed"``).
"""

from .estimate import LegQuery, ModeOption, choose, plan_leg
from .online import plan_leg_online, road_router, transit_router
from .rail import Station, station_from_map

__all__ = ["LegQuery", "ModeOption", "Station", "choose", "plan_leg", "plan_leg_online", "road_router",
           "station_from_map", "transit_router"]
