"""The rough edges of a first session (issue 14 §4), through the real window and executable."""

from __future__ import annotations

import os
import subprocess
from importlib.metadata import version

from engine.settings import Settings
from tests.app.test_exports import export_through_dialog
from tests.app.test_main_window import ROUTE66, plan
from tests.app.test_store_wiring import db_url, home, open_window  # noqa: F401 (fixtures)
from tests.store.conftest import memory_keyring  # noqa: F401 (a fixture)
from tests.engine.test_cli import EXE


def test_kilometres_reach_the_form_the_costs_and_the_title(qtbot, make_window):
    window = make_window()
    window.apply_settings(Settings(distance_unit="km"))
    plan(qtbot, window, ROUTE66)
    note = window.itinerary_panel.costs.note.text()
    assert "fuel for" in note and " km" in note and " mi" not in note
    assert " km" in window.itinerary_panel.title.text()
    form = window.intent_form
    assert form.max_miles_spin.text().endswith(" km") and form.corridor_spin.text().endswith(" km")
    assert abs(form.current_intent().max_daily_miles - ROUTE66.max_daily_miles) < 0.5


def test_new_trip_clears_the_form_and_its_errors(qtbot, make_window):
    window = make_window()
    form = window.intent_form
    form.set_mode("road_trip")
    form.origin_edit.setText("Los Angeles")
    form.request_plan()  # no terminus: the form shows an error
    assert form.field_errors()
    window.commands.new_trip.trigger()
    assert form.field_errors() == {} and form.origin_edit.text() == "" and form.mode == "city"


def test_about_shows_the_version(make_window):
    window = make_window()
    window.commands.about.trigger()
    assert f"Tripwright {version('tripwright')}" in window.about_box.text()
    window.about_box.close()


def test_export_dialog_opens_in_the_last_export_folder(qtbot, make_window, tmp_path):
    window = make_window()
    plan(qtbot, window, ROUTE66)
    folder = tmp_path / "exports"
    folder.mkdir()
    export_through_dialog(qtbot, window, "gpx", folder / "route66.gpx")
    again = window.choose_export("ics")
    assert os.path.samefile(again.directory().absolutePath(), folder)
    again.close()


def test_replace_list_is_wide_enough_for_its_longest_option(qtbot):
    from app.map_edits import Alternative
    from app.replace_chooser import ReplaceChooser

    options = [Alternative("a", "Fondation Louis Vuitton in the Bois de Boulogne, Paris 16e", 3200, -900),
               Alternative("b", "Musée de l'Orangerie", -500, None)]
    chooser = ReplaceChooser("x", "Musée Carnavalet", options)
    qtbot.addWidget(chooser)
    chooser.show()
    qtbot.waitExposed(chooser)
    assert chooser.list.sizeHintForColumn(0) <= chooser.list.viewport().width()


def test_verbose_trips_list_logs_at_info(tmp_path):
    env = os.environ | {"TRIPWRIGHT_DATABASE_URL": f"sqlite:///{tmp_path / 'trips.sqlite3'}"}
    done = subprocess.run([str(EXE), "-v", "trips", "list"], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["0 trip(s)"]
    assert "level='info'" in done.stderr and "message='trips_listed' count=0" in done.stderr


def test_the_notes_import_dialog_opens_where_files_were_last_imported(qtbot, open_window, tmp_path):  # noqa: F811
    folder = tmp_path / "notes"
    folder.mkdir()
    tips = folder / "tips.md"
    tips.write_text("# Tips\n\nThe Louvre is quietest on Friday evenings.")
    window = open_window()
    panel = window.notes_panel
    panel.choose_files()
    panel.file_dialog.selectFile(str(tips))
    panel.file_dialog.accept()  # the files are imported, and their folder remembered
    panel.file_dialog.close()
    again = open_window()  # a later session
    again.notes_panel.choose_files()
    assert os.path.samefile(again.notes_panel.file_dialog.directory().absolutePath(), folder)
    again.notes_panel.file_dialog.close()
    for shown in (window, again):  # a fresh data dir: the engine's warm-up builds its gazetteer first
        qtbot.waitUntil(lambda w=shown: w.controller.service.join(0), timeout=120_000)
