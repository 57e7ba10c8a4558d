"""Filling the intent form: from a prompt (read by the engine's front door, engine/frontend.py,
exactly as ``tripwright plan --prompt`` reads it) and from an intent (undo/redo, map edits), and
carrying what the form has no field for. A mixin of ``IntentForm``."""

from __future__ import annotations

from PySide6.QtCore import QDate, Qt

from engine.errors import InputError
from engine.frontend import read_prompt
from engine.models import IntentV1, RoadTripIntent

from .intent_fields import prompt_problem

CURRENCIES = ("USD", "EUR", "JPY", "GBP")


class IntentFilling:
    # -- prompt -----------------------------------------------------------------------
    def read_prompt(self) -> bool:
        """Fill the form from the prompt text with the engine's rule-based parsers: a city no
        built-in or cached one covers ("4 days in Lisbon", "Paris, Texas") is read as named, for
        the run to find or fetch its places."""
        self.clear_errors()
        text = self.prompt_edit.toPlainText()
        known = {city.name: [city.name.lower(), city.label.lower()] for city in self._known_cities()}
        try:
            reading = read_prompt(text, self._catalog, today=self._today, known=known)
            if reading.road is not None:
                self._fill_road(reading.road)
            elif reading.multi is not None:
                self._fill_multi(reading.multi)
            else:
                self._fill_city(reading.city)
        except InputError as exc:
            self.show_assumed(())
            self._errors.show([("prompt", prompt_problem(exc))])
            return False
        self.mark_prompt_read()
        self.show_assumed(reading.assumed)
        return True

    def show_assumed(self, lines) -> None:
        """Under the prompt, what its reading chose that the text left out (a default budget, the
        first full week of a month), as the CLI says it on stderr; the window hears it too."""
        text = "\n".join(line[:1].upper() + line[1:] for line in lines)
        self.prompt_note.setText(text)
        self.prompt_note.setVisible(bool(text))
        if text:
            self.prompt_assumed.emit(text)

    def unread_prompt(self) -> str | None:
        """The prompt text not yet read into the fields ("Plan with AI" has the model read it), or
        None when the fields already hold the request (hand-filled, or read from this text)."""
        text = self.prompt_edit.toPlainText().strip()
        return text if text and text != getattr(self, "_read_prompt_text", None) else None

    def read_unread_prompt(self) -> bool:
        """Plan reads a described trip first (the text typed since the last reading), as Plan with AI
        does; False, with the problem under the prompt, when it cannot be read."""
        return self.unread_prompt() is None or self.read_prompt()

    def mark_prompt_read(self) -> None:
        self._read_prompt_text = self.prompt_edit.toPlainText().strip()

    def _fill_city(self, parsed) -> None:
        self.set_mode("city")
        self.city_combo.setCurrentText(parsed.city)
        self.start_edit.setDate(QDate(parsed.start))
        self.days_spin.setValue((parsed.end - parsed.start).days + 1)
        if parsed.origin_airport:
            self.set_home_airport(parsed.origin_airport)
        self.budget_spin.setValue(float(parsed.budget_amount))
        if parsed.budget_currency in CURRENCIES:
            self.currency_combo.setCurrentText(parsed.budget_currency)
        else:
            self._errors.show([("currency", f"{parsed.budget_currency} is not offered; "
                                            f"use one of {', '.join(CURRENCIES)}")])
        self._set_preferences(parsed.themes, parsed.kid_friendly, parsed.travellers)
        self.redeye_check.setChecked(parsed.avoid_overnight)
        self.set_pace(parsed.pace)

    def _fill_road(self, parsed) -> None:
        self._show_road(parsed)
        if parsed.max_daily_miles is not None:
            self._show_miles(self.max_miles_spin, parsed.max_daily_miles)
        self._set_preferences(parsed.themes, parsed.kid_friendly, parsed.travellers)

    def _show_road(self, trip) -> None:
        """The road tab's own fields from a prompt's reading or an intent (both name them alike)."""
        self.set_mode("road_trip")
        self.origin_edit.setText(trip.origin)
        self.terminus_edit.setText(trip.terminus)
        self.road_days_spin.setValue(trip.days)
        self.road_start_edit.setDate(QDate(trip.start_date))
        self.trip_type_combo.setCurrentIndex(self.trip_type_combo.findData(trip.trip_type))
        self.route_combo.setCurrentIndex(max(self.route_combo.findData(trip.route), 0) if trip.route else 0)
        self.stops_edit.setPlainText("\n".join(trip.stops))

    # -- showing an intent (undo/redo, map edits) ----------------------------------------------
    def set_intent(self, intent: IntentV1 | RoadTripIntent) -> None:
        """Fill the form from an intent, so a trip edited on the map (a dragged stop, a locked
        visit) is what the next Plan sends. Locked city slots have no field: they are kept and
        sent again while the city and dates stay the same."""
        self.clear_errors()
        if intent.mode == "multi_city":
            self._carried = None
            self._show_multi(intent)
            return
        if intent.mode == "road_trip":
            self._carried = intent
            self._show_road(intent)
            self._show_miles(self.corridor_spin, intent.corridor_max_deviation_miles)
            self._show_miles(self.max_miles_spin, intent.max_daily_miles)
            self._set_preferences(intent.prefs.themes, intent.prefs.kid_friendly, intent.travellers)
            self._show_bookings(intent.bookings, [])  # its motel, in "I already have"
            return
        self.set_mode("city")
        self.city_combo.setCurrentText(intent.city)
        self.start_edit.setDate(QDate(intent.date_window.start))
        self.days_spin.setValue(intent.days)
        self.set_home_airport(intent.origin_airport)
        for i in range(self.airports_list.count()):
            item = self.airports_list.item(i)
            code = item.data(Qt.ItemDataRole.UserRole)
            if code is None:  # a city whose airports come with its places: no box to tick
                continue
            item.setCheckState(Qt.CheckState.Checked if code in intent.airports else Qt.CheckState.Unchecked)
        self.currency_combo.setCurrentText("USD")
        self.budget_spin.setValue(intent.budget_usd_cents / 100)
        self._set_preferences(intent.prefs.themes, intent.prefs.kid_friendly, intent.travellers)
        self.redeye_check.setChecked(intent.prefs.avoid_overnight)
        self.set_pace(intent.prefs.pace)
        self._show_bookings(intent.bookings, intent.airports, (intent.city, intent.date_window))  # "I already have"
        self._carried = intent if intent.prefs.locked_slots or intent.prefs.must_see else None

    def _carry_hidden(self, intent: IntentV1 | RoadTripIntent) -> IntentV1 | RoadTripIntent:
        """What the shown version has and the form has no field for, sent again while it is the
        same trip: a city trip's saved places (same city) and locked slots (same city and dates); a
        road trip's visits, removed stops and imported track (same ends)."""
        carried = getattr(self, "_carried", None)
        if carried is None or carried.mode != intent.mode or intent.mode == "multi_city":
            return intent
        if intent.mode == "city":
            if carried.city != intent.city:
                return intent
            kept = {"must_see": carried.prefs.must_see}
            if carried.date_window == intent.date_window:
                kept["locked_slots"] = carried.prefs.locked_slots
            return intent.model_copy(update={"prefs": intent.prefs.model_copy(update=kept)})
        if (carried.origin, carried.terminus) != (intent.origin, intent.terminus):
            return intent
        hidden = {k: getattr(carried, k) for k in ("visits", "skip_stops", "rest_days", "route_track",
                                                  "route_track_name")}
        return RoadTripIntent.model_validate({**intent.model_dump(), **hidden})

    def _set_preferences(self, themes: list[str], kid_friendly: bool, travellers: int | None) -> None:
        for theme, check in self.theme_checks.items():
            check.setChecked(theme in themes)
        self.kid_check.setChecked(kid_friendly)
        if travellers is not None:  # a prompt that does not say keeps the form's party
            self.travellers_spin.setValue(travellers)
