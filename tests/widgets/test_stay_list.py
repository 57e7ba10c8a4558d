"""The form's "Several cities" tab (issue 33 §4): stays added, removed, reordered, their nights and the leg
between them, filled from a prompt as the CLI reads it, and read back as a MultiCityIntent. Renders the tab
offscreen to /tmp/stay-list.png."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtCore import QDate

from engine.catalog import default_catalog
from engine.errors import InputError
from engine.frontend import intent_from_prompt
from engine.models import MultiCityIntent
from engine.pipeline import PlanningSession
from engine.roadtrip.routes import load_routes
from widgets.intent_form import IntentForm

TODAY = date(2026, 11, 23)
PROMPT = ("3 nights in Lisbon, 2 in Porto by train, then fly to Madrid for 2 nights at a luxury hotel, "
          "from 2027-05-10, flying from JFK, budget 4000 USD, food")


@pytest.fixture
def form(qtbot):
    widget = IntentForm(default_catalog(), load_routes(), home_airport="JFK", today=TODAY)
    qtbot.addWidget(widget)
    widget.resize(520, 980)
    widget.show()
    return widget


def test_a_prompt_fills_the_stays_as_the_cli_reads_it(form, qtbot) -> None:
    form.prompt_edit.setPlainText(PROMPT)
    assert form.read_prompt()
    assert form.mode == "multi_city"
    assert form.stay_list.stays() == [("Lisbon", 3), ("Porto", 2), ("Madrid", 2)]
    assert form.stay_list.modes() == ["train", "flight"]
    assert form.stay_list.tiers() == [None, None, "luxury"]
    intent = form.current_intent()
    expected = intent_from_prompt(PROMPT, PlanningSession(today=TODAY), None)
    assert isinstance(intent, MultiCityIntent) and intent == expected
    qtbot.waitUntil(lambda: form.stay_list.city_edits[2].isVisible())
    form.grab().save("/tmp/stay-list.png")


def test_add_remove_reorder_and_nights(form) -> None:
    form.set_mode("multi_city")
    stays = form.stay_list
    stays.start_edit.setDate(QDate(2027, 6, 1))
    stays.city_edits[0].setText("Rome")
    stays.city_edits[1].setText("Venice")
    stays.add_stay("Florence", 3)
    stays.tier_combos[2].setCurrentIndex(stays.tier_combos[2].findData("mid"))
    assert stays.stays() == [("Rome", 3), ("Venice", 2), ("Florence", 3)] and len(stays.mode_combos) == 2
    stays.move_stay(2, -1)  # Florence before Venice
    stays.night_spins[2].setValue(4)
    stays.mode_combos[0].setCurrentIndex(stays.mode_combos[0].findData("train"))
    assert stays.stays() == [("Rome", 3), ("Florence", 3), ("Venice", 4)]
    assert "3 cities, 10 nights" in stays.summary.text()
    intent = form.current_intent()
    assert [(s.city, s.nights) for s in intent.stays] == [("Rome", 3), ("Florence", 3), ("Venice", 4)]
    assert [leg.mode for leg in intent.leg_requests()] == ["train", "best"]
    assert [s.tier and s.tier.value for s in intent.stays] == [None, "mid", None]  # Florence's tier moved with it
    assert intent.start_date == date(2027, 6, 1) and intent.days == 11
    stays.remove_stay(1)
    assert stays.stays() == [("Rome", 3), ("Venice", 4)] and len(stays.mode_combos) == 1
    stays.remove_stay(0)  # two stays are the least a multi-city trip has
    assert len(stays.stays()) == 2


def test_home_from_the_first_adds_a_leg_back(form) -> None:
    form.set_mode("multi_city")
    stays = form.stay_list
    stays.set_trip(date(2027, 9, 3), [("Paris", 3), ("London", 3)], ["train"])
    stays.home_combo.setCurrentIndex(stays.home_combo.findData("first"))
    assert len(stays.mode_combos) == 2
    intent = form.current_intent()
    assert intent.return_from == "first" and [leg.mode for leg in intent.leg_requests()] == ["train", "best"]
    form.set_intent(intent)  # a saved trip shows again as it was
    assert stays.stays() == [("Paris", 3), ("London", 3)] and stays.return_from() == "first"


def test_problems_show_on_the_cities_field(form) -> None:
    form.set_mode("multi_city")
    form.stay_list.set_trip(date(2027, 5, 10), [("Lisbon", 14), ("", 14), ("Faro", 5)], ["best", "best"])
    with pytest.raises(InputError):
        form.current_intent()
    assert "name city 2" in form.field_errors()["stays"]
    form.stay_list.city_edits[1].setText("Porto")
    with pytest.raises(InputError):
        form.current_intent()
    assert "at most 30 days" in form.field_errors()["stays"]
    form.stay_list.set_trip(date(2026, 11, 1), [("Lisbon", 3), ("Porto", 2)], ["best"])
    with pytest.raises(InputError):
        form.current_intent()
    assert "before today" in form.field_errors()["stays"]


def test_an_error_on_the_cities_goes_once_they_are_fixed(form) -> None:
    form.set_mode("multi_city")
    form.stay_list.set_trip(date(2027, 5, 10), [("Lisbon", 3), ("", 2)], ["best"])
    with pytest.raises(InputError):
        form.current_intent()
    assert "stays" in form.field_errors()
    form.stay_list.city_edits[1].setText("Porto")
    assert "stays" not in form.field_errors()
