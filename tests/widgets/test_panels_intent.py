"""The intent form: city and road trips by hand or from a prompt, and inline errors."""

from datetime import date
from decimal import Decimal

import pytest
from PySide6.QtCore import QDate, Qt
from PySide6.QtGui import QColor, QPalette

from engine.catalog import default_catalog
from engine.frontend import intent_from_prompt
from engine.errors import InputError
from engine.models import IntentV1, RoadTripIntent
from engine.pipeline import PlanningSession
from engine.roadtrip.routes import load_routes
from engine.tools.requests import FXRequest
from widgets.intent_fields import INVALID_BACKGROUND
from widgets.intent_form import NO_ROUTE, IntentForm

TODAY = date(2026, 11, 23)
PARIS = "5 days in Paris from 2027-06-15, flying from JFK, budget 4000 USD, art and food"
ROUTE66 = "LA to Chicago via Route 66, 7 days from 2027-05-03"


@pytest.fixture(scope="module")
def session():
    return PlanningSession(today=TODAY)


@pytest.fixture(scope="module")
def expected(session):
    """What the CLI makes of the same prompts: the form must agree with it."""
    return {"paris": intent_from_prompt(PARIS, session, None), "route66": intent_from_prompt(ROUTE66, session, None)}


@pytest.fixture
def fx_to_usd(session):
    def convert(amount: Decimal, currency: str) -> int:
        rate = session.toolbox.fx.rate(FXRequest(from_currency=currency, as_of=session.today)).rate
        return int(amount * 100 * Decimal(str(rate)))
    return convert


@pytest.fixture
def form(qtbot, fx_to_usd):
    widget = IntentForm(default_catalog(), load_routes(), home_airport="JFK", fx_to_usd=fx_to_usd, today=TODAY)
    qtbot.addWidget(widget)
    widget.resize(460, 900)
    widget.show()
    return widget


def fill_paris(form):
    form.set_mode("city")
    form.city_combo.setCurrentText("Paris")
    form.start_edit.setDate(QDate(2027, 6, 15))
    form.days_spin.setValue(5)
    form.budget_spin.setValue(4000)
    form.currency_combo.setCurrentText("USD")
    for theme in ("art", "food"):
        form.theme_checks[theme].setChecked(True)


def fill_route66(form):
    form.set_mode("road_trip")
    form.origin_edit.setText("Los Angeles")
    form.terminus_edit.setText("Chicago")
    form.route_combo.setCurrentText("Route 66")
    form.road_days_spin.setValue(7)
    form.road_start_edit.setDate(QDate(2027, 5, 3))


def test_home_airport_is_prefilled_from_the_setting(qtbot, form):
    assert form.home_combo.currentData() == "JFK"
    other = IntentForm(default_catalog(), load_routes(), home_airport="sfo", today=TODAY)
    qtbot.addWidget(other)
    assert other.home_combo.currentData() == "SFO"
    assert [other.route_combo.itemText(i) for i in range(2)] == [NO_ROUTE, "Blue Ridge Parkway"]


def test_city_form_produces_the_intent(qtbot, form, expected):
    fill_paris(form)
    assert form.current_intent() == expected["paris"]
    with qtbot.waitSignal(form.plan_requested, timeout=1_000) as requested:
        qtbot.mouseClick(form.plan_button, Qt.MouseButton.LeftButton)
    assert isinstance(requested.args[0], IntentV1) and requested.args[0] == expected["paris"]
    assert form.field_errors() == {}


def test_destination_airports_follow_the_city_and_can_be_unticked(form):
    fill_paris(form)
    codes = [form.airports_list.item(i).data(Qt.ItemDataRole.UserRole) for i in range(form.airports_list.count())]
    assert codes == ["CDG", "ORY"]
    form.airports_list.item(1).setCheckState(Qt.CheckState.Unchecked)
    assert form.current_intent().airports == ["CDG"]
    form.airports_list.item(0).setCheckState(Qt.CheckState.Unchecked)
    with pytest.raises(InputError):
        form.current_intent()
    assert form.field_errors() == {"airports": "Destination airports: tick at least one airport to fly into"}


def test_road_form_produces_the_intent(qtbot, form, expected):
    fill_route66(form)
    assert form.current_intent() == expected["route66"]
    form.trip_type_combo.setCurrentIndex(1)
    form.route_combo.setCurrentText(NO_ROUTE)
    form.stops_edit.setPlainText("Kingman, AZ\n\n  Tulsa  \n")
    form.max_miles_spin.setValue(300)
    form.corridor_spin.setValue(25)
    form.kid_check.setChecked(True)
    with qtbot.waitSignal(form.plan_requested, timeout=1_000) as requested:
        qtbot.mouseClick(form.plan_button, Qt.MouseButton.LeftButton)
    intent = requested.args[0]
    assert isinstance(intent, RoadTripIntent)
    assert (intent.trip_type, intent.route, intent.stops) == ("round_trip", None, ["Kingman, AZ", "Tulsa"])
    assert (intent.max_daily_miles, intent.corridor_max_deviation_miles, intent.prefs.kid_friendly) == (300, 25, True)


def test_a_euro_budget_is_converted_by_the_injected_fx(form, fx_to_usd):
    fill_paris(form)
    form.currency_combo.setCurrentText("EUR")
    assert form.current_intent().budget_usd_cents == fx_to_usd(Decimal(4000), "EUR") > 400000


def test_without_fx_only_usd_budgets_are_accepted(qtbot):
    form = IntentForm(default_catalog(), load_routes(), home_airport="JFK", today=TODAY)
    qtbot.addWidget(form)
    fill_paris(form)
    form.currency_combo.setCurrentText("GBP")
    with pytest.raises(InputError) as error:
        form.current_intent()
    assert error.value.field == "currency"
    assert form.field_errors()["currency"].startswith("Currency: no exchange rate for GBP")


def _budget_zero(form):
    fill_paris(form)
    form.budget_spin.setValue(0)


def _unknown_airport(form):
    fill_paris(form)
    form.home_combo.setEditText("ZZZ")


def _nine_days(form):
    fill_paris(form)
    form.days_spin.setValue(9)


def _markup_origin(form):
    fill_route66(form)
    form.origin_edit.setText("<b>Los Angeles</b>")


@pytest.mark.parametrize("break_it, field, text", [
    (_budget_zero, "budget", "Budget: must be greater than zero"),
    (_unknown_airport, "origin_airport", "Home airport: unknown airport 'ZZZ'; choose one from the list"),
    (_nine_days, "days", "Days: a city trip lasts 2-7 days, got 9"),
    (_markup_origin, "origin", "Origin: '<b>Los Angeles</b>' contains markup or control characters; "
                               "give a plain place name"),
], ids=["budget-0", "unknown-airport", "city-9-days", "markup-origin"])
def test_bad_input_is_shown_inline_and_nothing_is_emitted(qtbot, form, break_it, field, text):
    break_it(form)
    with qtbot.assertNotEmitted(form.plan_requested):
        qtbot.mouseClick(form.plan_button, Qt.MouseButton.LeftButton)
    assert form.field_errors() == {field: text}
    label = form.error_label(field)
    assert label.isVisible() and label.textFormat() == Qt.TextFormat.PlainText
    assert "#c62828" in label.styleSheet()
    widget = form.field_widget(field)
    assert widget.property("invalid") is True and widget.isVisible()
    assert widget.palette().color(QPalette.ColorRole.Base) == QColor(INVALID_BACKGROUND)
    with pytest.raises(InputError) as error:
        form.current_intent()
    assert error.value.field == field


def test_errors_clear_once_the_field_is_fixed(form):
    _budget_zero(form)
    form.home_combo.setEditText("ZZZ")
    with pytest.raises(InputError):
        form.current_intent()
    assert set(form.field_errors()) == {"budget", "origin_airport"}  # every problem at once
    form.budget_spin.setValue(4000)
    form.set_home_airport("JFK")
    form.current_intent()
    assert form.field_errors() == {}
    assert form.field_widget("budget").property("invalid") is False
    assert form.field_widget("budget").palette().color(QPalette.ColorRole.Base) != QColor(INVALID_BACKGROUND)


def test_the_prompt_fills_the_city_form(form, expected):
    form.set_mode("road_trip")
    form.set_home_airport("SFO")
    form.prompt_edit.setPlainText(PARIS)
    assert form.read_prompt()
    assert form.mode == "city"
    assert form.city_combo.currentText() == "Paris"
    assert form.start_edit.date() == QDate(2027, 6, 15) and form.days_spin.value() == 5
    assert form.home_combo.currentData() == "JFK"
    assert (form.budget_spin.value(), form.currency_combo.currentText()) == (4000, "USD")
    assert {t for t, c in form.theme_checks.items() if c.isChecked()} == {"art", "food"}
    assert form.current_intent() == expected["paris"]


def test_the_prompt_fills_the_road_form(form, expected):
    form.prompt_edit.setPlainText(ROUTE66)
    assert form.read_prompt()
    assert form.mode == "road_trip"
    assert (form.origin_edit.text(), form.terminus_edit.text()) == ("Los Angeles", "Chicago")
    assert form.route_combo.currentText() == "Route 66"
    assert form.road_days_spin.value() == 7 and form.road_start_edit.date() == QDate(2027, 5, 3)
    assert form.trip_type_combo.currentData() == "one_way"
    assert form.current_intent() == expected["route66"]


def test_a_prompt_the_parser_rejects_names_the_field_on_the_prompt(form):
    form.prompt_edit.setPlainText("5 days in Paris, flying from JFK, $3000")
    assert not form.read_prompt()
    said = form.field_errors()["prompt"]
    assert said.startswith("Prompt: Dates \u2014 no travel dates found"), said
    assert form.city_combo.currentText() != "Paris" or form.budget_spin.value() == 3000  # form left as it was
    assert not form.prompt_note.isVisible()


def test_a_prompt_without_a_budget_fills_the_default_and_says_so(form, qtbot):
    heard = []
    form.prompt_assumed.connect(heard.append)
    form.prompt_edit.setPlainText("5 days in Paris from 2027-06-15, flying from JFK")
    assert form.read_prompt()
    assert form.budget_spin.value() == 3000 and form.currency_combo.currentText() == "USD"
    assert heard == [form.prompt_note.text()] == ["No budget given: planned with the default budget of $3,000; "
                                                  "add e.g. 'budget 2500 USD' to change it"]


def test_a_prompt_with_an_unsupported_currency_flags_the_currency(form):
    form.prompt_edit.setPlainText("5 days in Paris from 2027-06-15, flying from JFK, budget 4000 CHF")
    assert form.read_prompt()
    assert form.field_errors()["currency"].startswith("Currency: CHF is not offered")


def test_set_intent_round_trips_city_and_road_intents(qtbot) -> None:
    """What the map edits produce (a forced road stop, a locked city visit) is what Plan sends next."""
    from datetime import date
    from engine.catalog import default_catalog
    from engine.models import IntentV1, RoadTripIntent
    from engine.roadtrip.routes import load_routes
    from widgets.intent_form import IntentForm
    form = IntentForm(default_catalog(), {r.name: r for r in load_routes().values()}, today=date(2026, 11, 23))
    qtbot.addWidget(form)
    road = RoadTripIntent(origin="Los Angeles", terminus="Chicago", days=8, start_date=date(2027, 5, 3),
                          route="Route 66", stops=["Amarillo"], max_daily_miles=380, corridor_max_deviation_miles=40)
    form.set_intent(road)
    assert form.current_intent() == road
    city = IntentV1.model_validate({
        "city": "Paris", "date_window": {"start": "2027-06-15", "end": "2027-06-19", "tz": "Europe/Paris"},
        "budget_usd_cents": 400000, "airports": ["CDG"], "origin_airport": "JFK",
        "prefs": {"themes": ["art"], "locked_slots": [{"day_offset": 2, "activity_id": "eiffel_tower",
                                                       "window": {"start": "14:00", "end": "16:00"}}]}})
    form.set_intent(city)
    assert form.current_intent() == city
    form.days_spin.setValue(4)  # another trip: the locked visit no longer applies
    assert form.current_intent().prefs.locked_slots == []


def test_the_party_size_comes_from_the_prompt_and_the_spin_box(form, session):
    """SPEC_DECISIONS §2.9: "family of 4" fills the spin box; the spin box is what Plan sends."""
    prompt = PARIS + ", family of 4"
    form.prompt_edit.setPlainText(prompt)
    assert form.read_prompt() and form.travellers_spin.value() == 4
    assert form.current_intent() == intent_from_prompt(prompt, session, None)
    assert form.current_intent().travellers == 4
    form.prompt_edit.setPlainText(ROUTE66)  # says nothing about the party: the form keeps it
    assert form.read_prompt() and form.current_intent().travellers == 4
    form.travellers_spin.setValue(2)
    assert form.current_intent().travellers == 2
    form.set_intent(form.current_intent().model_copy(update={"travellers": 6}))
    assert form.travellers_spin.value() == 6


# -- issue 14 §4: a first session's rough edges ------------------------------------------------
def test_road_distances_follow_the_unit_setting_and_stay_miles_in_the_intent(form):
    form.set_mode("road_trip")
    form.origin_edit.setText("Los Angeles")
    form.terminus_edit.setText("Chicago")
    form.set_distance_unit("km")
    assert (form.max_miles_spin.text(), form.corridor_spin.text()) == ("644 km", "80 km")
    intent = form.current_intent()
    assert abs(intent.max_daily_miles - 400) < 0.5 and abs(intent.corridor_max_deviation_miles - 50) < 0.5
    form.set_distance_unit("mi")
    assert (form.max_miles_spin.text(), form.corridor_spin.text()) == ("400 mi", "50 mi")


def test_reset_clears_the_form_and_its_errors(form):
    form.set_mode("road_trip")
    form.origin_edit.setText("Los Angeles")
    form.stops_edit.setPlainText("Kingman, AZ")
    with pytest.raises(InputError):
        form.current_intent()  # no terminus: an error is shown
    assert form.field_errors()
    form.reset("JFK")
    assert form.field_errors() == {} and form.mode == "city"
    assert form.origin_edit.text() == "" and form.stops_edit.toPlainText() == ""
    assert form.prompt_edit.toPlainText() == ""


@pytest.mark.parametrize("city", ["Paris", "Rome", "New York", "Tokyo"])
def test_fly_into_shows_every_airport_row(form, city):
    form.city_combo.setCurrentText(city)
    rows = form.airports_list.count()
    assert rows >= 1
    last = form.airports_list.visualItemRect(form.airports_list.item(rows - 1))
    assert last.bottom() <= form.airports_list.viewport().height()  # no row cut off or scrolled away
    assert last.height() >= form.airports_list.fontMetrics().height()


# -- issue 22 §2: the walk's rough edges ------------------------------------------------------
@pytest.mark.parametrize("box", ["prompt_edit", "stops_edit"])
def test_tab_in_a_text_box_moves_the_focus_instead_of_typing_a_tab(qtbot, form, box):
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    form.set_mode("road_trip" if box == "stops_edit" else "city")
    edit = getattr(form, box)
    form.activateWindow()
    edit.setFocus()
    qtbot.waitUntil(edit.hasFocus, timeout=2_000)
    QTest.keyClicks(edit, "Paris")
    QTest.keyClick(edit, Qt.Key.Key_Tab)
    assert edit.toPlainText() == "Paris"
    assert not edit.hasFocus() and QApplication.focusWidget() is not None
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Backtab)
    assert edit.hasFocus()


@pytest.mark.parametrize("said, travellers", [
    (", with kids", 3),
    (", with my kids", 3),
    (", with my wife and kids", 4),
    (", with our child", 2),
    (", with 2 kids", 3),
])
def test_with_kids_counts_the_children(form, said, travellers):
    form.prompt_edit.setPlainText(PARIS + said)
    assert form.read_prompt()
    assert form.travellers_spin.value() == travellers


def test_the_pace_goes_from_the_prompt_to_the_form_to_the_intent(qtbot, form):
    """Issue 31 §2: a relaxed or packed pace read from the prompt shows in the Pace field and
    travels on the intent; a new trip starts balanced."""
    assert form.pace_combo.currentData() == "balanced"
    form.prompt_edit.setPlainText("A relaxed weekend in Paris from 2027-06-11, $1500, flying from JFK")
    assert form.read_prompt()
    assert form.pace_combo.currentData() == "relaxed" and form.days_spin.value() == 3
    form.set_pace("packed")
    with qtbot.waitSignal(form.plan_requested, timeout=1_000) as requested:
        qtbot.mouseClick(form.plan_button, Qt.MouseButton.LeftButton)
    intent = requested.args[0]
    assert intent.prefs.pace == "packed" and intent.days == 3
