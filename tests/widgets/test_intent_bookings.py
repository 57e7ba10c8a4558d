"""The trip form's "I already have" section (issue 21 §1 by hand): a flight there and back and a
hotel become the city intent's bookings, each end on its airport's clock; problems are shown under
the row they are about, naming it; a shown version's bookings come back unchanged."""

from __future__ import annotations

import os
import shutil
from datetime import date, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import QDate

from engine.catalog import default_catalog
from engine.errors import InputError
from engine.models import IntentV1
from engine.roadtrip.routes import load_routes
from tests.widgets.test_panels_intent import fill_paris
from widgets.booking_fields import set_wall_time, wall_time
from widgets.intent_bookings import ROAD_HINT, SECTION_HINT
from widgets.intent_form import IntentForm

TODAY = date(2026, 11, 23)
# Real-shaped, fictional (as tests/engine/test_booked_trip.py): the airline, airports and hotel are real.
OUT = {"carrier": "Air France", "flight_number": "AF 23", "origin": "JFK", "dest": "CDG",
       "departure": "2027-06-14T18:30:00-04:00", "arrival": "2027-06-15T07:50:00+02:00",
       "confirmation": "QX7K2M", "price_usd_cents": 61200, "source": "email"}
BACK = {"carrier": "Air France", "flight_number": "AF 22", "origin": "CDG", "dest": "JFK",
        "departure": "2027-06-19T16:05:00+02:00", "arrival": "2027-06-19T18:20:00-04:00",
        "confirmation": "QX7K2M", "price_usd_cents": 58800, "source": "email"}
HOTEL = {"name": "Hôtel Jeanne d'Arc Le Marais", "address": "3 Rue de Jarente, 75004 Paris",
         "geo": {"lat": 48.85604, "lon": 2.36289}, "checkin": "2027-06-15", "checkout": "2027-06-19",
         "confirmation": "HJ-88213", "price_usd_cents": 98000, "paid": True, "source": "email"}


@pytest.fixture
def form(qtbot):
    widget = IntentForm(default_catalog(), load_routes(), home_airport="JFK", today=TODAY)
    qtbot.addWidget(widget)
    widget.resize(420, 1400)
    widget.show()
    qtbot.waitExposed(widget)
    fill_paris(widget)  # 2027-06-15 to 2027-06-19
    return widget


def shot(qtbot, widget, tmp_path: Path, name: str) -> Path:
    qtbot.wait(100)
    path = tmp_path / f"{name}.png"
    assert widget.grab().save(str(path))
    if os.environ.get("TRIPWRIGHT_SHOT_DIR"):
        shutil.copy(path, Path(os.environ["TRIPWRIGHT_SHOT_DIR"]) / path.name)
    return path


def enter_flight(rows, number, origin, dest, departs, lands, airline="Air France"):
    rows.airline.setText(airline)
    rows.number.setText(number)
    rows.origin.setText(origin)
    rows.dest.setText(dest)
    set_wall_time(rows.departs, departs)
    set_wall_time(rows.lands, lands)


def enter_af(form):
    enter_flight(form.flight_out, "af23", "jfk", "CDG", datetime(2027, 6, 14, 18, 30), datetime(2027, 6, 15, 7, 50))
    enter_flight(form.flight_back, "AF 22", "CDG", "JFK", datetime(2027, 6, 19, 16, 5), datetime(2027, 6, 19, 18, 20))


def problem(form) -> dict[str, str]:
    with pytest.raises(InputError):
        form.current_intent()
    return form.field_errors()


def test_collapsed_until_used_and_a_road_trip_has_the_motel_only(form):
    assert form.bookings_box.isVisible() and not form.bookings_body.isVisible()
    assert form.bookings_note.text() == SECTION_HINT
    assert form.current_intent().bookings is None  # nothing entered: no bookings
    form.expand_bookings()
    assert form.bookings_body.isVisible() and form.flight_out.number.isVisible()
    form.set_mode("road_trip")
    assert form.bookings_box.isVisible() and form.bookings_note.text() == ROAD_HINT
    assert not form.flight_out.number.isVisible() and not form.flight_back.number.isVisible()
    assert form.hotel_name.isVisible()
    form.set_mode("city")
    assert form.bookings_box.isVisible() and form.flight_out.number.isVisible()


def test_a_road_trips_motel_is_its_booking_on_a_night_of_the_drive(qtbot, form, tmp_path):
    """The Blue Swallow Motel (Tucumcari, on Route 66; its point from Wikipedia) on the third night."""
    form.set_mode("road_trip")
    form.origin_edit.setText("Los Angeles")
    form.terminus_edit.setText("Chicago")
    form.road_start_edit.setDate(QDate(2027, 5, 3))
    form.road_days_spin.setValue(7)
    form.expand_bookings()
    enter_af(form)  # typed on the city tab earlier, say: a road trip sends no flights
    assert form.hotel_checkin.date() == QDate(2027, 5, 3) and form.hotel_checkout.date() == QDate(2027, 5, 4)
    form.hotel_name.setText("Blue Swallow Motel")
    form.hotel_checkin.setDate(QDate(2027, 5, 5))
    form.hotel_checkout.setDate(QDate(2027, 5, 6))
    form.hotel_geo.setText("35.171866, -103.716421")
    form.hotel_code.setText("BSW20418")
    intent = form.current_intent()
    assert intent.mode == "road_trip" and intent.bookings.flights == []
    hotel = intent.bookings.hotel
    assert (hotel.name, hotel.checkin, hotel.geo.lat, hotel.confirmation) == ("Blue Swallow Motel", date(2027, 5, 5),
                                                                             35.171866, "BSW20418")
    assert form.bookings_note.text() == "Blue Swallow Motel"
    shot(qtbot, form.bookings_box, tmp_path, "form_road_motel")
    form.hotel_checkin.setDate(QDate(2027, 5, 9))  # the last day ends in Chicago: no night
    form.hotel_checkout.setDate(QDate(2027, 5, 10))
    assert "the road trip starts 2027-05-03 and lasts 7 day(s)" in problem(form)["hotel_dates"]


def test_blank_rows_follow_the_trips_first_and_last_day(form):
    form.start_edit.setDate(QDate(2027, 7, 1))
    assert wall_time(form.flight_out.departs).date() == date(2027, 7, 1)
    assert wall_time(form.flight_back.departs).date() == date(2027, 7, 5)
    assert form.hotel_checkin.date() == QDate(2027, 7, 1) and form.hotel_checkout.date() == QDate(2027, 7, 5)


def test_flights_there_and_back_on_each_airports_clock(form):
    form.expand_bookings()
    enter_af(form)
    booked = form.current_intent().bookings
    there, back = booked.flights
    assert (there.carrier, there.flight_number, there.origin, there.dest) == ("Air France", "AF23", "JFK", "CDG")
    assert there.departure == datetime.fromisoformat("2027-06-14T18:30:00-04:00")  # JFK's summer clock
    assert there.arrival == datetime.fromisoformat("2027-06-15T07:50:00+02:00")  # CDG's
    assert back.departure.utcoffset().total_seconds() == 7200 and back.source == there.source == "manual"
    assert booked.hotel is None
    assert form.bookings_note.text() == "AF23, AF 22"


def test_a_hotel_needs_its_coordinates_for_now(qtbot, form, tmp_path):
    form.expand_bookings()
    enter_af(form)
    form.hotel_name.setText("Hôtel Jeanne d'Arc Le Marais")
    errors = problem(form)
    assert errors == {"hotel_geo": "Hotel location: coordinates are needed for now (addresses are not looked up): "
                                   "paste \u201clat, lon\u201d from a map, e.g. 48.8560, 2.3629"}
    assert form.field_widget("hotel_geo") is form.hotel_geo and form.hotel_geo.property("invalid") is True
    assert form.error_label("hotel_geo").isVisible()
    path = shot(qtbot, form.bookings_box, tmp_path, "form_i_already_have_errors")
    assert path.stat().st_size > 0
    form.hotel_geo.setText("48.85604, 2.36289")
    form.hotel_code.setText("HJ-88213")
    form.hotel_price.setText("980")
    hotel = form.current_intent().bookings.hotel
    assert (hotel.geo.lat, hotel.geo.lon, hotel.checkin, hotel.checkout) == (48.85604, 2.36289, date(2027, 6, 15),
                                                                             date(2027, 6, 19))
    assert (hotel.confirmation, hotel.price_usd_cents, hotel.paid, hotel.source) == ("HJ-88213", 98000, False,
                                                                                     "manual")
    form.hotel_price.clear()
    form.hotel_paid.setChecked(True)
    assert form.current_intent().bookings.hotel.paid and form.field_errors() == {}


@pytest.mark.parametrize("change, key, text", [
    (lambda f: f.flight_out.number.setText("Air France 23"), "out_flight",
     "Flight there: give the flight number as on the ticket, e.g. AF 23"),
    (lambda f: f.flight_out.airline.clear(), "out_flight", "Flight there: give the airline, e.g. Air France"),
    (lambda f: f.flight_back.dest.setText("QQQ"), "back_airports", "Flight back's airports: to: unknown airport 'QQQ'"),
    (lambda f: set_wall_time(f.flight_back.lands, datetime(2027, 6, 19, 9, 0)), "back_times",
     "Flight back's times: arrival must come after departure"),
    (lambda f: (set_wall_time(f.flight_out.departs, datetime(2027, 6, 15, 18, 30)),
                set_wall_time(f.flight_out.lands, datetime(2027, 6, 16, 7, 50))), "out_times",
     "Flight there's times: AF 23 lands Paris on 2027-06-16, but the trip's first day is 2027-06-15"),
    (lambda f: f.flight_out.dest.setText("LIS"), "out_airports",
     "Flight there's airports: AF 23 JFK\u2192LIS neither lands at nor leaves Paris's airports (CDG, ORY)"),
    (lambda f: (f.hotel_name.setText("Hotel"), f.hotel_geo.setText("48.85, 2.36"),
                f.hotel_checkin.setDate(QDate(2027, 6, 16))), "hotel_dates",
     "Hotel nights: Hotel is booked 2027-06-16 to 2027-06-19, but the trip runs 2027-06-15 to 2027-06-19"),
    (lambda f: (f.hotel_name.setText("Hotel"), f.hotel_geo.setText("north of the river")), "hotel_geo",
     "Hotel location: 'north of the river' is not \u201clat, lon\u201d (e.g. 48.8560, 2.3629)"),
    (lambda f: (f.hotel_name.setText("Hotel"), f.hotel_geo.setText("48.85, 2.36"), f.hotel_price.setText("lots")),
     "hotel_price", "Hotel price: give the whole stay's price in USD (e.g. 980), or leave it empty"),
], ids=["flight-number", "airline", "unknown-airport", "lands-first", "wrong-day", "other-city", "hotel-dates",
        "hotel-geo", "hotel-price"])
def test_each_problem_is_shown_under_its_row(form, change, key, text):
    form.expand_bookings()
    enter_flight(form.flight_out, "AF 23", "JFK", "CDG", datetime(2027, 6, 14, 18, 30), datetime(2027, 6, 15, 7, 50))
    enter_flight(form.flight_back, "AF 22", "CDG", "JFK", datetime(2027, 6, 19, 16, 5), datetime(2027, 6, 19, 18, 20))
    change(form)
    assert problem(form) == {key: text}
    assert form.error_label(key).isVisible()


def test_a_shown_versions_bookings_come_back_unchanged(form):
    data = IntentV1.model_validate(form.current_intent().model_dump() | {"bookings": {"flights": [BACK, OUT],
                                                                                       "hotel": HOTEL}})
    form.set_intent(data)
    assert form.bookings_body.isVisible()  # opened: there is something to show
    assert (form.flight_out.number.text(), form.flight_back.number.text()) == ("AF 23", "AF 22")  # by direction
    assert wall_time(form.flight_out.departs) == datetime(2027, 6, 14, 18, 30)
    assert form.hotel_geo.text() == "48.85604, 2.36289" and form.hotel_price.text() == "980.00"
    assert form.hotel_paid.isChecked() and form.hotel_code.text() == "HJ-88213"
    again = form.current_intent()
    assert again.bookings.hotel is data.bookings.hotel  # address and source "email" kept
    assert {f.source for f in again.bookings.flights} == {"email"}
    form.hotel_price.setText("1000")  # an edit makes it the traveller's own entry, address kept
    hotel = form.current_intent().bookings.hotel
    assert (hotel.price_usd_cents, hotel.source, hotel.address) == (100000, "manual", HOTEL["address"])


def test_saved_places_ride_along_while_the_city_stays(form):
    must = [{"name": "Shakespeare and Company", "geo": {"lat": 48.85257, "lon": 2.34713}, "source": "kml"}]
    shown = form.current_intent()
    shown = IntentV1.model_validate(shown.model_dump() | {"prefs": shown.prefs.model_dump() | {"must_see": must}})
    form.set_intent(shown)
    form.days_spin.setValue(4)  # other dates: the saved places stay
    assert [m.name for m in form.current_intent().prefs.must_see] == ["Shakespeare and Company"]
    form.city_combo.setCurrentText("Rome")  # another city: they do not
    assert form.current_intent().prefs.must_see == []


def test_reset_empties_and_closes_the_section(form):
    form.expand_bookings()
    enter_af(form)
    form.reset("JFK")
    assert not form.bookings_body.isVisible() and not form.flight_out.entered()
    assert form.bookings_note.text() == SECTION_HINT
