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

import functools
import logging
import os
import re
import sys
import time
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
# A superset of what the four patterns above can match ('=' or '@', or a booking code's word): text
# without any is returned as it is after one search (most of a log line's values: names, ids, times).
MAY_NEED_REDACTING = re.compile(r"[=@]|(?i:confirmation|booking|reservation|pnr)")
LOG_FILE = "tripwright.log"
LOG_FILE_BYTES = 2_000_000
LOG_FILE_BACKUPS = 5
RUN_KEYS = ("trace_id", "run_id", "org_id", "user_id", "node")


def level_for(verbosity: int) -> int:
    return LEVELS[max(0, min(verbosity, len(LEVELS) - 1))]


# Every field of every line is asked both questions (twice, when the file handler sizes a line before
# writing it): the answers are kept, the few key names a process logs being asked over and over.
@functools.lru_cache(maxsize=4096)
def is_secret_key(key: str) -> bool:
    words = re.split(r"[^a-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", key).lower())
    return any(w in SECRET_WORDS for w in words) or any(a == "api" and b == "key" for a, b in zip(words, words[1:]))


@functools.lru_cache(maxsize=4096)
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
    if MAY_NEED_REDACTING.search(text) is None:
        return text
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


@functools.lru_cache(maxsize=4096)
def _key_kind(key: str) -> int:
    """0: an ordinary key, 1: a secret's, 2: a booking code's (one cached answer per key name)."""
    return 1 if is_secret_key(key) else 2 if is_code_key(key) else 0


_PLAIN_VALUES = (bool, int, float, type(None))  # nothing to redact in them under an ordinary key


def _by_key(key: Any, value: Any, depth: int) -> Any:
    kind = _key_kind(key) if isinstance(key, str) else 0
    if kind == 1:
        return REDACTED
    if kind == 2:
        return _masked_codes(value)
    return _redacted(value, depth)


def redact_secrets(_logger: Any, _method: str, event_dict: dict[str, Any]) -> dict[str, Any]:
    """structlog processor: secret-looking keys become ``***``, booking codes their masked form,
    codes and e-mail addresses in text likewise (nested dicts and lists too)."""
    out = {}
    for k, v in event_dict.items():
        if k == "event":
            out[k] = _redacted(v)
        elif isinstance(v, str) and isinstance(k, str) and _key_kind(k) == 0:
            out[k] = redact_text(v)  # the common case, without the general walk
        elif isinstance(v, _PLAIN_VALUES) and isinstance(k, str) and _key_kind(k) == 0:
            out[k] = v
        else:
            out[k] = _by_key(k, v, 0)
    return out


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


class _JsonLinesFormatter(structlog.stdlib.ProcessorFormatter):
    """The log file's formatter: a structlog line with no exception to format goes the short way —
    the same processors in the same order (redact, ``event`` → ``message``, JSON), without the
    record's copy and the general chain (most of a line's cost: a run logs every node and tool
    call at INFO); anything else the long way."""

    def __init__(self) -> None:
        super().__init__(foreign_pre_chain=[*_shared(), structlog.stdlib.ExtraAdder()],
                         processors=_final_processors(structlog.processors.JSONRenderer()))
        self._render = structlog.processors.JSONRenderer()

    def format(self, record: logging.LogRecord) -> str:
        ed = record.msg
        if (isinstance(ed, dict) and hasattr(record, "_logger") and hasattr(record, "_name")
                and not record.exc_info and "exc_info" not in ed and "event" in ed):
            out = redact_secrets(None, "", ed)
            out["message"] = out.pop("event")
            return str(self._render(None, "", out))
        return super().format(record)


def _final_processors(renderer: Any) -> list[Any]:
    return [structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info, redact_secrets,
            structlog.processors.EventRenamer("message"),  # seed §13.1's names: ts, level, message
            renderer]  # tracebacks redacted too


def _formatter(json: bool) -> logging.Formatter:
    renderer = structlog.processors.JSONRenderer() if json else structlog.processors.KeyValueRenderer(
        key_order=["ts", "level", "logger", "message"], drop_missing=True)
    return structlog.stdlib.ProcessorFormatter(foreign_pre_chain=[*_shared(), structlog.stdlib.ExtraAdder()],
                                               processors=_final_processors(renderer))


class _JsonLinesFile(RotatingFileHandler):
    """The rotating log file, written in batches: a run logs every node and tool call at INFO, and
    the standard handler formats each record twice (to size it for the rollover check, then to
    write it), asks the file its position and flushes it, line by line. Here a line is formatted
    once, the file's size is counted, and lines are written together: at once for a WARNING and
    up, else once ``FLUSH_LINES`` are waiting or the oldest has waited ``FLUSH_S`` (checked when a
    line comes), and on ``flush`` and ``close`` (``logging.shutdown`` at exit; the CLI's commands)."""

    FLUSH_LINES = 64
    FLUSH_S = 1.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pending: list[str] = []
        self._oldest = 0.0
        self._size: int | None = None  # bytes in the current file (JSON lines are ASCII)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = self.format(record) + "\n"
        except Exception:  # noqa: BLE001 (logging's own contract: report, never raise)
            self.handleError(record)
            return
        if not self._pending:
            self._oldest = time.monotonic()
        self._pending.append(line)
        if (record.levelno >= logging.WARNING or len(self._pending) >= self.FLUSH_LINES
                or time.monotonic() - self._oldest >= self.FLUSH_S):
            self.flush()

    def flush(self) -> None:
        self.acquire()
        try:
            if self._pending:
                self._write("".join(self._pending))
                self._pending.clear()
            elif self.stream is not None:
                self.stream.flush()
        except Exception:  # noqa: BLE001
            self.handleError(None)  # type: ignore[arg-type]
        finally:
            self.release()

    def _write(self, chunk: str) -> None:
        if self.stream is None:
            self.stream = self._open()
            self._size = None
        if self._size is None:
            self._size = self.stream.tell()
        if self.maxBytes > 0 and self._size and self._size + len(chunk) >= self.maxBytes:
            self.doRollover()
            if self.stream is None:
                self.stream = self._open()
            self._size = 0
        self.stream.write(chunk)
        self.stream.flush()
        self._size += len(chunk)

    def close(self) -> None:
        self.flush()
        super().close()


def _file_handler(log_dir: Path) -> logging.Handler | None:
    """JSON lines at INFO into ``<data dir>/logs``, rotated (5 × 2 MB); None when the folder
    cannot be written (a read-only home must not stop the CLI)."""
    try:
        log_dir.mkdir(parents=True, exist_ok=True)
        handler = _JsonLinesFile(log_dir / LOG_FILE, maxBytes=LOG_FILE_BYTES, backupCount=LOG_FILE_BACKUPS,
                                      encoding="utf-8", delay=True)
    except OSError:
        return None
    handler.set_name(_FILE_HANDLER_NAME)
    handler.setLevel(logging.INFO)
    handler.setFormatter(_JsonLinesFormatter())
    return handler


def flush_log_file() -> None:
    """Write the log file's waiting lines now (the end of a run: its lines are on disk when it ends)."""
    for handler in logging.getLogger().handlers:
        if handler.get_name() == _FILE_HANDLER_NAME:
            handler.flush()


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
