"""The intent form's fields read as an intent: the city and road tabs' data validated by the engine's
models, each problem keyed to the field that shows it; the home airport, the budget (converted to
USD cents) and the themes, read alike by every tab. A mixin of ``IntentForm``."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from decimal import Decimal

from pydantic import ValidationError
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox

from engine.models import IntentV1, RoadTripIntent

from .intent_fields import CITY_FIELDS, IATA_HEAD, ROAD_FIELDS, pydantic_errors


class IntentReading:
    def _city_intent(self) -> tuple[IntentV1 | None, list[tuple[str, str]]]:
        errors: list[tuple[str, str]] = []
        origin = self._home_code(errors)
        target = self._city_target(errors)
        budget = self._budget_cents(errors)
        start = self.start_edit.date().toPython()
        if target is None:
            return None, errors
        city, airports, tz = target
        bookings = self._booked(errors)
        data = {"city": city, "budget_usd_cents": budget if budget is not None else 1,
                "date_window": {"start": start, "end": start + timedelta(days=self.days_spin.value() - 1),
                                "tz": tz},
                "airports": airports, "origin_airport": origin or "XXX",
                "prefs": {"themes": self._themes(), "kid_friendly": self.kid_check.isChecked(),
                          "avoid_overnight": self.redeye_check.isChecked(),
                          "pace": self.pace_combo.currentData() or "balanced"},
                "travellers": self.travellers_spin.value(), "bookings": bookings}
        intent, errors = self._validate(IntentV1, data, CITY_FIELDS, errors)
        if intent is not None:
            self._check_booked(intent, errors)  # a flight on another day, at another city's airport
        return (None, errors) if errors else (intent, [])

    def _road_intent(self) -> tuple[RoadTripIntent | None, list[tuple[str, str]]]:
        stops = [s.strip() for s in self.stops_edit.toPlainText().splitlines() if s.strip()]
        data = {"origin": self.origin_edit.text(), "terminus": self.terminus_edit.text(),
                "days": self.road_days_spin.value(), "start_date": self.road_start_edit.date().toPython(),
                "trip_type": self.trip_type_combo.currentData(), "route": self.route_combo.currentData(),
                "max_daily_miles": self._spin_miles(self.max_miles_spin),
                "corridor_max_deviation_miles": self._spin_miles(self.corridor_spin), "stops": stops,
                "prefs": {"themes": self._themes(), "kid_friendly": self.kid_check.isChecked()},
                "travellers": self.travellers_spin.value()}
        errors: list[tuple[str, str]] = []
        data["bookings"] = self._booked(errors, road=True)  # the motel booked for a night of the drive
        intent, errors = self._validate(RoadTripIntent, data, ROAD_FIELDS, errors)
        if intent is not None:
            self._check_road_booked(intent, errors)
        return (None, errors) if errors else (intent, [])

    @staticmethod
    def _validate(model, data: dict, fields: Mapping[str, str], errors: list[tuple[str, str]]):
        try:
            intent = model.model_validate(data)
        except ValidationError as exc:
            taken = {key for key, _ in errors}
            for path, message in pydantic_errors(exc):
                key = fields.get(path.split(".")[0].split("[")[0], "form")
                if key not in taken:
                    errors.append((key, message))
            return None, errors
        return (None, errors) if errors else (intent, [])

    def _home_code(self, errors: list[tuple[str, str]], home_combo: QComboBox | None = None,
                   key: str = "origin_airport") -> str | None:
        text = (home_combo or self.home_combo).currentText()
        match = IATA_HEAD.match(text)
        if not text.strip():
            errors.append((key, "choose the airport you fly from"))
            return None
        code = match.group(1).upper() if match else ""
        if code not in self._catalog.raw.airports:
            shown = text.strip() if len(text.strip()) <= 40 else text.strip()[:40] + "\u2026"
            errors.append((key, f"unknown airport {shown!r}; choose one from the list"))
            return None
        return code

    def _budget_cents(self, errors: list[tuple[str, str]], budget_spin: QDoubleSpinBox | None = None,
                      currency_combo: QComboBox | None = None, key: str | None = None) -> int | None:
        amount = Decimal(str(round((budget_spin or self.budget_spin).value())))
        currency = (currency_combo or self.currency_combo).currentText()
        if amount <= 0:
            errors.append((key or "budget", "must be greater than zero"))
            return None
        if currency == "USD":
            return int(amount * 100)
        if self._fx_to_usd is None:
            errors.append((key or "currency", f"no exchange rate for {currency} here; enter the budget in USD"))
            return None
        try:
            return int(self._fx_to_usd(amount, currency))
        except Exception as exc:  # noqa: BLE001 — the injected converter may fail in any way: say so on the field
            errors.append((key or "currency", f"cannot convert {currency} to USD: {exc}"))
            return None

    def _themes(self) -> list[str]:
        return [theme for theme, check in self.theme_checks.items() if check.isChecked()]
