"""The user's preferences: ``settings.json`` in the data dir, the LLM API key in the OS keyring.

Why a file and not the database: settings are read before any store is opened (the login screen,
the CLI's home airport) and must survive a database that cannot be opened.

- ``load_settings()`` never raises: a file that is not JSON, or holds a bad value, gives the
  defaults for what is bad, a one-line warning naming it, and the file kept aside as
  ``settings.json.bad`` (the good values are written back, so the next start is quiet).
- ``save_settings()`` writes atomically (readers see the old file or the new one).
- The API key never goes into the JSON: it is a secret kept by :class:`SecretStore` under
  ``api_key_name(endpoint)``, which falls back to this process's memory (with a warning) when the
  machine has no keyring.
- Environment variables win over the file while they are set, so scripts and CI can pin a value
  without touching the user's file: ``TRIPWRIGHT_HOME_AIRPORT`` (home airport),
  ``OPENAI_BASE_URL`` (endpoint), ``OPENAI_MODEL`` (model), ``OPENAI_API_KEY`` (the key) and
  ``TRIPWRIGHT_PMTILES_URL`` (the PMTiles archive offline copies of a trip's area come from).
  ``apply_env()`` gives the effective settings; the file keeps what the user chose.

the user's settings (home airport, miles/km, map tiles, OpenAI-compatible endpoint and model) in
`settings.json` in the data dir, written atomically; a bad file never stops the app (bad fields reset, the
file kept aside, a one-line warning); environment overrides; API keys only in the keyring via `SecretStore`
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .export.atomic import write_atomic

if TYPE_CHECKING:
    from .store.secret_store import SecretStore

SETTINGS_FILE = "settings.json"
BAD_SUFFIX = ".bad"
DistanceUnit = Literal["mi", "km"]
DISTANCE_UNITS: tuple[str, ...] = ("mi", "km")
DEFAULT_LLM_MODEL = "gpt-4o-mini"
DEFAULT_LLM_ENDPOINT = "https://api.openai.com/v1"  # what the openai SDK uses when none is given
API_KEY_PREFIX = "llm-api-key:"
MAX_KEY_LENGTH = 4096
ENV_OVERRIDES = {"home_airport": "TRIPWRIGHT_HOME_AIRPORT", "llm_endpoint": "OPENAI_BASE_URL",
                 "llm_model": "OPENAI_MODEL", "embedding_model": "TRIPWRIGHT_EMBEDDING_MODEL",
                 "basemap_file": "TRIPWRIGHT_BASEMAP", "offline_map_url": "TRIPWRIGHT_PMTILES_URL"}
BASEMAP_SUFFIXES = (".mbtiles", ".pmtiles")
# Keys older files hold that are no setting any more, dropped on load. ``online_tiles`` (False by
# default, and saved by every Save) was the old OSM switch, whose tiles never loaded (a file: page
# needs LocalContentCanAccessRemoteUrls, docs/PLATFORM_NOTES.md): no one chose by it, so the street
# map's own default (on) applies (issue 22 §1).
RETIRED_FIELDS = ("online_tiles",)

API_KEY_ENV = "OPENAI_API_KEY"
OPENWEATHERMAP_KEY_NAME = "openweathermap-api-key"  # keyring entry; env OPENWEATHERMAP_API_KEY wins
_IATA = re.compile(r"[A-Z]{3}")
_MODEL = re.compile(r"\S{1,200}")


class Settings(BaseModel):
    """What the user can change in Settings. A frozen value: change it with ``model_copy``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    home_airport: str = ""  # IATA code the trip form pre-fills; "" = none
    distance_unit: DistanceUnit = "mi"
    llm_endpoint: str = ""  # an OpenAI-compatible base URL; "" = DEFAULT_LLM_ENDPOINT
    llm_model: str = DEFAULT_LLM_MODEL
    street_map: bool = True  # the street map when online (issue 22 §1); False: the built-in map only
    embedding_model: str = ""  # at the same endpoint; "" = destination notes are searched lexically
    basemap_file: str = ""  # an offline .mbtiles / .pmtiles basemap of the user's region; "" = none
    offline_map_url: str = ""  # a PMTiles archive (http range requests) trips' offline copies come from
    offline_map_cap_mb: int = Field(default=200, ge=1, le=10_000)  # an offline copy larger is refused

    @field_validator("offline_map_url", mode="before")
    @classmethod
    def _offline_map_url(cls, value: object) -> object:
        if not isinstance(value, str) or not value.strip():
            return "" if isinstance(value, str) else value
        example = "expected the http(s) URL of a .pmtiles archive, e.g. https://example.org/planet.pmtiles"
        try:
            url = check_endpoint(value)
        except ValueError:
            raise ValueError(example) from None
        if not urlsplit(url).path.lower().endswith(".pmtiles"):
            raise ValueError(example)
        return url

    @field_validator("basemap_file", mode="before")
    @classmethod
    def _basemap(cls, value: object) -> object:
        if not isinstance(value, str) or not value.strip():
            return "" if isinstance(value, str) else value
        path = Path(value.strip()).expanduser()
        if path.suffix.lower() not in BASEMAP_SUFFIXES:
            raise ValueError("expected an .mbtiles or .pmtiles file (see the README: offline maps)")
        if not path.is_file():
            raise ValueError(f"{path} does not exist")
        return str(path)

    @field_validator("home_airport", mode="before")
    @classmethod
    def _airport(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        code = value.strip().upper()
        if code and not _IATA.fullmatch(code):
            raise ValueError("expected a 3-letter IATA airport code such as JFK")
        if code and code not in known_airports():
            raise ValueError(f"no fixture flights from {code}; known airports: {', '.join(sorted(known_airports()))}")
        return code

    @field_validator("llm_endpoint", mode="before")
    @classmethod
    def _endpoint(cls, value: object) -> object:
        return check_endpoint(value) if isinstance(value, str) else value

    @field_validator("llm_model", mode="before")
    @classmethod
    def _model(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip()
            if not _MODEL.fullmatch(value):
                raise ValueError("expected a model name such as gpt-4o-mini (no spaces)")
        return value

    @field_validator("embedding_model", mode="before")
    @classmethod
    def _embedding_model(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip()
            if value and not _MODEL.fullmatch(value):
                raise ValueError("expected a model name such as text-embedding-3-small (no spaces), or nothing")
        return value


def known_airports() -> frozenset[str]:
    """The catalog's airports (loaded once per process, ~0.2 s): a home airport elsewhere has no
    fixture flights, so the planner could never use it."""
    from .catalog import default_catalog
    return frozenset(default_catalog().airport_names())


def check_endpoint(value: str) -> str:
    """An http(s) base URL with a host, or "". Credentials in the URL are refused: the file is
    plain text and the key has its own (keyring) field."""
    url = value.strip()
    if not url:
        return ""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 — raises ValueError for a port that is not a number
    except ValueError:
        raise ValueError("expected an http(s) URL such as http://localhost:11434/v1") from None
    if parts.scheme not in ("http", "https") or not parts.hostname or any(c.isspace() for c in url):
        raise ValueError("expected an http(s) URL such as http://localhost:11434/v1")
    if parts.username or parts.password:
        raise ValueError("no user or password in the URL: put the key in the API key field")
    return url


# -- the file --------------------------------------------------------------------------------
class LoadedSettings(NamedTuple):
    settings: Settings
    warning: str | None = None  # one line for the UI when the file could not be used as it was


def settings_path() -> Path:
    """``<data dir>/settings.json``: the store's data dir (``TRIPWRIGHT_HOME`` overrides it)."""
    from .store.sqlite_file import data_dir  # lazy: the store package costs ~1 s to import
    return data_dir() / SETTINGS_FILE


def load_settings(path: Path | None = None) -> LoadedSettings:
    """The saved settings, or the defaults; never raises (see the module docstring)."""
    path = Path(path) if path is not None else settings_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return LoadedSettings(Settings())
    except (OSError, UnicodeDecodeError) as exc:
        return LoadedSettings(Settings(), f"{path.name} cannot be read ({_reason(exc)}); using the default settings")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        kept = _keep_aside(path)
        return LoadedSettings(Settings(), f"{path.name} is not valid JSON (line {exc.lineno}); "
                                          f"using the default settings{kept}")
    if not isinstance(data, dict):
        kept = _keep_aside(path)
        return LoadedSettings(Settings(), f"{path.name} does not hold an object; using the default settings{kept}")
    for key in RETIRED_FIELDS:
        data.pop(key, None)
    return _salvage(path, data)


def _salvage(path: Path, data: dict) -> LoadedSettings:
    """Keep every field that is valid on its own; the bad ones get their defaults."""
    try:
        return LoadedSettings(Settings.model_validate(data))
    except ValidationError as exc:
        problems = field_errors(exc)
    try:
        settings = Settings.model_validate({k: v for k, v in data.items() if k not in problems})
    except ValidationError:  # not expected (validators are per field), but load never raises
        settings = Settings()
    kept = _keep_aside(path)
    if kept:
        _try_save(settings, path)
    named = "; ".join(f"{field}: {message}" for field, message in problems.items())
    plural = "s were" if len(problems) > 1 else " was"
    return LoadedSettings(settings, f"{path.name}: {named} (the setting{plural} reset to the default{kept})")


def field_errors(exc: ValidationError) -> dict[str, str]:
    """The first message for each top-level field of a Settings validation error."""
    out: dict[str, str] = {}
    for err in exc.errors():
        field = str(err["loc"][0]) if err["loc"] else "settings"
        message = str(err["msg"]).removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            message = "not a setting Tripwright knows"
        out.setdefault(field, message)
    return out


def _keep_aside(path: Path) -> str:
    """Move the unusable file to ``settings.json.bad``; returns the phrase for the warning."""
    bad = path.with_name(path.name + BAD_SUFFIX)
    try:
        os.replace(path, bad)
    except OSError:
        return ""
    return f"; the old file is kept as {bad.name}"


def _try_save(settings: Settings, path: Path) -> None:
    try:
        save_settings(settings, path)
    except OSError:
        pass  # a read-only data dir: the warning comes back next start, nothing is lost


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write ``settings`` atomically; raises OSError when the data dir is not writable."""
    path = Path(path) if path is not None else settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(settings.model_dump(mode="json"), indent=2, sort_keys=True) + "\n")
    return path


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or type(exc).__name__


# -- environment -----------------------------------------------------------------------------
def env_overrides(environ: Mapping[str, str] | None = None) -> dict[str, tuple[str, str]]:
    """``{field: (variable, value)}`` for each override that is set (and not blank)."""
    environ = os.environ if environ is None else environ
    out = {}
    for field, variable in ENV_OVERRIDES.items():
        value = (environ.get(variable) or "").strip()
        if value:
            out[field] = (variable, value.upper() if field == "home_airport" else value)
    return out


def apply_env(settings: Settings, environ: Mapping[str, str] | None = None) -> Settings:
    """The effective settings: environment variables win over the file while they are set. The
    values are taken as given (as the CLI always has); the plan's own validation names a bad one."""
    update = {field: value for field, (_var, value) in env_overrides(environ).items()}
    return settings.model_copy(update=update) if update else settings


def effective_home_airport(settings: Settings, environ: Mapping[str, str] | None = None) -> str | None:
    """What the trip form pre-fills: ``TRIPWRIGHT_HOME_AIRPORT``, else the setting, else None."""
    return apply_env(settings, environ).home_airport or None


# -- the API key -----------------------------------------------------------------------------
def endpoint_or_default(endpoint: str) -> str:
    return endpoint.strip() or DEFAULT_LLM_ENDPOINT


def api_key_name(endpoint: str) -> str:
    """The keyring entry for ``endpoint``'s key: one key per endpoint, so switching between a
    local server and a hosted one never sends a key where it does not belong. Scheme and host
    are case-insensitive and a trailing slash does not matter."""
    parts = urlsplit(endpoint_or_default(endpoint))
    netloc = parts.netloc.lower()
    path = parts.path.rstrip("/")
    query = f"?{parts.query}" if parts.query else ""
    return f"{API_KEY_PREFIX}{parts.scheme.lower()}://{netloc}{path}{query}"


def check_api_key(key: str) -> str:
    """The key as it will be stored (stripped); ValueError for one that cannot be a key."""
    key = key.strip()
    if not key:
        raise ValueError("the key is empty")
    if len(key) > MAX_KEY_LENGTH or any(c.isspace() for c in key) or not key.isprintable():
        raise ValueError("a key is one word of printable characters (check what was pasted)")
    return key


def set_api_key(endpoint: str, key: str, secrets: SecretStore) -> bool:
    """Store the key for ``endpoint``; False when only memory holds it (``secrets.warning`` says why)."""
    return secrets.set(api_key_name(endpoint), check_api_key(key))


def get_api_key(endpoint: str, secrets: SecretStore, environ: Mapping[str, str] | None = None) -> str | None:
    """The key to use for ``endpoint``: ``OPENAI_API_KEY`` while set, else the stored one."""
    environ = os.environ if environ is None else environ
    return (environ.get(API_KEY_ENV) or "").strip() or secrets.get(api_key_name(endpoint))


def stored_api_key(endpoint: str, secrets: SecretStore) -> str | None:
    """Only what is stored (keyring or this session's memory), ignoring the environment."""
    return secrets.get(api_key_name(endpoint))


def delete_api_key(endpoint: str, secrets: SecretStore) -> None:
    secrets.delete(api_key_name(endpoint))
