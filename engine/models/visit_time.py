"""How long things take, in minutes: the one home of the planners' visit and meal lengths.

An OpenStreetMap place's visit length by its kind is in its tag table
(``engine/places/osm_tags.py``, ``SIGHT_TAGS``/``ROAD_SIGHT_TAGS``); a fixture venue carries its own
(``fixtures/cities/*.json``, ``duration_minutes``). Everything else the planners assume is here.
"""

from __future__ import annotations

VISIT_MINUTES = 60  # a place whose kind says nothing (a saved place, an unread OSM kind)
MIN_VISIT_MINUTES = 30  # no visit is planned shorter
MEAL_MINUTES = {"lunch": 60, "dinner": 75}  # a city trip's meals (kids' dinners 15 min shorter)
EVENT_MINUTES = 120  # a booked show or match whose end the booking does not give
TOWN_VISIT_MINUTES = 60  # a road trip's walk through a town on the way
EXPLORE_MINUTES = 90  # a road trip's evening or rest-day look round the night's town
REST_MINUTES = 20  # a road trip's break on a long drive
