"""The trip form's city field (issue 19): any city typed or read from a prompt is accepted — its
airports and zone left to the engine's city_pack node —, the cached cities complete and bring
their airports, and a fixture city behaves as before."""

from __future__ import annotations

import os
import shutil
from datetime import date
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from engine.catalog import default_catalog
from engine.errors import InputError
from engine.roadtrip.routes import load_routes
from widgets.intent_city import NEW_CITY_NOTE, PENDING_AIRPORT, PENDING_TZ, PENDING_ROW, KnownCity
from widgets.intent_form import IntentForm

TODAY = date(2026, 11, 23)
LISBON = KnownCity("Lisbon", "Lisbon, PT", (("LIS", "Humberto Delgado Airport"),), "Europe/Lisbon", 66)
CORDOBA_ES = KnownCity("Córdoba, ES", "Córdoba, ES", (("SVQ", "Seville Airport"), ("AGP", "Málaga Airport")),
                       "Europe/Madrid", 120)


@pytest.fixture
def form(qtbot):
    widget = IntentForm(default_catalog(), load_routes(), home_airport="JFK", today=TODAY)
    qtbot.addWidget(widget)
    widget.resize(460, 900)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def shot(qtbot, widget, tmp_path: Path, name: str) -> None:
    qtbot.wait(100)  # the layout requests the change posted are handled before the picture
    path = tmp_path / f"{name}.png"
    assert widget.grab().save(str(path))
    if os.environ.get("TRIPWRIGHT_SHOT_DIR"):
        shutil.copy(path, Path(os.environ["TRIPWRIGHT_SHOT_DIR"]) / path.name)


def codes(form) -> list:
    return [form.airports_list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(form.airports_list.count())]


def test_a_typed_city_no_fixture_covers_is_accepted_with_placeholders(qtbot, form, tmp_path):
    form.city_combo.setCurrentText("Lisbon")
    assert form.city_note.isVisible() and form.city_note.text() == NEW_CITY_NOTE
    assert codes(form) == [None] and form.airports_list.item(0).text() == PENDING_ROW
    assert not form.airports_list.item(0).flags() & Qt.ItemFlag.ItemIsUserCheckable
    intent = form.current_intent()
    assert (intent.city, intent.airports, intent.date_window.tz) == ("Lisbon", [PENDING_AIRPORT], PENDING_TZ)
    assert form.field_errors() == {}
    shot(qtbot, form, tmp_path, "form_new_city")


def test_a_fixture_city_keeps_its_airports_and_the_note_hides(form):
    form.city_combo.setCurrentText("Lisbon")
    form.city_combo.setCurrentText("paris")  # any case
    assert not form.city_note.isVisible() and codes(form) == ["CDG", "ORY"]
    intent = form.current_intent()
    assert (intent.city, intent.date_window.tz) == ("Paris", "Europe/Paris")


def test_an_empty_city_names_the_field(form):
    form.city_combo.setCurrentText("  ")
    with pytest.raises(InputError):
        form.current_intent()
    assert form.field_errors() == {"city": "City: choose a city or type any city's name"}


def test_cached_cities_complete_and_bring_their_airports(qtbot, form, tmp_path):
    form.set_known_cities([LISBON, CORDOBA_ES])
    items = [form.city_combo.itemText(i) for i in range(form.city_combo.count())]
    assert items == ["New York", "Paris", "Rome", "Tokyo", "Córdoba, ES", "Lisbon"]
    form.city_combo.setCurrentText("lisbon, pt")  # the label answers too
    assert codes(form) == ["LIS"] and "66 places" in form.city_note.text() and form.city_note.text().startswith("Lisbon, PT")
    intent = form.current_intent()
    assert (intent.city, intent.airports, intent.date_window.tz) == ("Lisbon", ["LIS"], "Europe/Lisbon")
    form.city_combo.setCurrentText("Córdoba, ES")
    form.airports_list.item(1).setCheckState(Qt.CheckState.Unchecked)
    assert form.current_intent().airports == ["SVQ"]
    form.airports_list.item(0).setCheckState(Qt.CheckState.Unchecked)
    with pytest.raises(InputError):
        form.current_intent()
    assert "airports" in form.field_errors()
    completer = form.city_combo.completer()
    completer.setCompletionPrefix("isb")  # contains, not only starts with
    assert completer.currentCompletion() == "Lisbon"
    shot(qtbot, form, tmp_path, "form_cached_city")


def test_a_prompt_naming_any_city_is_read_as_named(form):
    form.prompt_edit.setPlainText("5 days in Córdoba, Spain from 2027-05-10, flying from JFK, budget 3000 USD")
    assert form.read_prompt() and form.field_errors() == {}
    assert form.city_combo.currentText() == "Córdoba, Spain" and form.days_spin.value() == 5
    assert form.current_intent().city == "Córdoba, Spain"
    form.prompt_edit.setPlainText("4 days in Lisbon from 2027-05-10, flying from JFK, budget 3000 USD")
    assert form.read_prompt() and form.city_combo.currentText() == "Lisbon"


def test_an_intent_of_a_cached_city_fills_the_form_and_comes_back(form):
    form.set_known_cities([LISBON])
    form.city_combo.setCurrentText("Paris")
    planned = form.current_intent().model_copy(update={"city": "Lisbon", "airports": ["LIS"]})
    planned = type(planned).model_validate({**planned.model_dump(),
                                            "date_window": {**planned.date_window.model_dump(), "tz": "Europe/Lisbon"}})
    form.set_intent(planned)
    assert form.city_combo.currentText() == "Lisbon" and codes(form) == ["LIS"]
    assert form.current_intent() == planned
    form.set_known_cities([])  # deleted in Settings: the typed city stays, now to be fetched again
    assert form.city_combo.currentText() == "Lisbon" and form.city_note.text() == NEW_CITY_NOTE


def test_typing_a_city_offers_the_gazetteers_places(form, qtbot) -> None:
    from PySide6.QtTest import QTest
    from engine.geocode import default_gazetteer
    gazetteer = default_gazetteer()  # the app opens it off the GUI thread, then hands over complete()
    asked = []
    form.set_city_suggester(lambda text: asked.append(text) or gazetteer.complete(text))
    edit = form.city_combo.lineEdit()
    edit.clear()
    QTest.keyClicks(edit, "lisb")
    words = form.city_combo.completer().model().stringList()
    assert "Lisbon, PT" in words and "Paris" not in words  # what the typed text names
    assert asked[-1] == "lisb" and "li" not in asked  # asked from three letters on
    QTest.keyClicks(edit, "zzq")
    assert "Lisbon, PT" not in form.city_combo.completer().model().stringList()
    edit.clear()
    QTest.keyClicks(edit, "cord")  # accents set aside: the popup is not left with Cordova alone
    assert form.city_combo.completer().model().stringList()[:2] == ["Córdoba, AR", "Córdoba, ES"]
    edit.clear()
    QTest.keyClicks(edit, "par")
    assert form.city_combo.completer().model().stringList()[0] == "Paris"  # a built-in city first
