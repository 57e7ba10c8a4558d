"""Booked legs as facts (issue 33 §2): a train or bus ticket in an e-mail's schema.org markup or in a
calendar file becomes a ``BookedLeg`` when the caller asks for legs (a one-city import is as it
was), impossible values are one line, and the tickets — and a flight between two stays' airports —
land on the leg of the multi-city intent that runs on their day, which then plans as booked."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from pydantic import TypeAdapter

from engine.bookings import parse_bookings, read_bookings
from engine.bookings.stay_legs import place_tickets
from engine.errors import InputError
from engine.legs import LegQuery, plan_leg
from engine.models import AnyIntent, BookedLeg, Geo
from engine.models.bookings import BookedFlight

DATA = Path(__file__).resolve().parents[1] / "data" / "bookings"
TODAY = date(2026, 11, 23)
LISBON_TZ = ZoneInfo("Europe/Lisbon")
PRIVATE = ("Marta", "Quintela", "marta.quintela", "555 0147", "94-1231-55820")


def ld_page(*items: dict) -> bytes:
    blocks = "".join(f'<script type="application/ld+json">{json.dumps(i)}</script>' for i in items)
    return f"<html><head>{blocks}</head><body>Your ticket</body></html>".encode()


def bus(**trip) -> dict:
    base = {"@type": "BusTrip", "busNumber": "N 1234", "provider": {"@type": "Organization", "name": "FlixBus"},
            "departureBusStop": {"@type": "BusStation", "name": "Porto Campanhã (bus)"},
            "departureTime": "2027-05-15T07:30:00+01:00",
            "arrivalBusStop": {"@type": "BusStation", "name": "Madrid Estación Sur"},
            "arrivalTime": "2027-05-15T17:55:00+02:00"}
    base.update(trip)
    return {"@context": "https://schema.org", "@type": "BusReservation", "reservationNumber": "FLX73H2",
            "reservationFor": base, "totalPrice": 39.98, "priceCurrency": "USD"}


def intent(**kw):
    base = dict(mode="multi_city", start_date="2027-05-10", origin_airport="JFK", budget_usd_cents=600_000,
                stays=[{"city": "Lisbon", "nights": 3}, {"city": "Porto", "nights": 2}])
    base.update(kw)
    return TypeAdapter(AnyIntent).validate_python(base)


def test_a_rail_operators_mail_gives_its_train_as_a_leg() -> None:
    found = read_bookings(DATA / "cp_alfa_lisboa_porto.eml", today=TODAY, legs=True)
    (leg,) = found.legs
    assert (leg.mode, leg.operator, leg.number) == ("train", "CP - Comboios de Portugal", "AP 123")
    assert (leg.from_name, leg.to_name) == ("Lisboa Santa Apolónia", "Porto Campanhã")
    assert leg.departure == datetime(2027, 5, 13, 9, 0, tzinfo=LISBON_TZ)
    assert leg.arrival == datetime(2027, 5, 13, 11, 48, tzinfo=LISBON_TZ)
    assert leg.confirmation == "CPX8M41T" and leg.source == "email" and leg.price_usd_cents > 3110  # EUR 31.10
    summary = found.summary()
    assert "train AP 123 Lisboa Santa Apolónia→Porto Campanhã 2027-05-13 09:00 [CP••••••]" in summary
    assert not any(p in summary for p in PRIVATE)


def test_a_one_city_import_still_counts_the_train_as_not_planned() -> None:
    with pytest.raises(InputError) as err:
        read_bookings(DATA / "cp_alfa_lisboa_porto.eml", today=TODAY)
    assert str(err.value) == ("bookings: cp_alfa_lisboa_porto.eml: holds no flight, hotel or event booking "
                              "(TrainReservation: 1)")


def test_a_calendar_file_gives_its_train_and_bus_on_their_stations_clock() -> None:
    found = read_bookings(DATA / "trainline_lisboa_porto.ics", today=TODAY, legs=True)
    train, coach = found.legs
    assert (train.mode, train.number, train.from_name, train.to_name) == ("train", "AP 123", "Lisboa Santa Apolónia",
                                                                         "Porto Campanhã")
    assert train.departure.utcoffset() == timedelta(hours=1) and train.departure.hour == 9
    assert train.arrival - train.departure == timedelta(hours=2, minutes=48)
    assert train.confirmation == "TL4K9Q2" and train.source == "ics"
    assert (coach.mode, coach.number, coach.from_name, coach.to_name) == ("bus", "601", "Porto Campanhã",
                                                                          "Porto Airport")


def test_a_bus_reservation_in_markup() -> None:
    (leg,) = parse_bookings(ld_page(bus()), "flixbus.html", today=TODAY, legs=True).legs
    assert (leg.mode, leg.operator, leg.number, leg.price_usd_cents) == ("bus", "FlixBus", "N 1234", 3998)
    assert leg.to_name == "Madrid Estación Sur" and leg.arrival.utcoffset() == timedelta(hours=2)


@pytest.mark.parametrize("trip, message", [
    ({"departureTime": "2027-05-15T07:30:00"}, "bus N 1234 (FL•••••): departure 2027-05-15T07:30:00 has no UTC offset"),
    ({"arrivalTime": "2027-05-15T06:00:00+01:00"}, "arrival 2027-05-15T06:00:00+01:00 is not after departure"),
    ({"departureBusStop": {"@type": "BusStation"}}, "no departure station"),
    ({"arrivalTime": "2027-05-19T06:00:00+01:00"}, "one ticket rides at most 48"),
    ({"departureTime": "2031-05-15T07:30:00+01:00", "arrivalTime": "2031-05-15T09:30:00+01:00"},
     "is not a date a trip from 2026-11-23 can use"),
])
def test_impossible_ticket_values_are_one_line_naming_the_ticket(trip, message) -> None:
    with pytest.raises(InputError) as err:
        parse_bookings(ld_page(bus(**trip)), "flixbus.html", today=TODAY, legs=True)
    line = str(err.value)
    assert line.startswith("bookings: flixbus.html: ") and message in line and "\n" not in line
    assert "FLX73H2" not in line


def test_tickets_land_on_the_leg_of_their_day_and_plan_as_booked() -> None:
    trip = intent()
    found = read_bookings(DATA / "trainline_lisboa_porto.ics", today=TODAY, legs=True)
    placed = place_tickets(trip, found.legs)
    (request,) = placed.requests
    assert request.booked is not None and request.booked.number == "AP 123"
    assert [t.number for t in placed.unplaced] == ["601"]  # the trip's last day: no leg runs then
    q = LegQuery(index=0, from_city="Lisbon", to_city="Porto", from_geo=Geo(lat=38.7223, lon=-9.1393),
                 to_geo=Geo(lat=41.1579, lon=-8.6291), to_tz="Europe/Lisbon",
                 earliest=datetime(2027, 5, 13, 8, 0, tzinfo=LISBON_TZ), booked=request.booked)
    leg = plan_leg(q)
    assert (leg.source, leg.departure, leg.from_name) == ("booked", request.booked.departure, "Lisboa Santa Apolónia")


def test_a_flight_between_two_stays_airports_is_their_leg_and_the_flight_home_stays_a_flight() -> None:
    trip = intent()
    lis, opo = ZoneInfo("Europe/Lisbon"), ZoneInfo("Europe/Lisbon")
    hop = BookedFlight(carrier="TAP Air Portugal", flight_number="TP 1944", origin="LIS", dest="OPO",
                       departure=datetime(2027, 5, 13, 12, 30, tzinfo=lis), arrival=datetime(2027, 5, 13, 13, 25, tzinfo=opo),
                       confirmation="4F7K2Q", price_usd_cents=8900, source="email")
    home = BookedFlight(carrier="TAP Air Portugal", flight_number="TP 1301", origin="OPO", dest="JFK",
                        departure=datetime(2027, 5, 15, 11, 0, tzinfo=opo),
                        arrival=datetime(2027, 5, 15, 14, 30, tzinfo=ZoneInfo("America/New_York")), source="email")
    placed = place_tickets(trip, [], [hop, home], stay_airports=[["LIS"], ["OPO", "VGO"]])
    booked = placed.requests[0].booked
    assert (booked.mode, booked.number, booked.from_name, booked.to_name) == ("flight", "TP 1944", "LIS", "OPO")
    assert booked.price_usd_cents == 8900 and placed.flights == [home]
    # without the stays' airports a flight is not taken for a leg
    assert place_tickets(trip, [], [hop]).flights == [hop]


def test_two_tickets_with_a_change_make_one_leg_and_an_asked_mode_must_match() -> None:
    trip = intent()
    at = lambda h, m: datetime(2027, 5, 13, h, m, tzinfo=LISBON_TZ)  # noqa: E731
    first = BookedLeg(mode="train", operator="CP", number="IC 521", from_name="Lisboa Santa Apolónia",
                      to_name="Coimbra-B", departure=at(8, 30), arrival=at(10, 20), price_usd_cents=2000)
    second = BookedLeg(mode="train", operator="CP", number="R 4421", from_name="Coimbra-B", to_name="Porto Campanhã",
                       departure=at(10, 45), arrival=at(12, 50), price_usd_cents=900)
    joined = place_tickets(trip, [first, second]).requests[0].booked
    assert (joined.from_name, joined.to_name, joined.number) == ("Lisboa Santa Apolónia", "Porto Campanhã",
                                                                 "IC 521 + R 4421")
    assert (joined.departure, joined.arrival, joined.price_usd_cents) == (at(8, 30), at(12, 50), 2900)
    with pytest.raises(InputError) as err:
        place_tickets(intent(legs=[{"mode": "bus"}]), [first])
    assert err.value.field == "legs[0]" and "asked for bus but the booked ticket is a train" in err.value.message


def test_a_ticket_on_no_legs_day_is_returned_unplaced() -> None:
    stray = BookedLeg(mode="bus", from_name="Sete Rios", to_name="Évora",
                      departure=datetime(2027, 5, 11, 9, 0, tzinfo=timezone.utc),
                      arrival=datetime(2027, 5, 11, 10, 30, tzinfo=timezone.utc))
    placed = place_tickets(intent(), [stray])
    assert placed.unplaced == [stray] and placed.requests[0].booked is None


# -- a PDF ticket, read by the model ----------------------------------------------------------------
def ticket_pdf(path: Path, to_station: str = "Porto Campanhã") -> Path:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    for line in ("CP - Comboios de Portugal      Bilhete / Ticket", "Alfa Pendular AP 123   Carruagem 3  Lugar 41",
                 "Partida / Departure: Lisboa Santa Apolónia   13/05/2027   09:00",
                 f"Chegada / Arrival: {to_station}   13/05/2027   11:48",
                 "Passageiro: Marta Quintela", "Código / Code: CPX8M41T     Total: 31,10 EUR"):
        pdf.cell(0, 8, line, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


RIDE = {"kind": "train", "operator": "CP - Comboios de Portugal", "number": "AP 123",
        "from_station": "Lisboa Santa Apolónia", "to_station": "Porto Campanhã", "departure_date": "2027-05-13",
        "departure_time": "09:00", "arrival_date": "2027-05-13", "arrival_time": "11:48", "confirmation": "CPX8M41T"}


def read_by_model(path: Path, *answers: dict):
    import asyncio

    from engine.bookings import aread_bookings
    from engine.errors import ModelOutputError
    from engine.llm.client import LLMClient
    from engine.llm.config import LLMConfig

    from .llm.scripted_server import Reply, ScriptedServer

    async def go(server):
        client = LLMClient(LLMConfig(base_url=server.base_url, model="gpt-4o-mini", timeout_s=5))
        try:
            return await aread_bookings(path, client, today=TODAY, legs=True)
        except (InputError, ModelOutputError) as exc:
            return exc
        finally:
            await client.close()

    with ScriptedServer([Reply(content=json.dumps(a)) for a in answers]) as server:
        return asyncio.run(go(server)), server.chat_requests()


def test_a_pdf_ticket_is_read_by_the_model_on_its_stations_clock(tmp_path) -> None:
    found, requests = read_by_model(ticket_pdf(tmp_path / "bilhete.pdf"), {"flights": [], "hotel": None, "rides": [RIDE]})
    (leg,) = found.legs
    assert (found.source, found.read_by, leg.mode, leg.number) == ("pdf", "model", "train", "AP 123")
    assert leg.departure == datetime(2027, 5, 13, 9, 0, tzinfo=LISBON_TZ)  # Lisbon's clock, not the model's
    assert leg.arrival == datetime(2027, 5, 13, 11, 48, tzinfo=LISBON_TZ)
    assert "train and bus tickets" in requests[0]["messages"][0]["content"]
    schema = requests[0]["response_format"]["json_schema"]["schema"]
    assert "rides" in schema["required"]


def test_a_ride_the_ticket_does_not_print_is_refused(tmp_path) -> None:
    from engine.bookings import RejectedReading
    invented = RIDE | {"to_station": "Braga"}
    error, requests = read_by_model(ticket_pdf(tmp_path / "bilhete.pdf"), *[{"flights": [], "hotel": None,
                                                                           "rides": [invented]}] * 2)
    assert isinstance(error, RejectedReading) and "rides[0].to_station 'Braga' does not appear" in str(error)
    assert len(requests) == 2


def test_a_ride_between_stations_of_unknown_zone_is_the_by_hand_line(tmp_path) -> None:
    far = RIDE | {"to_station": "Vigo Guixar"}
    error, _ = read_by_model(ticket_pdf(tmp_path / "bilhete.pdf", to_station="Vigo Guixar"),
                             {"flights": [], "hotel": None, "rides": [far]})
    assert isinstance(error, InputError)
    assert str(error) == ("bookings: bilhete.pdf: train AP 123: the time zone of 'Vigo Guixar' is not known; "
                          "enter the ticket by hand in the trip form (the leg's mode, stations and times)")
