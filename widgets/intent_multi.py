"""The intent form's "Several cities" tab (issue 33 §4): the stays and legs (widgets/stay_list.py), the home
airport, the budget and the pace; filled from a prompt's reading or a saved MultiCityIntent, and read back as
a validated MultiCityIntent. A mixin of ``IntentForm``."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QFormLayout, QWidget

from engine.intake.vocabulary import DEFAULT_BUDGET_USD
from engine.models import MultiCityIntent

from .intent_fields import combo, hbox, page
from .stay_list import StayList

# Engine field paths → the tab's field that shows the error.
MULTI_FIELDS = {"stays": "stays", "legs": "stays", "start_date": "stays", "return_from": "stays",
                "origin_airport": "multi_origin", "budget_usd_cents": "multi_budget", "budget": "multi_budget",
                "currency": "multi_budget", "prefs": "themes", "travellers": "travellers", "rooms": "travellers"}


class IntentMulti:
    def _multi_tab(self) -> QWidget:
        self.stay_list = StayList(self._today)
        self.multi_home_combo = combo()
        self.multi_home_combo.setEditable(True)
        self.multi_home_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        for code in sorted(self._catalog.raw.airports):
            self.multi_home_combo.addItem(f"{code} \u2014 {self._catalog.airport(code).name}", code)
        self.multi_budget_spin = QDoubleSpinBox()
        self.multi_budget_spin.setRange(0, 10_000_000)
        self.multi_budget_spin.setDecimals(0)
        self.multi_budget_spin.setGroupSeparatorShown(True)
        self.multi_budget_spin.setValue(DEFAULT_BUDGET_USD)
        self.multi_currency_combo = QComboBox()
        self.multi_currency_combo.addItems(self.currency_combo_items())
        self.multi_pace_combo = combo()
        for i in range(self.pace_combo.count()):
            self.multi_pace_combo.addItem(self.pace_combo.itemText(i), self.pace_combo.itemData(i))
        self.multi_pace_combo.setCurrentIndex(self.multi_pace_combo.findData("balanced"))
        form = QFormLayout()
        form.addRow("Cities", self._errors.wrap("stays", self.stay_list))
        form.addRow("Home airport", self._errors.wrap("multi_origin", self.multi_home_combo))
        form.addRow("Budget", self._errors.wrap("multi_budget", hbox(self.multi_budget_spin, self.multi_currency_combo),
                                                self.multi_budget_spin))
        form.addRow("Pace", self.multi_pace_combo)
        return page(form)

    def _multi_intent(self) -> tuple[MultiCityIntent | None, list[tuple[str, str]]]:
        errors: list[tuple[str, str]] = []
        origin = self._home_code(errors, self.multi_home_combo, "multi_origin")
        budget = self._budget_cents(errors, self.multi_budget_spin, self.multi_currency_combo, "multi_budget")
        empty = [i + 1 for i, (city, _) in enumerate(self.stay_list.stays()) if not city]
        if empty:
            errors.append(("stays", f"name city {', '.join(map(str, empty))}"))
        data = {**self.stay_list.intent_data(), "origin_airport": origin or "XXX",
                "budget_usd_cents": budget if budget is not None else 1,
                "prefs": {"themes": self._themes(), "kid_friendly": self.kid_check.isChecked(),
                          "pace": self.multi_pace_combo.currentData() or "balanced"},
                "travellers": self.travellers_spin.value()}
        if empty:
            data["stays"] = [{**s, "city": s["city"] or "?"} for s in data["stays"]]
        return self._validate(MultiCityIntent, data, MULTI_FIELDS, errors)

    def _fill_multi(self, read) -> None:
        """The tab from a prompt's reading (engine/intake/multi_city_prompt.py)."""
        self.set_mode("multi_city")
        self.stay_list.set_trip(read.start, [(s.city, s.nights) for s in read.stays], list(read.modes),
                                read.return_from, [s.tier for s in read.stays])
        if read.origin_airport:
            self._set_multi_home(read.origin_airport)
        self.multi_budget_spin.setValue(float(read.budget_amount))
        if read.budget_currency in self.currency_combo_items():
            self.multi_currency_combo.setCurrentText(read.budget_currency)
        else:
            self._errors.show([("multi_budget", f"{read.budget_currency} is not offered; "
                                                f"use one of {', '.join(self.currency_combo_items())}")])
        self._set_preferences(read.themes, read.kid_friendly, read.travellers)
        self.multi_pace_combo.setCurrentIndex(max(0, self.multi_pace_combo.findData(read.pace)))

    def _show_multi(self, intent: MultiCityIntent) -> None:
        """The tab from a saved or edited MultiCityIntent."""
        self.set_mode("multi_city")
        self.stay_list.set_trip(intent.start_date, [(s.city, s.nights) for s in intent.stays],
                                [leg.mode for leg in intent.leg_requests()], intent.return_from,
                                [s.tier.value if s.tier else None for s in intent.stays])
        self._set_multi_home(intent.origin_airport)
        self.multi_currency_combo.setCurrentText("USD")
        self.multi_budget_spin.setValue(intent.budget_usd_cents / 100)
        self._set_preferences(intent.prefs.themes, intent.prefs.kid_friendly, intent.travellers)
        self.multi_pace_combo.setCurrentIndex(max(0, self.multi_pace_combo.findData(intent.prefs.pace)))

    def _set_multi_home(self, code: str) -> None:
        index = self.multi_home_combo.findData(code.strip().upper())
        if index >= 0:
            self.multi_home_combo.setCurrentIndex(index)
        else:
            self.multi_home_combo.setEditText(code)

    def currency_combo_items(self) -> list[str]:
        return [self.currency_combo.itemText(i) for i in range(self.currency_combo.count())]
