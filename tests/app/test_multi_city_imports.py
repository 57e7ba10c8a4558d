"""The window's import of a booking file into a multi-city trip (issue 33 §2; app/import_merge.py,
Qt-free, as File ▸ Import… runs it off the GUI thread): a train ticket goes on the leg of its day as
the CLI puts it (engine/trip_inputs.py ``with_leg_tickets``); a ticket on no leg is said in the
import's summary. The tickets: tests/data/bookings' CP Alfa Pendular AP 123 Lisboa → Porto."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

from app.import_merge import read_bookings_into
from engine.models import MultiCityIntent
from engine.pipeline import PlanningSession

DATA = Path(__file__).resolve().parents[1] / "data" / "bookings"
LISBON_PORTO = MultiCityIntent.model_validate({
    "start_date": "2027-05-10", "origin_airport": "JFK", "budget_usd_cents": 600000,
    "stays": [{"city": "Lisbon", "nights": 3}, {"city": "Porto", "nights": 2}], "legs": [{"mode": "train"}]})


def read(name: str):
    session = PlanningSession(today=date(2026, 12, 8))
    return asyncio.run(read_bookings_into(LISBON_PORTO, DATA / name, None, session))


def test_a_rail_operators_mail_books_the_leg_of_its_day() -> None:
    intent, found = read("cp_alfa_lisboa_porto.eml")
    booked = intent.legs[0].booked
    assert booked is not None and (booked.number, booked.from_name, booked.to_name) == ("AP 123",
                                                                                        "Lisboa Santa Apolónia",
                                                                                        "Porto Campanhã")
    assert booked.departure.isoformat() == "2027-05-13T09:00:00+01:00" and intent.legs[0].mode == "train"
    assert [s.nights for s in intent.stays] == [3, 2] and "not placed" not in found.summary()


def test_a_ticket_on_no_leg_is_said_in_the_imports_summary() -> None:
    intent, found = read("trainline_lisboa_porto.ics")
    assert intent.legs[0].booked is not None and intent.legs[0].booked.number == "AP 123"
    assert ("not placed: bus 601 Porto Campanhã→Porto Airport 2027-05-15 08:00 [TL•••••]: no leg that day "
            "(the trip changes city on Thu 13 May)") in found.summary()
