"""Issue 35 §1: bookings that crashed — a flight in year 9999 or 0001 (JSON-LD in a mail, an .ics
DTSTART), a mail forwarded thousands of times inside itself, a hotel booked in another city —
are one line naming what is wrong (exit 2 on the CLI), never a traceback, and nothing is saved."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date
from email.message import EmailMessage
from pathlib import Path

import pytest

from engine.bookings import parse_bookings
from engine.errors import InputError, one_line
from engine.models import IntentV1

from .test_booked_trip import BACK, HOTEL, OUT, booked, plan
from .test_bookings import flight_res, ld_page

EXE = Path(sys.executable).with_name("tripwright")
ROOT = Path(__file__).resolve().parents[2]
INTENT = ROOT / "docs" / "examples" / "paris.json"
TODAY = date(2026, 11, 23)


def refused(data: bytes, name: str) -> str:
    with pytest.raises(InputError) as info:
        parse_bookings(data, name, today=TODAY)
    line = one_line(info.value)
    assert info.value.field == "bookings" and "\n" not in line
    return line


def ld_mail(*items: dict) -> bytes:
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = "airline@example.com", "me@example.com", "Your trip"
    mail.set_content("Your booking")
    mail.add_alternative(ld_page(*items).decode(), subtype="html")
    return bytes(mail)


@pytest.mark.parametrize("departure, arrival, origin, dest", [
    ("9999-12-31T23:30:00+00:00", "9999-12-31T23:55:00+00:00", "CDG", "LIS"),  # CDG's clock is past 9999
    ("0001-01-01T00:30:00+00:00", "0001-01-01T09:30:00+00:00", "JFK", "CDG"),  # JFK's clock is before 0001
])
def test_a_flight_in_year_9999_or_0001_in_a_mail_is_one_line(departure, arrival, origin, dest) -> None:
    item = flight_res(trip={"departureTime": departure, "arrivalTime": arrival,
                            "departureAirport": {"@type": "Airport", "iataCode": origin},
                            "arrivalAirport": {"@type": "Airport", "iataCode": dest}})
    for data, name in ((ld_mail(item), "booking.eml"), (ld_page(item), "booking.html")):
        line = refused(data, name)
        assert "flight TP 202" in line and departure[:10] in line and "is not a date a trip" in line, line


YEAR_9999_ICS = (b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Airline//EN\r\nBEGIN:VEVENT\r\nUID:1@x\r\n"
                 b"SUMMARY:Flight AF 23 JFK-CDG\r\nDTSTART:99991231T230000Z\r\nDTEND:99991231T235900Z\r\n"
                 b"END:VEVENT\r\nEND:VCALENDAR\r\n")


def test_a_calendar_flight_in_year_9999_is_one_line() -> None:
    line = refused(YEAR_9999_ICS, "af.ics")
    assert "flight AF 23" in line and "9999-12-31" in line, line


def tw(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TRIPWRIGHT_DATABASE_URL"} | {"TRIPWRIGHT_HOME": str(home)}
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, env=env, timeout=180)


def one_line_exit_2(done: subprocess.CompletedProcess, *words: str) -> None:
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("tripwright: ") and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr and all(w in done.stderr for w in words), done.stderr


def test_year_9999_through_plan_bookings_and_bookings_import(tmp_path) -> None:
    ics = tmp_path / "af.ics"
    ics.write_bytes(YEAR_9999_ICS)
    mail = tmp_path / "tp.eml"
    mail.write_bytes(ld_mail(flight_res(trip={"departureTime": "9999-12-31T23:30:00+00:00",
                                              "arrivalTime": "9999-12-31T23:55:00+00:00",
                                              "departureAirport": {"@type": "Airport", "iataCode": "CDG"}})))
    out = tmp_path / "trip.json"
    for path in (ics, mail):
        one_line_exit_2(tw(tmp_path, "plan", "--intent", str(INTENT), "--bookings", str(path), "--today",
                           TODAY.isoformat(), "--out", str(out)), "9999-12-31")
        assert not out.exists()
    saved = tw(tmp_path, "plan", "--intent", str(INTENT), "--save", "--today", TODAY.isoformat())
    assert saved.returncode == 0, saved.stderr
    trip = tw(tmp_path, "trips", "list").stdout.split()[0]
    before = tw(tmp_path, "trips", "show", trip).stdout
    for path in (ics, mail):
        one_line_exit_2(tw(tmp_path, "bookings", "import", str(path), "--trip", trip, "--today", TODAY.isoformat()),
                        "9999-12-31")
    assert tw(tmp_path, "trips", "show", trip).stdout == before  # no version was added


def forwarded(times: int, inner: bytes) -> bytes:
    data = inner
    for _ in range(times):
        data = (b"From: me@example.com\r\nTo: you@example.com\r\nSubject: Fwd: trip\r\n"
                b"Content-Type: message/rfc822\r\n\r\n" + data)
    return data


def test_a_mail_forwarded_5000_times_is_read_without_exhausting_the_stack(tmp_path) -> None:
    inner = ld_mail(flight_res())
    deep = forwarded(5000, inner)
    assert len(deep) > 150_000
    with pytest.raises(InputError) as info:  # the innermost message is past the cap: only its text is left
        parse_bookings(deep, "fwd.eml", today=TODAY)
    assert "enter it by hand" in one_line(info.value)
    path = tmp_path / "fwd.eml"
    path.write_bytes(deep)
    one_line_exit_2(tw(tmp_path, "plan", "--intent", str(INTENT), "--bookings", str(path), "--today",
                       TODAY.isoformat()), "fwd.eml")


def test_a_mail_forwarded_a_few_times_still_gives_its_flight() -> None:
    found = parse_bookings(forwarded(5, ld_mail(flight_res())), "fwd.eml", today=TODAY)
    assert [f.flight_number for f in found.bookings.flights] == ["TP 202"]


# A real hotel in Rome (Hotel Artemide, Via Nazionale 22), booked for the dates of a Paris trip.
ROME = HOTEL | {"name": "Hotel Artemide", "address": "Via Nazionale 22, 00184 Roma",
                "geo": {"lat": 41.90084, "lon": 12.49230}}


def test_a_hotel_booked_in_another_city_names_both_places() -> None:
    with pytest.raises(InputError) as info:
        plan(booked(hotel=ROME))
    line = one_line(info.value)
    assert info.value.field == "bookings.hotel"
    assert "Hotel Artemide" in line and "Roma" in line and "Paris" in line and "km" in line, line


def test_a_hotel_in_another_city_written_into_an_intent_is_exit_2(tmp_path) -> None:
    data = json.loads(INTENT.read_text()) | {"bookings": {"flights": [OUT, BACK], "hotel": ROME}}
    IntentV1.model_validate(data)  # a valid intent: only the place is wrong
    intent = tmp_path / "rome_hotel.json"
    intent.write_text(json.dumps(data))
    out = tmp_path / "trip.json"
    one_line_exit_2(tw(tmp_path, "plan", "--intent", str(intent), "--today", TODAY.isoformat(), "--out", str(out)),
                    "Hotel Artemide", "Paris")
    assert not out.exists()
