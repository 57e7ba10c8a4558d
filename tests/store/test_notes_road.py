"""Destination notes on a road trip: each night and stop cites the notes of its town or of the
named route like a city activity (``source="rag"``), places without notes get no line, and the
plan itself is the same with or without notes."""

from __future__ import annotations

import asyncio
from datetime import date

from engine.models import RoadTripIntent
from engine.notes.library import NotesLibrary
from engine.notes.lookup import StoreNotesLookup
from engine.pipeline import PlanningSession

TODAY = date(2026, 11, 23)
HOLBROOK = ("Holbrook tips from our last trip. Ask for a Wigwam Motel teepee at the back, away from the "
            "railway. Holbrook's gas stations close by ten at night, so fill up on arrival.")


def _road_plan(notes=None):
    intent = RoadTripIntent(origin="Los Angeles", terminus="Chicago", days=7, start_date=date(2027, 5, 3),
                            route="Route 66")
    return asyncio.run(PlanningSession(today=TODAY, notes=notes).plan(intent)).itinerary


def _by_id(itinerary):
    return {a.id: a for d in itinerary.days for a in d.activities}


def test_road_trip_stops_cite_the_towns_and_the_routes_notes(store, org_a):
    plain = _road_plan()
    item = NotesLibrary(store, org_a).import_text(HOLBROOK, "Holbrook, AZ", title="Holbrook tips")
    noted = _road_plan(StoreNotesLookup(store, org_a))
    before, after = _by_id(plain), _by_id(noted)
    assert [(a.id, a.window, a.name) for a in before.values()] == [(a.id, a.window, a.name) for a in after.values()]

    night = next(a for a in after.values() if a.name.startswith("Overnight in Holbrook"))
    motel = next(a for a in after.values() if a.name.startswith("Wigwam Motel"))
    assert "From your notes:" in night.notes and "Holbrook" in night.notes.split("From your notes:")[1]
    assert "From your notes: Ask for a Wigwam Motel teepee at the back" in motel.notes
    mine = [c for c in noted.citations if c.provenance.source == "rag" and c.provenance.data_source == "user"]
    assert {c.provenance.ref_id.split("/")[0] for c in mine} == {item.item_id}
    assert all(c.claim in night.notes or c.claim in motel.notes for c in mine)

    # Tripwright's Route 66 notes speak of the Mojave between Needles and Barstow
    needles = next(a for a in after.values() if a.name.startswith("Overnight in Needles"))
    assert "From Tripwright's notes: The Mojave crossing between Needles and Barstow" in needles.notes
    # a stop no note speaks of is left as it was: no "information not available" padding
    crater = next(a for a in after.values() if a.name == "Amboy Crater")
    assert crater.notes == before[crater.id].notes and "notes:" not in crater.notes


def test_a_road_trip_without_a_notes_lookup_has_no_notes_lines():
    plain = _road_plan()
    assert not [a for a in _by_id(plain).values() if "notes:" in a.notes.lower()]
    assert not [c for c in plain.citations if c.provenance.source == "rag"]
