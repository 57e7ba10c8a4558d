"""The calendar of a trip built around the traveller's bookings (issue 21): booked flights and the
booked hotel's check-in/out say their confirmation code, short transfers stay out of the calendar
unless asked for, and LOCATION names the place, never its coordinates."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import date, datetime, time, timedelta
from pathlib import Path

import icalendar

from engine.export import export_files, itinerary_to_ics, render
from engine.models import (Activity, ChoiceKind, CostBreakdown, DateWindow, DayItinerary, Geo, IntentV1,
                           ItineraryV1, TimeWindow)
from engine.models.bookings import BookedFlight, BookedHotel, Bookings

EXE = Path(sys.executable).with_name("tripwright")
CREATED = datetime(2027, 2, 1, 9, 30)
CDG = (49.0097, 2.5479)
HOTEL = "Hôtel Jeanne d'Arc Le Marais"
# Real airline, airports and hotel; codes, times and fares are made up.
OUT = BookedFlight(carrier="Air France", flight_number="AF 23", origin="JFK", dest="CDG",
                   departure="2027-06-14T18:30:00-04:00", arrival="2027-06-15T07:50:00+02:00",
                   confirmation="QX7K2M", price_usd_cents=61200, source="email")
BACK = BookedFlight(carrier="Air France", flight_number="AF 22", origin="CDG", dest="JFK",
                    departure="2027-06-19T16:05:00+02:00", arrival="2027-06-19T18:20:00-04:00",
                    confirmation="QX7K2M", price_usd_cents=58800, source="email")
STAY = BookedHotel(name=HOTEL, geo={"lat": 48.85604, "lon": 2.36289}, checkin=date(2027, 6, 15),
                   checkout=date(2027, 6, 19), confirmation="HJ-88213", paid=True, source="email")
COORDINATES = re.compile(r"-?\d{1,3}\.\d{3,}")

# (start, end, role, kind, name, (lat, lon) or None, notes, ref) per day of a 5-day Paris trip
OUT_NOTES, BACK_NOTES = "your booking: Air France AF 23 JFK→CDG", "your booking: Air France AF 22 CDG→JFK"
DAYS = [
    [("00:30", "07:50", "arrival", "flight", "AF 23 JFK→CDG", CDG, OUT_NOTES, "booked-af23-20270614"),
     ("07:50", "08:46", "transfer", "transit", "Metro transfer", None, "metro, 21.8 km, about 56 min", ""),
     ("14:00", "14:30", "checkin", "lodging", HOTEL, (48.85604, 2.36289), "your booking", "booked_hotel"),
     ("14:30", "14:33", "transfer", "transit", "Walk transfer", None, "walk, 0.2 km, about 3 min", ""),
     ("14:50", "16:50", "activity", "attraction", "Musée Carnavalet", (48.85753, 2.36252), "free; indoor", "carnavalet")],
    [("09:30", "10:30", "activity", "attraction", "Sainte-Chapelle", (48.85541, 2.34502), "", "sainte_chapelle"),
     ("10:30", "10:41", "transfer", "transit", "Walk transfer", None, "walk, 0.8 km", ""),
     ("11:00", "15:00", "activity", "attraction", "Musée du Louvre", (48.86061, 2.33764), "", "louvre")],
    [("09:30", "12:30", "activity", "attraction", "Musée d'Orsay", (48.85995, 2.32656), "", "orsay")],
    [("12:00", "13:00", "meal", "meal", "Le Procope", (48.853151, 2.338850), "", "procope"),
     ("13:00", "13:29", "transfer", "transit", "Metro transfer", None, "metro, 4 km", "")],
    [("10:00", "10:15", "checkout", "lodging", HOTEL, (48.85604, 2.36289), "checkout by 11:00", "booked_hotel"),
     ("11:45", "12:41", "transfer", "transit", "Metro transfer", None, "metro, 21.7 km", ""),
     ("16:05", "23:59", "departure", "flight", "AF 22 CDG→JFK", CDG, BACK_NOTES, "booked-af22-20270619")],
]


def booked_itinerary(bookings: Bookings | None = Bookings(flights=[OUT, BACK], hotel=STAY)) -> ItineraryV1:
    start = date(2027, 6, 15)
    window = DateWindow(start=start, end=start + timedelta(days=4), tz="Europe/Paris")
    intent = IntentV1(city="Paris", date_window=window, budget_usd_cents=400_000, airports=["CDG", "ORY"],
                      origin_airport="JFK", bookings=bookings)

    def activity(n: int, i: int, spec: tuple) -> Activity:
        begin, end, role, kind, name, where, notes, ref = spec
        return Activity(id=f"d{n}_{role}_{i}", ref=ref, role=role, kind=ChoiceKind(kind), name=name, notes=notes,
                        window=TimeWindow(start=time.fromisoformat(begin), end=time.fromisoformat(end)),
                        geo=Geo(lat=where[0], lon=where[1]) if where else None)
    return ItineraryV1(
        itinerary_id="itn_booked", intent=intent, created_at=CREATED, trace_id="trace-1", decisions=[],
        citations=[], days=[DayItinerary(date=start + timedelta(days=n),
                                         activities=[activity(n, i, s) for i, s in enumerate(specs)])
                            for n, specs in enumerate(DAYS)],
        cost_breakdown=CostBreakdown(flights_usd_cents=120_000, lodging_usd_cents=0, attractions_usd_cents=0,
                                     transit_usd_cents=3_000, daily_spend_usd_cents=40_000, total_usd_cents=163_000,
                                     currency_disclaimer="Converted at fixture FX rates."))


def _events(ics: bytes) -> dict[str, icalendar.Event]:
    return {str(e["SUMMARY"]) + "@" + e.decoded("DTSTART").date().isoformat(): e
            for e in icalendar.Calendar.from_ical(ics).walk("VEVENT")}


def _all_events(ics: bytes) -> list[icalendar.Event]:
    return icalendar.Calendar.from_ical(ics).walk("VEVENT")


def test_short_transfers_are_left_out_by_default():
    itin = booked_itinerary()
    summaries = [str(e["SUMMARY"]) for e in _all_events(itinerary_to_ics(itin))]
    transfers = [a for d in itin.days for a in d.activities if a.role == "transfer"]

    assert summaries.count("Walk transfer") == 0  # 3 and 11 minutes
    assert summaries.count("Metro transfer") == 2  # the 56-minute rides to and from CDG; 29 minutes is short
    assert len(transfers) == 5 and len(summaries) == sum(len(d.activities) for d in itin.days) - 3 == 11


def test_the_option_puts_every_transfer_in():
    itin = booked_itinerary()
    default = _all_events(itinerary_to_ics(itin))
    every = _all_events(itinerary_to_ics(itin, transfers=True))

    assert len(every) == sum(len(d.activities) for d in itin.days) == len(default) + 3
    assert [str(e["SUMMARY"]) for e in every].count("Walk transfer") == 2
    assert render("ics", itin, transfers=True) == itinerary_to_ics(itin, transfers=True)
    assert render("ics", itin) == itinerary_to_ics(itin)
    uids = [str(e["UID"]) for e in every]
    assert len(set(uids)) == len(uids)


def test_booked_flights_and_hotel_say_their_confirmation_code():
    events = _events(itinerary_to_ics(booked_itinerary()))
    out, back = events["AF 23 JFK→CDG@2027-06-15"], events["AF 22 CDG→JFK@2027-06-19"]
    checkin, checkout = events[f"{HOTEL}@2027-06-15"], events[f"{HOTEL}@2027-06-19"]

    for flight in (out, back):
        assert str(flight["DESCRIPTION"]).splitlines()[0] == "Confirmation QX7K2M"
    assert str(out["DESCRIPTION"]).splitlines()[1] == OUT_NOTES  # the notes follow
    for stay in (checkin, checkout):
        assert str(stay["DESCRIPTION"]).startswith("Confirmation HJ-88213\n")
    louvre = events["Musée du Louvre@2027-06-16"]
    assert "Confirmation" not in str(louvre.get("DESCRIPTION", ""))


def test_only_the_booked_flight_gets_the_code():
    """A flight the planner chose (another number) and a trip without bookings say no code."""
    only_back = booked_itinerary(Bookings(flights=[BACK]))
    events = _events(itinerary_to_ics(only_back))
    assert "Confirmation" not in str(events["AF 23 JFK→CDG@2027-06-15"]["DESCRIPTION"])
    assert str(events["AF 22 CDG→JFK@2027-06-19"]["DESCRIPTION"]).startswith("Confirmation QX7K2M")
    assert "Confirmation" not in str(events[f"{HOTEL}@2027-06-15"]["DESCRIPTION"])
    assert b"Confirmation" not in itinerary_to_ics(booked_itinerary(None))


def test_location_is_the_place_name_never_coordinates():
    itin = booked_itinerary()
    events = _events(itinerary_to_ics(itin, transfers=True))

    assert str(events["Musée du Louvre@2027-06-16"]["LOCATION"]) == "Musée du Louvre, Paris"  # no address known
    assert str(events[f"{HOTEL}@2027-06-15"]["LOCATION"]) == f"{HOTEL}, Paris"
    assert str(events["AF 23 JFK→CDG@2027-06-15"]["LOCATION"]) == "CDG airport"  # where it lands
    assert str(events["AF 22 CDG→JFK@2027-06-19"]["LOCATION"]) == "CDG airport"  # where it leaves
    louvre = events["Musée du Louvre@2027-06-16"]
    assert (louvre["GEO"].latitude, louvre["GEO"].longitude) == (48.86061, 2.33764)  # the point stays in GEO
    for event in _all_events(itinerary_to_ics(itin, transfers=True)):
        assert not COORDINATES.search(str(event.get("LOCATION", "")))


def test_a_place_named_by_its_coordinates_gets_no_location():
    itin = booked_itinerary()
    day = itin.days[2]
    named = day.activities[0].model_copy(update={"name": "48.85995, 2.32656"})
    itin = itin.model_copy(update={"days": [*itin.days[:2], day.model_copy(update={"activities": [named]}),
                                            *itin.days[3:]]})
    event = _events(itinerary_to_ics(itin))["48.85995, 2.32656@2027-06-17"]
    assert "LOCATION" not in event and "GEO" in event


def test_export_cli_ics_transfers_flag(tmp_path):
    saved = tmp_path / "it.json"
    export_files(booked_itinerary(), out=saved)
    plain, every = tmp_path / "plain.ics", tmp_path / "every.ics"
    done = subprocess.run([str(EXE), "export", str(saved), "--ics", str(plain)], capture_output=True, text=True,
                          timeout=60)
    flagged = subprocess.run([str(EXE), "export", str(saved), "--ics", str(every), "--ics-transfers"],
                             capture_output=True, text=True, timeout=60)
    assert done.returncode == flagged.returncode == 0, done.stderr + flagged.stderr
    assert len(_all_events(every.read_bytes())) == len(_all_events(plain.read_bytes())) + 3
    assert "Confirmation QX7K2M" in plain.read_text(encoding="utf-8")
    alone = subprocess.run([str(EXE), "export", str(saved), "--json", str(tmp_path / "x.json"), "--ics-transfers"],
                           capture_output=True, text=True, timeout=60)
    assert alone.returncode == 2 and alone.stderr.startswith("tripwright: --ics-transfers:")
    assert json.loads(saved.read_text())["intent"]["bookings"]["hotel"]["confirmation"] == "HJ-88213"
