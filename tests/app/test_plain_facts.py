"""Issue 32 §5, no jargon reaches the traveller, driven through the real main window: the Sources
tab names the place each line is about, Decisions read as sentences, Advisories name a place (never
an activity id), a prompt's problem names the form's field (not "(date_window)"), and a city that
cannot be fetched says "Can't reach OpenStreetMap — you're offline; Lisbon needs one online fetch".
Saves the screens it checks under /tmp/facts-*.png."""

from __future__ import annotations

import re

from tests.app.conftest import PLAN_TIMEOUT_MS
from tests.app.test_city_packs_app import LISBON, home, session  # noqa: F401 (fixtures)
from tests.app.test_main_window import PARIS, plan

INTERNAL = re.compile(r"\bd\d+-(activity|meal|checkin|transit|arrival)-|\buser_[0-9a-f]{6}|\bfixture\b|"
                      r"\bselector\b|\b[A-Z]{3}/(mid|budget|luxury)\b|score \d")


def _lines(widget) -> list[str]:
    return [widget.item(i).text() for i in range(widget.count())]


def _show_tab(window, widget, qtbot, path: str) -> None:
    panel = window.itinerary_panel
    panel.tabs.setCurrentWidget(widget)
    qtbot.wait(100)
    assert panel.grab().save(path)


def test_sources_decisions_and_advisories_name_places_in_plain_words(qtbot, make_window):
    from engine.models import IntentV1

    studio = {"name": "Atelier of a friend", "geo": {"lat": 48.8606, "lon": 2.3376}}  # no published hours
    intent = IntentV1.model_validate({**PARIS.model_dump(mode="json"),
                                      "prefs": {"themes": ["art", "food"], "must_see": [studio]}})
    window = make_window(size=(1400, 900))
    plan(qtbot, window, intent)
    itinerary, details = window.itinerary_panel.itinerary(), window.itinerary_panel.details
    own = next(a for d in itinerary.days for a in d.activities if a.name == "Atelier of a friend")
    assert own.id.startswith("d") and "user_" in own.id  # the engine's id, kept out of the window

    sources = _lines(details.sources)
    assert len(sources) == len(itinerary.citations)
    louvre = [s for s in sources if "open 09:00-21:00 on Wednesday 2027-06-16" in s]
    assert louvre == ["Musée du Louvre: open 09:00-21:00 on Wednesday 2027-06-16 \u2014 sights, "
                      "Tripwright's sample data"]
    assert "Paris, Tue 15 Jun: Typical weather 2027-06-15: 27% chance of rain, 15\u201323 \u00b0C \u2014 weather, " \
           "Tripwright's sample data" in sources
    walks = [s for s in sources if ": walk, " in s]
    assert walks and all(re.match(r"^Walk: .+ \u2192 .+: walk, ", s) for s in walks), walks[:3]
    assert any(s.startswith("Metro: N0701 JFK\u2192CDG \u2192 H") for s in sources)  # the airport ride, named
    # every line about one visit (its hours, price, indoor) names it; none is left unnamed but the trip's own
    visits = {a.name for d in itinerary.days for a in d.activities if a.kind.value in ("attraction", "meal")}
    for claim in ("free", "indoor", "outdoor"):
        for line in (s for s in sources if s.split(" \u2014 ")[0].endswith(": " + claim)):
            assert line.split(": " + claim)[0] in visits, line

    decisions = _lines(details.decisions)
    assert decisions[0].startswith("Chose the mid-range hotel, H\u00f4tel Jeanne d'Arc Le Marais, flying into CDG: $")
    assert "The budget hotel, Les Piaules, would " in decisions[0]

    advisories = _lines(details.advisories)
    unknown = [a for a in advisories if "Atelier of a friend" in a]
    assert unknown and unknown[0].startswith("Advisory \u00b7 hours unknown: Atelier of a friend: ")

    for line in sources + decisions + advisories:
        assert not INTERNAL.search(line), line
    # a row's tooltip says where it came from in the same words
    from PySide6.QtCore import Qt
    model = window.itinerary_panel.model
    louvre_row = next(a for d in itinerary.days for a in d.activities if a.name == "Musée du Louvre")
    tip = model.activity_index(louvre_row.id).data(Qt.ItemDataRole.ToolTipRole)
    assert "Source: sights, Tripwright's sample data" in tip and "fixture" not in tip, tip
    # the progress rows and the status bar: no run id, no "advisory violation(s)"
    model = window.progress.model
    qtbot.waitUntil(lambda: window.progress.pending == 0, timeout=5_000)
    notes = [model.index(r, model.COL_NOTE).data() for r in range(model.rowCount())]
    assert notes and not any(re.search(r"\brun [0-9a-f]{8}-", n) for n in notes), notes
    said = window.statusBar().currentMessage()
    assert said.endswith(f", {len(advisories)} advisor{'y' if len(advisories) == 1 else 'ies'} (v1/1)"), said
    _show_tab(window, details.sources, qtbot, "/tmp/facts-sources.png")
    _show_tab(window, details.decisions, qtbot, "/tmp/facts-decisions.png")
    _show_tab(window, details.advisories, qtbot, "/tmp/facts-advisories.png")


def test_a_prompt_without_dates_names_the_dates_not_the_engine_field(qtbot, make_window):
    window = make_window(size=(1400, 900))
    form = window.intent_form
    form.prompt_edit.setPlainText("A week of museums in Paris, flying from JFK, budget 3000 USD")
    assert not form.read_prompt()
    said = form.field_errors()["prompt"]
    assert said.startswith("Prompt: Dates \u2014 no travel dates found; give a start date and a length")
    assert "date_window" not in said and "(" not in said.split("\u2014")[0]
    assert window.grab().save("/tmp/facts-prompt-error.png")
    form.prompt_edit.setPlainText("")
    assert not form.read_prompt()
    assert form.field_errors()["prompt"].startswith("Prompt: is empty; describe the trip")


def test_an_unreachable_openstreetmap_is_said_in_a_travellers_words(qtbot, make_window, session,  # noqa: F811
                                                                   monkeypatch):
    monkeypatch.setenv("TRIPWRIGHT_OVERPASS_URL", "http://127.0.0.1:9/api/interpreter")  # nothing listens
    window = make_window(session=session, size=(1400, 900))
    window.use_prompt(LISBON)
    window.plan_from_form()
    qtbot.waitUntil(lambda: not window.controller.busy and window.message_bar.text() != "", timeout=PLAN_TIMEOUT_MS)
    said = window.message_bar.text()
    assert said.startswith("Can't reach OpenStreetMap \u2014 you're offline; Lisbon needs one online fetch"), said
    assert "overpass" not in said and "127.0.0.1" not in said and "Errno" not in said
    assert window.trip.current is None
    shown = [window.progress.model.index(r, window.progress.model.COL_NOTE).data()
             for r in range(window.progress.model.rowCount())]
    assert not any("cannot reach" in (note or "") for note in shown), shown
    assert window.grab().save("/tmp/facts-offline-fetch.png")
