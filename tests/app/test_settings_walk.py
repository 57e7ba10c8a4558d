"""Issue 22 §2.5: Settings with errors shows every line whole and keeps each field its height (the
no-keyring warning too), the offline map has a Browse… button, saving the home airport leaves the
open trip's form alone, and the itinerary's advisories and decisions follow the distance unit."""

from __future__ import annotations

import keyring
from keyring.backends import fail
from PySide6.QtWidgets import QFileDialog, QLabel, QLineEdit

from engine.settings import Settings
from engine.store import SecretStore
from tests.app.test_main_window import PARIS, ROUTE66, plan
from tests.app.test_settings_dialog import audit, fill, home, make_dialog  # noqa: F401 (fixtures)
from tests.store.conftest import memory_keyring  # noqa: F401 (a fixture)


def _whole(label: QLabel) -> bool:
    """The label is as tall as its wrapped text needs at its width (no line cut off)."""
    return label.height() >= label.heightForWidth(label.width()) - 1 and bool(label.text())


def test_errors_and_the_keyring_warning_are_shown_whole(qtbot, make_dialog, memory_keyring, tmp_path):  # noqa: F811
    keyring.set_keyring(fail.Keyring())
    dialog = make_dialog(Settings(), SecretStore())
    fill(dialog, home_airport="Z9", llm_endpoint="not a url at all, certainly not one the model server answers",
         api_key="   ")
    assert dialog.save() is None
    qtbot.wait(50)
    shown = {key: label for key, label in dialog.errors.labels.items() if not label.isHidden()}
    assert {"home_airport", "llm_endpoint", "api_key"} <= set(shown)
    for key, label in shown.items():
        assert _whole(label), (key, label.text(), label.height(), label.heightForWidth(label.width()))
    for edit in dialog.findChildren(QLineEdit):
        if edit.isVisible():
            assert edit.height() >= edit.sizeHint().height() - 1, edit.objectName()
    assert _whole(dialog.key_note) and "keyring" in dialog.key_note.text()
    dialog.grab().save(str(tmp_path / "settings-errors.png"))


def test_the_offline_map_can_be_chosen_with_browse(qtbot, make_dialog, memory_keyring, tmp_path):  # noqa: F811
    dialog = make_dialog()
    assert dialog.basemap_browse.text() == "Browse\u2026"
    chooser = dialog.browse_basemap()
    assert isinstance(chooser, QFileDialog) and chooser.isVisible()  # returned at once: open(), never exec()
    target = tmp_path / "region.pmtiles"
    target.write_bytes(b"")
    chooser.selectFile(str(target))
    chooser.accept()
    qtbot.waitUntil(lambda: dialog.basemap_edit.text() == str(target), timeout=2_000)
    dialog.grab().save(str(tmp_path / "settings-browse.png"))


def test_saving_the_home_airport_leaves_the_open_trips_form_alone(qtbot, make_window, tmp_path):
    window = make_window(settings_path=tmp_path / "settings.json")
    plan(qtbot, window, PARIS)
    assert window.intent_form.current_intent().origin_airport == "JFK"
    window.apply_settings(window.settings.model_copy(update={"home_airport": "LHR"}))
    assert window.intent_form.current_intent().origin_airport == "JFK"  # the open trip flies from JFK
    window.new_trip()
    assert window.intent_form.home_combo.currentData() == "LHR"  # a new trip starts from home


def test_advisories_and_decisions_follow_the_distance_unit(qtbot, make_window, tmp_path):
    window = make_window(settings_path=tmp_path / "settings.json")
    plan(qtbot, window, ROUTE66)
    window.apply_settings(window.settings.model_copy(update={"distance_unit": "km"}))
    details = window.itinerary_panel.details
    texts = [lst.item(i).text() for lst in (details.decisions, details.advisories) for i in range(lst.count())]
    assert any(" km" in t for t in texts)
    assert not any(__import__("re").search(r"\d mi\b", t) for t in texts), [t for t in texts if " mi" in t][:3]
