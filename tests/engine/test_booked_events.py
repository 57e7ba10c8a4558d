"""A booked event (schema.org ``EventReservation``: a ballet at the Palais Garnier) is a locked
visit at its time in the plan (issue 21 §1), read from a real-shaped ticket mail, through the real
executable and the real pipeline; a date outside the trip is one line; verify and the calendar
read it back."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from datetime import time
from pathlib import Path

import pytest

from engine.errors import InputError
from engine.models import IntentV1
from engine.pipeline.run import PlanningSession
from tests.engine.conftest import PARIS_DEMO, TODAY

EXE = Path(sys.executable).with_name("tripwright")
DATA = Path(__file__).resolve().parents[1] / "data" / "bookings"
PARIS = Path(__file__).resolve().parents[2] / "docs" / "examples" / "paris.json"
GISELLE = {"name": "Giselle", "venue": "Palais Garnier", "address": "Place de l'Opéra, 75009 Paris",
           "geo": {"lat": 48.87198, "lon": 2.33161}, "start": "2027-06-17T19:30:00+02:00",
           "end": "2027-06-17T22:00:00+02:00", "confirmation": "OP5527193", "price_usd_cents": 20898,
           "source": "email"}


def tw(home: Path, *args: str) -> subprocess.CompletedProcess:
    import os
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TRIPWRIGHT_HOME": str(home)})


def plan(**event) -> "PlanResult":  # noqa: F821 (the pipeline's result)
    data = json.loads(json.dumps(PARIS_DEMO))
    data["bookings"] = {"events": [GISELLE | event]}
    return asyncio.run(PlanningSession(today=TODAY).plan(IntentV1.model_validate(data)))


def test_a_ticket_mail_becomes_a_locked_evening_in_the_plan(tmp_path) -> None:
    out = tmp_path / "paris.json"
    done = tw(tmp_path / "home", "plan", "--intent", str(PARIS), "--bookings", str(DATA / "garnier_giselle.eml"),
              "--out", str(out))
    assert done.returncode == 0, done.stderr
    itin = json.loads(out.read_text())
    day = next(d for d in itin["days"] if d["date"] == "2027-06-17")
    ballet = next(a for a in day["activities"] if a["name"] == "Giselle at Palais Garnier")
    assert (ballet["window"]["start"], ballet["window"]["end"], ballet["locked"]) == ("19:30:00", "22:00:00", True)
    assert ballet["provenance"]["data_source"] == "user"
    assert "your booking: Giselle, Place de l'Opéra, 75009 Paris, FR, confirmation OP5527193, $208.98 as booked" \
        in ballet["notes"]
    others = [a for d in itin["days"] for a in d["activities"] if a["name"] == "Giselle at Palais Garnier"]
    assert len(others) == 1  # never offered as a sight on another day
    done = tw(tmp_path / "home", "verify", str(out))
    assert done.returncode == 0 and "0 blocking" in done.stdout, done.stdout + done.stderr
    ics = tmp_path / "paris.ics"
    assert tw(tmp_path / "home", "export", str(out), "--ics", str(ics)).returncode == 0
    from icalendar import Calendar
    starts = {str(e["SUMMARY"]): e.decoded("DTSTART") for e in Calendar.from_ical(ics.read_bytes()).walk("VEVENT")}
    assert starts["Giselle at Palais Garnier"].isoformat() == "2027-06-17T19:30:00+02:00"


def test_the_evening_is_planned_around_and_priced_as_booked() -> None:
    result = plan()
    assert result.status == "completed", result.failure
    day = next(d for d in result.itinerary.days if d.date.isoformat() == "2027-06-17")
    ballet = next(a for a in day.activities if a.ref.startswith("booked_event_"))
    before = [a for a in day.activities if a.window.end <= ballet.window.start and a.kind.value != "transit"]
    assert before and all(a.window.end <= time(19, 30) for a in before)
    after = [a for a in day.activities if a.window.start >= ballet.window.end and a.kind.value != "transit"]
    assert all(a.kind.value != "attraction" for a in after)  # nothing squeezed in after the curtain
    dinner = [a for a in before if a.kind.value == "meal" and a.window.start >= time(17, 30)]
    assert dinner, "a dinner before the 19:30 curtain (too early for the usual 19:00 dinner after it)"
    assert ballet.cost_usd_cents == 20898


def test_an_event_outside_the_trip_is_one_line_naming_both() -> None:
    with pytest.raises(InputError, match=r"Giselle is on 2027-06-22, but the trip runs 2027-06-15 to 2027-06-19"):
        plan(start="2027-06-22T19:30:00+02:00", end="2027-06-22T22:00:00+02:00")


def test_an_event_without_coordinates_takes_the_citys_own_venue() -> None:
    result = plan(geo=None)
    assert result.status == "completed", result.failure
    ballet = next(a for d in result.itinerary.days for a in d.activities if a.ref.startswith("booked_event_"))
    assert abs(ballet.geo.lat - 48.872) < 0.003 and abs(ballet.geo.lon - 2.3316) < 0.003
    placed = result.itinerary.intent.bookings.events[0]
    assert placed.geo_source == "city"


def test_an_event_with_no_place_is_counted_not_planned() -> None:
    from engine.bookings import read_bookings
    mail = read_bookings(DATA / "garnier_giselle.eml")
    assert "event Giselle at Palais Garnier 2027-06-17 19:30 [OP•••••••]" in mail.summary()
    found = read_bookings(DATA / "agency_graph.eml")
    assert found.skipped["EventReservation without a place"] == 1 and not found.bookings.events


def test_a_ticket_that_names_its_venue_is_not_called_at_it_twice() -> None:
    from datetime import datetime, timezone

    from engine.models.bookings import BookedEvent
    from engine.planning.booked_events import event_name

    at = datetime(2027, 6, 17, 18, 0, tzinfo=timezone.utc)
    assert event_name(BookedEvent(name="Giselle", venue="Palais Garnier", start=at)) == "Giselle at Palais Garnier"
    named = BookedEvent(name="Giselle at Palais Garnier", venue="Palais Garnier", start=at)
    assert event_name(named) == "Giselle at Palais Garnier"
    assert event_name(BookedEvent(name="Louvre timed entry", start=at)) == "Louvre timed entry"
