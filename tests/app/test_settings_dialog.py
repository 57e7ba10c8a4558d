"""The Settings dialog: inline errors that keep it open, the file written on Save only, the API key
in the keyring (never in settings.json, never in an audit detail), the no-keyring warning, and the
environment override note."""

from __future__ import annotations

import json
import os
from pathlib import Path

import keyring
import pytest
import shiboken6
from keyring.backends import fail
from PySide6.QtCore import Qt

from app.settings_dialog import KEYRING_NOTE, NO_KEYRING_NOTE, SettingsDialog
from engine.settings import SETTINGS_FILE, Settings, api_key_name, load_settings, set_api_key
from engine.store import SecretStore
from tests.store.conftest import memory_keyring  # noqa: F401 (a fixture)

KEY = "sk-test-0123456789"
LOCAL = "http://localhost:11434/v1"


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPWRIGHT_HOME", str(tmp_path))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    return tmp_path


@pytest.fixture
def audit():
    calls = []
    return calls


@pytest.fixture
def make_dialog(qtbot, home, audit):
    dialogs = []

    def make(settings=Settings(), secrets=None, environ=None):
        dialog = SettingsDialog(settings, secrets or SecretStore(), environ=environ or {},
                                on_audit=lambda action, **detail: audit.append((action, detail)))
        dialogs.append(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        return dialog

    yield make
    for dialog in dialogs:  # WA_DeleteOnClose: the saved ones are gone already
        if shiboken6.isValid(dialog):
            dialog.close()


def fill(dialog, **values):
    edits = {"home_airport": dialog.airport_edit, "llm_endpoint": dialog.endpoint_edit,
             "llm_model": dialog.model_edit, "embedding_model": dialog.embedding_edit, "api_key": dialog.key_edit}
    for name, value in values.items():
        if name == "distance_unit":
            dialog.unit_combo.setCurrentIndex(dialog.unit_combo.findData(value))
        elif name == "street_map":
            dialog.tiles_check.setChecked(value)
        else:
            edits[name].setText(value)


def test_shows_the_current_settings(make_dialog, memory_keyring):  # noqa: F811
    dialog = make_dialog(Settings(home_airport="CDG", distance_unit="km", llm_model="m1", street_map=False))
    assert dialog.airport_edit.text() == "CDG" and dialog.unit_combo.currentData() == "km"
    assert not dialog.tiles_check.isChecked() and dialog.model_edit.text() == "m1"
    assert dialog.tiles_check.text() == "Street map online (OpenStreetMap)"
    assert dialog.key_edit.echoMode() == dialog.key_edit.EchoMode.Password
    assert dialog.key_note.text() == KEYRING_NOTE and dialog.key_note.isVisible()
    assert not dialog.isModal() and not dialog.forget_check.isEnabled()


def test_bad_fields_show_inline_errors_and_keep_the_dialog_open(qtbot, make_dialog, home, audit,
                                                               memory_keyring):  # noqa: F811
    dialog = make_dialog()
    fill(dialog, home_airport="XY1", llm_endpoint="localhost:11434", llm_model="a b", api_key="sk with space")
    with qtbot.assertNotEmitted(dialog.saved):
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert dialog.isVisible()
    shown = dialog.errors.shown()
    assert set(shown) == {"home_airport", "llm_endpoint", "llm_model", "api_key"}
    assert shown["home_airport"].startswith("Home airport: expected a 3-letter IATA")
    assert shown["llm_endpoint"].startswith("Endpoint: expected an http(s) URL")
    assert dialog.errors.labels["home_airport"].isVisible()
    assert dialog.airport_edit.property("invalid") is True
    assert not (home / SETTINGS_FILE).exists() and audit == [] and memory_keyring.items == {}

    fill(dialog, home_airport="XYZ", llm_endpoint="", llm_model="m", api_key="")
    dialog.save()
    assert dialog.errors.shown() == {"home_airport": dialog.errors.shown()["home_airport"]}
    assert "no fixture flights from XYZ" in dialog.errors.shown()["home_airport"]
    assert dialog.isVisible()


def test_save_writes_the_file_and_emits_the_settings(qtbot, make_dialog, home, audit,
                                                    memory_keyring):  # noqa: F811
    dialog = make_dialog(Settings(home_airport="JFK"))
    fill(dialog, home_airport="cdg", distance_unit="km", street_map=False)  # the built-in map only
    with qtbot.waitSignal(dialog.saved, timeout=2_000) as signal:
        qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    expected = Settings(home_airport="CDG", distance_unit="km", street_map=False)
    assert signal.args == [expected]
    assert load_settings() == (expected, None)
    assert audit == [("settings_changed", {"fields": ["home_airport", "distance_unit", "street_map"]})]
    assert not shiboken6.isValid(dialog) or not dialog.isVisible()


def test_the_embedding_model_is_shown_checked_and_saved(qtbot, make_dialog, home, audit,
                                                        memory_keyring):  # noqa: F811
    dialog = make_dialog(Settings(embedding_model="nomic-embed-text"))
    assert dialog.embedding_edit.text() == "nomic-embed-text"
    fill(dialog, embedding_model="text embedding")
    assert dialog.save() is None and dialog.isVisible()
    assert dialog.errors.shown()["embedding_model"].startswith("Embedding model: expected a model name")
    assert dialog.embedding_edit.property("invalid") is True and not (home / SETTINGS_FILE).exists()
    fill(dialog, embedding_model=" text-embedding-3-small ")
    with qtbot.waitSignal(dialog.saved, timeout=2_000):
        dialog.save()
    assert load_settings()[0].embedding_model == "text-embedding-3-small"
    assert ("settings_changed", {"fields": ["embedding_model"]}) in audit


def test_the_offline_map_source_is_checked_and_saved_and_the_cap_kept(qtbot, make_dialog, home, audit,
                                                                     memory_keyring):  # noqa: F811
    dialog = make_dialog(Settings(offline_map_cap_mb=50))
    dialog.offline_source_edit.setText("https://example.org/tiles/{z}/{x}/{y}.pbf")
    assert dialog.save() is None and dialog.isVisible()
    assert dialog.errors.shown()["offline_map_url"].startswith("Offline map source: expected the http(s) URL of "
                                                               "a .pmtiles archive")
    dialog.offline_source_edit.setText(" https://example.org/planet.pmtiles ")
    with qtbot.waitSignal(dialog.saved, timeout=2_000):
        dialog.save()
    saved = load_settings()[0]
    assert saved.offline_map_url == "https://example.org/planet.pmtiles" and saved.offline_map_cap_mb == 50
    assert ("settings_changed", {"fields": ["offline_map_url"]}) in audit


def test_the_api_key_goes_to_the_keyring_never_the_file_or_the_audit(qtbot, make_dialog, home, audit,
                                                                    memory_keyring):  # noqa: F811
    dialog = make_dialog()
    fill(dialog, llm_endpoint=LOCAL, llm_model="llama3.1", api_key=f"  {KEY} ")
    with qtbot.waitSignal(dialog.saved, timeout=2_000) as signal:
        dialog.save()
    assert memory_keyring.items == {("tripwright", api_key_name(LOCAL)): KEY}
    text = (home / SETTINGS_FILE).read_text()
    assert KEY not in text and json.loads(text)["llm_endpoint"] == LOCAL
    assert KEY not in repr(signal.args) and KEY not in repr(audit)
    assert ("api_key_set", {"endpoint": LOCAL, "kept_in": "keyring"}) in audit
    assert [a for a, _ in audit] == ["api_key_set", "settings_changed"]


def test_a_stored_key_can_be_forgotten(qtbot, make_dialog, audit, memory_keyring):  # noqa: F811
    secrets = SecretStore()
    set_api_key(LOCAL, KEY, secrets)
    dialog = make_dialog(Settings(llm_endpoint=LOCAL), secrets)
    assert dialog.forget_check.isEnabled() and "A key is stored" in dialog.key_edit.placeholderText()
    assert dialog.key_edit.text() == ""  # the key itself is never put back into a widget
    dialog.forget_check.setChecked(True)
    dialog.save()
    assert memory_keyring.items == {}
    assert audit == [("api_key_removed", {"endpoint": LOCAL})]


def test_the_key_state_follows_the_endpoint(make_dialog, memory_keyring):  # noqa: F811
    secrets = SecretStore()
    set_api_key(LOCAL, KEY, secrets)
    dialog = make_dialog(Settings(), secrets)
    assert not dialog.forget_check.isEnabled() and dialog.key_edit.placeholderText() == "No key stored"
    dialog.endpoint_edit.setText(LOCAL + "/")
    dialog.endpoint_edit.editingFinished.emit()
    assert dialog.forget_check.isEnabled()


def test_without_a_keyring_a_warning_is_shown_and_the_key_lives_in_memory(qtbot, make_dialog, home, audit,
                                                                        memory_keyring):  # noqa: F811
    keyring.set_keyring(fail.Keyring())  # the memory_keyring fixture puts the previous one back
    secrets = SecretStore()
    dialog = make_dialog(Settings(), secrets)
    assert dialog.keyring_missing
    assert dialog.key_note.text() == NO_KEYRING_NOTE and dialog.key_note.isVisible()
    assert "forgotten when Tripwright closes" in dialog.key_note.text()
    assert "#fff3cd" in dialog.key_note.styleSheet()  # the yellow warning, not the grey note
    # Not truncated: the label is as tall as its wrapped text needs at the width it was given.
    qtbot.waitExposed(dialog)
    note = dialog.key_note
    margins = note.contentsMargins().top() + note.contentsMargins().bottom()
    assert note.height() >= note.heightForWidth(note.width()) - 1 and note.height() > 2 * note.fontMetrics().height()
    assert note.heightForWidth(note.width()) - margins >= note.fontMetrics().boundingRect(
        0, 0, note.width() - note.contentsMargins().left() - note.contentsMargins().right(), 10_000,
        Qt.TextFlag.TextWordWrap, note.text()).height() - 1
    shots = Path(os.environ.get("TRIPWRIGHT_SHOT_DIR", "/tmp/tripwright-shots"))
    shots.mkdir(parents=True, exist_ok=True)
    dialog.grab().save(str(shots / "settings_no_keyring.png"))
    fill(dialog, api_key=KEY)
    dialog.save()
    assert secrets.get(api_key_name("")) == KEY  # this session still has it
    assert audit == [("api_key_set", {"endpoint": "https://api.openai.com/v1", "kept_in": "memory"})]
    assert KEY not in (home / SETTINGS_FILE).read_text()


def test_cancel_writes_nothing(qtbot, make_dialog, home, audit, memory_keyring):  # noqa: F811
    dialog = make_dialog()
    fill(dialog, home_airport="LHR", api_key=KEY)
    with qtbot.assertNotEmitted(dialog.saved):
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not (home / SETTINGS_FILE).exists() and memory_keyring.items == {} and audit == []


def test_an_unwritable_data_dir_is_an_inline_error(qtbot, make_dialog, home, memory_keyring):  # noqa: F811
    (home / SETTINGS_FILE).mkdir()  # replacing a directory with a file fails
    dialog = make_dialog()
    fill(dialog, home_airport="LHR", api_key=KEY)
    with qtbot.assertNotEmitted(dialog.saved):
        dialog.save()
    assert dialog.isVisible() and dialog.errors.shown()["form"].startswith("Settings: could not save")
    assert memory_keyring.items == {}  # nothing half-applied


def test_environment_overrides_are_explained(make_dialog, memory_keyring):  # noqa: F811
    dialog = make_dialog(Settings(home_airport="CDG"),
                         environ={"TRIPWRIGHT_HOME_AIRPORT": "jfk", "OPENAI_API_KEY": "sk-env-secret"})
    texts = [label.text() for label in dialog.findChildren(type(dialog.key_note)) if label.isVisible()]
    assert "TRIPWRIGHT_HOME_AIRPORT=JFK is set: it wins over this setting while set." in texts
    assert "OPENAI_API_KEY is set: it is used instead of the stored key." in texts
    assert not any("sk-env-secret" in t for t in texts)
    assert dialog.airport_edit.text() == "CDG"  # the field edits the file's value


def test_test_connection_lists_models_or_shows_the_exact_error(make_dialog, qtbot) -> None:
    from tests.engine.llm.scripted_server import Reply, ScriptedServer, error_body
    dialog = make_dialog()
    with ScriptedServer(default=Reply()) as server:
        fill(dialog, llm_endpoint=server.base_url, llm_model="gpt-4o-mini")
        qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: dialog.test_result.text().startswith("Connected"), timeout=15000)
    assert dialog.test_result.text() == "Connected: 2 model(s): gpt-4o-mini, llama3.1:8b"
    assert dialog.test_button.isEnabled()
    with ScriptedServer(default=Reply(status=401, body=error_body(401, "bad key"))) as server:
        fill(dialog, llm_endpoint=server.base_url, api_key=KEY)
        qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: dialog.test_result.text().startswith("Failed"), timeout=15000)
        assert server.requests[0]["_path"].endswith("/models")
    assert "HTTP 401 unauthorized" in dialog.test_result.text()


def test_the_openweathermap_key_goes_to_the_keyring_and_the_weather_adapter_reads_it(
        qtbot, make_dialog, home, audit, memory_keyring, monkeypatch):  # noqa: F811
    from engine.settings import OPENWEATHERMAP_KEY_NAME
    from engine.tools.openweathermap import KEY_ENV, stored_key
    monkeypatch.delenv(KEY_ENV, raising=False)
    dialog = make_dialog()
    assert dialog.weather_key.edit.echoMode() == dialog.weather_key.edit.EchoMode.Password
    assert not dialog.weather_key.forget_check.isEnabled()
    dialog.weather_key.edit.setText(" owm key ")  # two words: refused inline, nothing stored
    assert dialog.save() is None and dialog.isVisible()
    assert memory_keyring.items == {} and "one word" in dialog.errors.labels["weather_key"].text()
    dialog.weather_key.edit.setText(f"  {KEY} ")
    with qtbot.waitSignal(dialog.saved, timeout=2_000):
        dialog.save()
    assert memory_keyring.items == {("tripwright", OPENWEATHERMAP_KEY_NAME): KEY}
    assert stored_key() == KEY  # what the weather ladder asks before each forecast
    assert KEY not in (home / SETTINGS_FILE).read_text() and KEY not in repr(audit)
    assert ("weather_key_set", {"kept_in": "keyring"}) in audit
    again = make_dialog()
    assert again.weather_key.edit.text() == "" and again.weather_key.forget_check.isEnabled()
    again.weather_key.forget_check.setChecked(True)
    again.save()
    assert memory_keyring.items == {} and stored_key() is None
    assert ("weather_key_removed", {}) in audit


def test_the_openweathermap_environment_variable_is_explained(make_dialog, memory_keyring):  # noqa: F811
    dialog = make_dialog(environ={"OPENWEATHERMAP_API_KEY": "x"})
    notes = [label.text() for label in dialog.weather_key.findChildren(type(dialog.key_note))]
    assert any("OPENWEATHERMAP_API_KEY is set" in text for text in notes)
