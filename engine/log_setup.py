"""Logging for the CLI: structlog and the standard library, both to stderr, secrets redacted.

Why: stdout carries the machine-readable output (itinerary summaries, ``bench --json``), so logs
go to stderr only; WARNING by default keeps a normal run quiet, ``-v`` shows INFO, ``-vv``
DEBUG. structlog events and stdlib records (alembic, the gazetteer) are rendered by one
formatter, as ``key=value`` pairs or, with ``json=True``, one JSON object per line, with seed 002
§13.1's field names (``ts``, ``level``, ``message``; a run's lines add ``trace_id``, ``run_id``,
``org_id``, ``user_id``, ``node``). Any key named
like a password, token, secret, API key or hash is replaced by ``***`` at any depth before
rendering, so a careless ``log.info(..., password=pw)`` cannot leak it. The traveller's own
details go the same way (issue 21): a key named like a confirmation code, booking reference or
reservation number keeps only its masked form (``masked_code``: "QX••••"), and so does a code
written after those words in text ("confirmation QX7K2M"); e-mail addresses lose their local part.

structlog for the CLI: stderr, key-value or JSON (`--log-json`), WARNING by default, `-v` INFO, `-vv` DEBUG;
plus INFO+ JSON lines in a rotating file `<data dir>/logs/tripwright.log` (5 × 2 MB); secrets redacted by
key name and as query parameters in any text (httpx URLs); the traveller's details (issue 21): a key named
like a confirmation code, booking reference or reservation number keeps only its `masked_code` ("QX••••"),
so does a code written after those words in any text, and e-mail addresses become `***@domain` — in the
file, on stderr and in the diagnostics bundle (which redacts its logs with the same `redact_text`); every
line of a run carries `trace_id`, `run_id`, `org_id`, `user_id`, `node` (contextvars bound by the pipeline)
"""

from __future__ import annotations

import logging
import os
import re
import sys
from logging.handlers import RotatingFileHandler
from pathlib import Path
from collections.abc import Mapping
from typing import Any, TextIO

import structlog

REDACTED = "***"
# Whole words of a key (snake, kebab or camel case), so "token_hash" and "apiKey" are secrets but
# "prompt_tokens" (a count) and "passengers" are not.
SECRET_WORDS = frozenset({"password", "passwd", "passphrase", "pwd", "token", "secret", "secrets", "hash",
                          "apikey", "credential", "credentials", "authorization", "cookie"})
LEVELS = (logging.WARNING, logging.INFO, logging.DEBUG)
_HANDLER_NAME = "tripwright-cli"
_FILE_HANDLER_NAME = "tripwright-file"
CHATTY = ("alembic",)  # INFO on every open (plugins, context): shown from -vv only
_MAX_DEPTH = 6
# Secrets in URLs and key=value text (httpx logs whole request URLs at INFO).
SECRET_PARAM = re.compile(r"(?i)\b(appid|api_key|apikey|key|token|access_token|password|secret)=([^&\s\"']+)")
# Keys whose value is a booking's code: masked, not dropped (the masked form tells bookings apart).
CODE_WORDS = frozenset({"confirmation", "confirmations", "pnr", "reservationnumber", "reservationid",
                        "bookingreference", "bookingref"})
# A code in text: after one of the words, an upper-case code of 4-32 letters, digits and dashes.
CODE_IN_TEXT = re.compile(r"(?i:\b(?:confirmation(?:\s+(?:code|number))?|booking\s+ref(?:erence)?|"
                          r"reservation\s+(?:number|code)|pnr)\b)[\s:#=\"'\\]*(?P<code>[A-Z0-9][A-Z0-9-]{3,31})\b")
# A URL's user:password part ("https://user:pw@host/", "http://token@host"): the whole userinfo.
URL_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]{0,31}://)[^\s/?#@\"'<>]{1,512}@")
EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]{1,64}@(?P<domain>[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})\b")
LOG_FILE = "tripwright.log"
LOG_FILE_BYTES = 2_000_000
LOG_FILE_BACKUPS = 5
RUN_KEYS = ("trace_id", "run_id", "org_id", "user_id", "node")


def level_for(verbosity: int) -> int:
    return LEVELS[max(0, min(verbosity, len(LEVELS) - 1))]


def is_secret_key(key: str) -> bool:
    words = re.split(r"[^a-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", key).lower())
    return any(w in SECRET_WORDS for w in words) or any(a == "api" and b == "key" for a, b in zip(words, words[1:]))


def is_code_key(key: str) -> bool:
    """A key holding a booking's code: "confirmation", "confirmation_code", "reservationNumber"."""
    words = re.split(r"[^a-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", key).lower())
    return any(w in CODE_WORDS for w in words) or any(a + b in CODE_WORDS for a, b in zip(words, words[1:]))


def _mask(code: str) -> str:
    from engine.models.bookings import masked_code  # only when there is a code to mask
    return masked_code(code)


def _masked_codes(value: Any, depth: int = 0) -> Any:
    if isinstance(value, str):
        return _mask(value)
    if isinstance(value, (list, tuple, set, frozenset)) and depth < _MAX_DEPTH:
        return [_masked_codes(v, depth + 1) for v in value]
    return value if value is None or isinstance(value, (bool, int, float)) else REDACTED


def redact_text(text: str) -> str:
    """Secret URL/key=value parameters and a URL's user:password part → ``***``; booking codes after their word → masked; e-mail
    addresses → ``***@domain``."""
    text = SECRET_PARAM.sub(lambda m: f"{m.group(1)}=***", text)
    if "@" in text:
        text = URL_USERINFO.sub(lambda m: f"{m.group(1)}***@", text)
        text = EMAIL.sub(lambda m: f"***@{m['domain']}", text)
    return CODE_IN_TEXT.sub(lambda m: m.group(0)[:m.start("code") - m.start()] + _mask(m["code"]), text)


def _redacted(value: Any, depth: int = 0) -> Any:
    if depth >= _MAX_DEPTH:
        return value
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, Mapping):
        return {k: _by_key(k, v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_redacted(v, depth + 1) for v in value)
    return value


def _by_key(key: Any, value: Any, depth: int) -> Any:
    if isinstance(key, str) and is_secret_key(key):
        return REDACTED
    if isinstance(key, str) and is_code_key(key):
        return _masked_codes(value)
    return _redacted(value, depth)


def redact_secrets(_logger: Any, _method: str, event_dict: dict[str, Any]) -> dict[str, Any]:
    """structlog processor: secret-looking keys become ``***``, booking codes their masked form,
    codes and e-mail addresses in text likewise (nested dicts and lists too)."""
    return {k: _redacted(v) if k == "event" else _by_key(k, v, 0) for k, v in event_dict.items()}


def _shared() -> list[Any]:
    return [structlog.contextvars.merge_contextvars, structlog.stdlib.add_logger_name,
            structlog.stdlib.add_log_level, structlog.processors.TimeStamper(fmt="iso", utc=True, key="ts")]


def default_log_dir() -> Path:
    """``<data dir>/logs`` (the store's data dir rule, without importing the store: it is slow)."""
    home = os.environ.get("TRIPWRIGHT_HOME")
    if home:
        return Path(home) / "logs"
    import platformdirs
    return platformdirs.user_data_path("tripwright", appauthor=False) / "logs"


def _formatter(json: bool) -> logging.Formatter:
    renderer = structlog.processors.JSONRenderer() if json else structlog.processors.KeyValueRenderer(
        key_order=["ts", "level", "logger", "message"], drop_missing=True)
    return structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=[*_shared(), structlog.stdlib.ExtraAdder()],
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                    structlog.processors.format_exc_info, redact_secrets,
                    structlog.processors.EventRenamer("message"),  # seed §13.1's names: ts, level, message
                    renderer])  # tracebacks redacted too


def _file_handler(log_dir: Path) -> logging.Handler | None:
    """JSON lines at INFO into ``<data dir>/logs``, rotated (5 × 2 MB); None when the folder
    cannot be written (a read-only home must not stop the CLI)."""
    try:
        log_dir.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(log_dir / LOG_FILE, maxBytes=LOG_FILE_BYTES, backupCount=LOG_FILE_BACKUPS,
                                      encoding="utf-8", delay=True)
    except OSError:
        return None
    handler.set_name(_FILE_HANDLER_NAME)
    handler.setLevel(logging.INFO)
    handler.setFormatter(_formatter(json=True))
    return handler


def configure(verbosity: int = 0, json: bool = False, *, stream: TextIO | None = None,
              log_dir: Path | None = None) -> None:
    """Send every log to ``stream`` (stderr) at the level ``verbosity`` selects and, with
    ``log_dir``, INFO and up as JSON lines to a rotating file there. Call once per process;
    calling again replaces the previous configuration (tests)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.set_name(_HANDLER_NAME)
    handler.setLevel(level_for(verbosity))
    handler.setFormatter(_formatter(json))
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() in (_HANDLER_NAME, _FILE_HANDLER_NAME)]:
        root.removeHandler(old)
        old.close()
    root.addHandler(handler)
    file_handler = _file_handler(log_dir) if log_dir is not None else None
    if file_handler is not None:
        root.addHandler(file_handler)
    root.setLevel(min(level_for(verbosity), logging.INFO if file_handler else logging.CRITICAL))
    for name in CHATTY:
        logging.getLogger(name).setLevel(logging.NOTSET if verbosity >= 2 else logging.WARNING)
    structlog.configure(
        processors=[structlog.stdlib.filter_by_level, *_shared(), structlog.processors.StackInfoRenderer(),
                    structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(), wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=False)
