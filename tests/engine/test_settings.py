"""Settings: the JSON file in the data dir, its repair when corrupt, env overrides, the API key in
the keyring (never in the file). No Qt here."""

from __future__ import annotations

import json

import keyring
import pytest
from keyring.backends import fail
from pydantic import ValidationError

from engine.settings import (DEFAULT_LLM_ENDPOINT, SETTINGS_FILE, Settings, api_key_name, apply_env, delete_api_key,
                             effective_home_airport, get_api_key, load_settings, save_settings, set_api_key,
                             settings_path, stored_api_key)
from engine.store import SecretStore
from engine.store.secret_store import NO_KEYRING
from tests.store.conftest import memory_keyring  # noqa: F401 (a fixture)

CUSTOM = Settings(home_airport="cdg", distance_unit="km", llm_endpoint="http://localhost:11434/v1",
                  llm_model="llama3.1", street_map=False)


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPWRIGHT_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture
def ring(memory_keyring):  # noqa: F811 (the imported fixture)
    return memory_keyring


@pytest.fixture
def no_keyring():
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    yield
    keyring.set_keyring(previous)


# -- the model ---------------------------------------------------------------------------------
def test_defaults():
    s = Settings()
    assert (s.home_airport, s.distance_unit, s.llm_endpoint, s.llm_model, s.street_map) == \
        ("", "mi", "", "gpt-4o-mini", True)  # the street map when online (issue 22 §1)


def test_values_are_normalised():
    assert CUSTOM.home_airport == "CDG"
    assert Settings(llm_endpoint="  https://api.example.com/v1 ", llm_model=" m ").llm_endpoint == \
        "https://api.example.com/v1"


@pytest.mark.parametrize("field, value, says", [
    ("home_airport", "JF", "3-letter IATA"),
    ("home_airport", "J1K", "3-letter IATA"),
    ("home_airport", "XYZ", "no fixture flights from XYZ"),
    ("distance_unit", "furlong", "'mi' or 'km'"),
    ("llm_endpoint", "ftp://example.com", "http(s) URL"),
    ("llm_endpoint", "localhost:11434", "http(s) URL"),
    ("llm_endpoint", "http://", "http(s) URL"),
    ("llm_endpoint", "http://host:port/v1", "http(s) URL"),
    ("llm_endpoint", "https://me:sk-secret@api.example.com/v1", "API key field"),
    ("llm_model", "", "model name"),
    ("llm_model", "gpt 4", "model name"),
    ("bogus", 1, "Extra inputs"),
    ("offline_map_url", "ftp://example.org/planet.pmtiles", "URL of a .pmtiles archive"),
    ("offline_map_url", "https://example.org/tiles/{z}/{x}/{y}.pbf", "URL of a .pmtiles archive"),
    ("offline_map_cap_mb", 0, "greater than or equal to 1"),
])
def test_bad_values_name_their_field(field, value, says):
    with pytest.raises(ValidationError) as caught:
        Settings.model_validate({field: value})
    err = caught.value.errors()[0]
    assert err["loc"] == (field,) and says in err["msg"]


def test_the_offline_map_source_comes_from_the_file_or_the_environment():
    chosen = Settings(offline_map_url=" https://example.org/planet.pmtiles ")
    assert chosen.offline_map_url == "https://example.org/planet.pmtiles" and chosen.offline_map_cap_mb == 200
    pinned = apply_env(chosen, {"TRIPWRIGHT_PMTILES_URL": "http://127.0.0.1:8000/area.pmtiles"})
    assert pinned.offline_map_url == "http://127.0.0.1:8000/area.pmtiles"


def test_settings_are_frozen():
    with pytest.raises(ValidationError):
        CUSTOM.distance_unit = "mi"  # type: ignore[misc]


# -- the file ----------------------------------------------------------------------------------
def test_round_trip_in_the_data_dir(home):
    assert load_settings() == (Settings(), None)  # no file yet: defaults, no warning
    path = save_settings(CUSTOM)
    assert path == settings_path() == home / SETTINGS_FILE
    assert json.loads(path.read_text()) == {"distance_unit": "km", "home_airport": "CDG",
                                             "llm_endpoint": "http://localhost:11434/v1", "llm_model": "llama3.1",
                                             "street_map": False, "embedding_model": "", "basemap_file": "",
                                             "offline_map_url": "", "offline_map_cap_mb": 200}
    assert load_settings() == (CUSTOM, None)
    assert [p.name for p in home.iterdir()] == [SETTINGS_FILE]  # the atomic write left no temp file


def test_a_file_from_before_the_street_map_gets_the_street_map(home):
    """Issue 22 §1: older files hold ``online_tiles: false`` (the old default, written by every
    Save, for tiles that never loaded): the key is dropped with no warning, the rest is kept."""
    (home / SETTINGS_FILE).write_text(json.dumps({"home_airport": "CDG", "distance_unit": "km",
                                                  "online_tiles": False}))
    assert load_settings() == (Settings(home_airport="CDG", distance_unit="km", street_map=True), None)
    assert [p.name for p in home.iterdir()] == [SETTINGS_FILE]  # nothing set aside as .bad


def test_save_creates_the_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPWRIGHT_HOME", str(tmp_path / "new" / "dir"))
    assert save_settings(CUSTOM).exists()


def test_corrupt_json_gives_defaults_and_keeps_the_file_aside(home):
    path = home / SETTINGS_FILE
    path.write_text('{"distance_unit": "km",\n oops')
    settings, warning = load_settings()
    assert settings == Settings()
    assert "\n" not in warning and "not valid JSON (line 2)" in warning and "settings.json.bad" in warning
    assert not path.exists() and (home / "settings.json.bad").read_text().endswith("oops")
    assert load_settings() == (Settings(), None)  # the next start is quiet


def test_a_bad_value_resets_that_field_only_and_names_it(home):
    path = home / SETTINGS_FILE
    path.write_text(json.dumps({**CUSTOM.model_dump(), "distance_unit": "furlong"}))
    settings, warning = load_settings()
    assert settings == CUSTOM.model_copy(update={"distance_unit": "mi"})
    assert warning.startswith("settings.json: distance_unit: ") and "\n" not in warning
    assert "settings.json.bad" in warning and (home / "settings.json.bad").exists()
    assert load_settings() == (settings, None)  # the good values were written back


def test_several_bad_fields_and_unknown_keys_are_all_named(home):
    (home / SETTINGS_FILE).write_text(json.dumps({"home_airport": "XYZ", "llm_endpoint": "nope", "colour": 1,
                                                  "llm_model": "m1"}))
    settings, warning = load_settings()
    assert settings == Settings(llm_model="m1")
    assert all(name in warning for name in ("home_airport", "llm_endpoint", "colour: not a setting"))


@pytest.mark.parametrize("content", ["[]", "null", "\"mi\""])
def test_json_that_is_not_an_object(home, content):
    (home / SETTINGS_FILE).write_text(content)
    settings, warning = load_settings()
    assert settings == Settings() and "does not hold an object" in warning


def test_unreadable_file_never_raises(home):
    (home / SETTINGS_FILE).mkdir()  # reading a directory fails with an OSError
    settings, warning = load_settings()
    assert settings == Settings() and "cannot be read" in warning


# -- environment -------------------------------------------------------------------------------
def test_home_airport_env_wins_over_the_file(home):
    save_settings(CUSTOM)
    settings, _ = load_settings()
    env = {"TRIPWRIGHT_HOME_AIRPORT": " jfk "}
    assert effective_home_airport(settings, env) == "JFK"
    assert apply_env(settings, env) == CUSTOM.model_copy(update={"home_airport": "JFK"})
    assert effective_home_airport(settings, {}) == "CDG"
    assert effective_home_airport(Settings(), {"TRIPWRIGHT_HOME_AIRPORT": ""}) is None
    assert load_settings().settings.home_airport == "CDG"  # the file keeps what the user chose


def test_openai_env_overrides(home):
    env = {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_MODEL": "tiny"}
    effective = apply_env(CUSTOM, env)
    assert (effective.llm_endpoint, effective.llm_model) == ("http://127.0.0.1:9/v1", "tiny")


# -- the API key -------------------------------------------------------------------------------
def test_api_key_name_is_per_endpoint_and_normalised():
    assert api_key_name("") == api_key_name(DEFAULT_LLM_ENDPOINT) == "llm-api-key:https://api.openai.com/v1"
    assert api_key_name("HTTP://LocalHost:11434/v1/") == "llm-api-key:http://localhost:11434/v1"
    assert api_key_name("http://localhost:11434/v1") != api_key_name("http://localhost:8080/v1")


def test_api_key_goes_to_the_keyring_never_the_file(home, ring):
    secrets = SecretStore()
    save_settings(CUSTOM)
    assert set_api_key(CUSTOM.llm_endpoint, " sk-test-123 ", secrets) is True
    assert ring.items == {("tripwright", "llm-api-key:http://localhost:11434/v1"): "sk-test-123"}
    assert "sk-test-123" not in (home / SETTINGS_FILE).read_text()
    assert get_api_key(CUSTOM.llm_endpoint, SecretStore(), {}) == "sk-test-123"  # a new process reads it back
    assert get_api_key(CUSTOM.llm_endpoint, secrets, {"OPENAI_API_KEY": "sk-env"}) == "sk-env"
    assert stored_api_key("http://localhost:8080/v1", secrets) is None  # another endpoint, no key
    delete_api_key(CUSTOM.llm_endpoint, secrets)
    assert ring.items == {} and stored_api_key(CUSTOM.llm_endpoint, secrets) is None
    delete_api_key(CUSTOM.llm_endpoint, secrets)  # deleting nothing is fine


@pytest.mark.parametrize("key", ["", "   ", "sk one", "sk-\x00"])
def test_a_key_that_cannot_be_one_is_refused(ring, key):
    with pytest.raises(ValueError):
        set_api_key("", key, SecretStore())
    assert ring.items == {}


def test_without_a_keyring_the_key_lives_in_memory_with_a_warning(no_keyring):
    secrets = SecretStore()
    assert set_api_key("", "sk-test", secrets) is False
    assert secrets.warning == NO_KEYRING
    assert get_api_key("", secrets, {}) == "sk-test"  # this session still has it
    assert get_api_key("", SecretStore(), {}) is None  # the next one will not


def test_embedding_model_setting_and_override():
    """Destination notes use vectors only when an embedding model is named (issue 13)."""
    assert Settings().embedding_model == ""
    assert Settings(embedding_model=" text-embedding-3-small ").embedding_model == "text-embedding-3-small"
    with pytest.raises(ValidationError, match="no spaces"):
        Settings(embedding_model="two words")
    assert apply_env(Settings(), {"TRIPWRIGHT_EMBEDDING_MODEL": "nomic-embed-text"}).embedding_model == "nomic-embed-text"
