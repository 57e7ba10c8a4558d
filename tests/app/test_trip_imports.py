"""Issue 21 in the window: File ▸ Import places… / Import bookings… and files dropped on the window
add the traveller's saved places and confirmations to the shown city trip and re-plan it as a new
version (one line in the message bar says what the file held; anything wrong is one line and the
trip stays); the form's "I already have" flights are planned around; Export ▸ KML."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QFileDialog

from engine.errors import InputError
from tests.app.conftest import PLAN_TIMEOUT_MS, wait_task
from tests.app.test_exports import export_through_dialog
from tests.app.test_main_window import PARIS, ROUTE66, plan
from widgets.booking_fields import set_wall_time

DATA = Path(__file__).resolve().parents[1] / "data"
MY_MAPS = DATA / "places" / "paris_my_maps.kml"
TAP_MAIL = DATA / "bookings" / "tap_jfk_lis.eml"
MOTEL_MAIL = DATA / "bookings" / "blue_swallow_route66.eml"
PLACES_FILTER_TEXT = "*.kml *.kmz *.geojson *.json *.gpx *.csv"


def activities(version):
    return [a for day in version.itinerary.days for a in day.activities]


def choose_in_dialog(dialog: QFileDialog, path: Path) -> None:
    assert isinstance(dialog, QFileDialog) and dialog.isVisible()  # open(): non-modal to the event loop
    assert dialog.acceptMode() == QFileDialog.AcceptMode.AcceptOpen
    dialog.selectFile(str(path))
    dialog.accept()  # fileSelected: the import runs as an asyncSlot


def drop_on(window, widget, paths) -> QDropEvent:
    """A drag of ``paths`` entering the window over ``widget`` and dropped there, sent to the
    window's QWindow as the platform does: Qt picks the widget under the point that takes drops."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    point = widget.mapTo(window, widget.rect().center())
    enter = QDragEnterEvent(point, Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window.windowHandle(), enter)
    assert enter.isAccepted(), "the window refused the drag"
    drop = QDropEvent(QPointF(point), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                      Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window.windowHandle(), drop)
    return drop


def shot(qtbot, widget, path: Path) -> Path:
    qtbot.wait(100)  # posted layout requests first
    assert widget.grab().save(str(path))
    return path


@pytest.fixture
def paris_window(qtbot, make_window):
    window = make_window(size=(1800, 1000))  # wide: the form beside the map
    plan(qtbot, window, PARIS)
    return window


def test_import_places_from_the_file_menu_adds_them_as_a_new_version(qtbot, paris_window, tmp_path):
    window = paris_window
    before = window.trip.current
    assert not {"Shakespeare and Company"} & {a.name for a in activities(before)}
    dialog = window.choose_places_file()
    assert dialog is window.import_dialog and PLACES_FILTER_TEXT in dialog.nameFilters()[0]
    choose_in_dialog(dialog, MY_MAPS)
    qtbot.waitUntil(lambda: window.trip.current is not before and bool(window.message_bar.text()),
                    timeout=PLAN_TIMEOUT_MS)

    after = window.trip.current
    assert after.edit == "Added 5 saved places from paris_my_maps.kml"
    assert [m.name for m in after.intent.prefs.must_see] == ["Louvre Museum", "Sainte-Chapelle", "Musée d'Orsay",
                                                              "Café de Flore", "Shakespeare and Company"]
    acts = {a.name: a for a in activities(after)}
    assert acts["Shakespeare and Company"].provenance.data_source == "user"
    assert "Sainte-Chapelle" in acts
    assert window.trip.can_undo  # a new version: undo goes back to the plan without them
    line = window.message_bar.text()
    assert line.startswith("paris_my_maps.kml: 5 places from KML") and "matched to Paris's places" in line
    assert window.message_bar.level == "info" and "\n" not in line
    assert window.statusBar().currentMessage().startswith("Added 5 saved places from paris_my_maps.kml")
    assert window.itinerary_panel.itinerary() is after.itinerary
    shot(qtbot, window.message_bar, tmp_path / "message_bar_after_import.png")

    # The form keeps them: Plan from the form again is the same request, not a plan without them.
    assert window.intent_form.current_intent() == after.intent
    # The same file again adds nothing and plans nothing.
    wait_task(qtbot, window.imports.import_places(str(MY_MAPS)))
    assert window.trip.current is after and "already in the plan" in window.message_bar.text()


def test_bookings_for_another_city_are_one_line_and_the_trip_stays(qtbot, paris_window, tmp_path):
    window = paris_window
    before = window.trip.current
    dialog = window.choose_bookings_file()
    assert "*.eml" in dialog.nameFilters()[0]
    choose_in_dialog(dialog, TAP_MAIL)
    qtbot.waitUntil(lambda: window.message_bar.text().startswith("Could not add"), timeout=20_000)
    line = window.message_bar.text()
    assert line == ("Could not add the bookings in tap_jfk_lis.eml: TP 202 JFK\u2192LIS neither lands at nor "
                    "leaves Paris's airports (CDG, ORY)")
    assert window.message_bar.level == "error"
    assert window.trip.current is before and not window.trip.can_undo
    shot(qtbot, window.message_bar, tmp_path / "message_bar_bookings_error.png")


# A hotel's calendar file for the Paris trip's nights (shaped as tests/data/bookings/britania_stay.ics;
# the hotel and street are real, the code made up).
PARIS_STAY = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Hotel Jeanne d'Arc//Reservations//FR
BEGIN:VEVENT
UID:HJ88213@jeannedarc.example
DTSTAMP:20271102T140310Z
SUMMARY:Hotel Jeanne d'Arc Le Marais - stay
DTSTART;VALUE=DATE:20270615
DTEND;VALUE=DATE:20270619
LOCATION:3 Rue de Jarente\\, 75004 Paris\\, France
GEO:48.85604;2.36289
DESCRIPTION:Reservation number: HJ88213\\nCheck-in from 15:00.
END:VEVENT
END:VCALENDAR
"""


def test_a_hotel_booking_is_planned_around_and_shown_in_the_form(qtbot, paris_window, tmp_path):
    window = paris_window
    before = window.trip.current
    stay = tmp_path / "jeanne_darc.ics"
    stay.write_text(PARIS_STAY.replace("\n", "\r\n"))
    version = wait_task(qtbot, window.imports.import_bookings(str(stay)))
    assert version is window.trip.current and version is not before
    assert version.edit == "Added the bookings in jeanne_darc.ics"
    hotel = version.intent.bookings.hotel
    assert (hotel.name, hotel.checkin.isoformat(), hotel.source) == ("Hotel Jeanne d'Arc Le Marais", "2027-06-15",
                                                                     "ics")
    stays = [a for a in activities(version) if a.kind.value == "lodging"]
    assert stays and all(a.name == hotel.name and a.provenance.data_source == "user" for a in stays)
    line = window.message_bar.text()
    assert line.startswith("jeanne_darc.ics: calendar file (calendar events); hotel Hotel Jeanne d'Arc Le Marais "
                           "2027-06-15\u21922027-06-19 (4 nights)") and window.message_bar.level == "info"
    form = window.intent_form  # the shown version's booking, in "I already have"
    assert form.bookings_body.isVisible() and form.hotel_name.text() == hotel.name
    assert form.current_intent() == version.intent  # unchanged: the same request (source "ics" kept)


def test_a_ticket_dropped_on_the_window_is_an_evening_the_form_keeps(qtbot, paris_window, tmp_path):
    window = paris_window
    drop_on(window, window.map_view, [DATA / "bookings" / "garnier_giselle.eml"])
    qtbot.waitUntil(lambda: window.trip.current.intent.bookings is not None, timeout=PLAN_TIMEOUT_MS)
    version = window.trip.current
    ballet = [a for a in activities(version) if a.ref.startswith("booked_event_")]
    assert [(a.name, a.window.start.isoformat(), a.locked) for a in ballet] == [
        ("Giselle at Palais Garnier", "19:30:00", True)]
    from widgets.itinerary_model import kind_tag
    assert kind_tag(ballet[0], road_trip=False) == "Ticket"  # the itinerary's Kind column
    form = window.intent_form
    qtbot.waitUntil(lambda: "Giselle (17 Jun 19:30)" in form.bookings_note.text(), timeout=5000)
    shot(qtbot, form.bookings_box, tmp_path / "form_with_a_ticket.png")
    assert form.current_intent() == version.intent  # a plan from the form keeps the ticket


def test_a_hotel_booked_by_address_only_that_the_city_lists_is_planned(qtbot, paris_window, tmp_path):
    window = paris_window
    stay = tmp_path / "no_geo.ics"
    stay.write_text(PARIS_STAY.replace("GEO:48.85604;2.36289\n", ""))
    version = wait_task(qtbot, window.imports.import_bookings(str(stay)))
    assert version is window.trip.current
    listed = window.trip.current  # placed from Paris's own places to stay (no network)
    stays = [a for a in activities(listed) if a.kind.value == "lodging"]
    assert stays and (stays[0].geo.lat, stays[0].geo.lon) == (pytest.approx(48.85561), pytest.approx(2.36281))


def test_a_hotel_booked_by_address_only_is_completed_in_the_form(qtbot, paris_window, tmp_path):
    window = paris_window
    before = window.trip.current
    stay = tmp_path / "no_geo.ics"
    stay.write_text(PARIS_STAY.replace("GEO:48.85604;2.36289\n", "").replace(
        "Hotel Jeanne d'Arc Le Marais", "Hôtel du Petit Moulin"))
    assert wait_task(qtbot, window.imports.import_bookings(str(stay))) is None
    assert window.trip.current is before  # nothing planned yet
    assert window.message_bar.level == "warning" and window.message_bar.text() == (
        "no_geo.ics: Hôtel du Petit Moulin is booked by its address only: add its coordinates in the trip "
        "form's \u201cI already have\u201d (Where), then Plan.")
    form = window.intent_form
    assert form.hotel_name.text() == "Hôtel du Petit Moulin" and form.bookings_body.isVisible()
    assert form.field_errors()["hotel_geo"].startswith("Hotel location: coordinates are needed for now")
    shot(qtbot, form.bookings_box, tmp_path / "form_hotel_needs_coordinates.png")
    form.hotel_geo.setText("48.85604, 2.36289")
    qtbot.mouseClick(form.plan_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.trip.current is not before, timeout=PLAN_TIMEOUT_MS)
    hotel = window.trip.current.intent.bookings.hotel
    assert hotel.address.startswith("3 Rue de Jarente") and (hotel.geo.lat, hotel.geo.lon) == (48.85604, 2.36289)
    assert {a.name for a in activities(window.trip.current) if a.kind.value == "lodging"} == {hotel.name}


def test_a_network_found_down_asks_for_the_point_instead_of_looking_up(qtbot, paris_window, tmp_path, monkeypatch):
    """Not offline by the setting, but the session found the network down: no look-up is tried
    (it would wait on a dead network again), the form asks for the point at once."""
    window = paris_window
    monkeypatch.delenv("TRIPWRIGHT_OFFLINE", raising=False)
    window.planning.toolbox.network.mark_down()
    before = window.trip.current
    stay = tmp_path / "no_geo.ics"
    stay.write_text(PARIS_STAY.replace("GEO:48.85604;2.36289\n", "").replace(
        "Hotel Jeanne d'Arc Le Marais", "Hôtel du Petit Moulin"))
    assert wait_task(qtbot, window.imports.import_bookings(str(stay))) is None
    assert window.trip.current is before
    assert window.intent_form.field_errors()["hotel_geo"].startswith("Hotel location: coordinates are needed")


def test_files_dropped_on_the_map_are_imported_by_their_extension(qtbot, paris_window, tmp_path):
    window = paris_window
    before = window.trip.current
    drop_on(window, window.map_view, [TAP_MAIL])
    qtbot.waitUntil(lambda: "TP 202" in window.imports.last_line, timeout=20_000)
    assert window.message_bar.level == "error" and window.trip.current is before
    odd = tmp_path / "notes.xyz"
    odd.write_text("nothing")
    drop_on(window, window.itinerary_panel, [odd])
    qtbot.waitUntil(lambda: window.imports.last_line.startswith("notes.xyz is neither"), timeout=5_000)
    drop_on(window, window.map_view, [MY_MAPS])
    qtbot.waitUntil(lambda: window.trip.current is not before and window.message_bar.level == "info",
                    timeout=PLAN_TIMEOUT_MS)
    assert "Shakespeare and Company" in {a.name for a in activities(window.trip.current)}


def test_without_a_city_trip_the_imports_say_what_to_do_first(make_window, tmp_path):
    window = make_window()
    assert window.choose_places_file() is None
    assert window.message_bar.text() == ("Plan a city trip first (its city and days); then import saved places "
                                         "for it.")
    assert window.choose_bookings_file() is None
    assert "import bookings for it" in window.message_bar.text()
    menu = [a.text() for a in window.menuBar().actions()[0].menu().actions()]
    assert "Import &places\u2026" in menu and "Import &bookings\u2026" in menu


def test_on_a_road_trip_the_imports_say_where_such_places_go(qtbot, make_window):
    window = make_window()
    plan(qtbot, window, ROUTE66)
    before = window.trip.current
    assert window.choose_places_file() is None
    assert window.message_bar.text() == ("Saved places are planned on city trips; on a road trip add them on the map "
                                         "as places to visit (click the map: Add a stop here).")
    assert wait_task(qtbot, window.imports.import_bookings(str(TAP_MAIL))) is None
    said = window.message_bar.text()
    assert said.startswith("Could not add the bookings in tap_jfk_lis.eml: flight TP") and said.endswith(
        "a road trip plans no flights, only the motel booked along the way"), said
    assert window.trip.current is before and window.intent_form.mode == "road_trip"
    form = window.intent_form
    assert not form.bookings_box.isHidden() and form.bookings_note.text() == "a motel you booked for a night"


def test_a_motel_booked_for_a_road_trip_becomes_that_nights_stop(qtbot, make_window, tmp_path):
    """The Blue Swallow Motel's confirmation (tests/data/bookings) dropped on a Route 66 trip: its
    night (the third) ends in Tucumcari, at the motel; the form shows it under "I already have"."""
    window = make_window()
    plan(qtbot, window, ROUTE66)
    before = window.trip.current
    assert before.itinerary.days[2].anchor.name != "Tucumcari, NM"
    drop_on(window, window.map_view, [MOTEL_MAIL])
    qtbot.waitUntil(lambda: window.trip.current is not before, timeout=PLAN_TIMEOUT_MS)
    third = window.trip.current.itinerary.days[2]
    stay = next(a for a in third.activities if a.role == "checkin")
    assert third.anchor.name == "Tucumcari, NM" and stay.provenance.data_source == "user"
    assert "confirmation BSW20418" in stay.notes
    qtbot.waitUntil(lambda: window.imports.last_line.startswith("blue_swallow_route66.eml: "), timeout=5_000)
    form = window.intent_form
    assert form.hotel_name.text() == "Blue Swallow Motel" and form.bookings_note.text() == "Blue Swallow Motel"
    assert form.current_intent().bookings.hotel == window.trip.current.intent.bookings.hotel  # planned again as is
    form.hotel_checkin.setDate(form.hotel_checkin.date().addDays(10))  # after the trip
    form.hotel_checkout.setDate(form.hotel_checkin.date().addDays(1))
    with pytest.raises(InputError):
        form.current_intent()
    errors = form.field_errors()
    assert "Blue Swallow Motel is booked 2027-05-15 to 2027-05-16" in errors["hotel_dates"]


def test_the_forms_booked_flights_are_planned_around(qtbot, make_window, tmp_path):
    window = make_window(size=(1800, 1000))
    form = window.intent_form
    form.set_intent(PARIS)
    assert not form.bookings_body.isVisible()  # collapsed until used
    form.expand_bookings()
    assert window.imports.airports_ready is not None  # the world's airports load in a thread, not on a Plan click
    qtbot.waitUntil(window.imports.airports_ready.done, timeout=10_000)
    there, back = form.flight_out, form.flight_back
    for rows, (number, origin, dest, departs, lands) in (
            (there, ("AF 23", "JFK", "CDG", datetime(2027, 6, 14, 18, 30), datetime(2027, 6, 15, 7, 50))),
            (back, ("AF 22", "CDG", "JFK", datetime(2027, 6, 19, 16, 5), datetime(2027, 6, 19, 18, 20)))):
        rows.airline.setText("Air France")
        rows.number.setText(number)
        rows.origin.setText(origin)
        rows.dest.setText(dest)
        set_wall_time(rows.departs, departs)
        set_wall_time(rows.lands, lands)
    shot(qtbot, form.bookings_box, tmp_path / "form_i_already_have.png")
    qtbot.mouseClick(form.plan_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.trip.current is not None, timeout=PLAN_TIMEOUT_MS)

    version = window.trip.current
    flights = [a for a in activities(version) if a.kind.value == "flight"]
    assert [" ".join(a.name.split()[:2]) for a in flights] == ["AF 23", "AF 22"]
    assert all(a.provenance.data_source == "user" and "your booking" in a.notes for a in flights)
    assert flights[0].start == datetime.fromisoformat("2027-06-14T18:30:00-04:00")
    assert [f.source for f in version.intent.bookings.flights] == ["manual", "manual"]
    # The shown version fills the form back: the section open with its flights.
    assert form.bookings_body.isVisible() and form.flight_out.number.text() == "AF 23"
    assert form.bookings_note.text() == "AF 23, AF 22"
    assert form.current_intent() == version.intent
    shot(qtbot, form.bookings_box, tmp_path / "form_i_already_have_shown.png")


def test_kml_export_is_offered_beside_the_others_and_fastkml_reads_it(qtbot, paris_window, tmp_path):
    from fastkml import kml as fastkml

    window = paris_window
    assert "kml" in window.commands.exports
    path = export_through_dialog(qtbot, window, "kml", tmp_path / "paris.kml")
    document = fastkml.KML.from_string(path.read_bytes()).features[0]
    folders = list(document.features)
    assert len(folders) == len(window.trip.current.itinerary.days)
    names = {m.name for f in folders for m in f.features}
    assert {a.name for a in activities(window.trip.current) if a.geo is not None} <= names
    assert str(path) in window.statusBar().currentMessage()
