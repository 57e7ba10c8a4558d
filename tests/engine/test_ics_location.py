"""Issue 22 §2.10: a calendar event's LOCATION is the place's name and street address when its data
has one (OpenStreetMap's addr:* tags, carried from the city pack to the itinerary), else its name
and the city — never coordinates (those stay in GEO). A Lisbon trip planned through the real
Overpass client against the stand-in, exported and read back with icalendar."""

from __future__ import annotations

import asyncio
import copy
import re
from datetime import date

import icalendar
import pytest

from engine.export import itinerary_to_ics
from engine.models import IntentV1
from engine.pipeline.run import PlanningSession
from engine.places.fetch import PackFetcher
from engine.places.pack_store import PackStore
from tests.overpass_standin import OverpassStandIn, load_lisbon

COORDINATES = re.compile(r"-?\d{1,3}\.\d{3,}")
# Real addresses of three Lisbon places of the stand-in's data, as OSM tags them.
ADDRESSES = {"Mosteiro dos Jerónimos": {"addr:street": "Praça do Império"},
             "Torre de Belém": {"addr:street": "Avenida Brasília"},
             "Museu Calouste Gulbenkian": {"addr:street": "Avenida de Berna", "addr:housenumber": "45A"}}


@pytest.fixture()
def overpass_server(monkeypatch):
    elements = copy.deepcopy(load_lisbon())
    for element in elements:
        element["tags"].update(ADDRESSES.get(element["tags"].get("name"), {}))
    server = OverpassStandIn(elements=elements).start()
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)
    monkeypatch.setenv("TRIPWRIGHT_OVERPASS_URL", server.interpreter_url)
    monkeypatch.setenv("TRIPWRIGHT_OVERPASS_TIMEOUT_S", "2")
    yield server
    server.stop()


def test_calendar_location_is_name_and_street_address_else_name_and_city(overpass_server, tmp_path):
    session = PlanningSession(today=date(2026, 11, 26))
    session._packs = PackFetcher(PackStore(tmp_path), session.toolbox.network, session.toolbox.executor)
    intent = IntentV1.model_validate({
        "city": "Lisbon", "date_window": {"start": "2027-05-10", "end": "2027-05-13", "tz": "UTC"},
        "budget_usd_cents": 300000, "airports": ["XXX"], "origin_airport": "JFK",
        "prefs": {"themes": ["history", "art"]}})
    result = asyncio.run(session.plan(intent))
    assert result.status == "completed", result.failure
    # each event is named as the traveller reads it ("Jerónimos Monastery (Mosteiro dos Jerónimos)")
    places = {a.shown_name: a for d in result.itinerary.days for a in d.activities if a.role in ("activity", "meal")}
    addressed = {name: a for name, a in places.items() if a.address}
    assert addressed, sorted(places)  # at least one of the tagged places is planned
    events = {str(e["SUMMARY"]): e for e in icalendar.Calendar.from_ical(itinerary_to_ics(result.itinerary)).walk("VEVENT")}
    for name, activity in places.items():
        location = str(events[name]["LOCATION"])
        tags = ADDRESSES.get(activity.local_name or activity.name)
        if tags is not None:
            street = " ".join(p for p in (tags.get("addr:housenumber"), tags["addr:street"]) if p)
            assert location == f"{name}, {street}, Lisbon", location
        else:
            # the city once: not added to a name that says it ("Lisbon Cathedral (Sé de Lisboa)")
            assert location == (name if "lisbon" in name.casefold() else f"{name}, Lisbon"), location
        assert not COORDINATES.search(location)
        assert events[name]["GEO"].latitude == pytest.approx(activity.geo.lat)
