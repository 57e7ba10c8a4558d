"""The trip form's "I already have" section (issue 21 §1 by hand): a flight there and back and a
hotel the traveller has booked, which become the city intent's ``bookings`` (``BookedFlight`` /
``BookedHotel``, source "manual") — facts the plan is built around. On the road-trip tab it holds
the hotel only: a motel booked for one night of the drive, which becomes that night's stop
(``engine.roadtrip.booked_night``). A mixin of ``IntentForm``.

Collapsed until used (or until a shown version has bookings). Each flight is the airline and its
number, the airports (IATA) and the local date and time at each end: the zone is the airport's
(the injected catalog's ``known_airport``; the form opens no file and no network). The hotel needs
its coordinates for now ("lat, lon", pasted from any map). Every problem is shown under its row,
naming it, as the rest of the form does; a booking on another day or at another city's airports
is the engine's own check (``engine.planning.booked``), shown under the row it is about.

A booking shown from a version (an imported confirmation) and left as it is goes back unchanged,
with what the form has no field for (its price, address, source).
"""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

from pydantic import ValidationError
from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import (QCheckBox, QFormLayout, QHBoxLayout, QLineEdit, QSizePolicy, QToolButton,
                               QVBoxLayout, QWidget)

from engine.errors import InputError
from engine.models.bookings import BookedFlight, BookedHotel, Bookings

from .booking_fields import (BACK_TIMES, FLIGHT_NUMBER, GEO_TEXT, THERE_TIMES, FlightRows, aware_time, degrees,
                             has_error, heading, near, note_label, row_of_error, side_by_side, usd_cents)
from .intent_fields import date_edit, hbox, plain, pydantic_errors

SECTION_TITLE = "I already have"
SECTION_HINT = "flights or a hotel you booked"
ROAD_HINT = "a motel you booked for a night"
NOTE_NAME_CHARS = 24


class IntentBookings:
    """Builds the section (``_bookings_box``), reads it (``_booked``), checks it against the trip
    (``_check_booked``) and shows an intent's bookings (``_show_bookings``)."""

    def _bookings_box(self) -> QWidget:
        self.bookings_toggle = QToolButton()
        self.bookings_toggle.setObjectName("bookings_toggle")
        self.bookings_toggle.setText(SECTION_TITLE)
        self.bookings_toggle.setCheckable(True)
        self.bookings_toggle.setAutoRaise(True)
        self.bookings_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.bookings_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.bookings_toggle.setStyleSheet("QToolButton { font-weight: bold; border: none; padding: 2px 0; }")
        self.bookings_toggle.toggled.connect(self.expand_bookings)
        self.bookings_note = note_label(SECTION_HINT)
        self.bookings_note.setObjectName("bookings_note")
        # What is entered, cut to the room left (a long hotel name must not widen the form).
        self.bookings_note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.addWidget(self.bookings_toggle)
        header.addWidget(self.bookings_note, 1)
        self.flight_out, self.flight_back = FlightRows("out"), FlightRows("back")
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for rows, title in ((self.flight_out, "Flight there"), (self.flight_back, "Flight back")):
            self._flight_rows(form, rows, title)
        self._flight_form_rows = (form, range(form.rowCount()))  # hidden on a road trip
        self._road_bookings = False
        self._hotel_rows(form)
        self.bookings_body = QWidget()
        self.bookings_body.setObjectName("bookings_body")
        self.bookings_body.setLayout(form)
        self.bookings_body.hide()
        box = QWidget()
        box.setObjectName("bookings_box")
        column = QVBoxLayout(box)
        column.setContentsMargins(9, 0, 9, 0)
        column.setSpacing(4)
        column.addLayout(header)
        column.addWidget(self.bookings_body)
        for edit in self._booking_inputs():
            edit.textChanged.connect(self._update_bookings_note)
        self.hotel_paid.toggled.connect(self._update_bookings_note)
        return box

    def _flight_rows(self, form: QFormLayout, rows: FlightRows, title: str) -> None:
        key, errors = rows.key, self._errors
        form.addRow(heading(title))
        form.addRow("Flight", errors.wrap(f"{key}_flight", side_by_side(rows.airline, rows.number), rows.number))
        arrow = plain("\u2192")
        form.addRow("From, to", errors.wrap(f"{key}_airports", hbox(rows.origin, arrow, rows.dest), rows.origin))
        times = QWidget()
        grid = QFormLayout(times)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addRow(side_by_side(rows.departs, rows.departs_at))
        grid.addRow(side_by_side(rows.lands, rows.lands_at))
        form.addRow("When", errors.wrap(f"{key}_times", times, rows.departs))

    def _hotel_rows(self, form: QFormLayout) -> None:
        errors = self._errors
        self.hotel_name = QLineEdit()
        self.hotel_name.setPlaceholderText("e.g. Hôtel Jeanne d'Arc Le Marais")
        self.hotel_checkin, self.hotel_checkout = date_edit(self._today), date_edit(self._today + timedelta(days=1))
        self.hotel_geo = QLineEdit()
        self.hotel_geo.setPlaceholderText("lat, lon \u2014 e.g. 48.8560, 2.3629")
        self.hotel_geo.setToolTip("The hotel's coordinates, as any map shows them (needed for now: "
                                  "addresses are not looked up)")
        self.hotel_code = QLineEdit()
        self.hotel_code.setPlaceholderText("optional")
        self.hotel_code.setMaxLength(32)
        self.hotel_price = QLineEdit()
        self.hotel_price.setPlaceholderText("whole stay, USD")
        self.hotel_paid = QCheckBox("Paid")
        self.hotel_paid.setToolTip("Already paid: shown in the plan, not counted in what the budget still covers")
        form.addRow(heading("Hotel"))
        form.addRow("Name", errors.wrap("hotel_name", self.hotel_name))
        form.addRow("Nights", errors.wrap("hotel_dates", hbox(self.hotel_checkin, plain("to"), self.hotel_checkout),
                                          self.hotel_checkin))
        form.addRow("Where", errors.wrap("hotel_geo", self.hotel_geo))
        form.addRow("Confirmation", errors.wrap("hotel_code", self.hotel_code))
        price = side_by_side(self.hotel_price, self.hotel_paid)
        form.addRow("Price", errors.wrap("hotel_price", price, self.hotel_price))
        self._hotel_shown: BookedHotel | None = None
        self._events_shown: list = []  # imported tickets: kept as they are (File ▸ Import bookings)

    def _booking_inputs(self) -> list[QLineEdit]:
        rows = [e for r in (self.flight_out, self.flight_back) for e in (r.airline, r.number, r.origin, r.dest)]
        return [*rows, self.hotel_name, self.hotel_geo, self.hotel_code, self.hotel_price]

    # -- reactions ---------------------------------------------------------------------------------
    def _bookings_for_mode(self, road: bool) -> None:
        """A city trip's section has flights and a hotel; a road trip's the motel only."""
        self._road_bookings = road
        form, rows = self._flight_form_rows
        for row in rows:
            form.setRowVisible(row, not road)
        self._follow_trip_dates()
        self._update_bookings_note()

    def expand_bookings(self, expanded: bool = True) -> None:
        if self.bookings_toggle.isChecked() != expanded:
            self.bookings_toggle.setChecked(expanded)  # comes back here through toggled
            return
        self.bookings_toggle.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
        self.bookings_body.setVisible(expanded)
        if expanded:
            self.bookings_opened.emit()

    def _update_bookings_note(self, *_args) -> None:
        parts = [r.number.text().strip().upper() or "a flight" for r in (self.flight_out, self.flight_back)
                 if r.entered() and not self._road_bookings]
        if self._hotel_entered():
            name = " ".join(self.hotel_name.text().split()) or "a hotel"
            parts.append(name if len(name) <= NOTE_NAME_CHARS else name[:NOTE_NAME_CHARS - 1].rstrip() + "\u2026")
        parts += [f"{e.name} ({e.start:%d %b %H:%M})" for e in self._events_shown]
        text = ", ".join(parts)
        self.bookings_note.setText(text or (ROAD_HINT if self._road_bookings else SECTION_HINT))
        self.bookings_note.setToolTip(text)

    def _follow_trip_dates(self) -> None:
        """Blank rows keep to the trip's first and last day, so filling one starts there (a road
        trip's motel: its first night)."""
        if getattr(self, "_road_bookings", False):
            if not self._hotel_entered():
                start = self.road_start_edit.date().toPython()
                self.hotel_checkin.setDate(QDate(start))
                self.hotel_checkout.setDate(QDate(start + timedelta(days=1)))
            return
        start = self.start_edit.date().toPython()
        end = start + timedelta(days=max(self.days_spin.value() - 1, 0))
        if not self.flight_out.entered():
            self.flight_out.follow(start, THERE_TIMES)
        if not self.flight_back.entered():
            self.flight_back.follow(end, BACK_TIMES)
        if not self._hotel_entered():
            self.hotel_checkin.setDate(QDate(start))
            self.hotel_checkout.setDate(QDate(end))

    def _hotel_entered(self) -> bool:
        return bool(any(e.text().strip() for e in (self.hotel_name, self.hotel_geo, self.hotel_code,
                                                    self.hotel_price)) or self.hotel_paid.isChecked())

    # -- showing an intent's bookings --------------------------------------------------------------
    def _show_bookings(self, bookings: Bookings | None, airports: list[str], trip: tuple | None = None) -> None:
        """Fill the section from a shown version (a flight landing at the city's airports is the
        flight there; ``trip``: its city and date window); open it when there is something to show."""
        self._clear_bookings()
        self._bookings_trip = trip
        flights = list(bookings.flights) if bookings is not None else []
        there = next((f for f in flights if f.dest in airports), None)
        back = next((f for f in flights if f is not there and f.origin in airports), None)
        rest = [f for f in flights if f is not there and f is not back]
        there, back = there or (rest.pop(0) if rest else None), back or (rest.pop(0) if rest else None)
        for rows, flight in ((self.flight_out, there), (self.flight_back, back)):
            if flight is not None:
                rows.show(flight)
        hotel = bookings.hotel if bookings is not None else None
        if hotel is not None:
            self.hotel_name.setText(hotel.name)
            self.hotel_checkin.setDate(QDate(hotel.checkin))
            self.hotel_checkout.setDate(QDate(hotel.checkout))
            self.hotel_geo.setText(f"{degrees(hotel.geo.lat)}, {degrees(hotel.geo.lon)}" if hotel.geo else "")
            self.hotel_code.setText(hotel.confirmation or "")
            self.hotel_price.setText(f"{Decimal(hotel.price_usd_cents) / 100:.2f}"
                                     if hotel.price_usd_cents is not None else "")
            self.hotel_paid.setChecked(hotel.paid)
            self._hotel_shown = hotel
        self._events_shown = list(bookings.events) if bookings is not None else []
        self._update_bookings_note()
        self.expand_bookings(bookings is not None and not bookings.empty)

    def _clear_bookings(self) -> None:
        start = self.start_edit.date().toPython()
        end = start + timedelta(days=max(self.days_spin.value() - 1, 0))
        self.flight_out.clear(start, THERE_TIMES)
        self.flight_back.clear(end, BACK_TIMES)
        for edit in (self.hotel_name, self.hotel_geo, self.hotel_code, self.hotel_price):
            edit.clear()
        self.hotel_paid.setChecked(False)
        self.hotel_checkin.setDate(QDate(start))
        self.hotel_checkout.setDate(QDate(end))
        self._hotel_shown = None
        self._events_shown = []

    # -- reading the section -------------------------------------------------------------------------
    def _booked(self, errors: list[tuple[str, str]], *, road: bool = False) -> Bookings | None:
        """The section's bookings (None when nothing is entered); problems go to ``errors``
        (``road``: the motel only)."""
        flights = [] if road else [f for f in (self._flight(self.flight_out, errors),
                                               self._flight(self.flight_back, errors)) if f]
        hotel = self._hotel(errors)
        if not flights and hotel is None and not self._events_shown:
            return None
        return Bookings(flights=flights, hotel=hotel, events=self._events_shown)

    def _flight(self, rows: FlightRows, errors: list[tuple[str, str]]) -> BookedFlight | None:
        if not rows.entered():
            return None
        if rows.unchanged():
            return rows.shown  # as shown (imported): its price, confirmation and source stay
        key, before = rows.key, len(errors)
        airline = " ".join(rows.airline.text().split())
        number = " ".join(rows.number.text().split()).upper()
        if not airline:
            errors.append((f"{key}_flight", "give the airline, e.g. Air France"))
        elif not FLIGHT_NUMBER.match(number):
            errors.append((f"{key}_flight", "give the flight number as on the ticket, e.g. AF 23"))
        zones = []
        for edit, end in ((rows.origin, "from"), (rows.dest, "to")):
            code = edit.text().strip().upper()
            zone = self._airport_zone(code) if re.fullmatch(r"[A-Z]{3}", code) else None
            if zone is None and not has_error(errors, f"{key}_airports"):
                errors.append((f"{key}_airports", f"{end}: unknown airport {code!r}" if code
                               else f"{end}: give the airport's 3-letter code, e.g. JFK"))
            zones.append(zone)
        if len(errors) > before:
            return None
        data = {"carrier": airline, "flight_number": number, "origin": rows.origin.text().strip().upper(),
                "dest": rows.dest.text().strip().upper(), "departure": aware_time(rows.departs, zones[0]),
                "arrival": aware_time(rows.lands, zones[1]), "source": "manual"}
        try:
            return BookedFlight.model_validate(data)
        except ValidationError as exc:
            message = pydantic_errors(exc)[0][1]
            where = "times" if "arrival" in message else "airports" if "origin" in message else "flight"
            errors.append((f"{key}_{where}", message.removeprefix(f"flight {number}: ")))
            return None

    def _hotel(self, errors: list[tuple[str, str]]) -> BookedHotel | None:
        if not self._hotel_entered():
            return None
        before = len(errors)
        name = " ".join(self.hotel_name.text().split())
        if not name:
            errors.append(("hotel_name", "give the hotel's name"))
        checkin, checkout = self.hotel_checkin.date().toPython(), self.hotel_checkout.date().toPython()
        if checkout <= checkin:
            errors.append(("hotel_dates", "check-out must come after check-in"))
        geo = self._hotel_geo(errors)
        price = usd_cents(self.hotel_price.text(), errors)
        if len(errors) > before:
            return None
        shown = self._hotel_shown
        data = {"name": name, "geo": geo, "checkin": checkin, "checkout": checkout,
                "confirmation": self.hotel_code.text().strip() or None, "price_usd_cents": price,
                "paid": self.hotel_paid.isChecked(), "source": "manual"}
        if shown is not None and shown.name == name:
            data["address"] = shown.address  # the form has no field for it
            if shown.geo is not None and geo is not None and near(shown.geo, geo):
                data["geo"] = shown.geo  # shown rounded: the booking's own point
            if all(getattr(shown, k) == v for k, v in data.items() if k != "source"):
                return shown
        return BookedHotel.model_validate(data)

    def _hotel_geo(self, errors: list[tuple[str, str]]) -> dict | None:
        text = self.hotel_geo.text().strip()
        if not text:
            errors.append(("hotel_geo", "coordinates are needed for now (addresses are not looked up): paste "
                                        "\u201clat, lon\u201d from a map, e.g. 48.8560, 2.3629"))
            return None
        found = GEO_TEXT.match(text)
        lat, lon = (float(found.group(1)), float(found.group(2))) if found else (None, None)
        if lat is None or not (-90 <= lat <= 90 and -180 <= lon <= 180):
            errors.append(("hotel_geo", f"{text!r} is not \u201clat, lon\u201d (e.g. 48.8560, 2.3629)"))
            return None
        return {"lat": lat, "lon": lon}

    def _airport_zone(self, code: str) -> str | None:
        airport = self._catalog.known_airport(code) if code else None
        return airport.tz if airport is not None else None

    @staticmethod
    def _check_road_booked(intent, errors: list[tuple[str, str]]) -> None:
        """A road trip's motel on a night of the trip (the engine's own check), under its dates."""
        from engine.trip_inputs import check_against_trip
        try:
            check_against_trip(intent, None)
        except InputError as exc:
            errors.append(("hotel_dates", " ".join(exc.message.split())))

    def _check_booked(self, intent, errors: list[tuple[str, str]]) -> None:
        """The engine's check of the bookings against the trip (a built-in or cached city; a city
        whose places are fetched when planned is checked by the planner then)."""
        if intent.bookings is None or not self._catalog.has_city(intent.city):
            return
        shown = [r.shown for r in (self.flight_out, self.flight_back)] + [self._hotel_shown]
        if (intent.city, intent.date_window) == getattr(self, "_bookings_trip", None) and \
                all(any(b is s for s in shown) for b in [*intent.bookings.flights, intent.bookings.hotel] if b):
            return  # the shown version's bookings, city and days: checked when it was planned
        from engine.trip_inputs import check_against_trip
        keys = [r.key for r in (self.flight_out, self.flight_back) if r.entered()]
        try:
            check_against_trip(intent, self._catalog, zone_of=self._airport_zone, placed=True)
        except InputError as exc:
            errors.append((row_of_error(exc, keys), " ".join(exc.message.split())))


