"""Issue 21 §1: the traveller's booking confirmations in — schema.org JSON-LD and microdata in
saved e-mails (real-shaped samples in tests/data/bookings/), airline and hotel calendar files,
and PDF or text confirmations read by a model (the local OpenAI-compatible stand-in) whose every
value must be in the file. Hostile files and impossible values are one ``bookings`` line; no log
line carries a name, an e-mail address, a phone number or a whole confirmation code.
(The 10 MB e-mail's speed is measured by bench/bookings_bench.py.)"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from datetime import date, datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path

import pytest
import structlog

from engine.bookings import (RejectedReading, aparse_bookings, aread_bookings, detect_kind, parse_bookings,
                             read_bookings)
from engine.catalog import load_raw
from engine.errors import InputError, ModelOutputError, ModelUnavailable, one_line
from engine.llm.client import LLMClient
from engine.llm.config import LLMConfig, config_from_env
from engine.tools.fx import FixtureFX
from engine.tools.requests import FXRequest

from .llm.scripted_server import Reply, ScriptedServer, error_body

DATA = Path(__file__).resolve().parents[1] / "data" / "bookings"
TODAY = date(2026, 11, 23)
PRIVATE = ("4F7K2Q", "BRT58213", "WT-7Q2M9K", "Quintela", "QUINTELA", "Okafor", "MARTA", "Marta",
           "@mail.example", "555 0147", "5550147")


def read(name: str):
    return read_bookings(DATA / name, today=TODAY)


def refused(data: bytes | Path, name: str = "booking.eml") -> str:
    with pytest.raises(InputError) as info:
        if isinstance(data, Path):
            read_bookings(data, today=TODAY)
        else:
            parse_bookings(data, name, today=TODAY)
    assert info.value.field == "bookings"
    line = one_line(info.value)
    assert "\n" not in line
    return line


def usd_cents(amount: float, currency: str) -> int:
    rate = FixtureFX(load_raw().fx).rate(FXRequest(from_currency=currency, as_of=TODAY)).rate
    return round(amount * rate * 100)


def ld_page(*items: dict) -> bytes:
    blocks = "".join(f'<script type="application/ld+json">{json.dumps(i)}</script>' for i in items)
    return f"<!DOCTYPE html><html><head>{blocks}</head><body><p>Booking</p></body></html>".encode()


def flight_res(**changes) -> dict:
    trip = {"@type": "Flight", "flightNumber": "202", "airline": {"@type": "Airline", "iataCode": "TP"},
            "departureAirport": {"@type": "Airport", "iataCode": "JFK"}, "departureTime": "2027-06-15T22:30:00-04:00",
            "arrivalAirport": {"@type": "Airport", "iataCode": "LIS"}, "arrivalTime": "2027-06-16T10:35:00+01:00"}
    trip.update(changes.pop("trip", {}))
    return {"@context": "https://schema.org", "@type": "FlightReservation", "reservationNumber": "4F7K2Q",
            "reservationFor": trip, **changes}


def hotel_res(**changes) -> dict:
    place = {"@type": "Hotel", "name": "Hotel Britania", "address": "Rua Rodrigues Sampaio 17, Lisboa"}
    place.update(changes.pop("place", {}))
    return {"@context": "https://schema.org", "@type": "LodgingReservation", "reservationNumber": "BRT58213",
            "reservationFor": place, "checkinTime": "2027-06-16", "checkoutTime": "2027-06-21", **changes}


# -- e-mails with markup -----------------------------------------------------------------------------
def test_an_airline_mail_gives_its_flights_from_json_ld_in_quoted_printable_html() -> None:
    found = read("tap_jfk_lis.eml")
    assert (found.source, found.read_by, found.skipped) == ("email", "markup", {})
    out, back = found.bookings.flights
    assert found.bookings.hotel is None
    assert (out.carrier, out.flight_number, out.origin, out.dest) == ("TAP Air Portugal", "TP 202", "JFK", "LIS")
    assert out.departure.isoformat() == "2027-06-15T22:30:00-04:00"
    assert out.arrival.isoformat() == "2027-06-16T10:35:00+01:00"
    assert back.flight_number == "TP 201" and back.departure.isoformat() == "2027-06-21T15:30:00+01:00"
    assert back.arrival.isoformat() == "2027-06-21T18:05:00-04:00"  # no offset in the mail: JFK's clock
    assert {f.confirmation for f in found.bookings.flights} == {"4F7K2Q"} and {f.source for f in (out, back)} == {"email"}
    # two passengers × two flights, each repeating the booking's USD 1,286.40: two flights, the total once
    assert out.price_usd_cents + back.price_usd_cents == 128640 and not out.paid
    summary = found.summary()
    assert "TP 202 JFK→LIS 2027-06-15 22:30" in summary and "4F••••" in summary and "split" in summary
    assert not any(p in summary for p in PRIVATE)


def test_a_hotel_mail_gives_its_stay_from_microdata_in_a_base64_part() -> None:
    found = read("britania_microdata.eml")
    hotel = found.bookings.hotel
    assert found.read_by == "markup" and found.bookings.flights == []
    assert hotel.name == "Hotel Britania"
    assert hotel.address == "Rua Rodrigues Sampaio 17, 1150-278 Lisboa, Portugal"
    assert (hotel.geo.lat, hotel.geo.lon) == (38.7209, -9.1456)
    assert (hotel.checkin, hotel.checkout, hotel.confirmation) == (date(2027, 6, 16), date(2027, 6, 21), "BRT58213")
    assert hotel.price_usd_cents == usd_cents(1240.0, "EUR")
    assert "EUR prices converted" in found.summary() and "(5 nights)" in found.summary()
    assert not any(p in found.summary() for p in PRIVATE)


def test_a_booking_sites_graph_counts_what_is_not_planned() -> None:
    found = read("agency_graph.eml")
    assert found.skipped == {"TrainReservation": 1, "RentalCarReservation": 1, "EventReservation without a place": 1,
                             "cancelled reservation": 1, "malformed JSON-LD": 1}
    hotel = found.bookings.hotel
    assert (hotel.name, hotel.address) == ("Pestana Vintage Porto", "Praça da Ribeira 1, Porto, Portugal")
    assert hotel.price_usd_cents == usd_cents(412.5, "GBP") and found.bookings.flights == []
    assert "skipped: EventReservation without a place 1, RentalCarReservation 1, TrainReservation 1" \
        in found.summary()


def test_a_saved_web_page_and_schema_org_variants() -> None:
    page = ld_page({"@context": "https://schema.org", "@graph": [
        {"@type": "ReservationPackage", "subReservation": [
            flight_res(trip={"flightNumber": "TP0202", "airline": "TAP", "departureAirport": "JFK",
                             "arrivalAirport": "LIS", "departureTime": "2027-06-16T02:30:00Z"},
                       totalPrice=612, priceCurrency="usd"),
            hotel_res(place={"geo": {"@type": "GeoCoordinates", "latitude": "38.7209", "longitude": "-9.1456"}},
                      totalPrice={"@type": "PriceSpecification", "price": "1.240,00", "priceCurrency": "EUR"})]}]})
    found = parse_bookings(page, "My trip.html", today=TODAY)
    assert (found.source, detect_kind(page, "x.html")) == ("html", "html")
    flight = found.bookings.flights[0]
    assert flight.flight_number == "TP 202" and flight.carrier == "TP" and flight.price_usd_cents == 61200
    assert flight.departure.isoformat() == "2027-06-15T22:30:00-04:00"  # UTC moved onto JFK's clock
    assert found.bookings.hotel.price_usd_cents == usd_cents(1240.0, "EUR")


def test_a_price_in_a_currency_without_a_rate_is_left_out_and_said() -> None:
    found = parse_bookings(ld_page(hotel_res(totalPrice="980", priceCurrency="CHF")), "b.html", today=TODAY)
    assert found.bookings.hotel.price_usd_cents is None
    assert "price in 'CHF' not converted (no exchange rate): enter it in USD" in found.summary()


# -- calendar files ------------------------------------------------------------------------------------
def test_an_airline_calendar_file_gives_its_flights() -> None:
    found = read("tap_itinerary.ics")
    assert (found.source, found.read_by) == ("ics", "calendar")
    assert found.skipped == {"calendar event (not a flight or hotel)": 1}  # the check-in reminder
    out, back = found.bookings.flights
    assert (out.flight_number, out.origin, out.dest, out.confirmation) == ("TP 202", "JFK", "LIS", "4F7K2Q")
    assert out.departure.isoformat() == "2027-06-15T22:30:00-04:00" and out.arrival.isoformat() == "2027-06-16T10:35:00+01:00"
    assert (back.flight_number, back.origin, back.dest) == ("TP 201", "LIS", "JFK")
    assert back.departure.isoformat() == "2027-06-21T15:30:00+01:00"  # written in UTC, read on Lisbon's clock
    assert back.arrival.isoformat() == "2027-06-21T18:05:00-04:00"


def test_a_hotel_calendar_file_gives_the_stay() -> None:
    hotel = read("britania_stay.ics").bookings.hotel
    assert (hotel.name, hotel.checkin, hotel.checkout) == ("Hotel Britania", date(2027, 6, 16), date(2027, 6, 21))
    assert hotel.address.startswith("Rua Rodrigues Sampaio 17") and hotel.geo.lat == 38.7209
    assert hotel.confirmation == "BRT58213"


def ics(*events: str) -> bytes:
    body = "".join(f"BEGIN:VEVENT\r\nUID:{n}@x.example\r\nDTSTAMP:20261101T000000Z\r\n{e}END:VEVENT\r\n"
                   for n, e in enumerate(events))
    return f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n{body}END:VCALENDAR\r\n".encode()


def test_separate_check_in_and_check_out_events_make_one_stay() -> None:
    data = ics("SUMMARY:Check-in: Hotel Britania\r\nDTSTART;TZID=Europe/Lisbon:20270616T150000\r\n"
               "DTEND;TZID=Europe/Lisbon:20270616T153000\r\n",
               "SUMMARY:Check-out: Hotel Britania\r\nDTSTART;TZID=Europe/Lisbon:20270621T110000\r\n"
               "DTEND;TZID=Europe/Lisbon:20270621T113000\r\n",
               "SUMMARY:Dinner with friends\r\nDTSTART:20270617T190000\r\n")
    found = parse_bookings(data, "stay.ics", today=TODAY)
    assert (found.bookings.hotel.checkin, found.bookings.hotel.checkout) == (date(2027, 6, 16), date(2027, 6, 21))
    assert found.skipped == {"calendar event (not a flight or hotel)": 1}


def test_a_mail_without_markup_is_read_from_its_calendar_attachment() -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "TAP <no-reply@mail.tap.example>", "m@mail.example", "Your trip"
    msg.set_content("Your itinerary is attached.")
    msg.add_attachment((DATA / "tap_itinerary.ics").read_bytes(), maintype="text", subtype="calendar",
                       filename="itinerary.ics")
    found = parse_bookings(msg.as_bytes(), "trip.eml", today=TODAY)
    assert (found.source, found.read_by) == ("email", "calendar")
    assert [f.flight_number for f in found.bookings.flights] == ["TP 202", "TP 201"]


# -- the model path --------------------------------------------------------------------------------------
TICKET = {"flights": [
    {"airline": "TAP Air Portugal", "flight_number": "TP 202", "origin": "JFK", "dest": "LIS",
     "departure_date": "2027-06-15", "departure_time": "22:30", "arrival_date": "2027-06-16", "arrival_time": "10:35",
     "confirmation": "4F7K2Q"},
    {"airline": "TAP Air Portugal", "flight_number": "TP201", "origin": "LIS", "dest": "JFK",
     "departure_date": "2027-06-21", "departure_time": "15:30", "arrival_date": "2027-06-21", "arrival_time": "18:05",
     "confirmation": "4F7K2Q"}], "hotel": None}


def answer(doc: dict, **flight0) -> Reply:
    doc = json.loads(json.dumps(doc))
    doc["flights"][0].update(flight0)
    return Reply(content=json.dumps(doc))


def with_model(script, path: Path = DATA / "tap_eticket.txt"):
    """(the import or the error raised, the chat requests the stand-in received)."""
    async def go(server):
        client = LLMClient(LLMConfig(base_url=server.base_url, model="gpt-4o-mini", timeout_s=5))
        try:
            return await aread_bookings(path, client, today=TODAY)
        except (InputError, ModelOutputError) as exc:
            return exc
        finally:
            await client.close()

    with ScriptedServer(script) as server:
        outcome = asyncio.run(go(server))
        return outcome, server.chat_requests()


def test_a_text_confirmation_is_read_by_the_model_with_a_strict_schema() -> None:
    found, requests = with_model([answer(TICKET)])
    assert (found.source, found.read_by) == ("text", "model") and len(requests) == 1
    out, back = found.bookings.flights
    assert (out.flight_number, out.carrier, out.confirmation) == ("TP 202", "TAP Air Portugal", "4F7K2Q")
    assert out.departure.isoformat() == "2027-06-15T22:30:00-04:00"  # the airport's zone, not the model's
    assert back.flight_number == "TP 201" and back.arrival.isoformat() == "2027-06-21T18:05:00-04:00"
    fmt = requests[0]["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    assert fmt["json_schema"]["schema"]["additionalProperties"] is False
    shown = requests[0]["messages"][1]["content"]
    assert "TP 202" in shown and "@mail.example" not in shown and "555 0147" not in shown


def test_a_model_that_invents_a_flight_number_is_refused() -> None:
    error, requests = with_model([answer(TICKET, flight_number="TP 209"), answer(TICKET, flight_number="TP 209")])
    assert isinstance(error, RejectedReading) and error.reason == "invalid_model_output"
    line = one_line(error)
    assert "flights[0].flight_number 'TP 209' does not appear in the text" in line
    assert line.endswith("hotel, address and dates)") and "enter it by hand in the trip form" in line
    assert len(requests) == 2  # one re-ask, told what was not in the text
    assert "'TP 209' does not appear in the text" in requests[1]["messages"][-1]["content"]


def test_a_model_that_corrects_itself_when_re_asked_is_believed() -> None:
    found, requests = with_model([answer(TICKET, origin="EWR", departure_time="21:30"), answer(TICKET)])
    assert len(requests) == 2 and [f.origin for f in found.bookings.flights] == ["JFK", "LIS"]
    retry = requests[1]["messages"][-1]["content"]
    assert "flights[0].origin 'EWR'" in retry and "flights[0].departure_time 21:30" in retry


@pytest.mark.parametrize("change, field", [
    ({"departure_date": "2027-06-14"}, "departure_date 2027-06-14"),
    ({"confirmation": "ZZ9ZZ9"}, "flights[0].confirmation does not appear"),
    ({"airline": "Iberia"}, "airline 'Iberia'"),
    ({"arrival_date": "2027-06-19"}, "arrival_date 2027-06-19"),
])
def test_every_field_the_model_gives_must_be_in_the_text(change, field) -> None:
    error, _ = with_model([answer(TICKET, **change), answer(TICKET, **change)])
    assert isinstance(error, RejectedReading) and field in str(error)
    assert "ZZ9ZZ9" not in str(error)  # codes are never repeated, even the model's


def test_values_are_found_as_confirmations_write_them() -> None:
    from engine.bookings.grounding import fold, has_date, has_flight, has_time, has_words

    hay = fold("Vol TP-0202 dép. 15JUN, arr. June 16th 10:35 PM; retour 21/06/2027 à 15h30 — Hôtel Britânia")
    assert has_flight(hay, "TP 202") and not has_flight(hay, "TP 20") and not has_flight(hay, "P 202")
    assert has_date(hay, date(2027, 6, 15)) and has_date(hay, date(2027, 6, 16)) and has_date(hay, date(2027, 6, 21))
    assert not has_date(hay, date(2027, 6, 5)) and not has_date(hay, date(2027, 7, 15))
    assert has_time(hay, "22:35") and not has_time(hay, "10:35") and has_time(hay, "15:30")
    assert has_words(hay, "Hotel Britania") and not has_words(hay, "Britan")
    assert not has_time(fold("departs in 2027"), "20:27")  # a year is not a clock


def test_an_answer_invalid_for_the_schema_twice_is_refused() -> None:
    error, requests = with_model([Reply(content='{"flights": "TP 202"}'), Reply(content="not json")])
    assert isinstance(error, RejectedReading) and "enter it by hand" in str(error) and len(requests) == 2


def pdf_confirmation(path: Path) -> Path:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    for line in ("HOTEL BRITANIA - Reservation confirmation", "Rua Rodrigues Sampaio 17, 1150-278 Lisboa",
                 "Guest: Marta Quintela   Phone: +1 212 555 0147", "E-mail: marta.quintela@mail.example",
                 "Reservation number: BRT58213", "Arrival: Wednesday, 16 June 2027 (check-in from 15:00)",
                 "Departure: Monday, 21 June 2027 (check-out until 12:00)", "Deluxe Double, 5 nights, EUR 1.240,00"):
        pdf.cell(0, 8, line, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


def test_a_pdf_confirmation_is_read_by_the_model(tmp_path) -> None:
    stay = {"flights": [], "hotel": {"name": "Hotel Britania", "address": "Rua Rodrigues Sampaio 17, 1150-278 Lisboa",
                                     "checkin_date": "2027-06-16", "checkout_date": "2027-06-21",
                                     "confirmation": "BRT58213"}}
    found, requests = with_model([Reply(content=json.dumps(stay))], pdf_confirmation(tmp_path / "britania.pdf"))
    hotel = found.bookings.hotel
    assert (found.source, hotel.name, hotel.checkin, hotel.checkout) == ("pdf", "Hotel Britania", date(2027, 6, 16),
                                                                          date(2027, 6, 21))
    assert hotel.geo is None and hotel.source == "pdf"
    assert "Reservation number: BRT58213" in requests[0]["messages"][1]["content"]
    invented = json.loads(json.dumps(stay))
    invented["hotel"]["name"] = "Hotel Avenida Palace"
    error, _ = with_model([Reply(content=json.dumps(invented))] * 2, tmp_path / "britania.pdf")
    assert isinstance(error, RejectedReading) and "hotel.name 'Hotel Avenida Palace'" in str(error)


def test_without_a_model_the_line_says_to_enter_it_by_hand(monkeypatch) -> None:
    expected = "bookings: could not read this booking from tap_eticket.txt (no model is set up"
    with pytest.raises(InputError) as no_client:
        asyncio.run(aread_bookings(DATA / "tap_eticket.txt", None, today=TODAY))
    assert one_line(no_client.value).startswith(expected)
    assert "enter it by hand in the trip form" in one_line(no_client.value)
    sync = refused(DATA / "tap_eticket.txt")
    assert "reading it takes a model" in sync and "enter it by hand" in sync

    def configured():  # the configured model, offline and not on this machine
        return LLMClient(config_from_env({"TRIPWRIGHT_OFFLINE": "1", "OPENAI_BASE_URL": "https://api.openai.com/v1"}))
    with pytest.raises(InputError) as offline:
        asyncio.run(aread_bookings(DATA / "tap_eticket.txt", configured, today=TODAY))
    assert "the model cannot be used: TRIPWRIGHT_OFFLINE=1" in one_line(offline.value)
    with pytest.raises(ModelUnavailable):
        configured()


def test_a_model_that_refuses_the_key_is_the_by_hand_line() -> None:
    error, _ = with_model([Reply(status=401, body=error_body(401, "bad key"))])
    assert isinstance(error, InputError) and "the model cannot be used: HTTP 401" in str(error)
    assert "enter it by hand" in str(error)


def test_a_model_that_finds_nothing_is_the_by_hand_line() -> None:
    error, _ = with_model([Reply(content='{"flights": [], "hotel": null}')])
    assert isinstance(error, InputError) and "the model found no flight or hotel booking" in str(error)


def test_a_mail_without_markup_goes_to_the_model_with_its_text() -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "TAP <no-reply@mail.tap.example>", "m@mail.example", "E-ticket"
    msg.set_content((DATA / "tap_eticket.txt").read_text())

    async def go(server):
        client = LLMClient(LLMConfig(base_url=server.base_url, model="gpt-4o-mini", timeout_s=5))
        try:
            return await aparse_bookings(msg.as_bytes(), "ticket.eml", client, today=TODAY)
        finally:
            await client.close()

    with ScriptedServer([answer(TICKET)]) as server:
        found = asyncio.run(go(server))
    assert (found.source, found.read_by, len(found.bookings.flights)) == ("email", "model", 2)


# -- impossible values and hostile files ------------------------------------------------------------------
@pytest.mark.parametrize("item, message", [
    (flight_res(trip={"arrivalTime": "2027-06-15T20:00:00-04:00"}),
     "flight TP 202 (4F••••): arrival 2027-06-16 01:00 (UTC+01:00) LIS is not after departure "
     "2027-06-15 22:30 (UTC-04:00) JFK"),
    (flight_res(trip={"arrivalAirport": {"iataCode": "XQZ"}}),
     "flight TP 202 (4F••••): arrival airport 'XQZ' is not an IATA code of an airport with scheduled flights"),
    (flight_res(trip={"departureTime": "1999-06-15T22:30:00-04:00", "arrivalTime": "1999-06-16T10:35:00+01:00"}),
     "flight TP 202 (4F••••): departure 1999-06-15 is not a date a trip from 2026-11-23 can use"),
    (flight_res(trip={"arrivalTime": "2027-06-18T10:35:00+01:00"}), "arrival is 55 hours after departure"),
    (flight_res(trip={"flightNumber": "next Tuesday"}), "flight reservation 1: flight number 'next Tuesday' is not one"),
    (flight_res(trip={"airline": {"name": "TAP Air Portugal"}}),
     "flight number '202' without its airline's code (airline.iataCode)"),
    (flight_res(trip={"departureTime": "2027-06-15"}), "flight TP 202: departureTime '2027-06-15' has no time of day"),
    (flight_res(trip={"departureTime": "soon-ish T"}), "departureTime 'soon-ish T' is not an ISO 8601 date and time"),
    (flight_res(trip={"arrivalAirport": {"iataCode": "JFK"}}), "departure and arrival airports are both JFK"),
    (flight_res(reservationNumber="X" * 40), "the confirmation code is longer than 32 characters"),
    (hotel_res(checkoutTime="2027-06-12"),
     "hotel 'Hotel Britania' (BR••••••): check-out 2027-06-12 is not after check-in 2027-06-16"),
    (hotel_res(checkoutTime="2028-01-12"), "210 nights; a stay of at most 90 is planned"),
    (hotel_res(place={"geo": {"latitude": 138.7, "longitude": -9.1}}), "its coordinates 138.7, -9.1 are outside"),
    (hotel_res(place={"name": ""}), "hotel reservation 1: no hotel name"),
    (hotel_res(checkinTime=None), "hotel 'Hotel Britania': no checkinTime"),
])
def test_impossible_values_name_the_booking_and_the_field(item, message) -> None:
    line = refused(ld_page(item), "confirmation.html")
    assert line.startswith("bookings: confirmation.html: ") and message in line, line
    assert "4F7K2Q" not in line and "BRT58213" not in line


def test_a_file_of_trains_only_has_no_booking_to_plan() -> None:
    train = {"@context": "https://schema.org", "@type": "TrainReservation", "reservationNumber": "CP123",
             "reservationFor": {"@type": "TrainTrip", "trainNumber": "AP 131"}}
    assert refused(ld_page(train), "train.html") == ("bookings: train.html: holds no flight, hotel or event booking "
                                                     "(TrainReservation: 1)")


def test_more_flights_than_a_trip_holds_are_refused() -> None:
    start = datetime(2027, 6, 1, 8, 0, tzinfo=timezone.utc)
    items = [flight_res(trip={"flightNumber": str(100 + i), "departureTime": (start + timedelta(days=i)).isoformat(),
                              "arrivalTime": (start + timedelta(days=i, hours=8)).isoformat()}) for i in range(9)]
    assert "holds 9 flights; at most 8 are planned from one trip" in refused(ld_page(*items), "many.html")


def test_hostile_markup_is_bounded_and_counted() -> None:
    good = f'<script type="application/ld+json">{json.dumps(flight_res())}</script>'
    deep = '<script type="application/ld+json">' + "[" * 200_000 + "</script>"
    huge_int = '<script type="application/ld+json">{"n": ' + "9" * 5000 + "}</script>"
    many = '<script type="application/ld+json">{"@type": "Thing"}</script>' * 30
    nested = '<div itemscope itemtype="https://schema.org/Thing"><b itemprop="x" itemscope>' * 3000
    unclosed = '<script type="application/ld+json">{' * 1000
    page = f"<html><head>{good}{deep}{huge_int}{many}</head><body>{nested}{unclosed}</body></html>".encode()
    found = parse_bookings(page, "hostile.html", today=TODAY)
    assert [f.flight_number for f in found.bookings.flights] == ["TP 202"]
    assert found.skipped["malformed JSON-LD"] == 2  # too deep, a number past int's digit limit
    assert found.skipped["JSON-LD past the block cap"] == 13 + 1000  # 20 read; the rest, unclosed too, counted
    assert found.skipped["microdata past the size cap"] == 1
    unclosed_only = parse_bookings(f"<html><head>{good}{unclosed}</head></html>".encode(), "h.html", today=TODAY)
    assert unclosed_only.skipped == {"malformed JSON-LD": 1}  # no script ends after it: the scan stops


@pytest.mark.parametrize("data, name, message", [
    (b"", "x.eml", "is empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "photo.png", "is not an e-mail (.eml), web page (.html), calendar"),
    (b"\x00\x01binary", "notes.txt", "is a binary file"),
    (b"%PDF-1.4\n garbage", "ticket.pdf", "is not a readable PDF"),
    (b"BEGIN:VCALENDAR\r\nthis is not\r\n", "cal.ics", "is not a readable calendar file"),
    (ics(*["SUMMARY:x\r\nDTSTART:20270601T100000Z\r\n"] * 201), "big.ics", "holds 201 events"),
    (b"BEGIN:VCALENDAR\r\n" + b"X" * (1024 * 1024 + 1), "huge.ics", "is larger than 1024 KB"),
    (b"<html><body>Thanks for booking</body></html>", "page.html", "could not read this booking from page.html"),
    (ics("SUMMARY:Hotel Britania\r\nDTSTART;VALUE=DATE:20270616\r\nDTEND;VALUE=DATE:20270621\r\nGEO:a;b\r\n"),
     "stay.ics", "hotel 'Hotel Britania': its GEO is not 'latitude;longitude'"),
    (ics("SUMMARY:Flight XY 123 ABC-DEF\r\nDTSTART:20270616T100000Z\r\nDTEND:20270616T120000Z\r\n"), "f.ics",
     "flight XY 123: departure airport 'ABC' is not an IATA code of an airport with scheduled flights"),
])
def test_bad_files_are_one_line(data, name, message) -> None:
    assert message in refused(data, name)


def test_a_fifo_a_folder_and_a_missing_file_are_refused(tmp_path) -> None:
    fifo = tmp_path / "booking.eml"
    os.mkfifo(fifo)
    outcome: list[str] = []
    reader = threading.Thread(target=lambda: outcome.append(refused(fifo)), daemon=True)
    reader.start()
    reader.join(5)
    if reader.is_alive():
        with open(fifo, "wb"):
            pass
        pytest.fail("reading a FIFO blocked")
    assert "not a regular file" in outcome[0]
    assert "is a folder" in refused(tmp_path)
    assert "no such file" in refused(tmp_path / "gone.eml")


def test_the_kind_is_found_by_content_first() -> None:
    eml = (DATA / "tap_jfk_lis.eml").read_bytes()
    assert detect_kind(eml, "download.txt") == "email"
    assert detect_kind((DATA / "tap_itinerary.ics").read_bytes(), "x.txt") == "ics"
    assert detect_kind(b"%PDF-1.7 ...", "x.eml") == "pdf"
    assert detect_kind(b"Booking reference: 4F7K2Q", "ticket.txt") == "text"
    assert detect_kind(b"Subject: hello", "notes.md") is None


# -- what reaches the logs ----------------------------------------------------------------------------------
def test_logs_carry_masked_codes_and_no_names_mails_or_phones(tmp_path) -> None:
    with structlog.testing.capture_logs() as logs:
        for name in ("tap_jfk_lis.eml", "britania_microdata.eml", "agency_graph.eml", "tap_itinerary.ics"):
            read(name)
        with_model([answer(TICKET)])
    lines = [json.dumps(entry, default=str, ensure_ascii=False) for entry in logs]
    assert sum("bookings_read" in line for line in lines) == 5
    assert any("4F••••" in line for line in lines) and any("BR••••••" in line for line in lines)
    leaked = [(p, line) for line in lines for p in PRIVATE if p in line]
    assert leaked == []
