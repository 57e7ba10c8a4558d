"""Issue 22 §2.8: the window speaks the traveller's words — no field names of the code, no
environment variables, no engine node names in the Progress tab (Diagnostics keeps them) —
Re-plan waits for a trip, and a red "Check the form" goes once the form is right."""

from __future__ import annotations

import re

from app.plain_words import in_plain_words
from engine.models import EventStatus
from tests.app.test_main_window import PARIS, ROUTE66, plan
from widgets.event_log_model import EventLogModel

CODE_WORDS = re.compile(r"\b[a-z]+_[a-z_]+\b|\w+\[\d+\]|TRIPWRIGHT_|synthesizer|tool_executor")


def test_engine_wording_becomes_the_travellers():
    assert in_plain_words("day_index: day 2 has no free 90 minutes between its visits") == \
        "Day 2 has no free 90 minutes between its visits"
    assert in_plain_words("stops[0]: could not find 'Atlantis'") == "Stops 1: could not find 'Atlantis'"
    assert in_plain_words("Check the form: origin_airport: choose the airport you fly from") == \
        "Check the form: Home airport: choose the airport you fly from"
    assert in_plain_words("TRIPWRIGHT_OFFLINE=1: only a model on this machine (localhost) is asked") == \
        "Offline mode is on: only a model running on this computer can be used"
    # Ordinary words and file names before a colon stay as they are.
    assert in_plain_words("Attempt 1: cheaper hotel") == "Attempt 1: cheaper hotel"
    assert in_plain_words("no_geo.ics: the hotel has no position") == "no_geo.ics: the hotel has no position"
    assert in_plain_words("stops.gpx: no track in the file") == "stops.gpx: no track in the file"
    assert in_plain_words("prefs.themes: unknown theme 'x'") == "Preferences: unknown theme 'x'"


def test_replan_waits_for_a_trip(qtbot, make_window):
    window = make_window()
    assert window.trip.current is None and not window.commands.replan.isEnabled()
    plan(qtbot, window, PARIS)
    assert window.commands.replan.isEnabled()
    window.new_trip()
    assert not window.commands.replan.isEnabled()


def test_a_refused_plan_names_the_field_as_the_form_does(qtbot, make_window, tmp_path):
    window = make_window()
    assert plan(qtbot, window, ROUTE66.model_copy(update={"stops": ["Atlantis"]})) is None
    text = window.message_bar.text()
    assert text.startswith("Stops 1: could not find 'Atlantis'"), text
    assert not CODE_WORDS.search(text), text
    window.grab().save(str(tmp_path / "refused.png"))


def test_the_progress_tab_names_steps_in_words_and_diagnostics_keeps_the_nodes(qtbot, make_window, tmp_path):
    window = make_window()
    plan(qtbot, window, PARIS)
    model = window.progress.model
    headers = [model.headerData(c, 1) for c in range(model.columnCount())]
    assert not {"Node", "Cache", "Model"} & set(headers)
    shown = {model.index(r, EventLogModel.COL_NODE).data() for r in range(model.rowCount())}
    assert "Writing the itinerary" in shown and "Checking the plan" in shown
    assert not any(CODE_WORDS.search(name) for name in shown), shown
    events = model.events()
    assert any(e.node == "synthesizer" and e.status is EventStatus.completed for e in events)
    window.show_progress_tab()
    window.grab().save(str(tmp_path / "progress.png"))


def test_check_the_form_goes_once_the_form_is_right(qtbot, make_window):
    window = make_window()
    form = window.intent_form
    form.set_mode("road_trip")
    form.origin_edit.setText("Los Angeles")  # the terminus is left empty
    window.commands.plan.trigger()
    assert window.message_bar.text().startswith("Check the form: Terminus")
    assert set(form.field_errors()) == {"terminus"}
    form.terminus_edit.setText("Chicago")
    assert form.field_errors() == {}
    assert window.message_bar.text() == ""


def test_an_unreachable_service_and_a_run_id_are_said_in_words():
    from app.plain_words import advisories, unreachable_city_text

    said = "overpass: cannot reach overpass-api.de: [Errno -2] Name or service not known"
    assert in_plain_words(said) == "Can't reach OpenStreetMap \u2014 you're offline"
    assert unreachable_city_text(said, "Porto") == ("Can't reach OpenStreetMap \u2014 you're offline; Porto needs one "
                                                    "online fetch (its places are then kept for offline use).")
    assert unreachable_city_text("geocode: cannot reach nominatim.openstreetmap.org: timed out", "Porto") is None
    assert in_plain_words("offline map: cannot reach tiles.example.org (ConnectError): check the network") == \
        "Can't reach the offline-map server \u2014 you're offline"
    assert in_plain_words("run 915f0b81-87af-4968-be5a-f73ef0a1b2c3") == ""
    assert in_plain_words("a run 915f0b81 of the planner") == "a run 915f0b81 of the planner"  # only the id note
    assert [advisories(n) for n in (0, 1, 3)] == ["no advisories", "1 advisory", "3 advisories"]
